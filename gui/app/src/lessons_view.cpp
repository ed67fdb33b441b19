#include "mc/gui/lessons_view.h"

#include "mc/gui/language.h"
#include "mc/lessons/catalog.h"
#include "mc/lessons/progress.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTimer>
#include <QVBoxLayout>

namespace mc::gui {

namespace {

constexpr int kIdRole = Qt::UserRole + 1;

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

LessonsView::LessonsView(QString lessonsDir, QString clusterDir, QString user, QString launcher,
    QStringList launcherArguments, QWidget *parent)
    : QWidget(parent)
    , m_lessonsDir(std::move(lessonsDir))
    , m_clusterDir(std::move(clusterDir))
    , m_user(std::move(user))
    , m_launcher(std::move(launcher))
    , m_launcherArguments(std::move(launcherArguments))
    , m_list(new QListWidget(this))
    , m_text(new QTextBrowser(this))
    , m_output(new QPlainTextEdit(this))
    , m_progress(new QLabel(this))
    , m_start(new QPushButton(this))
    , m_check(new QPushButton(this))
    , m_hint(new QPushButton(this))
    , m_reset(new QPushButton(this))
    , m_resetStep(new QPushButton(this))
    , m_watcher(new QFileSystemWatcher(this))
{
    setObjectName(QStringLiteral("lessonsView"));
    m_list->setObjectName(QStringLiteral("lessonList"));
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_output->setObjectName(QStringLiteral("lessonOutput"));
    m_start->setObjectName(QStringLiteral("lessonStart"));
    m_check->setObjectName(QStringLiteral("lessonCheck"));
    m_hint->setObjectName(QStringLiteral("lessonHint"));
    m_reset->setObjectName(QStringLiteral("lessonReset"));
    m_resetStep->setObjectName(QStringLiteral("lessonResetStep"));
    m_text->setOpenExternalLinks(true);
    m_output->setReadOnly(true);
    m_progress->setWordWrap(true);
    m_list->setMinimumWidth(0);
    // Long titles ("A real training project (PyTorch, checkpoints, a sweep)") wrap in the
    // list's width rather than hide behind a horizontal scroll bar.
    m_list->setWordWrap(true);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideNone);

    auto *buttons = new QHBoxLayout;
    for (QPushButton *button : {m_start, m_check, m_hint, m_resetStep, m_reset}) {
        button->setEnabled(!m_launcher.isEmpty());
        buttons->addWidget(button);
    }
    buttons->addStretch(1);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_text, 3);
    rightLayout->addLayout(buttons);
    rightLayout->addWidget(m_output, 1);
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(m_progress);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    // `minicluster lesson` typed in a terminal changes the progress too: follow it. The engine
    // saves by renaming into state/lessons/, which its folder's watch sees (or, before the first
    // lesson, the creation of that folder in state/, or of state/ in the cluster folder).
    auto *settle = new QTimer(this);
    settle->setSingleShot(true);
    settle->setInterval(200);
    connect(settle, &QTimer::timeout, this, &LessonsView::reload);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, settle, qOverload<>(&QTimer::start));
    connect(m_list, &QListWidget::currentRowChanged, this, &LessonsView::showSelected);
    connect(m_start, &QPushButton::clicked, this, [this] { runLesson(QStringLiteral("start")); });
    connect(m_check, &QPushButton::clicked, this, [this] { runLesson(QStringLiteral("check")); });
    connect(m_hint, &QPushButton::clicked, this, [this] { runLesson(QStringLiteral("hint")); });
    connect(m_reset, &QPushButton::clicked, this, [this] { runLesson(QStringLiteral("reset")); });
    connect(m_resetStep, &QPushButton::clicked, this,
        [this] { runLesson(QStringLiteral("reset-step")); });
    retranslateUi();
    reload();
}

QStringList LessonsView::lessonIds() const
{
    QStringList ids;
    for (int row = 0; row < m_list->count(); ++row) {
        ids << m_list->item(row)->data(kIdRole).toString();
    }
    return ids;
}

void LessonsView::selectLesson(const QString &id)
{
    const int row = static_cast<int>(lessonIds().indexOf(id));
    if (row >= 0) {
        m_list->setCurrentRow(row);
    }
}

QString LessonsView::lessonText() const
{
    return m_text->toPlainText();
}

QString LessonsView::outputText() const
{
    return m_output->toPlainText();
}

