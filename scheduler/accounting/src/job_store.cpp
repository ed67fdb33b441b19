#include "mc/acct/job_store.h"

#include "mc/acct/job_codec.h"
#include "mc/sched/hostlist.h"

#include <algorithm>

namespace mc::acct {

namespace {

constexpr std::string_view kSchema = R"(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    state TEXT NOT NULL,
    submit_time INTEGER NOT NULL,
    start_time INTEGER NOT NULL,
    end_time INTEGER NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_user ON jobs(user);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state);
CREATE TABLE IF NOT EXISTS steps (
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    step TEXT NOT NULL,
    state TEXT NOT NULL,
    exit_code INTEGER NOT NULL,
    exit_signal INTEGER NOT NULL,
    start_time INTEGER NOT NULL,
    end_time INTEGER NOT NULL,
    nodes TEXT NOT NULL,
    cpus INTEGER NOT NULL,
    PRIMARY KEY (job_id, step)
);
)";

// Version 2: the usage of each step.
constexpr std::string_view kStepUsage = R"(
ALTER TABLE steps ADD COLUMN total_cpu_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE steps ADD COLUMN max_rss_kb INTEGER NOT NULL DEFAULT 0;
ALTER TABLE steps ADD COLUMN ave_rss_kb INTEGER NOT NULL DEFAULT 0;
)";

} // namespace

bool JobStore::open(const std::string &path, std::string &error)
{
    if (!m_db.open(path, error) || !m_db.exec(kSchema, error)) {
        return false;
    }
    Statement version(m_db, "PRAGMA user_version");
    std::int64_t current = version.next() ? version.intColumn(0) : 0;
    version.reset();
    if (current < 2) {
        return m_db.exec("BEGIN;", error) && m_db.exec(kStepUsage, error)
            && m_db.exec("PRAGMA user_version = 2; COMMIT;", error);
    }
    return true;
}

bool JobStore::saveJob(const sched::Job &job, std::string &error)
{
    Statement st(m_db,
        "INSERT OR REPLACE INTO jobs (id, user, state, submit_time, start_time, "
        "end_time, record) VALUES (?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, static_cast<std::int64_t>(job.id.value));
    st.bind(2, job.spec.user);
    st.bind(3, sched::longName(job.state));
    st.bind(4, job.submitTime);
    st.bind(5, job.startTime);
    st.bind(6, job.endTime);
    st.bind(7, jobToRecord(job).dump());
    if (!st.run()) {
        error = st.error();
        return false;
    }
    return true;
}

bool JobStore::saveStep(const StepRecord &step, std::string &error)
{
    Statement st(m_db,
        "INSERT OR REPLACE INTO steps (job_id, step, state, exit_code, exit_signal, "
        "start_time, end_time, nodes, cpus, total_cpu_ms, max_rss_kb, ave_rss_kb) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, static_cast<std::int64_t>(step.job.value));
    st.bind(2, step.step);
    st.bind(3, sched::longName(step.state));
    st.bind(4, static_cast<std::int64_t>(step.exit.code));
    st.bind(5, static_cast<std::int64_t>(step.exit.signal));
    st.bind(6, step.startTime);
    st.bind(7, step.endTime);
    st.bind(8, sched::compressHostlist(step.nodes));
    st.bind(9, static_cast<std::int64_t>(step.cpus));
    st.bind(10, step.totalCpuMs);
    st.bind(11, step.maxRssKb);
    st.bind(12, step.aveRssKb);
    if (!st.run()) {
        error = st.error();
        return false;
    }
    return true;
}

std::vector<sched::Job> JobStore::loadUnfinished(std::string &error)
{
    std::vector<sched::Job> jobs;
    Statement st(m_db,
        "SELECT record FROM jobs WHERE state IN ('PENDING', 'RUNNING', 'COMPLETING', "
        "'SUSPENDED') ORDER BY id");
    while (st.next()) {
        if (auto json = proto::Json::parse(st.textColumn(0))) {
            if (auto job = jobFromRecord(*json)) {
                jobs.push_back(std::move(*job));
            }
        }
    }
    error = st.error();
    return jobs;
}

std::uint32_t JobStore::lastJobId()
{
    Statement st(m_db,
        "SELECT MAX(COALESCE((SELECT value FROM meta WHERE key = 'last_job_id'), "
        "0), COALESCE((SELECT MAX(id) FROM jobs), 0))");
    return st.next() ? static_cast<std::uint32_t>(st.intColumn(0)) : 0;
}

void JobStore::setLastJobId(std::uint32_t id)
{
    Statement st(m_db, "INSERT OR REPLACE INTO meta (key, value) VALUES ('last_job_id', ?)");
    st.bind(1, static_cast<std::int64_t>(id));
    st.run();
}

std::vector<AcctRow> JobStore::query(const AcctQuery &q, std::string &error)
{
    std::vector<AcctRow> rows;
    Statement st(m_db, "SELECT record FROM jobs WHERE end_time = 0 OR end_time >= ? ORDER BY id");
    st.bind(1, q.since);
    while (st.next()) {
        auto json = proto::Json::parse(st.textColumn(0));
        if (!json) {
            continue;
        }
        auto job = jobFromRecord(*json);
        if (!job) {
            continue;
        }
        if (!q.users.empty()
            && std::find(q.users.begin(), q.users.end(), job->spec.user) == q.users.end()) {
            continue;
        }
        if (!q.jobIds.empty()
            && std::find(q.jobIds.begin(), q.jobIds.end(), job->id.value) == q.jobIds.end()) {
            continue;
        }
        rows.push_back(AcctRow{std::move(*job), {}});
    }
    error = st.error();
    Statement steps(m_db,
        "SELECT step, state, exit_code, exit_signal, start_time, end_time, nodes, "
        "cpus, total_cpu_ms, max_rss_kb, ave_rss_kb FROM steps WHERE job_id = ? ORDER BY "
        "rowid");
    for (auto &row : rows) {
        steps.reset();
        steps.bind(1, static_cast<std::int64_t>(row.job.id.value));
        while (steps.next()) {
            StepRecord s;
            s.job = row.job.id;
            s.step = steps.textColumn(0);
            s.state = sched::parseJobState(steps.textColumn(1)).value_or(sched::JobState::Failed);
            s.exit.code = static_cast<int>(steps.intColumn(2));
            s.exit.signal = static_cast<int>(steps.intColumn(3));
            s.startTime = steps.intColumn(4);
            s.endTime = steps.intColumn(5);
            s.nodes
                = sched::expandHostlist(steps.textColumn(6)).value_or(std::vector<std::string>{});
            s.cpus = static_cast<int>(steps.intColumn(7));
            s.totalCpuMs = steps.intColumn(8);
            s.maxRssKb = steps.intColumn(9);
            s.aveRssKb = steps.intColumn(10);
            row.steps.push_back(std::move(s));
        }
    }
    return rows;
}

} // namespace mc::acct
