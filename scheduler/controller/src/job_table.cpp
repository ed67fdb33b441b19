// The controller's jobs (job_table.h) and the row cache of the `jobs` and `acct` replies in
// `form: "rows"` (docs/protocol.md, issue #6): thousands of jobs written as text, each job's
// members encoded once per change instead of per request.
#include "mc/ctl/job_table.h"

#include "mc/sched/explanation.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;

namespace {

// Every member of `job` as JSON text, in kJobKeys' order, into `row`; false (and no text) when
// a member is longer than 255 bytes.
template <typename Row> bool encodeRow(const Job &job, Row &row)
{
    static const std::vector<std::string> keys(record::kJobKeys.begin(), record::kJobKeys.end());
    thread_local record::JobRowWriter writer(keys);
    writer.encode(job);
    std::size_t total = 0;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const std::size_t length = writer.cell(static_cast<int>(k)).size();
        if (length > std::numeric_limits<std::uint8_t>::max()) {
            row.cells.reset();
            return false;
        }
        row.lengths[k] = static_cast<std::uint8_t>(length);
        total += length;
    }
    row.cells = std::make_unique_for_overwrite<char[]>(total);
    char *out = row.cells.get();
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const std::string &cell = writer.cell(static_cast<int>(k));
        std::copy(cell.begin(), cell.end(), out);
        out += cell.size();
    }
    return true;
}

// A row's text as one string (the debug check compares rows).
template <typename Row> std::string textOf(const Row &row)
{
    std::size_t total = 0;
    for (const auto length : row.lengths) {
        total += length;
    }
    return std::string(row.cells.get(), total);
}

} // namespace

Job &JobTable::operator[](JobId id)
{
    auto [it, added] = m_jobs.try_emplace(id);
    if (added) {
        copyFilters(rowOf(id, it->second)); // an empty record's, until the next touch
    }
    return it->second;
}

std::pair<JobTable::iterator, bool> JobTable::emplace(JobId id, Job job)
{
    auto result = m_jobs.emplace(id, std::move(job));
    if (result.second) {
        touch(result.first->second);
    }
    return result;
}

std::size_t JobTable::erase(JobId id)
{
    const std::size_t erased = m_jobs.erase(id);
    if (erased > 0) {
        dropRows();
    }
    return erased;
}

JobTable::iterator JobTable::erase(iterator it)
{
    auto next = m_jobs.erase(it);
    dropRows();
    return next;
}

JobTable::CachedRow &JobTable::rowOf(JobId id, const Job &job)
{
    // New ids are the largest: the row goes at the end, found in log(n).
    auto it = std::lower_bound(m_rows.begin(), m_rows.end(), id,
        [](const CachedRow &row, JobId other) { return row.id < other; });
    if (it == m_rows.end() || it->id != id) {
        it = m_rows.insert(it, CachedRow{});
        it->id = id;
        it->job = &job;
    }
    return *it;
}

void JobTable::touch(const Job &job)
{
    const auto record = m_jobs.find(job.id);
    if (record == m_jobs.end()) {
        return; // not in the table (yet): touched again once it is
    }
    copyFilters(rowOf(job.id, record->second));
}

void JobTable::copyFilters(CachedRow &row)
{
    auto nameId = [this](const std::string &name) {
        const auto found = std::find(m_rowNames.begin(), m_rowNames.end(), name);
        if (found != m_rowNames.end()) {
            return static_cast<std::uint16_t>(found - m_rowNames.begin());
        }
        m_rowNames.push_back(name);
        return static_cast<std::uint16_t>(m_rowNames.size() - 1);
    };
    const Job &current = *row.job;
    row.arrayJobId = current.arrayJobId;
    row.state = current.state;
    row.user = nameId(current.spec.user);
    row.partition = nameId(current.spec.partition);
    row.fresh = false;
}

void JobTable::dropRows()
{
    std::erase_if(m_rows, [this](const CachedRow &row) { return !m_jobs.contains(row.id); });
}

const JobTable::CachedRow &JobTable::freshRow(const CachedRow &row) const
{
    if (!row.fresh) {
        row.fresh = encodeRow(*row.job, row);
    }
    return row;
}

std::optional<std::string> JobTable::problem() const
{
    auto stale = [](JobId id, const char *what) {
        return "job " + std::to_string(id.value) + ": " + what;
    };
    if (!m_jobs.empty() && m_jobs.rbegin()->first.value > m_lastId) {
        return stale(m_jobs.rbegin()->first, "an id past the last one handed out");
    }
    if (m_rows.size() != m_jobs.size()) {
        return stale(m_jobs.empty() ? JobId{} : m_jobs.rbegin()->first, "a job has no row");
    }
    auto row = m_rows.begin();
    CachedRow again;
    for (const auto &[id, job] : m_jobs) {
        if (row->id != id || row->job != &job) {
            return stale(id, "the rows are not the jobs");
        }
        if (row->arrayJobId != job.arrayJobId || row->state != job.state
            || rowName(row->user) != job.spec.user
            || rowName(row->partition) != job.spec.partition) {
            return stale(id, "filter members");
        }
        if (row->fresh
            && (!encodeRow(job, again) || again.lengths != row->lengths
                || textOf(again) != textOf(*row))) {
            return stale(id, "members");
        }
        ++row;
    }
    return std::nullopt;
}

void JobTable::checkRows() const
{
    if (const auto what = problem()) {
        std::fprintf(stderr,
            "minicluster-ctld: the row cache is out of date for %s: a change of the job did "
            "not call touch()\n",
            what->c_str());
        std::abort();
    }
}

