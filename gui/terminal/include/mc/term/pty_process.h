#pragma once
// A program on a pseudo-terminal: forkpty() gives it a controlling terminal of a given size;
// the master side is read when a QSocketNotifier says so, never blocking the thread.
//
// Life cycle: start() forks and execs (TERM=xterm-256color, COLORTERM=truecolor are set);
// dataReceived() carries everything the program writes; when the program has exited and the
// terminal is closed, finished() reports its exit status once. The destructor hangs up
// (SIGHUP to the program's process group) and reaps the child.

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <sys/types.h>

class QSocketNotifier;
class QTimer;

namespace mc::term {

class PtyProcess : public QObject {
    Q_OBJECT

public:
    explicit PtyProcess(QObject *parent = nullptr);
    ~PtyProcess() override;
    PtyProcess(const PtyProcess &) = delete;
    PtyProcess &operator=(const PtyProcess &) = delete;

    // Runs `program` (looked up in PATH) with `arguments` in `workingDir` (empty: ours) on a
    // new terminal of rows x cols. False, with errorString(), when the program is not found or
    // the terminal cannot be made. Precondition: not started yet.
    bool start(const QString &program, const QStringList &arguments, int rows, int cols,
        const QString &workingDir = {});
    bool isRunning() const { return m_pid > 0 && !m_finished; }
    pid_t pid() const { return m_pid; }
    QString errorString() const { return m_error; }

    // Sends bytes to the program as if typed. Bytes the terminal cannot take now are queued.
    void write(const QByteArray &bytes);
    // Sets the terminal's size; the kernel sends SIGWINCH to the program.
    void setWindowSize(int rows, int cols);

Q_SIGNALS:
    void dataReceived(const QByteArray &bytes);
    // `exitCode` as a shell reports it: the status, or 128 + the signal number.
    void finished(int exitCode);

private:
    void onReadable();
    void onWritable();
    void onHangup();
    void tryReap();

    int m_master = -1;
    pid_t m_pid = -1;
    bool m_finished = false;
    QByteArray m_pending;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    QTimer *m_reapTimer = nullptr;
    QString m_error;
};

} // namespace mc::term
