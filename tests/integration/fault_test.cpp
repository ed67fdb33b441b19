// Daemons killed with SIGKILL in the middle of jobs: the controller comes back with its queue
// and every accounting record; a lost node is marked down, the rest of the cluster goes on,
// and restarting the node kills what its dead daemon left, then ends its jobs NODE_FAIL or
// requeues them (never two runs of a job at once).
#include "cluster_fixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/mount.h>
#include <unistd.h>

namespace {

QString readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

pid_t pidIn(const QString &path)
{
    return static_cast<pid_t>(readFile(path).trimmed().toInt());
}

bool alive(pid_t pid)
{
    return pid > 0 && ::kill(pid, 0) == 0;
}

QString nodeLine(const ClusterFixture &cluster, const QString &node)
{
    const QStringList lines = cluster.minicluster({QStringLiteral("status")})
                                  .out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const auto &line : lines) {
        if (line.trimmed().startsWith(node + QLatin1Char(' '))) {
            return line.simplified();
        }
    }
    return {};
}

// Polls squeue once a second until the queue is empty or `ms` have passed; the counts that
// follow say what was not finished.
void waitForEmptyQueue(const ClusterFixture &cluster, qint64 ms)
{
    QElapsedTimer waited;
    waited.start();
    while (cluster.shell(QStringLiteral("squeue -h | wc -l")).out.trimmed() != QStringLiteral("0")
        && waited.elapsed() < ms) {
        QTest::qWait(1000);
    }
}

} // namespace

class FaultTest : public QObject {
    Q_OBJECT

private slots:
    void controllerKilledMidJobLosesNoJobAndNoRecord();
    void controllerKilledTwiceWhileJobsRunRunsEachJobOnce();
    void nodeDaemonKilledMidJobMarksNodeDownAndRestartBringsItBack();
    void downAfterTheControllerDiedStopsTheOtherDaemons();
    void frozenControllerStatusSaysSoAndDownKillsIt();
    void downSignalsNoProcessNamedOnlyByAPidFile();
    void controllerRefusesASlurmConfWithoutNodesOrPartitions();
    void fullDiskRefusesWorkKeepsEndReportsAndStoresThemWhenSpaceReturns();
};

void FaultTest::controllerKilledMidJobLosesNoJobAndNoRecord()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult submit = cluster.shell(QStringLiteral(
        "for i in 1 2 3 4 5; do sbatch -J j$i -o j$i.out --wrap 'sleep 8; echo done'; done"));
    QCOMPARE(submit.out.count(QStringLiteral("Submitted batch job")), 5);
    // Long enough for all five to be running at once on a loaded machine.
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("squeue -h -t R -o %i")).out.count(QLatin1Char('\n')), 5,
        20000);

    pid_t ctld = pidIn(cluster.dir() + QStringLiteral("/run/ctld.pid"));
    QVERIFY(alive(ctld));
    QCOMPARE(::kill(ctld, SIGKILL), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(ctld), 5000);
    // The jobs end while no controller listens; the nodes keep their end reports.
    QTRY_VERIFY_WITH_TIMEOUT(
        readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("j5.out")))
            == QStringLiteral("done\n"),
        30000);

    ShellResult restart = cluster.minicluster({QStringLiteral("up")});
    QCOMPARE(restart.exitCode, 0);
    QVERIFY2(restart.out.startsWith(QStringLiteral("minicluster: restarted controller")),
        qPrintable(restart.out + restart.err));

    QTRY_COMPARE_WITH_TIMEOUT(cluster.shell(QStringLiteral("sacct -n -o JobID,State -j 1,2,3,4,5"))
                                  .out.count(QStringLiteral("COMPLETED")),
        10, 10000);
    ShellResult next = cluster.shell(QStringLiteral("sbatch -o /dev/null --wrap true"));
    QCOMPARE(next.out, QStringLiteral("Submitted batch job 6\n"));
    // The state files hold every script and environment: the owner's only.
    for (const char *name : {"ctld.sqlite", "ctld.sqlite-wal"}) {
        const QFileInfo state(cluster.dir() + QStringLiteral("/state/") + QLatin1String(name));
        QVERIFY2(state.exists(), name);
        const auto others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
            | QFileDevice::ReadOther | QFileDevice::WriteOther;
        QVERIFY2(!(state.permissions() & others), name);
    }
}

