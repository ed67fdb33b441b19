// Real limits on real processes: a job over its memory ends OUT_OF_MEMORY, a job past its time
// limit is killed and ends TIMEOUT, a fork bomb stops at the pids limit, $SLURM_TMPDIR lives
// exactly as long as its job (with the extern step of PrologFlags=Contain). Each limits mode
// runs where this machine allows it.
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

QString readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

QString sacctState(const ClusterFixture &cluster, int job)
{
    return cluster.shell(QStringLiteral("sacct -n -X -o State -j %1").arg(job)).out.trimmed();
}

bool isFinal(const QString &state)
{
    return !state.isEmpty() && !state.startsWith(QStringLiteral("PENDING"))
        && !state.startsWith(QStringLiteral("RUNNING"))
        && !state.startsWith(QStringLiteral("COMPLETING"));
}

// Starts `cluster` with `--limits mode` plus `extra`; skips the test when this machine cannot
// enforce limits that way.
#define START_WITH_LIMITS(cluster, mode, extra)                                                    \
    do {                                                                                           \
        if (!(cluster).up(QStringList{QStringLiteral("--limits"), (mode)} + (extra))) {            \
            if ((cluster).lastError().contains(QStringLiteral("--limits"))) {                      \
                QSKIP(qPrintable((cluster).lastError().trimmed()));                                \
            }                                                                                      \
            QFAIL(qPrintable((cluster).lastError()));                                              \
        }                                                                                          \
    } while (false)

const char *const kOomScript = R"(cat > oom.sh <<'END'
#!/bin/bash
#SBATCH -J oom
#SBATCH --mem=100M
#SBATCH -o %x-%j.out
echo "allocating 400 MB with --mem=100M"
python3 -c 'import time; a = bytearray(400*1024*1024); time.sleep(5)'
echo "python exit code: $?"
END
sbatch oom.sh)";

// 300 MB made resident at once (MAP_POPULATE) by a process that exits at once: over
// --mem=100M for less than a sampling interval on an idle machine (on a loaded one the
// sampling may still see it; the job ends OUT_OF_MEMORY either way).
const char *const kPeakScript = R"(cat > peak.sh <<'END'
#!/bin/bash
#SBATCH -J peak
#SBATCH --mem=100M
#SBATCH -o %x-%j.out
python3 -c 'import mmap; mmap.mmap(-1, 300 << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | mmap.MAP_POPULATE)'
echo "python exit code: $?"
END
sbatch peak.sh)";

const char *const kBombScript = R"(cat > bomb.py <<'END'
import os, time
n = 0
while n < 3000:
    try:
        pid = os.fork()
    except OSError as e:
        print("fork failed:", e.strerror, flush=True)
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    n += 1
print("children:", n, flush=True)
END
sbatch -J bomb -o %x-%j.out --wrap 'python3 bomb.py'
sbatch -J other -o %x-%j.out --wrap 'echo other job fine')";

const char *const kCpuHogScript = R"SH(cat > hog.sh <<'END'
#!/bin/bash
#SBATCH -J hog
#SBATCH -c 1
#SBATCH -o %x-%j.out
# Two busy processes on one allocated CPU: together they get at most about one CPU.
start=$(date +%s%N)
timeout 3 sh -c 'while :; do :; done' &
timeout 3 sh -c 'while :; do :; done' &
wait
end=$(date +%s%N)
awk -v wall=$(( (end - start) / 10000000 )) '{ print "ticks:", $16 + $17, "wall:", wall }' /proc/$$/stat
echo "nproc: $(nproc)"
v1=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/self/cgroup)
[ -n "$v1" ] && echo "cfs_quota_us: $(cat /sys/fs/cgroup/cpu$v1/cpu.cfs_quota_us)"
v2=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
[ -r /sys/fs/cgroup$v2/cpu.max ] && echo "cpu.max: $(cat /sys/fs/cgroup$v2/cpu.max)"
exit 0
END
sbatch hog.sh)SH";

} // namespace

class LimitsTest : public QObject {
    Q_OBJECT

private slots:
    void jobOverItsMemoryEndsOutOfMemory_data();
    void jobOverItsMemoryEndsOutOfMemory();
    void aPeakBetweenTwoSamplesStillEndsOutOfMemory();
    void jobPastItsTimeLimitGetsSigtermThenSigkillAndEndsTimeout();
    void warningSignalReachesTheBatchShellBeforeTheTimeLimit();
    void forkBombStopsAtThePidsLimitAndTheClusterGoesOn_data();
    void forkBombStopsAtThePidsLimitAndTheClusterGoesOn();
    void forkBombIsKilledByThePollingPathWithoutCgroups();
    void cpusPerTaskBoundsCpuUse_data();
    void cpusPerTaskBoundsCpuUse();
    void slurmTmpdirLivesAsLongAsTheJobAndExternStepIsRecorded();
};

