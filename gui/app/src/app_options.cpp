#include "mc/gui/app_options.h"

#include "mc/proto/client.h"
#include "mc/sched/site_conf.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace mc::gui {

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("minicluster"));
    QCoreApplication::setApplicationName(QStringLiteral("minicluster-gui"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MC_VERSION));
}

AppOptions parseAppOptions(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("mc::gui::AppOptions",
        "minicluster: a small Slurm cluster "
        "on this computer, for learning."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dirOption(QStringLiteral("dir"),
        QCoreApplication::translate(
            "mc::gui::AppOptions", "The cluster directory (default: the default cluster)."),
        QCoreApplication::translate("mc::gui::AppOptions", "CLUSTER_DIR"));
    parser.addOption(dirOption);
    parser.process(arguments);

    AppOptions options;
    if (parser.isSet(dirOption)) {
        options.clusterDir = QDir(parser.value(dirOption)).absolutePath();
        options.socketPath
            = QDir(options.clusterDir).absoluteFilePath(QStringLiteral("run/ctld.sock"));
    } else {
        options.socketPath = QString::fromStdString(mc::proto::controllerSocketPath());
    }
    setLoginShell(options);
    // The cluster directory holds run/ctld.sock; its etc/ names the emulated users.
    const QDir clusterDir(
        QDir::cleanPath(QFileInfo(options.socketPath).dir().filePath(QStringLiteral(".."))));
    QFile conf(clusterDir.filePath(QStringLiteral("etc/minicluster.conf")));
    if (conf.open(QIODevice::ReadOnly)) {
        const auto users = mc::sched::parseSiteUsers(conf.readAll().toStdString());
        if (!users.users.empty()) {
            options.user = QString::fromStdString(users.users.front().name);
        }
    }
    return options;
}

void setLoginShell(AppOptions &options)
{
    options.shellProgram = QDir(QCoreApplication::applicationDirPath())
                               .absoluteFilePath(QStringLiteral("minicluster"));
    options.shellArguments.clear();
    if (!options.clusterDir.isEmpty()) {
        options.shellArguments << QStringLiteral("--dir") << options.clusterDir;
    }
    options.shellArguments << QStringLiteral("shell");
}

} // namespace mc::gui
