// The accounting views of the controller (accounting_views.h): sacct's `acct` and `job_scripts`
// replies, and the sweep of finished jobs' scripts out of the store.
#include "mc/ctl/accounting_views.h"

#include "mc/record/step.h"
#include "replies.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;
using sched::JobState;
using sched::Seconds;

namespace {

constexpr std::int64_t kBasicPriorityBase = 0xFFFF0000; // priority/basic: base minus job id

// The `steps` of an `acct` job (docs/protocol.md).
Json stepsJson(const std::vector<acct::StepRecord> &records)
{
    Json steps = Json::array();
    for (const auto &s : records) {
        steps.push(record::stepRecordToJson(s));
    }
    return steps;
}

} // namespace

AccountingViews::AccountingViews(const sched::ClusterConfig &config, acct::JobStore &store,
    const JobTable &jobs, StepsOf stepsOf)
    : m_config(config)
    , m_store(store)
    , m_jobs(jobs)
    , m_stepsOf(std::move(stepsOf))
{ }

Json AccountingViews::accounting(const Json &request, Seconds now) const
{
#ifndef NDEBUG
    m_jobs.checkRows();
#endif
    acct::AcctQuery query;
    query.users = request["users"].toStringList();
    for (const auto &id : request["job_ids"].items()) {
        query.jobIds.push_back(static_cast<std::uint32_t>(id.toInt()));
    }
    query.since = request["since"].toInt();
    // Finished jobs come from the store (indexed by end time); the others are all in memory,
    // identical to their stored records, so a large queue costs no record parsing.
    query.finishedOnly = true;
    std::string error;
    auto rows = m_store.query(query, error);
    if (!error.empty()) {
        return failure(error);
    }
    auto wanted = [&query](JobId jobId, std::uint32_t arrayJobId, const std::string &user) {
        if (!query.users.empty()
            && std::find(query.users.begin(), query.users.end(), user) == query.users.end()) {
            return false;
        }
        return query.jobIds.empty()
            || std::any_of(query.jobIds.begin(), query.jobIds.end(), [&](std::uint32_t id) {
                   return id == jobId.value || (arrayJobId != 0 && id == arrayJobId);
               });
    };
    // Pointers, not copies; jobs in memory come with their cached row.
    struct Entry {
        const Job *job;
        std::vector<acct::StepRecord> steps;
        const JobTable::CachedRow *row = nullptr;
    };
    std::vector<Entry> all;
    all.reserve(rows.size());
    for (auto &row : rows) {
        all.push_back(Entry{&row.job, m_stepsOf(row.job, std::move(row.steps))});
    }
    for (const JobTable::CachedRow &row :
        m_jobs.rows()) { // the jobs in memory, without walking the map
        if (!acct::isUnfinished(row.state)
            || !wanted(row.id, row.arrayJobId, m_jobs.rowName(row.user))) {
            continue;
        }
        const Job &job = *row.job;
        all.push_back(Entry{&job,
            m_stepsOf(job,
                job.startTime > 0 || job.restarts > 0 ? m_store.steps(row.id)
                                                      : std::vector<acct::StepRecord>{}),
            &row});
    }
    std::inplace_merge(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(rows.size()),
        all.end(),
        [](const Entry &a, const Entry &b) { return a.job->id.value < b.job->id.value; });
    // sacct lists an array's tasks together, in task order (43_1 ... 43_10, whatever their
    // job ids), where the array's id falls; its pending record (43_[3-10]) after them.
    if (std::any_of(all.begin(), all.end(), [](const Entry &e) { return e.job->arrayJobId; })) {
        auto key = [](const Entry &e) {
            const Job &job = *e.job;
            return job.arrayJobId == 0
                ? std::pair<std::uint32_t, std::uint32_t>{job.id.value, 0}
                : std::pair{job.arrayJobId, job.arrayTaskId.value_or(UINT32_MAX)};
        };
        std::stable_sort(all.begin(), all.end(),
            [&key](const Entry &a, const Entry &b) { return key(a) < key(b); });
    }

    // `fields`: only those job members (plus `priority`, `cancelled_by`, `steps` if named).
    const std::vector<std::string> fields = request["fields"].toStringList();
    auto named = [&fields](std::string_view key) {
        return fields.empty() || std::find(fields.begin(), fields.end(), key) != fields.end();
    };
    const bool withPriority = named("priority");
    const bool withCancelledBy = named("cancelled_by");
    const bool withSteps = named("steps");
    auto priorityOf = [](const Job &job) {
        return job.priority > 0 ? job.priority : kBasicPriorityBase - job.id.value;
    };
    Json reply = success();
    reply.set("now", now);
    if (!fields.empty() && request["form"].toString() == "rows") {
        // `form: "rows"`: the same values written as text (docs/protocol.md).
        record::JobRowWriter writer(fields);
        const std::vector<int> keyOf = JobTable::keyIndexes(fields);
        const std::size_t cellsUsed = JobTable::keysUsed(keyOf); // the cells to locate in each row
        auto columnOf = [&fields](std::string_view name) {
            const auto it = std::find(fields.begin(), fields.end(), name);
            return it == fields.end() ? -1 : static_cast<int>(it - fields.begin());
        };
        // Without AccountingStoreFlags=job_comment the accounting has no comments (Slurm's).
        const int hiddenCommentColumn = m_config.storeJobComment ? -1 : columnOf("comment");
        const int priorityColumn = columnOf("priority");
        const int cancelledByColumn = columnOf("cancelled_by");
        const int stepsColumn = columnOf("steps");
        std::string text = "[";
        for (const auto &entry : all) {
            const Job &job = *entry.job;
            if (text.size() > 1) {
                text += ',';
            }
            if (entry.row && m_jobs.freshRow(*entry.row).fresh) {
                // From the row cache, straight into the text; the record is read only for the
                // members the cache does not hold.
                const JobTable::CachedRow &row = *entry.row;
                JobTable::RowStarts starts;
                JobTable::rowStarts(row, cellsUsed, starts);
                text += '[';
                for (std::size_t c = 0; c < fields.size(); ++c) {
                    if (c > 0) {
                        text += ',';
                    }
                    const int column = static_cast<int>(c);
                    const std::size_t before = text.size();
                    if (column == priorityColumn) {
                        Json(priorityOf(job)).dumpTo(text);
                    } else if (column == cancelledByColumn) {
                        if (row.state != JobState::Pending && job.cancelledBy) {
                            Json(static_cast<std::int64_t>(*job.cancelledBy)).dumpTo(text);
                        }
                    } else if (column == stepsColumn) {
                        stepsJson(entry.steps).dumpTo(text);
                    } else if (keyOf[c] >= 0 && column != hiddenCommentColumn) {
                        text += JobTable::rowCell(row, starts, static_cast<std::size_t>(keyOf[c]));
                    }
                    if (text.size() == before) {
                        text += "null";
                    }
                }
                text += ']';
                continue;
            }
            writer.encode(job);
            if (hiddenCommentColumn >= 0) {
                writer.cell(hiddenCommentColumn).clear();
            }
            if (priorityColumn >= 0) {
                std::string &cell = writer.cell(priorityColumn);
                cell.clear();
                Json(priorityOf(job)).dumpTo(cell);
            }
            if (cancelledByColumn >= 0 && job.cancelledBy) {
                std::string &cell = writer.cell(cancelledByColumn);
                cell.clear();
                Json(static_cast<std::int64_t>(*job.cancelledBy)).dumpTo(cell);
            }
            if (stepsColumn >= 0) {
                std::string &cell = writer.cell(stepsColumn);
                cell.clear();
                stepsJson(entry.steps).dumpTo(cell);
            }
            writer.appendRow(text);
        }
        text += ']';
        reply.set("columns", proto::stringList(fields));
        reply.set("rows", Json::raw(std::move(text)));
        return reply;
    }
    std::vector<std::string> keyNames = fields;
    if (keyNames.empty()) {
        keyNames.assign(record::kJobKeys.begin(), record::kJobKeys.end());
    }
    if (!m_config.storeJobComment) {
        std::erase(keyNames, "comment"); // no AccountingStoreFlags=job_comment: not stored
    }
    const record::JobKeys keys = record::JobKeys::of(keyNames);
    Json jobs = Json::array();
    jobs.reserve(all.size());
    for (const auto &entry : all) {
        const Job &job = *entry.job;
        Json j = record::jobToJson(job, keys);
        if (withPriority) {
            j.set("priority", priorityOf(job));
        }
        if (withCancelledBy && job.cancelledBy) {
            j.add("cancelled_by", static_cast<std::int64_t>(*job.cancelledBy));
        }
        if (withSteps) {
            j.add("steps", stepsJson(entry.steps));
        }
        jobs.push(std::move(j));
    }
    reply.set("jobs", std::move(jobs));
    return reply;
}

