#include "mc/emu/cluster_layout.h"
#include "mc/emu/sandbox.h"

#include <QtTest>

#include <algorithm>

using namespace mc::emu;

namespace {

bool hasSequence(const std::vector<std::string> &argv, const std::vector<std::string> &seq)
{
    return std::search(argv.begin(), argv.end(), seq.begin(), seq.end()) != argv.end();
}

} // namespace

class SandboxTest : public QObject {
    Q_OBJECT

private slots:
    void sandboxPathsMapToTheClusterDirectory_data();
    void sandboxPathsMapToTheClusterDirectory();
    void bubblewrapGivesNodeNameUserAndSharedFilesystems();
    void plainModeRunsTheCommandItself();
};

void SandboxTest::sandboxPathsMapToTheClusterDirectory_data()
{
    QTest::addColumn<QString>("inside");
    QTest::addColumn<QString>("host");
    QTest::newRow("home") << "/home/alice/out.txt"
                          << "/c/home/alice/out.txt";
    QTest::newRow("scratch") << "/scratch/alice"
                             << "/c/scratch/alice";
    QTest::newRow("node-local tmp") << "/tmp/x"
                                    << "/c/nodes/cn02/tmp/x";
    QTest::newRow("local scratch") << "/localscratch/a.1"
                                   << "/c/nodes/cn02/localscratch/a.1";
    QTest::newRow("a prefix is not a parent") << "/homework/x"
                                              << "/homework/x";
    QTest::newRow("outside every mount") << "/dev/null"
                                         << "/dev/null";
    QTest::newRow("commands") << "/opt/minicluster/bin/sbatch"
                              << "/b/sbatch";
}

void SandboxTest::sandboxPathsMapToTheClusterDirectory()
{
    QFETCH(QString, inside);
    QFETCH(QString, host);
    auto mounts = nodeMounts(ClusterLayout{"/c"}, "cn02", "/b");
    QCOMPARE(QString::fromStdString(hostPathFor(mounts, inside.toStdString())), host);
}

void SandboxTest::bubblewrapGivesNodeNameUserAndSharedFilesystems()
{
    SandboxSpec spec;
    spec.mode = SandboxMode::Bubblewrap;
    spec.hostname = "cn01";
    spec.uid = 1001;
    spec.gid = 1001;
    spec.mounts = nodeMounts(ClusterLayout{"/c"}, "cn01", "/b");
    spec.passwdFile = "/c/etc/passwd";
    spec.workDir = "/home/alice";
    auto argv = sandboxArgv(spec, {"/bin/bash", "job.sh"});
    QCOMPARE(QString::fromStdString(argv.front()), QStringLiteral("bwrap"));
    QVERIFY(hasSequence(argv, {"--hostname", "cn01"}));
    QVERIFY(hasSequence(argv, {"--uid", "1001"}));
    QVERIFY(hasSequence(argv, {"--bind", "/c/home", "/home"}));
    QVERIFY(hasSequence(argv, {"--ro-bind", "/c/etc/passwd", "/etc/passwd"}));
    QVERIFY(hasSequence(argv, {"--ro-bind", "/usr", "/usr"}));
    QVERIFY(hasSequence(argv, {"--chdir", "/home/alice", "--", "/bin/bash", "job.sh"}));
}

void SandboxTest::plainModeRunsTheCommandItself()
{
    SandboxSpec spec;
    auto argv = sandboxArgv(spec, {"/bin/bash", "job.sh"});
    QCOMPARE(argv, (std::vector<std::string>{"/bin/bash", "job.sh"}));
    SandboxView view = sandboxView(SandboxMode::Plain, ClusterLayout{"/c"}, "bob", "/b");
    QCOMPARE(QString::fromStdString(view.home), QStringLiteral("/c/home/bob"));
    QCOMPARE(QString::fromStdString(
                 sandboxView(SandboxMode::Bubblewrap, ClusterLayout{"/c"}, "bob", "/b").home),
        QStringLiteral("/home/bob"));
}

QTEST_APPLESS_MAIN(SandboxTest)
#include "sandbox_test.moc"