void LimitsTest::jobOverItsMemoryEndsOutOfMemory_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("notice");
    const QString cgroupNotice = QStringLiteral(
        "slurmstepd-cn01: error: Detected 1 oom-kill event(s) in StepId=1.batch. Some of your "
        "processes may have been killed by the cgroup out-of-memory handler.\n");
    QTest::newRow("cgroup-v2") << QStringLiteral("cgroup-v2") << cgroupNotice;
    QTest::newRow("cgroup-v1") << QStringLiteral("cgroup-v1") << cgroupNotice;
    QTest::newRow("rlimit polling")
        << QStringLiteral("rlimit") << QStringLiteral("StepId=1.batch exceeded memory limit (");
}

void LimitsTest::jobOverItsMemoryEndsOutOfMemory()
{
    QFETCH(QString, mode);
    QFETCH(QString, notice);
    ClusterFixture cluster;
    START_WITH_LIMITS(cluster, mode, QStringList{});

    ShellResult status = cluster.minicluster({QStringLiteral("status")});
    QVERIFY2(status.out.contains(QStringLiteral("limits: ") + mode + QStringLiteral(" (")),
        qPrintable(status.out));

    ShellResult submit = cluster.shell(QString::fromUtf8(kOomScript));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);

    QString out = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("oom-1.out")));
    QVERIFY2(
        out.startsWith(QStringLiteral("allocating 400 MB with --mem=100M\n")), qPrintable(out));
    QVERIFY2(out.contains(notice), qPrintable(out));

    ShellResult sacct = cluster.shell(QStringLiteral("sacct -j 1 -o JobID,State,ExitCode"));
    QVERIFY2(sacct.out.contains(QStringLiteral("1            OUT_OF_ME+    0:125")),
        qPrintable(sacct.out));
    QVERIFY2(sacct.out.contains(QStringLiteral("1.batch      OUT_OF_ME+    0:125")),
        qPrintable(sacct.out));
}

void LimitsTest::aPeakBetweenTwoSamplesStillEndsOutOfMemory()
{
    // Without a cgroup the daemon samples every 250 ms; the exit's rusage has the peak.
    ClusterFixture cluster;
    START_WITH_LIMITS(cluster, QStringLiteral("rlimit"), QStringList{});
    ShellResult submit = cluster.shell(QString::fromUtf8(kPeakScript));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);
    QString out = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("peak-1.out")));
    QVERIFY2(
        out.contains(QStringLiteral("StepId=1.batch exceeded memory limit (")), qPrintable(out));
    ShellResult sacct = cluster.shell(QStringLiteral("sacct -j 1 -X -n -o State,ExitCode"));
    QVERIFY2(sacct.out.contains(QStringLiteral("OUT_OF_ME+    0:125")), qPrintable(sacct.out));
}

void LimitsTest::jobPastItsTimeLimitGetsSigtermThenSigkillAndEndsTimeout()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    // --time-scale 30: "-t 1" (one minute) runs out after two seconds.
    START_WITH_LIMITS(cluster, QStringLiteral("auto"),
        (QStringList{QStringLiteral("--time-scale"), QStringLiteral("30")}));

    ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -J timeout -t 1 -o %x-%j.out --wrap 'echo start; sleep 300; echo never printed'; "
        "sbatch -J stubborn -t 1 -o %x-%j.out --wrap \"trap 'echo caught TERM' TERM; "
        "sleep 300; sleep 300; echo never printed\""));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 2)), 30000);

    const QString notice
        = QStringLiteral("^slurmstepd-cn0\\d: error: \\*\\*\\* JOB %1 ON cn0\\d CANCELLED AT "
                         "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d DUE TO TIME LIMIT \\*\\*\\*$");
    QString out1
        = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("timeout-1.out")));
    QStringList lines1 = out1.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines1.size(), 2);
    QCOMPARE(lines1.value(0), QStringLiteral("start"));
    QVERIFY2(lines1.value(1).contains(QRegularExpression(notice.arg(1))), qPrintable(out1));

    // The second ignores SIGTERM: it lives on until SIGKILL, KillWait (1 s) later.
    QString out2
        = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("stubborn-2.out")));
    QVERIFY2(out2.contains(QStringLiteral("caught TERM\n")), qPrintable(out2));
    QVERIFY2(!out2.contains(QStringLiteral("never printed")), qPrintable(out2));

    ShellResult sacct
        = cluster.shell(QStringLiteral("sacct -j 1,2 -o JobID,JobName,State,Timelimit,ExitCode"));
    QStringList rows = sacct.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(
        rows.value(2), QStringLiteral("1               timeout    TIMEOUT   00:01:00      0:0 "));
    QCOMPARE(
        rows.value(3), QStringLiteral("1.batch           batch  CANCELLED                0:15 "));
    QCOMPARE(
        rows.value(4), QStringLiteral("2              stubborn    TIMEOUT   00:01:00      0:0 "));
    QCOMPARE(
        rows.value(5), QStringLiteral("2.batch           batch  CANCELLED                 0:9 "));
}

