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
    // The cluster directory given with --dir; empty for the default cluster.
    QString clusterDir;
    // What a terminal tab runs: `minicluster [--dir CLUSTER_DIR] shell`, the launcher that
    // sits next to minicluster-gui (a login shell on login1).
    QString shellProgram;
    QStringList shellArguments;
    // The emulated user the login shell runs as (the first user of the cluster's
    // etc/minicluster.conf, as `minicluster shell` chooses); "My jobs" shows theirs. Empty:
    // the login name of the real user.
    QString user;
};

// The shell command for `clusterDir` (empty: the default cluster), with the launcher found
// next to this program. Needs a QCoreApplication.
void setLoginShell(AppOptions &options);

// Sets the application's name and version (used by --version and QSettings); call once after
// creating the QApplication.
void setApplicationIdentity();

// Parses `arguments` (arguments[0] is the program). --help, --version and errors print their
// text and exit the process, as QCommandLineParser::process does; needs a QCoreApplication.
AppOptions parseAppOptions(const QStringList &arguments);

} // namespace mc::gui
