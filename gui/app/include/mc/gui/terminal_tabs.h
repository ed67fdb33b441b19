#pragma once
// The terminals on login1, one per tab: each runs the login shell command (usually
// `minicluster --dir DIR shell`) in a TerminalSession shown by a TerminalView. Tabs are named
// after the title the shell sets (else "login1"), say when their shell has ended, and close
// (hanging up on the shell) with their close button.

#include <QStringList>
#include <QTabWidget>

namespace mc::term {
class TerminalView;
} // namespace mc::term

namespace mc::gui {

class TerminalTabs : public QTabWidget {
    Q_OBJECT

public:
    TerminalTabs(QString program, QStringList arguments, QWidget *parent = nullptr);

    // Opens a new tab running the shell and focuses it; returns its view.
    mc::term::TerminalView *openTab();
    mc::term::TerminalView *currentView() const;
    // Runs the same shell in the user's own terminal emulator (x-terminal-emulator, or
    // $TERMINAL); false with `error` set when there is none.
    bool openInSystemTerminal(QString *error) const;

    QString program() const { return m_program; }
    QStringList arguments() const { return m_arguments; }

private:
    void closeTab(int index);

    QString m_program;
    QStringList m_arguments;
};

} // namespace mc::gui
