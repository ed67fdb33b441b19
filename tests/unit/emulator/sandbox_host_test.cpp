// The node's long-lived sandbox process (sandbox_host.h): the launch message round-trips, a
// malformed one is refused, and a real minicluster-sandboxd (run without bubblewrap here, the
// plain mode) forks a job with the descriptors it was sent and reports how it ended.
#include "mc/emu/sandbox_host.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mc::emu;

class SandboxHostTest : public QObject {
    Q_OBJECT

private slots:
    void launchMessageRoundTrips();
    void malformedLaunchIsRefused();
    void sandboxdRunsTheJobWithItsFilesAndReportsItsExit();
};

void SandboxHostTest::launchMessageRoundTrips()
{
    SandboxLaunch l;
    l.argv = {"/var/spool/slurmd/job00001/slurm_script", "arg with space", ""};
    l.env = {"SLURM_JOB_ID=1", "EMPTY="};
    l.chdir = "/home/alice";
    l.rlimits = {{6, 1536}};
    l.cpuCount = 2;
    l.firstCpu = 5;
    l.joinFds = 3;
    auto back = decodeLaunch(encodeLaunch(l));
    QVERIFY(back);
    QCOMPARE(back->argv, l.argv);
    QCOMPARE(back->env, l.env);
    QCOMPARE(back->chdir, l.chdir);
    QCOMPARE(back->rlimits, l.rlimits);
    QCOMPARE(back->cpuCount, 2);
    QCOMPARE(back->firstCpu, 5);
    QCOMPARE(back->joinFds, 3);
}

void SandboxHostTest::malformedLaunchIsRefused()
{
    QVERIFY(!decodeLaunch(""));
    QVERIFY(!decodeLaunch(std::string("launch\0"
                                      "0\0",
        9))); // no command
    SandboxLaunch l;
    l.argv = {"true"};
    std::string text = encodeLaunch(l);
    QVERIFY(!decodeLaunch(text.substr(0, text.size() - 2))); // truncated
    QVERIFY(!decodeLaunch(text + "extra"));
}

void SandboxHostTest::sandboxdRunsTheJobWithItsFilesAndReportsItsExit()
{
    QTemporaryDir dir;
    QString outPath = dir.filePath(QStringLiteral("out"));
    mc::proto::EventLoop loop;
    SandboxSpec spec; // plain: sandboxd runs directly, as inside bubblewrap
    SandboxHost host(loop, spec, MC_BIN_DIR "/minicluster-sandboxd");
    pid_t exitedPid = 0;
    int exitStatus = -1;
    host.onExit = [&](pid_t pid, int status, std::int64_t, std::int64_t) {
        exitedPid = pid;
        exitStatus = status;
        loop.quit();
    };
    std::string error;
    QVERIFY2(host.start(error), error.c_str());

    SandboxLaunch l;
    l.argv = {"/bin/sh", "-c", "echo \"$GREETING from $(pwd)\"; echo oops >&2; exit 3"};
    l.env = {"GREETING=hello", "PATH=/usr/bin:/bin"};
    l.chdir = "/";
    int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    int out = ::open(outPath.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    int err = ::fcntl(out, F_DUPFD_CLOEXEC, 0);
    pid_t pid = host.spawn(l, {in, out, err}, error);
    ::close(in);
    ::close(out);
    ::close(err);
    QVERIFY2(pid > 0, error.c_str());
    loop.addTimer(std::chrono::seconds(10), [&] { loop.quit(); });
    loop.run();
    QCOMPARE(exitedPid, pid);
    QVERIFY(WIFEXITED(exitStatus));
    QCOMPARE(WEXITSTATUS(exitStatus), 3);
    QFile f(outPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), QStringLiteral("hello from /\noops\n"));
}

QTEST_GUILESS_MAIN(SandboxHostTest)
#include "sandbox_host_test.moc"