// Issue #18: jobs ran twice after a controller restart (a node's replayed end reports started
// new jobs there, which the check that followed took for lost and requeued while they ran).
// Each job counts its own executions; the counts that must be zero are checked.
void FaultTest::controllerKilledTwiceWhileJobsRunRunsEachJobOnce()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const int jobs = 40;
    ShellResult submit = cluster.shell(
        QStringLiteral("mkdir -p runs; for i in $(seq %1); do sbatch -o /dev/null "
                       "--wrap 'echo $SLURM_RESTART_COUNT >> runs/$SLURM_JOB_ID; sleep 6'; done")
            .arg(jobs));
    QCOMPARE(submit.out.count(QStringLiteral("Submitted batch job")), jobs);
    const QDir runs(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("runs")));
    auto started = [&] {
        return runs.entryList(QDir::Files).size();
    };
    // Checks by file, not by command: a shell costs seconds on a loaded machine, and QTRY
    // counts its timeout in iterations.
    for (int kill = 0; kill < 2; ++kill) {
        const auto before = started();
        QTRY_VERIFY_WITH_TIMEOUT(started() > before, 30000);
        const pid_t ctld = pidIn(cluster.dir() + QStringLiteral("/run/ctld.pid"));
        QCOMPARE(::kill(ctld, SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!alive(ctld), 5000);
        QTest::qWait(1500); // jobs end while no controller listens
        QCOMPARE(cluster.minicluster({QStringLiteral("up")}).exitCode, 0);
    }
    QTRY_COMPARE_WITH_TIMEOUT(started(), jobs, 120000);
    waitForEmptyQueue(cluster, 120000);
    int twice = 0;
    int lost = 0;
    for (int id = 1; id <= jobs; ++id) {
        const QString lines = readFile(runs.filePath(QString::number(id)));
        twice += lines.count(QLatin1Char('\n')) > 1 ? 1 : 0;
        lost += lines.isEmpty() ? 1 : 0;
    }
    const QString acct = cluster.shell(QStringLiteral("sacct -n -X -P -o JobID,State")).out;
    const int recorded = static_cast<int>(acct.count(QStringLiteral("|COMPLETED\n")));
    QCOMPARE(twice, 0);
    QCOMPARE(lost, 0);
    QCOMPARE(jobs - recorded, 0); // accounting rows missing
}

