#include "mc/emu/job_limits.h"

#include <QtTest>

using namespace mc::emu;

class JobLimitsTest : public QObject {
    Q_OBJECT

private slots:
    void limitModesRoundTripThroughTheirNames();
    void requestBecomesCgroupUnits();
    void noticesAreSlurmstepdsLines();
    void tmpDirFollowsTheAllianceConvention();
    void procStatIsParsedEvenWithSpacesInTheCommandName();
    void truncatedProcStatIsRejected();
    void usageTrackerKeepsMaximumAverageAndCpu();
};

void JobLimitsTest::limitModesRoundTripThroughTheirNames()
{
    for (LimitMode m : {LimitMode::CgroupV2, LimitMode::CgroupV1, LimitMode::Rlimit}) {
        QCOMPARE(parseLimitMode(limitModeName(m)), std::optional<LimitMode>(m));
    }
    QCOMPARE(limitModeName(LimitMode::CgroupV1), std::string_view("cgroup-v1"));
    QVERIFY(!parseLimitMode("auto"));
}

void JobLimitsTest::requestBecomesCgroupUnits()
{
    JobLimits l = jobLimits(100, 2);
    QCOMPARE(l.memoryBytes, 100LL * 1024 * 1024);
    QCOMPARE(l.cpuQuotaUs(), 200000LL);
    QCOMPARE(l.pidsMax, kDefaultPidsMax);
    JobLimits none = jobLimits(0, 0, 64);
    QCOMPARE(none.memoryBytes, 0LL);
    QCOMPARE(none.cpuQuotaUs(), 0LL);
    QCOMPARE(none.pidsMax, 64);
}

void JobLimitsTest::noticesAreSlurmstepdsLines()
{
    // reference/08_time_mem_limits.txt
    QCOMPARE(QString::fromStdString(oomKillNotice("node01", 82, 1)),
        QStringLiteral("slurmstepd-node01: error: Detected 1 oom-kill event(s) in StepId=82.batch. "
                       "Some of your processes may have been killed by the cgroup out-of-memory "
                       "handler.\n"));
    QString timeout = QString::fromStdString(timeLimitNotice("node01", 81, 1700000000));
    QVERIFY2(timeout.contains(QRegularExpression(QStringLiteral(
                 "^slurmstepd-node01: error: \\*\\*\\* JOB 81 ON node01 CANCELLED AT "
                 "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d DUE TO TIME LIMIT \\*\\*\\*\n$"))),
        qPrintable(timeout));
    QVERIFY(QString::fromStdString(cancelNotice("cn01", 5, 1700000000))
                .endsWith(QStringLiteral(" ***\n")));
    QCOMPARE(QString::fromStdString(overMemoryNotice("cn01", 3, 409600, 102400)),
        QStringLiteral("slurmstepd-cn01: error: StepId=3.batch exceeded memory limit (409600 > "
                       "102400), being killed\n"));
    QCOMPARE(QString::fromStdString(overPidsNotice("cn01", 3, 640, 512)),
        QStringLiteral("slurmstepd-cn01: error: StepId=3.batch has 640 processes, over its limit "
                       "of 512, being killed\n"));
}

void JobLimitsTest::tmpDirFollowsTheAllianceConvention()
{
    QCOMPARE(QString::fromStdString(tmpDirName("alice", 42)), QStringLiteral("alice.42.0"));
}

void JobLimitsTest::procStatIsParsedEvenWithSpacesInTheCommandName()
{
    const char *text = "4242 (my (odd) cmd) S 4200 4242 4100 0 -1 4194560 100 0 0 0 "
                       "250 50 7 3 20 0 1 0 12345 104857600 2560 18446744073709551615\n";
    auto st = parseProcStat(text);
    QVERIFY(st.has_value());
    QCOMPARE(st->pid, 4242);
    QCOMPARE(st->ppid, 4200);
    QCOMPARE(st->session, 4100);
    QCOMPARE(st->cpuTicks, 300LL);
    QCOMPARE(st->rssPages, 2560LL);
}

void JobLimitsTest::truncatedProcStatIsRejected()
{
    QVERIFY(!parseProcStat("12 (sh) S 1 12"));
    QVERIFY(!parseProcStat("garbage"));
    QVERIFY(!parseProcStat(""));
}

void JobLimitsTest::usageTrackerKeepsMaximumAverageAndCpu()
{
    UsageTracker t;
    QCOMPARE(t.aveRssKb(), 0LL);
    t.add(100, 10);
    t.add(300, 50);
    t.add(200, 40);
    QCOMPARE(t.maxRssKb(), 300LL);
    QCOMPARE(t.aveRssKb(), 200LL);
    QCOMPARE(t.totalCpuMs(), 50LL);
    QCOMPARE(t.samples(), 3);
    t.finalCpu(30);
    QCOMPARE(t.totalCpuMs(), 50LL);
    t.finalCpu(900);
    QCOMPARE(t.totalCpuMs(), 900LL);
}

QTEST_GUILESS_MAIN(JobLimitsTest)
#include "job_limits_test.moc"
