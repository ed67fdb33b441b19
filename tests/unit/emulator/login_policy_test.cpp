// The login node's policy as data: the LoginPolicy= line, and LoginWatch's decisions on a
// manual clock (warned after a window over the share, acted on after the grace, forgiven when
// it calms down).
#include "mc/emu/login_policy.h"
#include "mc/sched/minicluster_conf.h"

#include <QtTest>

using namespace mc::emu;

namespace {

LoginPolicy quickPolicy(LoginAction action = LoginAction::Throttle)
{
    LoginPolicy p;
    p.action = action;
    p.cpuShare = 0.5;
    p.windowSec = 10;
    p.graceSec = 5;
    return p;
}

// One sample of process `pid` with `cpuMs` of CPU time so far.
std::vector<LoginSample> busy(int pid, std::int64_t cpuMs)
{
    return {{pid, "python3", cpuMs}};
}

} // namespace

class LoginPolicyTest : public QObject {
    Q_OBJECT

private slots:
    void withoutALineTheDefaultsApply();
    void theLineSetsEveryKnobAndReportsMistakes();
    void busyProcessIsWarnedAfterTheWindowThenThrottledAfterTheGrace();
    void killPolicyKills();
    void processThatCalmsDownIsForgiven();
    void lightAndShortProcessesAreLeftAlone();
    void messagesSayToUseSbatchOrSalloc();
};

void LoginPolicyTest::withoutALineTheDefaultsApply()
{
    LoginPolicy p = parseLoginPolicy("User=alice UID=1001\n");
    QCOMPARE(p.action, LoginAction::Throttle);
    QCOMPARE(p.cpuShare, 0.5);
    QCOMPARE(p.windowSec, 60);
    QCOMPARE(p.graceSec, 30);
    QCOMPARE(p.throttleShare, 0.1);
    QCOMPARE(p.memoryMaxMiB, std::int64_t{4096});
    QCOMPARE(p.tasksMax, 512);
    QVERIFY(p.problems.empty());
    QCOMPARE(describeLoginLimits(p),
        std::string("each user's sessions together: at most 4096 MiB of memory, at most 512 "
                    "processes"));
    QCOMPARE(describeLoginPolicy(p),
        std::string("a process above 0.5 CPU for 60 s is warned, then throttled to 0.1 CPU after "
                    "30 s more"));
}

void LoginPolicyTest::theLineSetsEveryKnobAndReportsMistakes()
{
    LoginPolicy p = parseLoginPolicy(
        "# comment\nLoginPolicy=kill CpuShare=1.5 Window=5 Grace=0 ThrottleShare=0.2 "
        "MemoryMax=0 TasksMax=64 # why\n");
    QCOMPARE(p.action, LoginAction::Kill);
    QCOMPARE(p.cpuShare, 1.5);
    QCOMPARE(p.windowSec, 5);
    QCOMPARE(p.graceSec, 0);
    QCOMPARE(p.throttleShare, 0.2);
    QCOMPARE(p.memoryMaxMiB, std::int64_t{0});
    QCOMPARE(p.tasksMax, 64);
    QVERIFY(p.problems.empty());
    QVERIFY(mc::sched::readSiteConf("LoginPolicy=kill MemoryMax=0 TasksMax=64\n").problems.empty());
    QCOMPARE(describeLoginLimits(p),
        std::string("each user's sessions together: no memory bound, at most 64 processes"));

    LoginPolicy bad = parseLoginPolicy("LoginPolicy=nuke Window=soon Color=red\n");
    QCOMPARE(bad.problems.size(), std::size_t(2));
    QCOMPARE(bad.problems[0],
        std::string("minicluster.conf:1: LoginPolicy= is throttle, kill or off, not 'nuke'"));
    QCOMPARE(bad.problems[1], std::string("minicluster.conf:1: Window= needs a number"));
    // The unknown key is the file reader's to report (minicluster_conf.h).
    QCOMPARE(mc::sched::readSiteConf("LoginPolicy=nuke Window=soon Color=red\n").problems,
        std::vector<std::string>{
            "minicluster.conf:1: unknown key \"Color\" on a LoginPolicy= line"});
    QCOMPARE(parseLoginPolicy("LoginPolicy=off\n").action, LoginAction::Off);
}

