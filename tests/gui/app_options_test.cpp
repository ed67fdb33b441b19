#include "mc/gui/app_options.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using mc::gui::parseAppOptions;

class AppOptionsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void dirOptionPointsAtTheClustersControllerSocket()
    {
        const auto options = parseAppOptions({"minicluster-gui", "--dir", "/tmp/course"});
        QCOMPARE(options.socketPath, QStringLiteral("/tmp/course/run/ctld.sock"));
    }

    void withoutDirTheSocketComesFromTheEnvironment()
    {
        qputenv("MINICLUSTER_SOCKET", "/tmp/elsewhere/ctld.sock");
        const auto options = parseAppOptions({"minicluster-gui"});
        qunsetenv("MINICLUSTER_SOCKET");
        QCOMPARE(options.socketPath, QStringLiteral("/tmp/elsewhere/ctld.sock"));
    }

    void terminalRunsTheLauncherNextToTheAppOnTheSameCluster()
    {
        const auto options = parseAppOptions({"minicluster-gui", "--dir", "/tmp/course"});
        QCOMPARE(options.shellProgram,
            QCoreApplication::applicationDirPath() + QStringLiteral("/minicluster"));
        QCOMPARE(options.shellArguments,
            (QStringList{
                QStringLiteral("--dir"), QStringLiteral("/tmp/course"), QStringLiteral("shell")}));
    }

    void myJobsAreThoseOfTheClustersFirstUser()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("etc")));
        QFile conf(dir.filePath(QStringLiteral("etc/minicluster.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("# users\nUser=dana UID=1005 DefaultAccount=lab\nUser=eve UID=1006 "
                   "DefaultAccount=lab\n");
        conf.close();
        const auto options = parseAppOptions({"minicluster-gui", "--dir", dir.path()});
        QCOMPARE(options.user, QStringLiteral("dana"));
    }
};

QTEST_GUILESS_MAIN(AppOptionsTest)
#include "app_options_test.moc"