void LessonsView::reload()
{
    watchProgress();
    QString selected
        = m_list->currentItem() ? m_list->currentItem()->data(kIdRole).toString() : QString();
    mc::lessons::ProgressStore progress(
        mc::emu::ClusterLayout{m_clusterDir.toStdString()}, m_user.toStdString());
    progress.load(); // no file yet: no progress
    if (q(progress.current) != m_current) {
        // A lesson was started (here or in a terminal): show it rather than the one looked at.
        m_current = q(progress.current);
        selected = m_current;
    }
    const QSignalBlocker block(m_list);
    m_list->clear();
    int done = 0;
    const auto lessons
        = mc::lessons::listLessons(m_lessonsDir.toStdString(), currentLanguage().toStdString());
    for (const auto &entry : lessons) {
        const auto parse = mc::lessons::loadLesson(
            m_lessonsDir.toStdString(), currentLanguage().toStdString(), entry.id);
        const auto it = progress.lessons.find(entry.id);
        const bool complete = it != progress.lessons.end() && it->second.complete;
        done += complete ? 1 : 0;
        // ✓ done, ▶ the current one, ○ not done yet.
        const QString mark = complete      ? QStringLiteral("✓")
            : progress.current == entry.id ? QStringLiteral("▶")
                                           : QStringLiteral("○");
        auto *item = new QListWidgetItem(QStringLiteral("%1 %2  %3")
                                             .arg(mark, q(parse ? parse->lesson.number : ""),
                                                 q(parse ? parse->lesson.title : entry.id)));
        item->setData(kIdRole, q(entry.id));
        m_list->addItem(item);
    }
    m_progress->setText(tr("%1 of %2 lessons done.").arg(done).arg(lessons.size()));
    const int row = static_cast<int>(lessonIds().indexOf(selected));
    m_list->setCurrentRow(std::max(row, 0));
    showSelected();
}

void LessonsView::watchProgress()
{
    const QDir cluster(m_clusterDir);
    for (const QString &dir : {cluster.filePath(QStringLiteral("state/lessons")),
             cluster.filePath(QStringLiteral("state")), m_clusterDir}) {
        if (QFileInfo::exists(dir)) {
            if (!m_watcher->directories().contains(dir)) {
                if (!m_watcher->directories().isEmpty()) {
                    m_watcher->removePaths(m_watcher->directories());
                }
                m_watcher->addPath(dir);
            }
            return;
        }
    }
}

void LessonsView::showSelected()
{
    const QListWidgetItem *item = m_list->currentItem();
    if (!item) {
        m_text->clear();
        return;
    }
    const auto parse = mc::lessons::loadLesson(m_lessonsDir.toStdString(),
        currentLanguage().toStdString(), item->data(kIdRole).toString().toStdString());
    if (!parse) {
        m_text->clear();
        return;
    }
    auto lesson = parse->lesson;
    mc::lessons::personalize(lesson, m_user.toStdString());
    std::string markdown = "# " + lesson.title + "\n\n" + lesson.intro + "\n";
    for (const auto &step : lesson.steps) {
        markdown += "\n## " + step.title + "\n\n" + step.text + "\n";
    }
    m_text->setMarkdown(q(markdown));
}

void LessonsView::runLesson(const QString &verb)
{
    const QListWidgetItem *item = m_list->currentItem();
    if (!item || m_launcher.isEmpty() || m_process) {
        return;
    }
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_output->setPlainText(
        QStringLiteral("$ minicluster lesson %1 %2\n").arg(verb, item->data(kIdRole).toString()));
    connect(m_process, &QProcess::finished, this, [this] {
        m_output->appendPlainText(QString::fromUtf8(m_process->readAll()).trimmed());
        // The answer's top is its summary (the steps ticked, what is missing): show it first.
        m_output->moveCursor(QTextCursor::Start);
        m_process->deleteLater();
        m_process = nullptr;
        reload();
        Q_EMIT commandFinished();
    });
    // The user and the language the dock shows, not the launcher's defaults (the first user of
    // the cluster, $LANG): the answer must be about this progress, in the words on screen.
    m_process->start(m_launcher,
        m_launcherArguments
            + QStringList{QStringLiteral("--user"), m_user, QStringLiteral("lesson"),
                QStringLiteral("--lang"), currentLanguage(), verb, item->data(kIdRole).toString()});
}

void LessonsView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        reload(); // the lessons in the new language
    }
}

void LessonsView::retranslateUi()
{
    m_start->setText(tr("Start"));
    m_check->setText(tr("Check"));
    m_hint->setText(tr("Hint"));
    m_reset->setText(tr("Reset"));
    m_resetStep->setText(tr("Redo step"));
    m_start->setToolTip(tr("minicluster lesson start: copies the lesson's files and starts it"));
    m_check->setToolTip(tr("minicluster lesson check: checks the current step on the cluster"));
    m_hint->setToolTip(tr("minicluster lesson hint: the next hint for the current step"));
    m_reset->setToolTip(tr("minicluster lesson reset: starts the lesson over"));
    m_resetStep->setToolTip(tr("minicluster lesson reset-step: starts the current step again; "
                               "only what you do from now on counts for it"));
}

} // namespace mc::gui
