// The job details' fields against `scontrol show job`'s own record (mc::cmd::scontrol), for ten
// kinds of job: both read the same job object, so every field they share must say the same.
// Where the app goes further than our scontrol today (a pending job's planned StartTime, an
// array task's %a, TresPerNode), the expected value is Slurm 22.05's and is checked here.

#include "../../scheduler/commands/src/scontrol/scontrol_records.h"
#include "mc/gui/job_fields.h"
#include "mc/sched/time_format.h"
#include "test_jobs.h"

#include <QMap>
#include <QTest>

using mc::gui::jobFields;
using mc::gui::test::kNow;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;

Q_DECLARE_METATYPE(mc::proto::Json)

namespace {

QMap<QString, QString> appFields(const Json &job)
{
    QMap<QString, QString> fields;
    for (const auto &[name, value] : jobFields(mc::gui::test::decoded(job), kNow)) {
        fields.insert(name, value);
    }
    return fields;
}

// scontrol's "Key=Value Key=Value" lines as a map (values here have no spaces).
QMap<QString, QString> scontrolFields(const Json &job)
{
    QMap<QString, QString> fields;
    for (const std::string &line : mc::cmd::scontrol::jobRecord(job, kNow, 1)) {
        for (const QString &word :
            QString::fromStdString(line).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const qsizetype equals = word.indexOf(QLatin1Char('='));
            if (equals > 0) {
                fields.insert(word.left(equals), word.mid(equals + 1));
            }
        }
    }
    return fields;
}

QString stamp(qint64 epoch)
{
    return QString::fromStdString(mc::sched::formatTimestamp(epoch));
}

Json withBasics(Json job)
{
    return std::move(job)
        .set("uid", 1001)
        .set("account", "def-prof")
        .set("qos", "normal")
        .set("time_limit", 600)
        .set("num_cpus", 2)
        .set("num_tasks", 1)
        .set("cpus_per_task", 2)
        .set("min_memory", 1024)
        .set("work_dir", "/home/alice")
        .set("command", "/home/alice/train.sh")
        .set("eligible_time", kNow - 100);
}

} // namespace

class JobFieldsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everySharedFieldSaysWhatScontrolSays_data()
    {
        QTest::addColumn<Json>("job");
        QTest::newRow("pending on resources") << withBasics(pendingJob(10));
        QTest::newRow("running") << withBasics(runningJob(11, {"cn01"})).set("batch_host", "cn01");
        QTest::newRow("completed") << withBasics(runningJob(12, {"cn02"}, kNow - 90))
                                          .set("state", "COMPLETED")
                                          .set("end_time", kNow - 30);
        QTest::newRow("failed with exit code") << withBasics(runningJob(13, {"cn01"}, kNow - 90))
                                                      .set("state", "FAILED")
                                                      .set("end_time", kNow - 10)
                                                      .set("exit_code", 2);
        QTest::newRow("output pattern %x-%j")
            << withBasics(runningJob(14, {"cn01"})).set("std_out", "%x-%j.out");
        QTest::newRow("separate error file, absolute, %u")
            << withBasics(runningJob(15, {"cn01"}))
                   .set("std_out", "/scratch/%u/logs/%x-%j.out")
                   .set("std_err", "/scratch/%u/logs/%x-%j.err");
        QTest::newRow("dependency") << withBasics(pendingJob(16, "Dependency"))
                                           .set("dependency", "afterok:15(unfulfilled)")
                                           .set("eligible_time", 0);
        QTest::newRow("held") << withBasics(pendingJob(17, "JobHeldUser")).set("priority", 0);
        QTest::newRow("gpu job") << withBasics(runningJob(18, {"gpu01"}))
                                        .set("gres", "gpu:2")
                                        .set("gpus", 2)
                                        .set("gpus_req", 2)
                                        .set("partition", "gpu");
        QTest::newRow("memory per CPU, exclusive, two nodes")
            << withBasics(runningJob(19, {"cn01", "cn02"}))
                   .set("mem_per_cpu", true)
                   .set("min_memory", 500)
                   .set("exclusive", true)
                   .set("num_cpus", 8);
    }

    void everySharedFieldSaysWhatScontrolSays()
    {
        QFETCH(Json, job);
        const QMap<QString, QString> app = appFields(job);
        const QMap<QString, QString> scontrol = scontrolFields(job);
        int compared = 0;
        for (auto it = app.cbegin(); it != app.cend(); ++it) {
            if (!scontrol.contains(it.key())) {
                continue; // Restarts, TresPerNode: checked below
            }
            QVERIFY2(it.value() == scontrol[it.key()],
                qPrintable(QStringLiteral("%1: app %2, scontrol %3")
                               .arg(it.key(), it.value(), scontrol[it.key()])));
            ++compared;
        }
        QVERIFY2(compared >= 30, qPrintable(QString::number(compared)));
        for (const char *name : {"JobId", "JobState", "Reason", "Dependency", "StdOut", "StdErr",
                 "StdIn", "StartTime", "EligibleTime", "TRES", "NodeList", "TimeLimit"}) {
            QVERIFY2(app.contains(QLatin1String(name)), name);
        }
    }

    void outputPathsAreExpandedUnderTheWorkingDirectory()
    {
        const Json plain = withBasics(runningJob(14, {"cn01"}));
        QCOMPARE(
            appFields(plain)[QStringLiteral("StdOut")], QStringLiteral("/home/alice/slurm-14.out"));
        QCOMPARE(
            appFields(plain)[QStringLiteral("StdErr")], QStringLiteral("/home/alice/slurm-14.out"));
        QCOMPARE(appFields(plain)[QStringLiteral("StdIn")], QStringLiteral("/dev/null"));
        const Json named = withBasics(runningJob(14, {"cn01"}))
                               .set("std_out", "/scratch/%u/logs/%x-%j.out")
                               .set("std_err", "err/%x_%4j.txt");
        QCOMPARE(appFields(named)[QStringLiteral("StdOut")],
            QStringLiteral("/scratch/alice/logs/train-14.out"));
        QCOMPARE(appFields(named)[QStringLiteral("StdErr")],
            QStringLiteral("/home/alice/err/train_0014.txt"));
    }

    void anArrayTaskExpandsItsArrayIdAndIndex()
    {
        // Slurm's default for an array is slurm-%A_%a.out; %a is the task's index.
        const Json task
            = withBasics(runningJob(31, {"cn01"})).set("array_job_id", 30).set("array_task_id", 4);
        QCOMPARE(appFields(task)[QStringLiteral("StdOut")],
            QStringLiteral("/home/alice/slurm-30_4.out"));
        QCOMPARE(appFields(Json(task).set("std_out", "%x-%A_%a.out"))[QStringLiteral("StdOut")],
            QStringLiteral("/home/alice/train-30_4.out"));
        QCOMPARE(appFields(task)[QStringLiteral("ArrayJobId")], QStringLiteral("30"));
        QCOMPARE(appFields(task)[QStringLiteral("ArrayTaskId")], QStringLiteral("4"));
    }

    void aPendingJobThePlannerPlacedShowsItsPlannedStartAndEnd()
    {
        const Json planned = withBasics(pendingJob(40)).set("planned_start", kNow + 300);
        QCOMPARE(appFields(planned)[QStringLiteral("StartTime")], stamp(kNow + 300));
        QCOMPARE(appFields(planned)[QStringLiteral("EndTime")], stamp(kNow + 300 + 600));
        const Json unplanned = withBasics(pendingJob(41));
        QCOMPARE(appFields(unplanned)[QStringLiteral("StartTime")], QStringLiteral("Unknown"));
    }

    void aBeginJobShowsItsEligibleTimeAndAGpuJobItsTres()
    {
        const Json begin
            = withBasics(pendingJob(50, "BeginTime")).set("eligible_time", kNow + 3600);
        QCOMPARE(appFields(begin)[QStringLiteral("EligibleTime")], stamp(kNow + 3600));
        const Json gpu = withBasics(runningJob(51, {"gpu01", "gpu02"}))
                             .set("gres", "gpu:2")
                             .set("gpus", 2)
                             .set("gpus_req", 4);
        QCOMPARE(appFields(gpu)[QStringLiteral("TresPerNode")], QStringLiteral("gres:gpu:2"));
        QVERIFY(appFields(gpu)[QStringLiteral("TRES")].endsWith(QStringLiteral(",gres/gpu=4")));
        QCOMPARE(appFields(gpu)[QStringLiteral("NodeList")], QStringLiteral("gpu[01-02]"));
    }
};

QTEST_GUILESS_MAIN(JobFieldsTest)
#include "job_fields_test.moc"
