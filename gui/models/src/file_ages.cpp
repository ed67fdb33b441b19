#include "mc/gui/file_ages.h"

#include "mc/storage/purge_plan.h"
#include "mc/storage/storage_conf.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace mc::gui {

PurgePolicy purgePolicyOf(const QString &clusterDir, const QString &filesystem)
{
    const auto conf = mc::storage::readStorageConf(
        QFile::encodeName(QDir(clusterDir).filePath(QStringLiteral("etc"))).toStdString());
    const auto *policy = conf.find(filesystem.toStdString());
    if (!policy) {
        return {};
    }
    return {policy->purgeAfterDays, policy->purgeNoticeDays};
}

FileAgeJudge::FileAgeJudge(
    const QString &journalText, qint64 wallNow, qint64 clusterNow, double speed)
    : m_journal(mc::storage::ClockJournal::decode(journalText.toStdString()))
    , m_now(clusterNow)
{
    m_journal.observe(wallNow, clusterNow, speed > 0 ? speed : 1.0);
}

FileAgeJudge FileAgeJudge::load(
    const QString &clusterDir, qint64 wallNow, qint64 clusterNow, double speed)
{
    QFile file(QDir(clusterDir).filePath(QStringLiteral("state/storage-clock")));
    const QString text
        = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    return FileAgeJudge(text, wallNow, clusterNow, speed);
}

qint64 FileAgeJudge::clusterTimeOf(qint64 hostTime) const
{
    return m_journal.clusterTimeOf(hostTime);
}

QList<FileAge> FileAgeJudge::judge(const QList<FileFacts> &files, const PurgePolicy &policy,
    const QHash<QString, qint64> &listed) const
{
    QList<FileAge> ages;
    ages.reserve(files.size());
    std::vector<mc::storage::PurgeCandidate> candidates;
    candidates.reserve(static_cast<std::size_t>(files.size()));
    for (const FileFacts &file : files) {
        FileAge age;
        age.lastUse = clusterTimeOf(file.lastUse);
        age.age = std::max<qint64>(0, m_now - age.lastUse);
        ages.append(age);
        candidates.push_back({file.path.toStdString(), file.size, age.lastUse});
    }
    std::map<std::string, std::int64_t> listedBefore;
    for (auto it = listed.cbegin(); it != listed.cend(); ++it) {
        listedBefore.emplace(it.key().toStdString(), it.value());
    }
    const mc::storage::PurgeDecision decision = mc::storage::planPurge(
        candidates, listedBefore, m_now, policy.afterDays, policy.noticeDays);
    std::unordered_map<std::string, std::pair<PurgeState, const mc::storage::NoticeEntry *>>
        verdict;
    for (const auto &entry : decision.notice) {
        const auto known = listedBefore.find(entry.path);
        const bool listedAlready = known != listedBefore.end() && known->second == entry.listedAt;
        verdict[entry.path] = {listedAlready ? PurgeState::Listed : PurgeState::ToBeListed, &entry};
    }
    for (const auto &entry : decision.purge) {
        verdict[entry.path] = {PurgeState::Due, &entry};
    }
    for (qsizetype i = 0; i < files.size(); ++i) {
        const auto found = verdict.find(candidates[static_cast<std::size_t>(i)].path);
        if (found == verdict.end()) {
            continue;
        }
        FileAge &age = ages[i];
        age.purge = found->second.first;
        age.listedAt = age.purge == PurgeState::ToBeListed ? 0 : found->second.second->listedAt;
        age.purgeAt = found->second.second->purgeAt;
    }
    return ages;
}

} // namespace mc::gui
