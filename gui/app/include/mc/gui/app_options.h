#pragma once
// minicluster-gui's command line: `minicluster-gui [--dir CLUSTER_DIR]`.

#include <QString>
#include <QStringList>

namespace mc::gui {

struct AppOptions {
    // The controller socket: CLUSTER_DIR/run/ctld.sock with --dir, else
    // mc::proto::controllerSocketPath() ($MINICLUSTER_SOCKET, $MINICLUSTER_DIR, the default
    // cluster).
    QString socketPath;
};

// Sets the application's name and version (used by --version and QSettings); call once after
// creating the QApplication.
void setApplicationIdentity();

// Parses `arguments` (arguments[0] is the program). --help, --version and errors print their
// text and exit the process, as QCommandLineParser::process does; needs a QCoreApplication.
AppOptions parseAppOptions(const QStringList &arguments);

} // namespace mc::gui
