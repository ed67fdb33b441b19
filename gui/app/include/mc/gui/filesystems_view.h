#pragma once
// The filesystems page: usage against quota per filesystem (bars), as the storage node last
// measured it (run/storage/usage.tsv); the user's files on home, project and scratch with their
// age (time since last use on the cluster clock, as the purge judges it: file_ages.h), the
// scratch files that are purge candidates marked with the day they may go; and each running
// job's $SLURM_TMPDIR on its first node.
// What the storage node has not published yet is said so in words. Refreshes every
// kRefreshInterval while visible, and with the Refresh button.

#include "mc/proto/json.h"
#include "mc/record/job_object.h"

#include <QHash>
#include <QWidget>

#include <chrono>
#include <functional>

class QLabel;
class QPushButton;
class QTableWidget;
class QTimer;
class QTreeWidget;

namespace mc::gui {

struct FileAge;

class FilesystemsView : public QWidget {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kRefreshInterval{10000};

    // `clusterDir`: the cluster directory on this computer; `user`: the shell's user;
    // `clock`: the cluster clock (epoch seconds).
    FilesystemsView(
        QString clusterDir, QString user, std::function<qint64()> clock, QWidget *parent = nullptr);

    // Keeps the list of running jobs (for $SLURM_TMPDIR).
    void updateJob(const mc::record::JobObject &job);
    void resetJobs(const QList<mc::record::JobObject> &jobs);
    void refresh();
    // The cluster clock's time and rate changed (a `clock` reply or event): files age at once.
    void noteClock(qint64 now, double speed);

    QTableWidget *quotaTable() const { return m_quota; }
    QTreeWidget *filesTree() const { return m_files; }
    QTreeWidget *tmpdirTree() const { return m_tmpdirs; }
    QString quotaStatus() const;
    // Says how far the cluster clock is ahead of this computer's (hidden under an hour).
    QString clockNote() const;

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct RunningJob {
        QString user;
        QString node;
    };
    void retranslateUi();
    void refreshQuotas();
    void refreshFiles();
    void refreshTmpdirs();
    static QString purgeText(const FileAge &age);
    static QString fileCount(qint64 count);

    QString m_clusterDir;
    QString m_user;
    std::function<qint64()> m_clock;
    double m_speed = 1.0;
    QHash<qint64, RunningJob> m_running;
    QLabel *m_quotaTitle;
    QLabel *m_quotaStatus;
    QTableWidget *m_quota;
    QLabel *m_filesTitle;
    QLabel *m_clockNote;
    QTreeWidget *m_files;
    QLabel *m_tmpdirTitle;
    QTreeWidget *m_tmpdirs;
    QPushButton *m_refresh;
    QTimer *m_timer;
};

} // namespace mc::gui