void LimitsTest::warningSignalReachesTheBatchShellBeforeTheTimeLimit()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    // --time-scale 30: a one-minute limit lasts 2 s and USR1 "50 s before" comes after 0.33 s.
    START_WITH_LIMITS(cluster, QStringLiteral("auto"),
        (QStringList{QStringLiteral("--time-scale"), QStringLiteral("30")}));
    ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -t 1 --signal=B:USR1@50 -o warned.out --wrap \"trap 'echo got USR1; exit 0' "
        "USR1; sleep 30 & wait\"; sbatch -t 1 --signal=USR1@50 -o steps.out --wrap \"trap "
        "'echo got USR1' USR1; echo started; sleep 30 & wait\"; sbatch --signal=B:NOPE@5 --wrap "
        "true"));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\n"));
    QCOMPARE(submit.err, QStringLiteral("sbatch: error: Invalid --signal specification\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 2)), 30000);
    // With B: the batch shell gets the signal and can finish cleanly before its limit.
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("warned.out"))),
        QStringLiteral("got USR1\n"));
    QCOMPARE(sacctState(cluster, 1), QStringLiteral("COMPLETED"));
    // Without B: Slurm signals the job's steps, not the batch shell: a job without srun steps
    // runs into its limit.
    QString steps
        = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("steps.out")));
    QVERIFY2(steps.startsWith(QStringLiteral("started\n")), qPrintable(steps));
    QVERIFY2(!steps.contains(QStringLiteral("got USR1")), qPrintable(steps));
    QCOMPARE(sacctState(cluster, 2), QStringLiteral("TIMEOUT"));
}

void LimitsTest::forkBombStopsAtThePidsLimitAndTheClusterGoesOn_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("cgroup-v2") << QStringLiteral("cgroup-v2");
    QTest::newRow("cgroup-v1") << QStringLiteral("cgroup-v1");
}

void LimitsTest::forkBombStopsAtThePidsLimitAndTheClusterGoesOn()
{
    QFETCH(QString, mode);
    ClusterFixture cluster;
    START_WITH_LIMITS(cluster, mode, QStringList{});

    ShellResult submit = cluster.shell(QString::fromUtf8(kBombScript));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 2)), 30000);

    QString out = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("bomb-1.out")));
    QVERIFY2(out.contains(QStringLiteral("fork failed: Resource temporarily unavailable")),
        qPrintable(out));
    QRegularExpressionMatch m = QRegularExpression(QStringLiteral("children: (\\d+)")).match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out));
    QVERIFY2(m.captured(1).toInt() < 512, qPrintable(out));
    QCOMPARE(sacctState(cluster, 1), QStringLiteral("COMPLETED"));
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("other-2.out"))),
        QStringLiteral("other job fine\n"));
    QCOMPARE(cluster.shell(QStringLiteral("echo login node fine")).out,
        QStringLiteral("login node fine\n"));
}

