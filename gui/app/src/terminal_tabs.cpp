#include "mc/gui/terminal_tabs.h"

#include "mc/term/terminal_screen.h"
#include "mc/term/terminal_session.h"
#include "mc/term/terminal_view.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>

namespace mc::gui {

using mc::term::TerminalScreen;
using mc::term::TerminalSession;
using mc::term::TerminalView;

TerminalTabs::TerminalTabs(QString program, QStringList arguments, QWidget *parent)
    : QTabWidget(parent)
    , m_program(std::move(program))
    , m_arguments(std::move(arguments))
{
    setObjectName(QStringLiteral("terminalTabs"));
    setDocumentMode(true);
    setTabsClosable(true);
    setMovable(true);
    connect(this, &QTabWidget::tabCloseRequested, this, &TerminalTabs::closeTab);
}

TerminalView *TerminalTabs::openTab()
{
    // The session belongs to the view, so closing the tab ends both.
    auto *session = new TerminalSession();
    auto *view = new TerminalView(session->screen(), this);
    session->setParent(view);
    const int index = addTab(view, tr("login1"));
    setCurrentIndex(index);

    connect(
        session->screen(), &TerminalScreen::titleChanged, view, [this, view](const QString &title) {
            setTabText(indexOf(view), title.isEmpty() ? tr("login1") : title);
            setTabToolTip(indexOf(view), title);
        });
    connect(session, &TerminalSession::finished, view, [this, view](int) {
        setTabText(indexOf(view), tr("%1 (ended)").arg(tabText(indexOf(view))));
    });
    // The screen takes the view's size before the shell starts, so it starts at that size.
    view->resize(size());
    session->start(m_program, m_arguments, QDir::homePath());
    view->setFocus();
    return view;
}

TerminalView *TerminalTabs::currentView() const
{
    return qobject_cast<TerminalView *>(currentWidget());
}

bool TerminalTabs::openInSystemTerminal(QString *error) const
{
    QStringList candidates;
    const QString preferred = qEnvironmentVariable("TERMINAL");
    if (!preferred.isEmpty()) {
        candidates << preferred;
    }
    candidates << QStringLiteral("x-terminal-emulator") << QStringLiteral("gnome-terminal")
               << QStringLiteral("konsole") << QStringLiteral("xterm");
    for (const QString &candidate : candidates) {
        if (QStandardPaths::findExecutable(candidate).isEmpty()) {
            continue;
        }
        // gnome-terminal takes the command after "--"; the others after "-e".
        QStringList arguments = candidate == QLatin1String("gnome-terminal")
            ? QStringList{QStringLiteral("--")}
            : QStringList{QStringLiteral("-e")};
        arguments << m_program << m_arguments;
        if (QProcess::startDetached(candidate, arguments, QDir::homePath())) {
            return true;
        }
    }
    if (error) {
        *error = tr("No terminal program was found (tried %1). Run this in your own terminal:\n%2")
                     .arg(candidates.join(QStringLiteral(", ")),
                         QStringList(QStringList{m_program} + m_arguments).join(QLatin1Char(' ')));
    }
    return false;
}

void TerminalTabs::closeTab(int index)
{
    QWidget *view = widget(index);
    removeTab(index);
    delete view;
}

} // namespace mc::gui
