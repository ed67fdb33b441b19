// JobLimiter on real processes: each limits mode this machine allows, and why the others are
// refused.
#include "mc/emu/job_limiter.h"
#include "mc/emu/process.h"

#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace mc::emu;

namespace {

pid_t spawn(const std::vector<std::string> &argv, const JobLimiter &limiter)
{
    SpawnSpec spec;
    spec.argv = argv;
    spec.env = {"PATH=/usr/bin:/bin"};
    spec.stdoutPath = "/dev/null";
    spec.joinFiles = limiter.joinFiles();
    spec.rlimits = limiter.rlimits();
    std::string error;
    return spawnProcess(spec, error);
}

int waitStatus(pid_t pid)
{
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

std::string uniqueGroup()
{
    return "test." + std::to_string(::getpid()) + "/job_1";
}

} // namespace

class JobLimiterTest : public QObject {
    Q_OBJECT

private slots:
    void unknownModeIsRefusedWithTheChoices();
    void autoAlwaysFindsAMode();
    void rlimitModeFindsAndKillsTheJobsSession();
    void cgroupModeKillsWhatGoesOverItsMemory_data();
    void cgroupModeKillsWhatGoesOverItsMemory();
};

void JobLimiterTest::unknownModeIsRefusedWithTheChoices()
{
    LimitProbe p = probeLimits("cgroup-v3");
    QVERIFY(!p.ok);
    QCOMPARE(QString::fromStdString(p.detail),
        QStringLiteral("unknown limits mode 'cgroup-v3' (auto, cgroup-v2, cgroup-v1 or rlimit)"));
}

void JobLimiterTest::autoAlwaysFindsAMode()
{
    LimitProbe p = probeLimits("auto");
    QVERIFY(p.ok);
    QVERIFY(!p.detail.empty());
    QVERIFY(probeLimits("rlimit").ok);
}

void JobLimiterTest::rlimitModeFindsAndKillsTheJobsSession()
{
    JobLimiter limiter(LimitMode::Rlimit, uniqueGroup(), jobLimits(100, 1));
    std::string error;
    QVERIFY(limiter.create(error));
    QVERIFY(limiter.joinFiles().empty());
    pid_t pid = spawn({"/bin/sh", "-c", "sleep 30 & sleep 30 & wait"}, limiter);
    QVERIFY(pid > 0);
    QTRY_COMPARE_WITH_TIMEOUT(limiter.sample(pid).processes, 3, 5000);
    QVERIFY(limiter.sample(pid).rssKb > 0);
    const std::vector<ProcStat> table = JobLimiter::scanProcesses();
    QCOMPARE(limiter.sample(pid, &table).processes, 3);
    limiter.signalAll(pid, SIGKILL);
    int status = waitStatus(pid);
    QVERIFY(WIFSIGNALED(status));
    QCOMPARE(WTERMSIG(status), SIGKILL);
    QTRY_COMPARE_WITH_TIMEOUT(limiter.sample(pid).processes, 0, 5000);
    QCOMPARE(limiter.oomKills(), 0);
    QVERIFY(limiter.remove());
}

void JobLimiterTest::cgroupModeKillsWhatGoesOverItsMemory_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("cgroup-v2") << QStringLiteral("cgroup-v2");
    QTest::newRow("cgroup-v1") << QStringLiteral("cgroup-v1");
}

void JobLimiterTest::cgroupModeKillsWhatGoesOverItsMemory()
{
    QFETCH(QString, mode);
    LimitProbe probe = probeLimits(mode.toStdString());
    if (!probe.ok) {
        QSKIP(probe.detail.c_str());
    }
    JobLimiter limiter(probe.mode, uniqueGroup(), jobLimits(50, 1, 64));
    std::string error;
    QVERIFY2(limiter.create(error), error.c_str());
    QVERIFY(!limiter.joinFiles().empty());
    pid_t pid = spawn({"python3", "-c", "a = bytearray(200 * 1024 * 1024)"}, limiter);
    QVERIFY(pid > 0);
    int status = waitStatus(pid);
    QVERIFY(WIFSIGNALED(status));
    QCOMPARE(WTERMSIG(status), SIGKILL);
    QCOMPARE(limiter.oomKills(), 1);
    QVERIFY(limiter.sample(pid).processes == 0);
    QTRY_VERIFY_WITH_TIMEOUT(limiter.remove(), 5000);
    removeNodeCgroups(probe.mode, "test." + std::to_string(::getpid()));
}

QTEST_GUILESS_MAIN(JobLimiterTest)
#include "job_limiter_test.moc"