void FaultTest::nodeDaemonKilledMidJobMarksNodeDownAndRestartBringsItBack()
{
    ClusterFixture cluster;
    // A requeued job waits cred_expire + 1 s (BeginTime) before it runs again: 6 s, not 121.
    QVERIFY(cluster.setSlurmConf(QStringLiteral("AuthInfo"), QStringLiteral("cred_expire=5")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // Two jobs share cn01: one refuses requeueing, one takes Slurm's default (JobRequeue=1).
    ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -c 2 --no-requeue -J victim -o victim.out --wrap 'sleep 30; echo after'; "
        "sbatch -c 2 -J requeued -o requeued.out "
        "--wrap 'echo start >> runs.txt; sleep 5; echo finished, restarts=$SLURM_RESTART_COUNT'; "
        "sbatch -c 4 -J bystander -o bystander.out --wrap 'sleep 2; echo fine'"));
    QCOMPARE(submit.out,
        QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\nSubmitted batch job 3\n"));
    QTRY_COMPARE_WITH_TIMEOUT(cluster.shell(QStringLiteral("squeue -h -j 1,2 -o %t:%N")).out,
        QStringLiteral("R:cn01\nR:cn01\n"), 10000);
    const QString jobPidFile = cluster.dir() + QStringLiteral("/nodes/cn01/spool/job00001/pid");
    QTRY_VERIFY_WITH_TIMEOUT(pidIn(jobPidFile) > 0, 5000);
    pid_t jobPid = pidIn(jobPidFile);

    pid_t noded = pidIn(cluster.dir() + QStringLiteral("/run/noded-cn01.pid"));
    QVERIFY(alive(noded));
    QCOMPARE(::kill(noded, SIGKILL), 0);

    // docs/design.md, "At most once": the node does not respond, its jobs stay RUNNING there
    // and no copy of them starts while what the dead daemon left may still run.
    QTRY_COMPARE_WITH_TIMEOUT(nodeLine(cluster, QStringLiteral("cn01")),
        QStringLiteral("cn01 down 4/4 CPUs allocated (Not responding)"), 10000);
    // The rest of the cluster goes on.
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j 3")).out.trimmed(),
        QStringLiteral("COMPLETED"), 20000);
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("bystander.out"))),
        QStringLiteral("fine\n"));
    QCOMPARE(cluster.shell(QStringLiteral("squeue -h -j 1,2 -o %t:%N")).out,
        QStringLiteral("R:cn01\nR:cn01\n"));

    ShellResult restart = cluster.minicluster({QStringLiteral("up")});
    QCOMPARE(restart.exitCode, 0);
    QVERIFY2(restart.out.startsWith(QStringLiteral("minicluster: restarted cn01")),
        qPrintable(restart.out + restart.err));
    // The new daemon killed the orphans before it registered; then job 1 ended NODE_FAIL and
    // job 2 was requeued: one run at a time, two in all.
    QTRY_VERIFY_WITH_TIMEOUT(!alive(jobPid), 5000); // a zombie until its reaper runs
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j 1,2")).out.simplified(),
        QStringLiteral("NODE_FAIL COMPLETED"), 20000);
    QVERIFY(!readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("victim.out")))
                 .contains(QStringLiteral("after")));
    QString requeued
        = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("requeued.out")));
    QVERIFY2(requeued.endsWith(QStringLiteral("finished, restarts=1\n")), qPrintable(requeued));
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("runs.txt"))),
        QStringLiteral("start\nstart\n"));
    QCOMPARE(
        nodeLine(cluster, QStringLiteral("cn01")), QStringLiteral("cn01 idle 0/4 CPUs allocated"));

    ShellResult again = cluster.shell(QStringLiteral("sbatch -c 4 -o again.out --wrap hostname"));
    QCOMPARE(again.out, QStringLiteral("Submitted batch job 4\n"));
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j 4")).out.trimmed(),
        QStringLiteral("COMPLETED"), 10000);
    ShellResult steps = cluster.shell(QStringLiteral("sacct -n -o JobID,State -j 1"));
    QVERIFY2(steps.out.contains(QRegularExpression(QStringLiteral("1\\.batch +CANCELLED"))),
        qPrintable(steps.out));
}

void FaultTest::downAfterTheControllerDiedStopsTheOtherDaemons()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const pid_t ctld = pidIn(cluster.dir() + QStringLiteral("/run/ctld.pid"));
    const pid_t node = pidIn(cluster.dir() + QStringLiteral("/run/noded-cn01.pid"));
    const pid_t storage = pidIn(cluster.dir() + QStringLiteral("/run/stored.pid"));
    QVERIFY(alive(node) && alive(storage));
    QCOMPARE(::kill(ctld, SIGKILL), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(ctld), 5000);

    // Nobody is left to tell the nodes to leave: `down` signals them itself.
    ShellResult down = cluster.minicluster({QStringLiteral("down")});
    QCOMPARE(down.exitCode, 0);
    QVERIFY2(down.out.contains(QStringLiteral("stopped (its controller was not running)")),
        qPrintable(down.out + down.err));
    QTRY_VERIFY_WITH_TIMEOUT(!alive(node), 5000); // gone; its parent may take a moment to reap
    QTRY_VERIFY_WITH_TIMEOUT(!alive(storage), 5000);
    ShellResult again = cluster.minicluster({QStringLiteral("down")});
    QVERIFY2(again.out.contains(QStringLiteral("is not running")), qPrintable(again.out));
}