Json AccountingViews::jobScripts(const Json &request) const
{
    // sacct --batch-script / --env-vars: a job's own user or an operator sees what
    // AccountingStoreFlags kept (job_script, job_env); null where nothing is kept (Slurm's NONE).
    const std::string user = request["user"].toString();
    Json scripts = Json::array();
    for (const auto &item : request["job_ids"].items()) {
        const auto id = static_cast<std::uint32_t>(
            item.isNumber() ? item.toInt() : std::atoll(item.toString().c_str()));
        std::vector<sched::Job> found;
        if (auto it = m_jobs.find(JobId{id}); it != m_jobs.end()) {
            found.push_back(it->second);
        } else {
            found = m_store.finishedJobs(id);
        }
        for (const auto &job : found) {
            if (job.id.value != id && job.arrayJobId != id) {
                continue;
            }
            sched::JobSpec stored;
            const bool has = (!isOperator(user) && job.spec.user != user)
                ? false
                : m_store.loadScript(job.id, stored)
                    || (job.arrayJobId != 0 && m_store.loadScript(JobId{job.arrayJobId}, stored));
            Json entry = Json::object();
            entry.set("job_id", static_cast<std::int64_t>(job.id.value));
            entry.set("array_job_id", static_cast<std::int64_t>(job.arrayJobId));
            entry.set("user", job.spec.user); // why a script is missing: someone else's job
            if (job.arrayTaskId) {
                entry.set("array_task_id", static_cast<std::int64_t>(*job.arrayTaskId));
            }
            // As slurmdbd: only what the flags send to accounting, running or finished; `live`
            // (scontrol write batch_script) asks slurmctld, which keeps a queued job's script.
            const bool queued = request["live"].toBool() && m_jobs.contains(job.id);
            const bool kept = has && (m_config.storeJobScript || queued);
            const bool envKept = has && m_config.storeJobEnv;
            entry.set("script", kept && !stored.script.empty() ? Json(stored.script) : Json());
            entry.set(
                "env", envKept && !stored.env.empty() ? proto::stringList(stored.env) : Json());
            scripts.push(std::move(entry));
        }
    }
    Json reply = success();
    reply.set("scripts", std::move(scripts));
    return reply;
}

void AccountingViews::sweepScripts(std::size_t purged, Seconds now)
{
    if (purged == 0 && m_scriptsSwept) {
        return;
    }
    m_scriptsSwept = true;
    // As Slurm: a script and an environment outlive their job's record only when
    // AccountingStoreFlags says so (issue #18).
    const Seconds age = m_config.minJobAge;
    std::string error;
    if (age > 0
        && !m_store.dropFinishedScripts(
            now - age, m_config.storeJobScript, m_config.storeJobEnv, error)) {
        std::fprintf(
            stderr, "minicluster-ctld: dropping finished jobs' scripts: %s\n", error.c_str());
    }
}

} // namespace mc::ctl
