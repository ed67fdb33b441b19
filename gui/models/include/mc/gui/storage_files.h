#pragma once
// Reading what the storage node publishes in the cluster directory (emulator/storage):
//  - run/storage/usage.tsv: "measured_at <cluster time>", then one line per filesystem and
//    owner: "<filesystem> <owner> <bytes> <files> <space quota> <file quota>" (0: no quota);
//  - run/storage/purge-<user>.tsv: the user's files on the purge notice, "<listed at>\t<path>"
//    with host paths.
// And what the app measures itself: a folder's files with their sizes and ages, and the
// $SLURM_TMPDIR of a job (nodes/<node>/localscratch/<user>.<jobid>.0). Pure parsing and
// bounded walks; no clock is read (the caller gives `now`).

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace mc::gui {

struct UsageEntry {
    QString filesystem; // home, scratch, project
    QString owner;
    qint64 bytes = 0;
    qint64 files = 0;
    qint64 spaceQuota = 0;
    qint64 fileQuota = 0;
    friend bool operator==(const UsageEntry &, const UsageEntry &) = default;
};

struct UsageSnapshotData {
    qint64 measuredAt = 0;
    QList<UsageEntry> entries;
};

// nullopt when the text has no measured_at line.
std::optional<UsageSnapshotData> parseUsageSnapshot(const QString &text);
// path -> when it was first listed.
QHash<QString, qint64> parsePurgeList(const QString &text);

struct FileFacts {
    QString path;
    qint64 size = 0;
    qint64 lastUse = 0; // max(atime, ctime), epoch seconds, as the purge judges it
};

struct TreeFacts {
    QList<FileFacts> files; // the oldest first, at most `keep`
    qint64 bytes = 0;
    qint64 count = 0;
    bool exists = false;
    bool truncated = false; // stopped after `limit` entries
};

// Walks `root` (links not followed), counting every file; keeps the `keep` oldest.
TreeFacts scanFiles(const QString &root, int keep = 200, int limit = 50000);

// "<user>.<jobid>.0" under nodes/<node>/localscratch of the cluster directory.
QString slurmTmpdirOnHost(
    const QString &clusterDir, const QString &node, const QString &user, qint64 jobId);

// "3 d", "5 h", "12 min", "40 s".
QString ageText(qint64 seconds);
// "1.5 GiB", "12 KiB", "300 B".
QString sizeText(qint64 bytes);

} // namespace mc::gui
