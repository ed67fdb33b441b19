// A real shell on a real pseudo-terminal, driven through the session (no widget): what it
// prints reaches the screen, keys reach it, the window size reaches it, its end is reported.

#include "mc/term/pty_process.h"
#include "mc/term/terminal_screen.h"
#include "mc/term/terminal_session.h"

#include <QSignalSpy>
#include <QTest>

#include <csignal>

using mc::term::PtyProcess;
using mc::term::TerminalScreen;
using mc::term::TerminalSession;

namespace {

constexpr int kTimeoutMs = 10000;

bool screenContains(const TerminalScreen &screen, const QString &text)
{
    for (int row = -screen.scrollbackCount(); row < screen.rows(); ++row) {
        if (screen.lineText(row).contains(text)) {
            return true;
        }
    }
    return false;
}

void type(TerminalScreen &screen, const QString &text)
{
    for (const char32_t ch : text.toUcs4()) {
        screen.sendChar(ch);
    }
    screen.sendKey(TerminalScreen::Key::Enter);
}

} // namespace

class TerminalSessionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void typedCommandRunsAndItsOutputIsShown()
    {
        TerminalSession session;
        QVERIFY2(session.start(QStringLiteral("/bin/sh"), {}), qPrintable(session.errorString()));
        TerminalScreen &screen = *session.screen();
        type(screen, QStringLiteral("echo $((6*7))-$TERM"));
        QTRY_VERIFY_WITH_TIMEOUT(
            screenContains(screen, QStringLiteral("42-xterm-256color")), kTimeoutMs);
    }

    void programSeesTheScreensSizeAndItsChanges()
    {
        TerminalSession session;
        QVERIFY(session.start(QStringLiteral("/bin/sh"), {}));
        TerminalScreen &screen = *session.screen();
        screen.resize(30, 100);
        type(screen, QStringLiteral("echo size=$(stty size)"));
        QTRY_VERIFY_WITH_TIMEOUT(screenContains(screen, QStringLiteral("size=30 100")), kTimeoutMs);
    }

    void ctrlCInterruptsTheForegroundProgram()
    {
        TerminalSession session;
        QVERIFY(session.start(QStringLiteral("/bin/sh"), {}));
        TerminalScreen &screen = *session.screen();
        // The markers are computed by the shell, so the tty's echo of the typed line cannot
        // match them. The Ctrl-C goes only once the program is in the foreground: the inner sh
        // prints its marker after the shell has handed it the terminal, then becomes sleep.
        type(screen, QStringLiteral("echo ready-$((1+1))"));
        QTRY_VERIFY_WITH_TIMEOUT(screenContains(screen, QStringLiteral("ready-2")), kTimeoutMs);
        type(screen, QStringLiteral("sh -c 'echo sleeping-$((2+2)); exec sleep 60'; echo after"));
        QTRY_VERIFY_WITH_TIMEOUT(screenContains(screen, QStringLiteral("sleeping-4")), kTimeoutMs);
        screen.sendChar(U'c', TerminalScreen::Ctrl);
        // Only once sleep 60 is gone does the shell read and run this line.
        type(screen, QStringLiteral("echo interrupted-$((3+3))"));
        QTRY_VERIFY_WITH_TIMEOUT(
            screenContains(screen, QStringLiteral("interrupted-6")), kTimeoutMs);
        QVERIFY(session.isRunning());
    }

    void endOfTheShellIsReportedWithItsStatus()
    {
        TerminalSession session;
        QSignalSpy finished(&session, &TerminalSession::finished);
        QVERIFY(session.start(QStringLiteral("/bin/sh"), {}));
        type(*session.screen(), QStringLiteral("exit 3"));
        QVERIFY(finished.wait(kTimeoutMs));
        QCOMPARE(finished.first().at(0).toInt(), 3);
        QVERIFY(!session.isRunning());
        QVERIFY(screenContains(*session.screen(), QStringLiteral("exit status 3")));
    }

    void missingProgramSaysSoOnTheScreen()
    {
        TerminalSession session;
        QVERIFY(!session.start(QStringLiteral("no-such-program-here"), {}));
        QVERIFY(session.errorString().contains(QStringLiteral("command not found")));
        QVERIFY(screenContains(*session.screen(), QStringLiteral("no-such-program-here")));
    }

    void destroyingAProcessHangsUpOnItsProgram()
    {
        pid_t pid = 0;
        {
            PtyProcess process;
            QVERIFY(process.start(QStringLiteral("sleep"), {QStringLiteral("60")}, 24, 80));
            pid = process.pid();
            QVERIFY(pid > 0);
        }
        // Reaped by the destructor: the pid no longer names our child.
        QCOMPARE(::kill(pid, 0), -1);
    }
};

QTEST_GUILESS_MAIN(TerminalSessionTest)
#include "terminal_session_test.moc"