// A stopped (SIGSTOP) controller: every client gives up after MessageTimeout; `status` says
// it does not answer, `up` does not start a second one, `down` kills it and stops the rest.
void FaultTest::frozenControllerStatusSaysSoAndDownKillsIt()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    QFile conf(cluster.dir() + QStringLiteral("/etc/slurm.conf"));
    QVERIFY(conf.open(QIODevice::Append));
    conf.write("MessageTimeout=2\n");
    conf.close();
    const pid_t ctld = pidIn(cluster.dir() + QStringLiteral("/run/ctld.pid"));
    const pid_t node = pidIn(cluster.dir() + QStringLiteral("/run/noded-cn01.pid"));
    QCOMPARE(::kill(ctld, SIGSTOP), 0);

    QElapsedTimer timer;
    timer.start();
    ShellResult status = cluster.minicluster({QStringLiteral("status")});
    QCOMPARE(status.exitCode, 3);
    QVERIFY2(status.out.contains(QStringLiteral("controller: not answering (pid %1 did not answer "
                                                "within MessageTimeout=2 s")
                                     .arg(ctld)),
        qPrintable(status.out));
    QVERIFY2(timer.elapsed() < 8000, qPrintable(QString::number(timer.elapsed())));
    // The commands give up after MessageTimeout too, with Slurm's words.
    const std::pair<QString, QString> commands[] = {
        {QStringLiteral("squeue"),
            QStringLiteral("slurm_load_jobs error: Socket timed out on send/recv operation\n")},
        {QStringLiteral("sbatch"),
            QStringLiteral("sbatch: error: Batch job submission failed: Socket timed out on "
                           "send/recv operation\n")},
        {QStringLiteral("srun"),
            QStringLiteral("srun: error: Unable to allocate resources: Socket timed out on "
                           "send/recv operation\n")},
    };
    for (const auto &[command, words] : commands) {
        QProcess client;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("SLURM_CONF"));
        env.remove(QStringLiteral("MINICLUSTER_SOCKET"));
        env.insert(QStringLiteral("MINICLUSTER_DIR"), cluster.dir());
        env.insert(QStringLiteral("MINICLUSTER_USER"), QStringLiteral("alice"));
        client.setProcessEnvironment(env);
        client.setWorkingDirectory(cluster.dir());
        QStringList args;
        if (command == QStringLiteral("sbatch")) {
            args = {QStringLiteral("--wrap"), QStringLiteral("true")};
        } else if (command == QStringLiteral("srun")) {
            args = {QStringLiteral("true")};
        }
        timer.restart();
        client.start(QStringLiteral(MC_BIN_DIR "/") + command, args);
        QVERIFY(client.waitForFinished(20000));
        QCOMPARE(QString::fromUtf8(client.readAllStandardError()), words);
        QCOMPARE(client.exitCode(), 1);
        QVERIFY2(timer.elapsed() < 8000, qPrintable(QString::number(timer.elapsed())));
    }
    ShellResult up = cluster.minicluster({QStringLiteral("up")});
    QCOMPARE(up.exitCode, 1);
    QVERIFY2(up.err.contains(QStringLiteral("does not answer; `minicluster down` stops it")),
        qPrintable(up.err));

    ShellResult down = cluster.minicluster({QStringLiteral("down")});
    QCOMPARE(down.exitCode, 0);
    QVERIFY2(
        down.out.contains(QStringLiteral("did not answer within MessageTimeout=2 s: killing it")),
        qPrintable(down.out));
    QVERIFY2(down.out.contains(QStringLiteral("stopped (its controller did not answer)")),
        qPrintable(down.out));
    QTRY_VERIFY_WITH_TIMEOUT(!alive(ctld), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(node), 5000);
}

// A pid file names a process that is not the daemon (written by anyone who can write run/):
// `down` checks /proc/PID/exe and leaves it alone.
void FaultTest::downSignalsNoProcessNamedOnlyByAPidFile()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const pid_t ctld = pidIn(cluster.dir() + QStringLiteral("/run/ctld.pid"));
    QCOMPARE(::kill(ctld, SIGKILL), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(ctld), 5000);
    QProcess bystander;
    bystander.start(QStringLiteral("sleep"), {QStringLiteral("60")});
    QVERIFY(bystander.waitForStarted());
    QFile pidFile(cluster.dir() + QStringLiteral("/run/ctld.pid"));
    QVERIFY(pidFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
    pidFile.write(QByteArray::number(bystander.processId()) + "\n");
    pidFile.close();

    ShellResult down = cluster.minicluster({QStringLiteral("down")});
    QCOMPARE(down.exitCode, 0);
    QVERIFY2(down.out.contains(QStringLiteral("stopped (its controller was not running)")),
        qPrintable(down.out));
    QVERIFY(alive(static_cast<pid_t>(bystander.processId())));
    bystander.kill();
    bystander.waitForFinished();
}