void LoginPolicyTest::busyProcessIsWarnedAfterTheWindowThenThrottledAfterTheGrace()
{
    LoginWatch watch(quickPolicy());
    // One full CPU from t = 0: over 0.5 CPU, but the window must be covered first.
    for (int t = 0; t < 10; ++t) {
        QVERIFY(watch.observe(t * 1000, busy(42, t * 1000)).empty());
    }
    auto warned = watch.observe(10000, busy(42, 10000));
    QCOMPARE(warned.size(), std::size_t(1));
    QCOMPARE(warned[0].kind, LoginDecision::Kind::Warn);
    QCOMPARE(warned[0].pid, 42);
    QCOMPARE(warned[0].command, std::string("python3"));
    for (int t = 11; t < 15; ++t) {
        QVERIFY(watch.observe(t * 1000, busy(42, t * 1000)).empty());
    }
    auto acted = watch.observe(15000, busy(42, 15000));
    QCOMPARE(acted.size(), std::size_t(1));
    QCOMPARE(acted[0].kind, LoginDecision::Kind::Throttle);
    // Once throttled, nothing more is decided about it.
    QVERIFY(watch.observe(30000, busy(42, 30000)).empty());
}

void LoginPolicyTest::killPolicyKills()
{
    LoginWatch watch(quickPolicy(LoginAction::Kill));
    std::vector<LoginDecision> all;
    for (int t = 0; t <= 15; ++t) {
        for (auto &d : watch.observe(t * 1000, busy(7, t * 1000))) {
            all.push_back(d);
        }
    }
    QCOMPARE(all.size(), std::size_t(2));
    QCOMPARE(all[1].kind, LoginDecision::Kind::Kill);
}

void LoginPolicyTest::processThatCalmsDownIsForgiven()
{
    LoginWatch watch(quickPolicy());
    std::int64_t cpu = 0;
    for (int t = 0; t <= 10; ++t) {
        cpu = t * 1000;
        watch.observe(t * 1000, busy(9, cpu));
    }
    // It stops computing during the grace: no action, and its warning is forgotten.
    std::vector<LoginDecision> later;
    for (int t = 11; t <= 30; ++t) {
        for (auto &d : watch.observe(t * 1000, busy(9, cpu))) {
            later.push_back(d);
        }
    }
    QVERIFY(later.empty());
}

void LoginPolicyTest::lightAndShortProcessesAreLeftAlone()
{
    LoginWatch watch(quickPolicy());
    std::vector<LoginDecision> all;
    for (int t = 0; t <= 40; ++t) {
        // 0.4 CPU: under the share, however long it runs.
        for (auto &d : watch.observe(t * 1000, busy(5, t * 400))) {
            all.push_back(d);
        }
        // A full CPU, but for 5 s only (shorter than the window), then it ends.
        if (t < 5) {
            for (auto &d : watch.observe(t * 1000, busy(6, t * 1000))) {
                all.push_back(d);
            }
        }
    }
    QVERIFY(all.empty());
}

void LoginPolicyTest::messagesSayToUseSbatchOrSalloc()
{
    LoginPolicy p = quickPolicy();
    std::string warning = loginWarning(p, 42, "python3");
    QVERIFY(warning.find("process 42 (python3)") != std::string::npos);
    QVERIFY(warning.find("sbatch") != std::string::npos);
    QVERIFY(warning.find("salloc") != std::string::npos);
    QVERIFY(warning.find("throttled in 5 s") != std::string::npos);
    std::string notice = loginActionNotice(p, 42, "python3", true);
    QVERIFY(notice.find("is now throttled to 0.1 CPU") != std::string::npos);
    QVERIFY(notice.find("sbatch") != std::string::npos);
    QVERIFY(loginActionNotice(p, 42, "python3", false).find("was killed") != std::string::npos);
    // The per-user limits' notices: the limit by its number and key, then the same advice.
    p.tasksMax = 64;
    p.memoryMaxMiB = 2048;
    const std::string tasks = loginTasksNotice(p);
    QVERIFY(tasks.find("limit of 64 processes (TasksMax)") != std::string::npos);
    QVERIFY(tasks.find("sbatch (batch) or salloc (interactive)") != std::string::npos);
    const std::string memory = loginMemoryNotice(p);
    QVERIFY(memory.find("was killed") != std::string::npos);
    QVERIFY(memory.find("limit of 2048 MiB of memory (MemoryMax)") != std::string::npos);
    QVERIFY(memory.find("sbatch (batch) or salloc (interactive)") != std::string::npos);
}

QTEST_GUILESS_MAIN(LoginPolicyTest)
#include "login_policy_test.moc"
