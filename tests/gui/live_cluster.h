#pragma once
// A real cluster for the app's flow tests: `minicluster up` in a temporary folder, `down` when
// the object goes. The launcher is the built one (MC_BIN_DIR); its output is logged when it
// fails. (gui.whole_flow and gui.reset_flow still carry their own copy of this.)

#include <QDir>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

namespace mc::gui::test {

class LiveCluster {
public:
    static inline const QString kLauncher = QStringLiteral(MC_BIN_DIR "/minicluster");

    // `pattern`: the temporary folder's name, e.g. "mc-gui-clock-XXXXXX".
    explicit LiveCluster(const QString &pattern)
        : m_dir(QDir::tempPath() + QLatin1Char('/') + pattern)
    { }
    ~LiveCluster()
    {
        if (m_up) {
            run({QStringLiteral("down")});
        }
    }
    LiveCluster(const LiveCluster &) = delete;
    LiveCluster &operator=(const LiveCluster &) = delete;

    QString dir() const { return m_dir.path(); }
    bool up(const QStringList &extra = {})
    {
        m_up = m_dir.isValid() && run(extra + QStringList{QStringLiteral("up")});
        return m_up;
    }
    // `minicluster --dir DIR arguments...`: true when it exits 0 within a minute.
    bool run(const QStringList &arguments) const
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(kLauncher, QStringList{QStringLiteral("--dir"), dir()} + arguments);
        const bool ok = process.waitForFinished(60000)
            && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
        if (!ok) {
            qWarning("minicluster %s: %s", qPrintable(arguments.join(QLatin1Char(' '))),
                qPrintable(QString::fromLocal8Bit(process.readAll())));
        }
        return ok;
    }

private:
    QTemporaryDir m_dir;
    bool m_up = false;
};

} // namespace mc::gui::test
