// One cluster clock (issue #17): an instructor speeds the clock up and jumps 61 days ahead
// while jobs run, from a terminal (`minicluster clock`). Every record stays consistent at 1x,
// 60x and 3600x: jobs whose limit the jump passed end TIMEOUT at their limit (the notice in
// their output says so), sacct's Start/End/Elapsed agree, seff reports the limit, plain sacct
// lists the jobs of the cluster's "today", and squeue's TIME runs at the clock's speed.
#include "cluster_fixture.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QtTest>

namespace {

// "[D-]HH:MM:SS" or squeue's "M:SS", "H:MM:SS" as seconds; -1 when unreadable.
qint64 seconds(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^(?:(\\d+)-)?(?:(\\d+):)?(\\d+):(\\d+)$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch()) {
        return -1;
    }
    return m.captured(1).toLongLong() * 86400 + m.captured(2).toLongLong() * 3600
        + m.captured(3).toLongLong() * 60 + m.captured(4).toLongLong();
}

// A job's accounting line as fields (sacct -P).
QStringList acct(const ClusterFixture &cluster, int job, const QString &fields)
{
    return cluster.shell(QStringLiteral("sacct -X -n -P -j %1 -o %2").arg(job).arg(fields))
        .out.trimmed()
        .split(QLatin1Char('|'));
}

qint64 epoch(const QString &timestamp)
{
    return QDateTime::fromString(timestamp, Qt::ISODate).toSecsSinceEpoch();
}

} // namespace

class ClusterClockTest : public QObject {
    Q_OBJECT

private slots:
    void fastForwardWithRunningJobsKeepsEveryRecordConsistent_data();
    void fastForwardWithRunningJobsKeepsEveryRecordConsistent();
};

void ClusterClockTest::fastForwardWithRunningJobsKeepsEveryRecordConsistent_data()
{
    QTest::addColumn<int>("speed");
    QTest::newRow("1x") << 1;
    QTest::newRow("60x") << 60;
    QTest::newRow("3600x") << 3600;
}

void ClusterClockTest::fastForwardWithRunningJobsKeepsEveryRecordConsistent()
{
    QFETCH(int, speed);
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult set = cluster.minicluster(
        {QStringLiteral("clock"), QStringLiteral("--speed"), QString::number(speed)});
    QCOMPARE(set.exitCode, 0);
    QVERIFY2(set.out.contains(QStringLiteral(", speed %1x, ").arg(speed)), qPrintable(set.out));

    // Two jobs that would run for ten minutes of wall time, with limits of 1 and 10 minutes.
    ShellResult submit
        = cluster.shell(QStringLiteral("sbatch -t 1 -o one.out --wrap 'sleep 600'; "
                                       "sbatch -t 10 -o ten.out --wrap 'sleep 600'"));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\n"));
    QTRY_VERIFY_WITH_TIMEOUT(
        acct(cluster, 2, QStringLiteral("State")).value(0) != QStringLiteral("PENDING"), 20000);

    ShellResult forward = cluster.minicluster(
        {QStringLiteral("clock"), QStringLiteral("--forward"), QStringLiteral("61d")});
    QCOMPARE(forward.exitCode, 0);
    QVERIFY2(forward.out.contains(QStringLiteral("ahead of this computer's clock")),
        qPrintable(forward.out));
    for (int job : {1, 2}) {
        QTRY_VERIFY_WITH_TIMEOUT(
            acct(cluster, job, QStringLiteral("State")).value(0) == QStringLiteral("TIMEOUT"),
            20000);
        const QStringList row = acct(cluster, job, QStringLiteral("Timelimit,Elapsed,Start,End"));
        QCOMPARE(row.value(1), row.value(0)); // ended at its limit, not 61 days later
        QCOMPARE(epoch(row.value(3)) - epoch(row.value(2)), seconds(row.value(1)));
        // The node's notice names the same instant as sacct's End.
        const QString out = readTextFile(cluster.homeFile(QStringLiteral("alice"),
            job == 1 ? QStringLiteral("one.out") : QStringLiteral("ten.out")));
        QVERIFY2(
            out.contains(QStringLiteral("CANCELLED AT %1 DUE TO TIME LIMIT").arg(row.value(3))),
            qPrintable(out + row.join(QLatin1Char('|'))));
    }
    ShellResult seff = cluster.shell(QStringLiteral("seff 1"));
    QVERIFY2(seff.out.contains(QStringLiteral("State: TIMEOUT")), qPrintable(seff.out));
    QVERIFY2(
        seff.out.contains(QStringLiteral("Job Wall-clock time: 00:01:00")), qPrintable(seff.out));

    // A job after the jump: dated on the cluster clock, listed by plain sacct (today is the
    // cluster's), and its TIME runs at the clock's speed.
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -t 2-0 --wrap 'sleep 600'")).out,
        QStringLiteral("Submitted batch job 3\n"));
    QTRY_VERIFY_WITH_TIMEOUT(
        seconds(cluster.shell(QStringLiteral("squeue -h -j 3 -o %M")).out) >= 2 * speed, 20000);
    const QStringList running = acct(cluster, 3, QStringLiteral("State,Start,Elapsed"));
    QCOMPARE(running.value(0), QStringLiteral("RUNNING"));
    QVERIFY2(epoch(running.value(1)) - epoch(acct(cluster, 1, QStringLiteral("End")).value(0))
            >= 61 * 86400 - 3600,
        qPrintable(running.join(QLatin1Char('|'))));
    QVERIFY2(seconds(running.value(2)) >= 2 * speed, qPrintable(running.join(QLatin1Char('|'))));
    const QString listed = cluster.shell(QStringLiteral("sacct -X -n -o JobID")).out;
    QVERIFY2(
        listed.contains(QRegularExpression(QStringLiteral("(^|\\n)3 +\\n"))), qPrintable(listed));
    cluster.shell(QStringLiteral("scancel 3"));
    QTRY_VERIFY_WITH_TIMEOUT(
        acct(cluster, 3, QStringLiteral("State")).value(0).startsWith(QStringLiteral("CANCELLED")),
        20000);
    const QStringList cancelled = acct(cluster, 3, QStringLiteral("Start,End,Elapsed"));
    QCOMPARE(epoch(cancelled.value(1)) - epoch(cancelled.value(0)), seconds(cancelled.value(2)));
}

QTEST_GUILESS_MAIN(ClusterClockTest)
#include "cluster_clock_test.moc"
