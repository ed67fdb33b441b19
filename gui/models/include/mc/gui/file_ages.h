#pragma once
// Files judged as the scratch purge judges them: on the cluster clock, not this computer's.
//
// A file's last use (the later of its atime and ctime) is a host time. The storage node keeps a
// journal of the cluster clock (state/storage-clock, mc::storage::ClockJournal) that says what
// the cluster clock read at any host time, so a file last used before an instructor's
// fast-forward of 61 days is 61 days older, and one used after it is not. The app adds its own
// reading of the clock (the controller's `now` and speed) as the latest observation, so a jump
// the storage node has not seen yet counts too; without any journal, ages are this computer's.
// The purge rule is the storage node's own (mc::storage::planPurge), with the filesystem's
// policy from etc/minicluster.conf and the notice list the node keeps
// (run/storage/purge-<user>.tsv, read with parsePurgeList()).

#include "mc/gui/storage_files.h"
#include "mc/storage/clock_journal.h"

#include <QHash>
#include <QList>
#include <QString>

namespace mc::gui {

// A filesystem's purge policy; afterDays 0: never purged (home, project).
struct PurgePolicy {
    int afterDays = 0;
    int noticeDays = 0;
};

// `Filesystem=<name> ... PurgeAfterDays= PurgeNoticeDays=` of <clusterDir>/etc/minicluster.conf.
PurgePolicy purgePolicyOf(const QString &clusterDir, const QString &filesystem);

enum class PurgeState {
    None, // young enough, or never purged
    ToBeListed, // old enough for the notice; the storage node lists it at its next pass
    Listed, // on the user's notice since listedAt
    Due, // old enough and listed for the whole notice period: deleted at the next pass
};

struct FileAge {
    qint64 lastUse = 0; // cluster clock, epoch seconds
    qint64 age = 0; // seconds unused on the cluster clock, >= 0
    PurgeState purge = PurgeState::None;
    qint64 listedAt = 0; // cluster clock; 0 unless listed
    qint64 purgeAt = 0; // cluster clock, earliest deletion; 0 for PurgeState::None
};

class FileAgeJudge {
public:
    // `journalText`: the storage node's journal (may be empty); `wallNow`: this computer's clock
    // and `clusterNow`, `speed`: the controller's clock read at that moment.
    FileAgeJudge(const QString &journalText, qint64 wallNow, qint64 clusterNow, double speed);
    // With the journal of <clusterDir>/state/storage-clock.
    static FileAgeJudge load(
        const QString &clusterDir, qint64 wallNow, qint64 clusterNow, double speed);

    qint64 now() const { return m_now; }
    // The cluster clock's reading at host time `hostTime`.
    qint64 clusterTimeOf(qint64 hostTime) const;
    // Each of `files` (host paths and times, as scanFiles() gives them), in the same order.
    // `listed`: path -> when the storage node first listed it (cluster clock).
    QList<FileAge> judge(const QList<FileFacts> &files, const PurgePolicy &policy,
        const QHash<QString, qint64> &listed) const;

private:
    mc::storage::ClockJournal m_journal;
    qint64 m_now = 0;
};

} // namespace mc::gui
