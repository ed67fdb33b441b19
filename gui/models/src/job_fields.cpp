#include "mc/gui/job_fields.h"

#include "mc/emu/output_pattern.h"
#include "mc/record/job_object.h"
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

QString hostlist(const std::vector<std::string> &names)
{
    return q(mc::sched::compressHostlist(names));
}

} // namespace

QString expandedStdioPath(const mc::record::JobObject &job, const QString &pattern, bool isInput)
{
    const bool isArray = job.arrayJobId > 0;
    QString text = pattern;
    if (text.isEmpty()) {
        if (isInput) {
            return QStringLiteral("/dev/null");
        }
        text = isArray ? QStringLiteral("slurm-%A_%a.out") : QStringLiteral("slurm-%j.out");
    }
    mc::emu::PatternFields fields;
    fields.jobId = static_cast<std::uint32_t>(job.jobId);
    fields.arrayJobId = static_cast<std::uint32_t>(isArray ? job.arrayJobId : job.jobId);
    if (job.arrayTaskId) {
        fields.arrayTaskId = static_cast<std::uint32_t>(*job.arrayTaskId);
    }
    fields.jobName = job.name;
    fields.user = job.user;
    fields.node = job.batchHost.value_or("");
    const QString expanded = q(mc::emu::expandOutputPattern(text.toStdString(), fields));
    if (QDir::isAbsolutePath(expanded)) {
        return expanded;
    }
    return QDir::cleanPath(QDir(q(job.workDir)).filePath(expanded));
}

QList<JobField> jobFields(const mc::record::JobObject &job, qint64 now)
{
    const QString state = q(job.state);
    const bool pending = state == QLatin1String("PENDING");
    const bool running = state == QLatin1String("RUNNING") || state == QLatin1String("SUSPENDED")
        || state == QLatin1String("COMPLETING");
    const qint64 submit = job.submitTime;
    const qint64 limit = job.timeLimit.value_or(mc::sched::kInfinite);
    qint64 start = job.startTime;
    if (pending && start <= 0) {
        start = job.plannedStart; // where the planner placed it (squeue --start)
    }
    qint64 end = job.endTime;
    if ((running || pending) && start > 0 && limit != mc::sched::kInfinite) {
        end = start + limit; // the expected end, as Slurm shows it
    }
    qint64 runTime = 0;
    if (running && start > 0) {
        runTime = std::max<qint64>(0, now - start);
    } else if (!pending && start > 0 && end >= start) {
        runTime = end - start;
    }
    const int numNodes = static_cast<int>(job.numNodes.value_or(1));
    const int numCpus = static_cast<int>(job.numCpus.value_or(1));
    const qint64 memory = job.minMemory;
    const bool perCpu = job.memPerCpu;
    const qint64 gpus = job.gpusReq; // held, or asked for while pending
    const auto number = [](qint64 n) {
        return QString::number(n);
    };

    QList<JobField> f;
    f << JobField{QStringLiteral("JobId"), number(job.jobId)};
    if (job.arrayJobId > 0) {
        f << JobField{QStringLiteral("ArrayJobId"), number(job.arrayJobId)};
        f << JobField{QStringLiteral("ArrayTaskId"),
            job.arrayTaskId ? number(*job.arrayTaskId) : q(job.arrayTaskStr)};
    }
    f << JobField{QStringLiteral("JobName"), q(job.name)};
    f << JobField{QStringLiteral("UserId"), QStringLiteral("%1(%2)").arg(q(job.user)).arg(job.uid)};
    f << JobField{QStringLiteral("Account"), q(job.account)};
    f << JobField{QStringLiteral("QOS"), q(job.qos.value_or("normal"))};
    f << JobField{QStringLiteral("Priority"), number(job.priority)};
    f << JobField{QStringLiteral("JobState"), state};
    f << JobField{QStringLiteral("Reason"), q(job.reason.empty() ? "None" : job.reason)};
    f << JobField{QStringLiteral("Dependency"), orNull(q(job.dependency))};
    f << JobField{QStringLiteral("Restarts"), number(job.restarts)};
    f << JobField{
        QStringLiteral("ExitCode"), QStringLiteral("%1:%2").arg(job.exitCode).arg(job.exitSignal)};
    f << JobField{QStringLiteral("RunTime"), q(mc::sched::formatHms(runTime))};
    f << JobField{QStringLiteral("TimeLimit"), q(mc::sched::formatHms(limit))};
    f << JobField{QStringLiteral("SubmitTime"), stamp(submit)};
    const bool neverEligible = mc::sched::heldPending(job.state, job.reason);
    f << JobField{QStringLiteral("EligibleTime"),
        stamp(neverEligible ? 0 : job.eligibleTime.value_or(submit))};
    f << JobField{QStringLiteral("StartTime"), stamp(start)};
    f << JobField{QStringLiteral("EndTime"), stamp(end)};
    f << JobField{QStringLiteral("Partition"), q(job.partition)};
    f << JobField{QStringLiteral("ReqNodeList"), orNull(hostlist(job.reqNodes))};
    f << JobField{QStringLiteral("ExcNodeList"), orNull(hostlist(job.excNodes))};
    f << JobField{QStringLiteral("NodeList"), hostlist(job.nodes)}; // empty while pending
    if (!job.nodes.empty()) {
        f << JobField{QStringLiteral("BatchHost"), q(job.batchHost.value_or(job.nodes.front()))};
    }
    f << JobField{QStringLiteral("NumNodes"), number(numNodes)};
    f << JobField{QStringLiteral("NumCPUs"), number(numCpus)};
    f << JobField{QStringLiteral("NumTasks"), number(job.numTasks.value_or(1))};
    f << JobField{QStringLiteral("CPUs/Task"), number(job.cpusPerTask.value_or(1))};
    const qint64 totalMemory = perCpu ? memory * numCpus : memory * numNodes;
    QString tres = QStringLiteral("cpu=%1,mem=%2,node=%3,billing=%1")
                       .arg(numCpus)
                       .arg(q(mc::sched::formatMemory(totalMemory)))
                       .arg(numNodes);
    if (gpus > 0) {
        tres += QStringLiteral(",gres/gpu=%1").arg(gpus);
    }
    f << JobField{QStringLiteral("TRES"), tres};
    if (!job.gres.empty()) {
        f << JobField{QStringLiteral("TresPerNode"), QStringLiteral("gres:") + q(job.gres)};
    }
    f << JobField{perCpu ? QStringLiteral("MinMemoryCPU") : QStringLiteral("MinMemoryNode"),
        q(mc::sched::formatMemory(memory))};
    f << JobField{QStringLiteral("Features"), orNull(q(job.constraint))};
    f << JobField{QStringLiteral("OverSubscribe"),
        job.exclusive ? QStringLiteral("NO") : QStringLiteral("OK")};
    f << JobField{QStringLiteral("Command"), orNull(q(job.command))};
    f << JobField{QStringLiteral("WorkDir"), q(job.workDir)};
    if (job.comment) {
        f << JobField{QStringLiteral("Comment"), q(*job.comment)};
    }
    const QString out = q(job.stdOut);
    const QString err = q(job.stdErr);
    f << JobField{
        QStringLiteral("StdErr"), expandedStdioPath(job, err.isEmpty() ? out : err, false)};
    f << JobField{QStringLiteral("StdIn"), expandedStdioPath(job, q(job.stdIn), true)};
    f << JobField{QStringLiteral("StdOut"), expandedStdioPath(job, out, false)};
    return f;
}

} // namespace mc::gui
