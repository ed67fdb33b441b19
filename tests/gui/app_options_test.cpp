#include "mc/gui/app_options.h"

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
};

QTEST_GUILESS_MAIN(AppOptionsTest)
#include "app_options_test.moc"
