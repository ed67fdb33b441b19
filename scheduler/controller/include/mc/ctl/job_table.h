#pragma once
// The controller's jobs part: every job in memory (pending and running ones, finished ones until
// MinJobAge), the last job id handed out, and the row cache the `jobs` and `acct` replies in
// `form: "rows"` are written from (issue #6: a reply of thousands of jobs copies each job's
// members as text encoded once per change, instead of encoding every record per request).
//
// Invariants:
// - Ids only grow: lastId() never goes down, and every job of the table has an id at most
//   lastId() (takeId() hands out the next one; restoreLastId() reads the store's at start).
// - Every job of the table has exactly one row, and the rows are in id order: emplace(),
//   operator[], erase() and eraseIf() add and drop a job's row with the job. A row points at
//   its job's record (map nodes never move).
// - A row's filter members (state, array id, user, partition) are its record's, and its cells,
//   while `fresh`, are its record's encoding, as long as every change of a job is followed by
//   touch() (the controller's persist(), emitJob() and the scheduling pass call it). A change
//   without touch() is a bug: problem() names the job, and debug builds abort on it at every
//   rows read (checkRows()), so the test suite finds it.
//
// The map-like members (find, begin, emplace, ...) are those of std::map; a job changed through
// them must then be touched.

#include "mc/proto/json.h"
#include "mc/record/job_codec.h"
#include "mc/sched/job.h"
#include "mc/sched/scheduler.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::ctl {

class JobTable {
public:
    using Map = std::map<sched::JobId, sched::Job>;
    using iterator = Map::iterator;
    using const_iterator = Map::const_iterator;

    // One job's members, for the `rows` replies.
    struct CachedRow {
        sched::JobId id;
        std::uint32_t arrayJobId = 0; // the members `jobs` filters on, copied
        const sched::Job *job = nullptr; // the record in the table
        sched::JobState state = sched::JobState::Pending;
        std::uint16_t user = 0; // in rowName()
        std::uint16_t partition = 0;
        // Filled on first use by freshRow() (readers are const): each kJobKeys member's JSON
        // text, in order, without separators ("" = null); `lengths` says where each ends. A
        // member longer than 255 bytes leaves the row uncached (rare: the node list of a job
        // on dozens of nodes).
        mutable std::unique_ptr<char[]> cells;
        mutable std::array<std::uint8_t, record::kJobKeys.size()> lengths{};
        mutable bool fresh = false; // `cells` match the record
    };

    // The jobs by id, as a std::map's members.
    iterator find(sched::JobId id) { return m_jobs.find(id); }
    const_iterator find(sched::JobId id) const { return m_jobs.find(id); }
    iterator lower_bound(sched::JobId id) { return m_jobs.lower_bound(id); }
    const_iterator lower_bound(sched::JobId id) const { return m_jobs.lower_bound(id); }
    iterator begin() { return m_jobs.begin(); }
    iterator end() { return m_jobs.end(); }
    const_iterator begin() const { return m_jobs.begin(); }
    const_iterator end() const { return m_jobs.end(); }
    bool contains(sched::JobId id) const { return m_jobs.contains(id); }
    std::size_t count(sched::JobId id) const { return m_jobs.count(id); }
    std::size_t size() const { return m_jobs.size(); }
    bool empty() const { return m_jobs.empty(); }
    sched::Job &at(sched::JobId id) { return m_jobs.at(id); }
    const sched::Job &at(sched::JobId id) const { return m_jobs.at(id); }
    // The job of `id`; a missing one is added (a default record, with its row).
    sched::Job &operator[](sched::JobId id);
    // Adds `job` under `id` (and its row, touched) unless the id is taken.
    std::pair<iterator, bool> emplace(sched::JobId id, sched::Job job);
    std::size_t erase(sched::JobId id);
    iterator erase(iterator it);
    // Drops every job (and its row) for which `drop(std::pair<const JobId, Job>)` is true;
    // returns how many.
    template <typename Predicate> std::size_t eraseIf(Predicate drop)
    {
        const std::size_t dropped = std::erase_if(m_jobs, drop);
        if (dropped > 0) {
            dropRows();
        }
        return dropped;
    }
    // Read-only, for what takes a job map (Fairshare::chargeRunning).
    const Map &map() const { return m_jobs; }

    // Job ids: the last one handed out, the next one (not taken yet), and taking it.
    std::uint32_t lastId() const { return m_lastId; }
    sched::JobId nextId() const { return sched::JobId{m_lastId + 1}; }
    sched::JobId takeId() { return sched::JobId{++m_lastId}; }
    // At start, before any job is added: the store's last id (its MAX(id) or a refused
    // submission's).
    void restoreLastId(std::uint32_t id) { m_lastId = id; }

    // After a change of `job` (a job of the table; others are ignored): its row's filter
    // members are copied again and its cells encoded again on next use.
    void touch(const sched::Job &job);

    // The rows, one per job, in id order.
    std::span<const CachedRow> rows() const { return m_rows; }
    // The user or partition name of a row's `user` or `partition`.
    const std::string &rowName(std::uint16_t id) const { return m_rowNames[id]; }
    // `row`, its cells encoded if they were not; its `fresh` is false only when a member is too
    // long for the cache (then read the record).
    const CachedRow &freshRow(const CachedRow &row) const;
    // What is out of date in the cache, naming the job ("job 12: ..."), or nothing.
    std::optional<std::string> problem() const;
    // Debug builds: aborts the controller, with problem()'s words, when there is one.
    void checkRows() const;

    // For each name of `fields`, its index in kJobKeys, or -1 (and -1 for a repeated name).
    static std::vector<int> keyIndexes(const std::vector<std::string> &fields);
    // Where a fresh row's first `count` cells start, and its cell of member `key`.
    using RowStarts = std::array<std::uint16_t, record::kJobKeys.size()>;
    static void rowStarts(const CachedRow &row, std::size_t count, RowStarts &starts);
    // How many cells of a row reach the last member `keyOf` (keyIndexes()) names.
    static std::size_t keysUsed(const std::vector<int> &keyOf);
    static std::string_view rowCell(const CachedRow &row, const RowStarts &starts, std::size_t key);

    // A `jobs` reply's `rows` in `form: "rows"`, written as text: the jobs `keep` accepts, in
    // id order, each as the values of `fields` (null when the job has no such member), with
    // the members the controller adds to a job object from its scheduling state: a pending
    // job's `waiting_for`, `dependency` and `explanation` from `waits`, a started one's
    // `backfilled` and `explanation` from `starts`, and `now`.
    proto::Json jobRows(const std::vector<std::string> &fields, sched::Seconds now,
        const std::function<bool(const CachedRow &)> &keep,
        const std::map<sched::JobId, sched::WaitDecision> &waits,
        const std::map<sched::JobId, sched::StartDecision> &starts) const;

private:
    // The row of `id`, added (empty, not fresh) where it belongs if the job has none.
    CachedRow &rowOf(sched::JobId id, const sched::Job &job);
    // The row's filter members from its record; its cells to encode again.
    void copyFilters(CachedRow &row);
    void dropRows(); // of jobs no longer in the table

    Map m_jobs;
    std::uint32_t m_lastId = 0;
    std::vector<CachedRow> m_rows; // by job id, one per job of m_jobs
    std::vector<std::string> m_rowNames; // the user and partition names rows use
};

} // namespace mc::ctl
