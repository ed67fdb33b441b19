#include "mc/term/pty_process.h"

#include <QFileInfo>
#include <QProcessEnvironment>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace mc::term {

namespace {

constexpr int kReapPollMs = 20;

winsize windowSize(int rows, int cols)
{
    winsize size{};
    size.ws_row = static_cast<unsigned short>(std::max(rows, 1));
    size.ws_col = static_cast<unsigned short>(std::max(cols, 1));
    return size;
}

// NUL-terminated strings and the pointer array execve wants, built before fork().
struct CStrings {
    std::vector<QByteArray> storage;
    std::vector<char *> pointers;

    explicit CStrings(const QStringList &strings)
    {
        for (const QString &s : strings) {
            storage.push_back(s.toLocal8Bit());
        }
        for (QByteArray &s : storage) {
            pointers.push_back(s.data());
        }
        pointers.push_back(nullptr);
    }
};

} // namespace

PtyProcess::PtyProcess(QObject *parent)
    : QObject(parent)
{ }

PtyProcess::~PtyProcess()
{
    delete m_readNotifier;
    delete m_writeNotifier;
    if (m_master >= 0) {
        ::close(m_master);
    }
    if (m_pid > 0 && !m_finished) {
        ::kill(-m_pid, SIGHUP);
        ::kill(m_pid, SIGHUP);
        int status = 0;
        if (::waitpid(m_pid, &status, WNOHANG) == 0) {
            ::kill(-m_pid, SIGKILL);
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, &status, 0);
        }
    }
}

bool PtyProcess::start(const QString &program, const QStringList &arguments, int rows, int cols,
    const QString &workingDir)
{
    const QString path
        = program.contains(QLatin1Char('/')) ? program : QStandardPaths::findExecutable(program);
    if (path.isEmpty() || !QFileInfo(path).isExecutable()) {
        m_error = tr("%1: command not found").arg(program);
        return false;
    }
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TERM"), QStringLiteral("xterm-256color"));
    environment.insert(QStringLiteral("COLORTERM"), QStringLiteral("truecolor"));
    const CStrings argv(QStringList{program} + arguments);
    const CStrings envp(environment.toStringList());
    const QByteArray executable = path.toLocal8Bit();
    const QByteArray directory = workingDir.toLocal8Bit();

    winsize size = windowSize(rows, cols);
    int master = -1;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
    if (pid < 0) {
        m_error
            = tr("cannot open a terminal: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec.
        if (!directory.isEmpty() && ::chdir(directory.constData()) != 0) {
            ::_exit(127);
        }
        ::execve(executable.constData(), argv.pointers.data(), envp.pointers.data());
        ::_exit(127);
    }
    m_pid = pid;
    m_master = master;
    ::fcntl(m_master, F_SETFL, ::fcntl(m_master, F_GETFL) | O_NONBLOCK);
    ::fcntl(m_master, F_SETFD, FD_CLOEXEC);
    m_readNotifier = new QSocketNotifier(m_master, QSocketNotifier::Read, this);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &PtyProcess::onReadable);
    m_writeNotifier = new QSocketNotifier(m_master, QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &PtyProcess::onWritable);
    return true;
}

void PtyProcess::onReadable()
{
    QByteArray bytes;
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::read(m_master, buffer, sizeof buffer);
        if (n > 0) {
            bytes.append(buffer, static_cast<qsizetype>(n));
            if (bytes.size() >= 256 * 1024) {
                break; // let the event loop breathe; the notifier fires again
            }
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        }
        // EOF or EIO: every process holding the terminal has closed it.
        if (!bytes.isEmpty()) {
            Q_EMIT dataReceived(bytes);
        }
        onHangup();
        return;
    }
    if (!bytes.isEmpty()) {
        Q_EMIT dataReceived(bytes);
    }
}

void PtyProcess::write(const QByteArray &bytes)
{
    if (m_master < 0 || bytes.isEmpty()) {
        return;
    }
    m_pending.append(bytes);
    onWritable();
}

void PtyProcess::onWritable()
{
    while (!m_pending.isEmpty()) {
        const ssize_t n
            = ::write(m_master, m_pending.constData(), static_cast<size_t>(m_pending.size()));
        if (n > 0) {
            m_pending.remove(0, static_cast<qsizetype>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            break;
        }
        m_pending.clear(); // the terminal is gone; onReadable() reports the hangup
    }
    if (m_writeNotifier) {
        m_writeNotifier->setEnabled(!m_pending.isEmpty());
    }
}

void PtyProcess::setWindowSize(int rows, int cols)
{
    if (m_master < 0) {
        return;
    }
    winsize size = windowSize(rows, cols);
    ::ioctl(m_master, TIOCSWINSZ, &size);
}

void PtyProcess::onHangup()
{
    m_readNotifier->setEnabled(false);
    m_writeNotifier->setEnabled(false);
    if (!m_reapTimer) {
        m_reapTimer = new QTimer(this);
        m_reapTimer->setInterval(kReapPollMs);
        connect(m_reapTimer, &QTimer::timeout, this, &PtyProcess::tryReap);
        m_reapTimer->start();
    }
    tryReap();
}

void PtyProcess::tryReap()
{
    int status = 0;
    const pid_t reaped = ::waitpid(m_pid, &status, WNOHANG);
    if (reaped == 0) {
        return; // still exiting; the timer tries again
    }
    m_reapTimer->stop();
    m_finished = true;
    ::close(m_master);
    m_master = -1;
    int exitCode = 255;
    if (reaped == m_pid && WIFEXITED(status)) {
        exitCode = WEXITSTATUS(status);
    } else if (reaped == m_pid && WIFSIGNALED(status)) {
        exitCode = 128 + WTERMSIG(status);
    }
    Q_EMIT finished(exitCode);
}

} // namespace mc::term
