#pragma once
// The Lessons dock: the guided exercises of lessons/<lang>/ in the app. A list of the lessons
// with each one's progress (the user's <cluster>/state/lessons/<user>.json, read with the
// lesson engine), the selected lesson's text (Markdown rendered: its introduction and steps),
// and Start, Check, Hint, Redo step and Reset buttons that run `minicluster lesson
// start|check|hint|reset-step|reset ID`: the same engine and the same words as in a terminal, whose
// answer is shown below. The dock follows the progress file, so a lesson started or checked in
// a terminal shows here too, and the current lesson is the one shown when it changes.

#include <QStringList>
#include <QWidget>

class QFileSystemWatcher;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProcess;
class QPushButton;
class QTextBrowser;

namespace mc::gui {

class LessonsView : public QWidget {
    Q_OBJECT

public:
    // `lessonsDir`: holds en/ and fr/; `clusterDir` and `user`: whose progress is shown;
    // `launcher` and `launcherArguments`: `minicluster [--dir DIR]` (empty: no buttons).
    LessonsView(QString lessonsDir, QString clusterDir, QString user, QString launcher,
        QStringList launcherArguments, QWidget *parent = nullptr);

    // Lesson ids in the list ("01-connect", ...), in order.
    QStringList lessonIds() const;
    void selectLesson(const QString &id);
    QString lessonText() const;
    QString outputText() const;
    // Reads the lessons and the progress again (after a command, a language switch).
    void reload();

Q_SIGNALS:
    // A lesson command finished; its output is in outputText().
    void commandFinished();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void showSelected();
    void runLesson(const QString &verb);
    // Watches the deepest existing of state/lessons/, state/ and the cluster folder.
    void watchProgress();

    QString m_lessonsDir;
    QString m_clusterDir;
    QString m_user;
    QString m_launcher;
    QStringList m_launcherArguments;
    QListWidget *m_list;
    QTextBrowser *m_text;
    QPlainTextEdit *m_output;
    QLabel *m_progress;
    QPushButton *m_start;
    QPushButton *m_check;
    QPushButton *m_hint;
    QPushButton *m_reset;
    QPushButton *m_resetStep;
    QProcess *m_process = nullptr;
    QFileSystemWatcher *m_watcher;
    QString m_current; // the progress's current lesson at the last reload
};

} // namespace mc::gui
