#pragma once
// A terminal tab's working part: a program on a PtyProcess and the TerminalScreen showing it.
// What the program writes goes to the screen; what the screen answers (keys, replies) goes to
// the program; when the screen is resized, the terminal's size follows (SIGWINCH).

#include <QObject>
#include <QString>
#include <QStringList>

namespace mc::term {

class PtyProcess;
class TerminalScreen;

class TerminalSession : public QObject {
    Q_OBJECT

public:
    static constexpr int kDefaultRows = 24;
    static constexpr int kDefaultCols = 80;

    explicit TerminalSession(QObject *parent = nullptr);
    ~TerminalSession() override;

    TerminalScreen *screen() const { return m_screen; }
    PtyProcess *process() const { return m_process; }

    // Starts `program` on a terminal the screen's size. False with errorString() on failure;
    // the screen then shows the error too, so a tab never stays silently blank.
    bool start(
        const QString &program, const QStringList &arguments, const QString &workingDir = {});
    QString errorString() const { return m_error; }
    bool isRunning() const;

Q_SIGNALS:
    // The program ended; the screen shows a line saying so.
    void finished(int exitCode);

private:
    TerminalScreen *m_screen;
    PtyProcess *m_process;
    QString m_error;
};

} // namespace mc::term
