// `jobs` replies with `form: "rows"` (docs/protocol.md, issue #6): thousands of jobs written as
// text from the row cache, each job's members encoded once per change instead of per request.
// `acct` uses the same cache for the jobs it takes from memory (Controller::accounting).
#include "mc/ctl/controller.h"
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

[[noreturn]] void staleRow(JobId id, const char *what)
{
    std::fprintf(stderr,
        "minicluster-ctld: the row cache is out of date for job %u (%s): a change of the job "
        "did not call touchRow()\n",
        id.value, what);
    std::abort();
}

} // namespace

void Controller::touchRow(const Job &job) const
{
    auto it = std::lower_bound(m_rowCache.begin(), m_rowCache.end(), job.id,
        [](const CachedRow &row, JobId id) { return row.id < id; });
    if (it == m_rowCache.end() || it->id != job.id) {
        const auto record = m_jobs.find(job.id);
        if (record == m_jobs.end()) {
            return; // not in the queue (yet): touched again once it is
        }
        it = m_rowCache.insert(it, CachedRow{});
        it->id = job.id;
        it->job = &record->second;
    }
    auto nameId = [this](const std::string &name) {
        const auto found = std::find(m_rowNames.begin(), m_rowNames.end(), name);
        if (found != m_rowNames.end()) {
            return static_cast<std::uint16_t>(found - m_rowNames.begin());
        }
        m_rowNames.push_back(name);
        return static_cast<std::uint16_t>(m_rowNames.size() - 1);
    };
    const Job &record = *it->job;
    it->arrayJobId = record.arrayJobId;
    it->state = record.state;
    it->user = nameId(record.spec.user);
    it->partition = nameId(record.spec.partition);
    it->fresh = false;
}

void Controller::dropRows() const
{
    std::erase_if(m_rowCache, [this](const CachedRow &row) { return !m_jobs.contains(row.id); });
}

const Controller::CachedRow &Controller::freshRow(CachedRow &row) const
{
    if (!row.fresh) {
        row.fresh = encodeRow(*row.job, row);
    }
    return row;
}

void Controller::checkRows() const
{
    if (m_rowCache.size() != m_jobs.size()) {
        staleRow(m_jobs.empty() ? JobId{} : m_jobs.rbegin()->first, "a job has no row");
    }
    auto row = m_rowCache.begin();
    CachedRow again;
    for (const auto &[id, job] : m_jobs) {
        if (row->id != id || row->job != &job) {
            staleRow(id, "the rows are not the jobs");
        }
        if (row->arrayJobId != job.arrayJobId || row->state != job.state
            || rowName(row->user) != job.spec.user
            || rowName(row->partition) != job.spec.partition) {
            staleRow(id, "filter members");
        }
        if (row->fresh
            && (!encodeRow(job, again) || again.lengths != row->lengths
                || textOf(again) != textOf(*row))) {
            staleRow(id, "members");
        }
        ++row;
    }
}

void Controller::rowStarts(const CachedRow &row, std::size_t count, RowStarts &starts)
{
    std::uint16_t at = 0;
    for (std::size_t k = 0; k < count; ++k) {
        starts[k] = at;
        at = static_cast<std::uint16_t>(at + row.lengths[k]);
    }
}

std::string_view Controller::rowCell(const CachedRow &row, const RowStarts &starts, std::size_t key)
{
    return std::string_view(row.cells.get() + starts[key], row.lengths[key]);
}

std::size_t Controller::keysUsed(const std::vector<int> &keyOf)
{
    std::size_t used = 0;
    for (const int k : keyOf) {
        used = std::max(used, static_cast<std::size_t>(k + 1));
    }
    return used;
}

std::vector<int> Controller::keyIndexes(const std::vector<std::string> &fields)
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

Json Controller::jobRows(const std::vector<std::string> &fields, Seconds now,
    const std::function<bool(const CachedRow &)> &keep) const
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
    text.reserve(m_rowCache.size() * (fields.size() * 8 + 4));
    std::optional<record::JobRowWriter> slow; // for rows too long for the cache
    auto wait = m_waits.begin(); // all three are ordered by id: walked together
    auto started = m_starts.begin();
    for (CachedRow &row : m_rowCache) {
        if (!keep(row)) {
            continue;
        }
        RowStarts starts;
        if (freshRow(row).fresh) {
            rowStarts(row, cellsUsed, starts);
        } else {
            if (!slow) {
                slow.emplace(fields);
            }
            slow->encode(*row.job);
        }
        const sched::WaitDecision *decision = nullptr;
        if (withWaits && row.state == sched::JobState::Pending) {
            while (wait != m_waits.end() && wait->first < row.id) {
                ++wait;
            }
            if (wait != m_waits.end() && wait->first == row.id) {
                decision = &wait->second;
            }
        }
        const sched::StartDecision *start = nullptr;
        if (withStarts && row.state != sched::JobState::Pending) {
            while (started != m_starts.end() && started->first < row.id) {
                ++started;
            }
            if (started != m_starts.end() && started->first == row.id) {
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
                    text += rowCell(row, starts, static_cast<std::size_t>(keyOf[c]));
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
