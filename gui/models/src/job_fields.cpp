#include "mc/gui/job_fields.h"

#include "mc/emu/output_pattern.h"
#include "mc/proto/json.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_state.h"
#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <QDir>

#include <algorithm>

namespace mc::gui {

namespace {

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

QString orNull(const QString &text)
{
    return text.isEmpty() ? QStringLiteral("(null)") : text;
}

QString stamp(qint64 epoch)
{
    return q(mc::sched::formatTimestamp(epoch)); // "Unknown" for 0
}

QString hostlist(const mc::proto::Json &list)
{
    return q(mc::sched::compressHostlist(list.toStringList()));
}

} // namespace

QString expandedStdioPath(const mc::proto::Json &job, const QString &pattern, bool isInput)
{
    const bool isArray = job["array_job_id"].toInt() > 0;
    QString text = pattern;
    if (text.isEmpty()) {
        if (isInput) {
            return QStringLiteral("/dev/null");
        }
        text = isArray ? QStringLiteral("slurm-%A_%a.out") : QStringLiteral("slurm-%j.out");
    }
    mc::emu::PatternFields fields;
    fields.jobId = static_cast<std::uint32_t>(job["job_id"].toInt());
    fields.arrayJobId
        = static_cast<std::uint32_t>(isArray ? job["array_job_id"].toInt() : fields.jobId);
    if (job["array_task_id"].isNumber()) {
        fields.arrayTaskId = static_cast<std::uint32_t>(job["array_task_id"].toInt());
    }
    fields.jobName = job["name"].toString();
    fields.user = job["user"].toString();
    fields.node = job["batch_host"].toString();
    const QString expanded = q(mc::emu::expandOutputPattern(text.toStdString(), fields));
    if (QDir::isAbsolutePath(expanded)) {
        return expanded;
    }
    return QDir::cleanPath(QDir(q(job["work_dir"].toString())).filePath(expanded));
}

QList<JobField> jobFields(const mc::proto::Json &job, qint64 now)
{
    const QString state = q(job["state"].toString());
    const bool pending = state == QLatin1String("PENDING");
    const bool running = state == QLatin1String("RUNNING") || state == QLatin1String("SUSPENDED")
        || state == QLatin1String("COMPLETING");
    const qint64 submit = job["submit_time"].toInt();
    const qint64 limit = job["time_limit"].toInt(mc::sched::kInfinite);
    qint64 start = job["start_time"].toInt();
    if (pending && start <= 0) {
        start = job["planned_start"].toInt(); // where the planner placed it (squeue --start)
    }
    qint64 end = job["end_time"].toInt();
    if ((running || pending) && start > 0 && limit != mc::sched::kInfinite) {
        end = start + limit; // the expected end, as Slurm shows it
    }
    qint64 runTime = 0;
    if (running && start > 0) {
        runTime = std::max<qint64>(0, now - start);
    } else if (!pending && start > 0 && end >= start) {
        runTime = end - start;
    }
    const int numNodes = static_cast<int>(job["num_nodes"].toInt(1));
    const int numCpus = static_cast<int>(job["num_cpus"].toInt(1));
    const qint64 memory = job["min_memory"].toInt();
    const bool perCpu = job["mem_per_cpu"].toBool();
    const qint64 gpus = job["gpus_req"].toInt(); // held, or asked for while pending
    const auto number = [](qint64 n) {
        return QString::number(n);
    };

    QList<JobField> f;
    f << JobField{QStringLiteral("JobId"), number(job["job_id"].toInt())};
    if (const qint64 arrayJob = job["array_job_id"].toInt(); arrayJob > 0) {
        f << JobField{QStringLiteral("ArrayJobId"), number(arrayJob)};
        f << JobField{QStringLiteral("ArrayTaskId"),
            job["array_task_id"].isNumber() ? number(job["array_task_id"].toInt())
                                            : q(job["array_task_str"].toString())};
    }
    f << JobField{QStringLiteral("JobName"), q(job["name"].toString())};
    f << JobField{QStringLiteral("UserId"),
        QStringLiteral("%1(%2)").arg(q(job["user"].toString())).arg(job["uid"].toInt())};
    f << JobField{QStringLiteral("Account"), q(job["account"].toString())};
    f << JobField{QStringLiteral("QOS"), q(job["qos"].toString("normal"))};
    f << JobField{QStringLiteral("Priority"), number(job["priority"].toInt())};
    f << JobField{QStringLiteral("JobState"), state};
    f << JobField{QStringLiteral("Reason"), q(job["reason"].toString("None"))};
    f << JobField{QStringLiteral("Dependency"), orNull(q(job["dependency"].toString()))};
    f << JobField{QStringLiteral("Restarts"), number(job["restarts"].toInt())};
    f << JobField{QStringLiteral("ExitCode"),
        QStringLiteral("%1:%2").arg(job["exit_code"].toInt()).arg(job["exit_signal"].toInt())};
    f << JobField{QStringLiteral("RunTime"), q(mc::sched::formatHms(runTime))};
    f << JobField{QStringLiteral("TimeLimit"), q(mc::sched::formatHms(limit))};
    f << JobField{QStringLiteral("SubmitTime"), stamp(submit)};
    const bool neverEligible
        = mc::sched::heldPending(job["state"].toString(), job["reason"].toString());
    f << JobField{QStringLiteral("EligibleTime"),
        stamp(neverEligible ? 0 : job["eligible_time"].toInt(submit))};
    f << JobField{QStringLiteral("StartTime"), stamp(start)};
    f << JobField{QStringLiteral("EndTime"), stamp(end)};
    f << JobField{QStringLiteral("Partition"), q(job["partition"].toString())};
    f << JobField{QStringLiteral("ReqNodeList"), orNull(hostlist(job["req_nodes"]))};
    f << JobField{QStringLiteral("ExcNodeList"), orNull(hostlist(job["exc_nodes"]))};
    f << JobField{QStringLiteral("NodeList"), hostlist(job["nodes"])}; // empty while pending
    if (!job["nodes"].toStringList().empty()) {
        f << JobField{QStringLiteral("BatchHost"),
            q(job["batch_host"].toString(job["nodes"].toStringList().front()))};
    }
    f << JobField{QStringLiteral("NumNodes"), number(numNodes)};
    f << JobField{QStringLiteral("NumCPUs"), number(numCpus)};
    f << JobField{QStringLiteral("NumTasks"), number(job["num_tasks"].toInt(1))};
    f << JobField{QStringLiteral("CPUs/Task"), number(job["cpus_per_task"].toInt(1))};
    const qint64 totalMemory = perCpu ? memory * numCpus : memory * numNodes;
    QString tres = QStringLiteral("cpu=%1,mem=%2,node=%3,billing=%1")
                       .arg(numCpus)
                       .arg(q(mc::sched::formatMemory(totalMemory)))
                       .arg(numNodes);
    if (gpus > 0) {
        tres += QStringLiteral(",gres/gpu=%1").arg(gpus);
    }
    f << JobField{QStringLiteral("TRES"), tres};
    if (const QString gres = q(job["gres"].toString()); !gres.isEmpty()) {
        f << JobField{QStringLiteral("TresPerNode"), QStringLiteral("gres:") + gres};
    }
    f << JobField{perCpu ? QStringLiteral("MinMemoryCPU") : QStringLiteral("MinMemoryNode"),
        q(mc::sched::formatMemory(memory))};
    f << JobField{QStringLiteral("Features"), orNull(q(job["constraint"].toString()))};
    f << JobField{QStringLiteral("OverSubscribe"),
        job["exclusive"].toBool() ? QStringLiteral("NO") : QStringLiteral("OK")};
    f << JobField{QStringLiteral("Command"), orNull(q(job["command"].toString()))};
    f << JobField{QStringLiteral("WorkDir"), q(job["work_dir"].toString())};
    if (job["comment"].isString()) {
        f << JobField{QStringLiteral("Comment"), q(job["comment"].toString())};
    }
    const QString out = q(job["std_out"].toString());
    const QString err = q(job["std_err"].toString());
    f << JobField{
        QStringLiteral("StdErr"), expandedStdioPath(job, err.isEmpty() ? out : err, false)};
    f << JobField{
        QStringLiteral("StdIn"), expandedStdioPath(job, q(job["std_in"].toString()), true)};
    f << JobField{QStringLiteral("StdOut"), expandedStdioPath(job, out, false)};
    return f;
}

} // namespace mc::gui
