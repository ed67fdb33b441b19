#include "mc/launch/cluster_setup.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace mc;

namespace {

QString read(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class ClusterSetupTest : public QObject {
    Q_OBJECT

private slots:
    void newDirectoryGetsThePresetAndEveryUsersFolders();
    void editedConfigurationAndDotfilesAreKept();
    void unknownPresetIsReportedByName();
};

void ClusterSetupTest::newDirectoryGetsThePresetAndEveryUsersFolders()
{
    QTemporaryDir tmp;
    emu::ClusterLayout layout{tmp.path().toStdString() + "/c"};
    auto result
        = launch::prepareCluster(layout, "default", MC_BIN_DIR, emu::SandboxMode::Bubblewrap);
    QVERIFY2(result.ok, result.error.c_str());
    QCOMPARE(
        result.nodes, (std::vector<std::string>{"cn01", "cn02", "cn03", "cn04", "gpu01", "gpu02"}));
    QCOMPARE(result.users.front(), std::string("alice"));
    const QString dir = QString::fromStdString(layout.dir);
    QVERIFY(read(dir + "/etc/passwd")
                .contains("alice:x:1001:1001:Alice Student:/home/alice:/bin/bash\n"));
    QVERIFY(read(dir + "/etc/group").contains("def-prof:x:6000:alice,bob,carol,prof\n"));
    QVERIFY(QDir(dir + "/project/def-prof/alice").exists());
    QVERIFY(QDir(dir + "/scratch/bob").exists());
    QVERIFY(QDir(dir + "/nodes/cn03/localscratch").exists());
    QVERIFY(QDir(dir + "/nodes/login1/tmp").exists());
    QVERIFY(read(dir + "/etc/profile").contains("PATH=\"/opt/minicluster/bin:"));
}

void ClusterSetupTest::editedConfigurationAndDotfilesAreKept()
{
    QTemporaryDir tmp;
    emu::ClusterLayout layout{tmp.path().toStdString() + "/c"};
    QVERIFY(launch::prepareCluster(layout, "default", MC_BIN_DIR, emu::SandboxMode::Plain).ok);
    const QString dir = QString::fromStdString(layout.dir);
    QFile conf(dir + "/etc/slurm.conf");
    QVERIFY(conf.open(QIODevice::Append));
    conf.write("NodeName=cn05 CPUs=2 RealMemory=1000\n");
    conf.close();
    QFile rc(dir + "/home/alice/.bashrc");
    QVERIFY(rc.open(QIODevice::WriteOnly));
    rc.write("# mine\n");
    rc.close();

    auto again = launch::prepareCluster(layout, "default", MC_BIN_DIR, emu::SandboxMode::Plain);
    QVERIFY(again.ok);
    QCOMPARE(again.nodes.back(), std::string("cn05"));
    QCOMPARE(read(dir + "/home/alice/.bashrc"), QStringLiteral("# mine\n"));
    // Plain mode: the profile points into the cluster directory and puts the shim first.
    QVERIFY(read(dir + "/etc/profile").contains("PATH=\"" + dir + "/run/shim:"));
}

void ClusterSetupTest::unknownPresetIsReportedByName()
{
    QTemporaryDir tmp;
    emu::ClusterLayout layout{tmp.path().toStdString() + "/c"};
    auto result = launch::prepareCluster(layout, "nosuch", MC_BIN_DIR, emu::SandboxMode::Plain);
    QVERIFY(!result.ok);
    QVERIFY2(result.error.rfind("no preset named 'nosuch'", 0) == 0, result.error.c_str());
}

QTEST_APPLESS_MAIN(ClusterSetupTest)
#include "cluster_setup_test.moc"
