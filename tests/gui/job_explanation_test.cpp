// Job states in plain words.

#include "mc/gui/job_explanation.h"
#include "test_jobs.h"

#include <QTest>

using mc::gui::explainJobState;
using mc::gui::test::decoded;
using mc::gui::test::job;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;

class JobExplanationTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pendingJobsSayWhatTheyWaitFor()
    {
        QVERIFY(explainJobState(decoded(pendingJob(1, "Resources")))
                    .contains(QStringLiteral("CPUs or memory")));
        QVERIFY(explainJobState(decoded(pendingJob(1, "Priority")))
                    .contains(QStringLiteral("higher priority")));
        QVERIFY(explainJobState(decoded(pendingJob(1, "Dependency")))
                    .contains(QStringLiteral("depends on")));
        QVERIFY(explainJobState(decoded(pendingJob(1, "SomethingNew")))
                    .contains(QStringLiteral("SomethingNew")));
    }

    void runningJobsNameTheirHost()
    {
        QVERIFY(explainJobState(decoded(runningJob(1, {"cn01"}).set("batch_host", "cn01")))
                    .contains(QStringLiteral("cn01")));
    }

    void failuresSayWhatToDo()
    {
        const QString failed = explainJobState(decoded(job(1, "FAILED", "F").set("exit_code", 2)));
        QVERIFY(failed.contains(QStringLiteral("status 2")));
        QVERIFY(
            explainJobState(decoded(job(1, "TIMEOUT", "TO"))).contains(QStringLiteral("--time")));
        QVERIFY(explainJobState(decoded(job(1, "OUT_OF_MEMORY", "OOM")))
                    .contains(QStringLiteral("--mem")));
    }
};

QTEST_GUILESS_MAIN(JobExplanationTest)
#include "job_explanation_test.moc"