void LimitsTest::forkBombIsKilledByThePollingPathWithoutCgroups()
{
    // rlimit mode: RLIMIT_NPROC stops a non-root user's bomb at fork; as root (CI) it does not
    // apply, and the node daemon's /proc polling kills the job once it has over 512 processes.
    ClusterFixture cluster;
    START_WITH_LIMITS(cluster, QStringLiteral("rlimit"), QStringList{});

    // Polling sums the RSS of the processes, as Slurm's jobacct_gather/linux does, so the
    // bomb's copies count in full: it asks for most of the node's memory to meet the pids
    // limit first.
    ShellResult submit = cluster.shell(QString::fromUtf8(kBombScript)
                                           .replace(QStringLiteral("sbatch -J bomb"),
                                               QStringLiteral("sbatch --mem=7000M -J bomb")));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 2)), 30000);

    QString out = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("bomb-1.out")));
    if (out.contains(QStringLiteral("fork failed: Resource temporarily unavailable"))) {
        QCOMPARE(sacctState(cluster, 1), QStringLiteral("COMPLETED")); // RLIMIT_NPROC (not root)
    } else {
        QVERIFY2(out.contains(QRegularExpression(QStringLiteral(
                     "slurmstepd-cn01: error: StepId=1.batch has \\d+ processes, over its limit "
                     "of 512, being killed\n"))),
            qPrintable(out));
        QCOMPARE(sacctState(cluster, 1), QStringLiteral("FAILED"));
    }
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("other-2.out"))),
        QStringLiteral("other job fine\n"));
    // Nothing of the bomb is left on the machine.
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("pgrep -c -f '[p]ython3 bomb' || true")).out.trimmed(),
        QStringLiteral("0"), 10000);
}

void LimitsTest::cpusPerTaskBoundsCpuUse_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("evidence"); // what the job sees of its CPU bound
    QTest::newRow("cgroup-v2") << QStringLiteral("cgroup-v2")
                               << QStringLiteral("cpu.max: 100000 100000\n");
    QTest::newRow("cgroup-v1") << QStringLiteral("cgroup-v1")
                               << QStringLiteral("cfs_quota_us: 100000\n");
    QTest::newRow("rlimit (affinity)") << QStringLiteral("rlimit") << QStringLiteral("nproc: 1\n");
}

void LimitsTest::cpusPerTaskBoundsCpuUse()
{
    QFETCH(QString, mode);
    QFETCH(QString, evidence);
    ClusterFixture cluster;
    START_WITH_LIMITS(cluster, mode, QStringList{});
    ShellResult submit = cluster.shell(QString::fromUtf8(kCpuHogScript));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);
    QString out = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("hog-1.out")));
    QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("ticks: (\\d+) wall: (\\d+)")).match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out));
    // Two busy loops for 3 s use two CPUs' worth of time unbounded; one CPU bounds them to
    // about one (CPU time over wall time, both in hundredths of a second).
    double ratio = m.captured(1).toDouble() / std::max(1.0, m.captured(2).toDouble());
    QVERIFY2(ratio > 0.2 && ratio < 1.2, qPrintable(out));
    QVERIFY2(out.contains(evidence), qPrintable(out));
}

void LimitsTest::slurmTmpdirLivesAsLongAsTheJobAndExternStepIsRecorded()
{
    ClusterFixture cluster;
    // As on the Alliance's clusters: every job also has an extern step.
    QVERIFY(cluster.setSlurmConf(QStringLiteral("PrologFlags"), QStringLiteral("Contain")));
    START_WITH_LIMITS(cluster, QStringLiteral("auto"), QStringList{});
    ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -o tmp-%j.out --wrap 'echo $SLURM_TMPDIR; echo data > $SLURM_TMPDIR/f && cat "
        "$SLURM_TMPDIR/f; ls -ld $SLURM_TMPDIR | cut -c1-10'"));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    QTRY_VERIFY_WITH_TIMEOUT(isFinal(sacctState(cluster, 1)), 30000);
    QCOMPARE(sacctState(cluster, 1), QStringLiteral("COMPLETED"));
    QString out = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("tmp-1.out")));
    QStringList lines = out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(lines.value(0).endsWith(QStringLiteral("/localscratch/alice.1.0")), qPrintable(out));
    QCOMPARE(lines.value(1), QStringLiteral("data"));
    QCOMPARE(lines.value(2), QStringLiteral("drwx------"));
    QVERIFY(QDir(cluster.dir() + QStringLiteral("/nodes/cn01/localscratch")).exists());
    QVERIFY(!QDir(cluster.dir() + QStringLiteral("/nodes/cn01/localscratch/alice.1.0")).exists());
    ShellResult sacct = cluster.shell(QStringLiteral("sacct -n -o JobID,State,ExitCode -j 1"));
    QCOMPARE(sacct.out,
        QStringLiteral("1             COMPLETED      0:0 \n"
                       "1.batch       COMPLETED      0:0 \n"
                       "1.extern      COMPLETED      0:0 \n"));
}

QTEST_GUILESS_MAIN(LimitsTest)
#include "limits_test.moc"