void FaultTest::controllerRefusesASlurmConfWithoutNodesOrPartitions()
{
    const std::pair<QByteArray, QString> cases[] = {
        {"ClusterName=empty\n", QStringLiteral("defines no usable node")},
        {"ClusterName=nopart\nNodeName=cn01 CPUs=2 RealMemory=1000\n",
            QStringLiteral("defines no usable partition")},
    };
    for (const auto &[conf, words] : cases) {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("etc")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("state")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("run")));
        QFile file(dir.path() + QStringLiteral("/etc/slurm.conf"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(conf);
        file.close();
        QProcess ctld;
        ctld.start(
            QStringLiteral(MC_BIN_DIR "/minicluster-ctld"), {QStringLiteral("--dir"), dir.path()});
        QVERIFY(ctld.waitForFinished(20000));
        QCOMPARE(ctld.exitCode(), 1);
        const QString err = QString::fromUtf8(ctld.readAllStandardError());
        QVERIFY2(err.contains(words), qPrintable(err));
        QVERIFY(!QFile::exists(dir.path() + QStringLiteral("/run/ctld.sock")));
    }
}

// The cluster's state/ on a 2 MB tmpfs, filled while 20 jobs run (a real full disk: mounting
// one needs root). Nothing new is accepted or started, the jobs' ends wait on their nodes, and
// once space returns every job is recorded, each having run once.
void FaultTest::fullDiskRefusesWorkKeepsEndReportsAndStoresThemWhenSpaceReturns()
{
    if (::geteuid() != 0) {
        QSKIP("mounting a small tmpfs as a full disk needs root");
    }
    ClusterFixture cluster;
    const QString state = cluster.dir() + QStringLiteral("/state");
    QVERIFY(QDir().mkpath(state));
    if (::mount("tmpfs", state.toUtf8().constData(), "tmpfs", 0, "size=2m") != 0) {
        QSKIP("mount(tmpfs) is not allowed here");
    }
    struct Unmount {
        QByteArray path;
        ~Unmount() { ::umount2(path.constData(), MNT_DETACH); }
    } unmount{state.toUtf8()};
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const int jobs = 20;
    ShellResult submit
        = cluster.shell(QStringLiteral("mkdir -p runs; for i in $(seq %1); do sbatch -o /dev/null "
                                       "--wrap 'echo start >> runs/$SLURM_JOB_ID; sleep 6'; done")
                            .arg(jobs));
    QCOMPARE(submit.out.count(QStringLiteral("Submitted batch job")), jobs);
    const QDir runs(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("runs")));
    QTRY_VERIFY_WITH_TIMEOUT(!runs.entryList(QDir::Files).isEmpty(), 30000);

    QProcess fill; // until the disk is full
    fill.start(QStringLiteral("dd"),
        {QStringLiteral("if=/dev/zero"), QStringLiteral("of=") + state + QStringLiteral("/filler"),
            QStringLiteral("bs=4k")});
    QVERIFY(fill.waitForFinished(30000));
    ShellResult refused = cluster.shell(QStringLiteral("sbatch --wrap true"));
    QCOMPARE(refused.err,
        QStringLiteral("sbatch: error: Batch job submission failed: I/O error writing "
                       "script/environment to file\n"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(cluster.dir() + QStringLiteral("/log/ctld.log"))
                                 .contains(QStringLiteral("database or disk is full")),
        30000);

    QVERIFY(QFile::remove(state + QStringLiteral("/filler"))); // space returns
    QTRY_COMPARE_WITH_TIMEOUT(runs.entryList(QDir::Files).size(), jobs, 120000);
    waitForEmptyQueue(cluster, 120000);
    int twice = 0;
    for (int id = 1; id <= jobs; ++id) {
        twice += readFile(runs.filePath(QString::number(id))).count(QLatin1Char('\n')) > 1 ? 1 : 0;
    }
    const QString acct = cluster.shell(QStringLiteral("sacct -n -o JobID,State -P")).out;
    QCOMPARE(twice, 0);
    QCOMPARE(jobs
            - static_cast<int>(acct.count(QRegularExpression(
                QStringLiteral("^\\d+\\|COMPLETED$"), QRegularExpression::MultilineOption))),
        0); // job rows missing
    QCOMPARE(jobs - static_cast<int>(acct.count(QStringLiteral(".batch|COMPLETED\n"))),
        0); // batch step rows missing
    QCOMPARE(cluster.minicluster({QStringLiteral("down")}).exitCode, 0);
}

QTEST_GUILESS_MAIN(FaultTest)
#include "fault_test.moc"
