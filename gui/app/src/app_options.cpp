#include "mc/gui/app_options.h"

#include "mc/proto/client.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>

namespace mc::gui {

void setApplicationIdentity()
{
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
        options.socketPath
            = QDir(parser.value(dirOption)).absoluteFilePath(QStringLiteral("run/ctld.sock"));
    } else {
        options.socketPath = QString::fromStdString(mc::proto::controllerSocketPath());
    }
    return options;
}

} // namespace mc::gui
