#include "mc/term/terminal_session.h"

#include "mc/term/pty_process.h"
#include "mc/term/terminal_screen.h"

namespace mc::term {

TerminalSession::TerminalSession(QObject *parent)
    : QObject(parent)
    , m_screen(new TerminalScreen(kDefaultRows, kDefaultCols, this))
    , m_process(new PtyProcess(this))
{
    connect(m_process, &PtyProcess::dataReceived, m_screen, &TerminalScreen::feed);
    connect(m_screen, &TerminalScreen::outputReady, m_process, &PtyProcess::write);
    connect(m_screen, &TerminalScreen::resized, m_process, &PtyProcess::setWindowSize);
    connect(m_process, &PtyProcess::finished, this, [this](int exitCode) {
        m_screen->feed(QStringLiteral("\r\n\x1b[0m[%1]\r\n")
                           .arg(tr("The shell has ended (exit status %1).").arg(exitCode))
                           .toUtf8());
        Q_EMIT finished(exitCode);
    });
}

TerminalSession::~TerminalSession() = default;

bool TerminalSession::start(
    const QString &program, const QStringList &arguments, const QString &workingDir)
{
    if (m_process->start(program, arguments, m_screen->rows(), m_screen->cols(), workingDir)) {
        return true;
    }
    m_error = m_process->errorString();
    m_screen->feed(QStringLiteral("\x1b[31m%1\x1b[0m\r\n").arg(m_error).toUtf8());
    return false;
}

bool TerminalSession::isRunning() const
{
    return m_process->isRunning();
}

} // namespace mc::term