void JobTable::rowStarts(const CachedRow &row, std::size_t count, RowStarts &starts)
{
    std::uint16_t at = 0;
    for (std::size_t k = 0; k < count; ++k) {
        starts[k] = at;
        at = static_cast<std::uint16_t>(at + row.lengths[k]);
    }
}

std::string_view JobTable::rowCell(const CachedRow &row, const RowStarts &starts, std::size_t key)
{
    return std::string_view(row.cells.get() + starts[key], row.lengths[key]);
}

std::size_t JobTable::keysUsed(const std::vector<int> &keyOf)
{
    std::size_t used = 0;
    for (const int k : keyOf) {
        used = std::max(used, static_cast<std::size_t>(k + 1));
    }
    return used;
}

std::vector<int> JobTable::keyIndexes(const std::vector<std::string> &fields)
{
    std::vector<int> keyOf(fields.size(), -1);
    for (std::size_t c = 0; c < fields.size(); ++c) {
        const auto key = std::find(record::kJobKeys.begin(), record::kJobKeys.end(), fields[c]);
        const bool first
            = std::find(fields.begin(), fields.begin() + static_cast<std::ptrdiff_t>(c), fields[c])
            == fields.begin() + static_cast<std::ptrdiff_t>(c);
        if (key != record::kJobKeys.end() && first) { // as JobRowWriter: a repeated name stays null
            keyOf[c] = static_cast<int>(key - record::kJobKeys.begin());
        }
    }
    return keyOf;
}

Json JobTable::jobRows(const std::vector<std::string> &fields, sched::Seconds now,
    const std::function<bool(const CachedRow &)> &keep,
    const std::map<JobId, sched::WaitDecision> &waits,
    const std::map<JobId, sched::StartDecision> &starts) const
{
#ifndef NDEBUG
    checkRows();
#endif
    const std::vector<int> keyOf = keyIndexes(fields);
    auto columnOf = [&fields](std::string_view name) {
        const auto it = std::find(fields.begin(), fields.end(), name);
        return it == fields.end() ? -1 : static_cast<int>(it - fields.begin());
    };
    // The members jobJson() adds to the codec's, as it adds them.
    const int waitingFor = columnOf("waiting_for");
    const int dependency = columnOf("dependency");
    const int explanation = columnOf("explanation");
    const int nowColumn = columnOf("now");
    const int backfilled = columnOf("backfilled");
    const bool withWaits = waitingFor >= 0 || dependency >= 0 || explanation >= 0;
    const bool withStarts = backfilled >= 0 || explanation >= 0;
    std::string nowText;
    Json(now).dumpTo(nowText);

    // Only the cells up to the last member asked for are located in each row.
    const std::size_t cellsUsed = keysUsed(keyOf);
    std::string text = "[";
    text.reserve(m_rows.size() * (fields.size() * 8 + 4));
    std::optional<record::JobRowWriter> slow; // for rows too long for the cache
    auto wait = waits.begin(); // all three are ordered by id: walked together
    auto started = starts.begin();
    for (const CachedRow &row : m_rows) {
        if (!keep(row)) {
            continue;
        }
        RowStarts cellStarts;
        if (freshRow(row).fresh) {
            rowStarts(row, cellsUsed, cellStarts);
        } else {
            if (!slow) {
                slow.emplace(fields);
            }
            slow->encode(*row.job);
        }
        const sched::WaitDecision *decision = nullptr;
        if (withWaits && row.state == sched::JobState::Pending) {
            while (wait != waits.end() && wait->first < row.id) {
                ++wait;
            }
            if (wait != waits.end() && wait->first == row.id) {
                decision = &wait->second;
            }
        }
        const sched::StartDecision *start = nullptr;
        if (withStarts && row.state != sched::JobState::Pending) {
            while (started != starts.end() && started->first < row.id) {
                ++started;
            }
            if (started != starts.end() && started->first == row.id) {
                start = &started->second;
            }
        }
        if (text.size() > 1) {
            text += ',';
        }
        text += '[';
        for (std::size_t c = 0; c < fields.size(); ++c) {
            if (c > 0) {
                text += ',';
            }
            const std::size_t before = text.size();
            const int column = static_cast<int>(c);
            if (column == nowColumn) {
                text += nowText;
            } else if (decision && column == waitingFor) {
                Json ids = Json::array();
                for (sched::JobId other : decision->waitingFor) {
                    ids.push(static_cast<std::int64_t>(other.value));
                }
                ids.dumpTo(text);
            } else if (decision && column == dependency && !decision->dependency.empty()) {
                proto::appendQuoted(text, decision->dependency);
            } else if (decision && column == explanation) {
                Json words = Json::object();
                words.add("en", sched::explain(*decision, "en", now));
                words.add("fr", sched::explain(*decision, "fr", now));
                words.dumpTo(text);
            } else if (start && column == backfilled) {
                text += start->backfilled ? "true" : "false";
            } else if (start && column == explanation) {
                Json words = Json::object();
                words.add("en", sched::explain(*start, "en"));
                words.add("fr", sched::explain(*start, "fr"));
                words.dumpTo(text);
            } else if (keyOf[c] >= 0) {
                if (row.fresh) {
                    text += rowCell(row, cellStarts, static_cast<std::size_t>(keyOf[c]));
                } else {
                    text += slow->cell(column);
                }
            }
            if (text.size() == before) {
                text += "null";
            }
        }
        text += ']';
    }
    text += ']';
    return Json::raw(std::move(text));
}

} // namespace mc::ctl
