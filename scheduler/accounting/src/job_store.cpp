#include "mc/acct/job_store.h"

#include "mc/record/job_codec.h"
#include "mc/sched/hostlist.h"

#include <algorithm>

namespace mc::acct {

using proto::Json;

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
CREATE TABLE IF NOT EXISTS job_scripts (
    id INTEGER PRIMARY KEY,
    script TEXT NOT NULL,
    env TEXT NOT NULL
);
)";

// Version 2: the usage of each step.
constexpr std::string_view kStepUsage = R"(
ALTER TABLE steps ADD COLUMN total_cpu_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE steps ADD COLUMN max_rss_kb INTEGER NOT NULL DEFAULT 0;
ALTER TABLE steps ADD COLUMN ave_rss_kb INTEGER NOT NULL DEFAULT 0;
)";

// Version 3 (issue #6): the array id as a column, and indexes for sacct's queries by end time
// and by array. Existing rows take their array id from the record.
constexpr std::string_view kArrayColumn = R"(
ALTER TABLE jobs ADD COLUMN array_job_id INTEGER NOT NULL DEFAULT 0;
UPDATE jobs SET array_job_id = COALESCE(json_extract(record, '$.array_job_id'), 0);
CREATE INDEX IF NOT EXISTS jobs_end_time ON jobs(end_time);
CREATE INDEX IF NOT EXISTS jobs_array ON jobs(array_job_id) WHERE array_job_id != 0;
ALTER TABLE steps ADD COLUMN name TEXT NOT NULL DEFAULT '';
)";

// Version 4: each step's task count (sacct NTasks).
constexpr std::string_view kStepTasks = R"(
ALTER TABLE steps ADD COLUMN ntasks INTEGER NOT NULL DEFAULT 0;
)";

constexpr std::string_view kUnfinishedStates = "('PENDING', 'RUNNING', 'COMPLETING', 'SUSPENDED')";

// "(?, ?, ?)" for n parameters.
std::string placeholders(std::size_t n)
{
    std::string text = "(";
    for (std::size_t i = 0; i < n; ++i) {
        text += i ? ", ?" : "?";
    }
    return text + ")";
}

// The jobs of a query whose first column is their record.
std::vector<sched::Job> jobRecords(Statement &st)
{
    std::vector<sched::Job> jobs;
    while (st.next()) {
        if (auto json = proto::Json::parse(st.textColumn(0))) {
            if (auto job = record::jobFromRecord(*json)) {
                jobs.push_back(std::move(*job));
            }
        }
    }
    return jobs;
}

} // namespace

bool isUnfinished(sched::JobState state)
{
    using sched::JobState;
    return state == JobState::Pending || state == JobState::Running || state == JobState::Completing
        || state == JobState::Suspended;
}

bool JobStore::open(const std::string &path, std::string &error)
{
    // At most 256 KiB of pages copied into the process (SQLite's default is 2 MiB): the
    // controller writes at the end of its tables, and sacct's reads go through a read-only map
    // of the file (shared with the kernel's page cache, not the controller's own memory).
    if (!m_db.open(path, error)
        || !m_db.exec("PRAGMA cache_size = -256; PRAGMA mmap_size = 268435456;", error)
        || !m_db.exec(kSchema, error)) {
        return false;
    }
    Statement version(m_db, "PRAGMA user_version");
    std::int64_t current = version.next() ? version.intColumn(0) : 0;
    version.reset();
    if (current < 2
        && !(m_db.exec("BEGIN;", error) && m_db.exec(kStepUsage, error)
            && m_db.exec("PRAGMA user_version = 2; COMMIT;", error))) {
        return false;
    }
    if (current < 3
        && !(m_db.exec("BEGIN;", error) && m_db.exec(kArrayColumn, error)
            && m_db.exec("PRAGMA user_version = 3; COMMIT;", error))) {
        return false;
    }
    if (current < 4) {
        // A file that already has the column (a later version taken back) keeps it.
        Statement has(
            m_db, "SELECT COUNT(*) FROM pragma_table_info('steps') WHERE name = 'ntasks'");
        const bool present = has.next() && has.intColumn(0) > 0;
        has.reset();
        return m_db.exec("BEGIN;", error) && (present || m_db.exec(kStepTasks, error))
            && m_db.exec("PRAGMA user_version = 4; COMMIT;", error);
    }
    return true;
}

bool JobStore::saveJob(const sched::Job &job, std::string &error)
{
    // The script and the environment (4 KB or more per job) go to job_scripts, in the same
    // transaction; the record keeps neither, so the controller can drop them from memory.
    const bool withScript = !job.spec.script.empty() || !job.spec.env.empty();
    Json record = record::jobToRecord(job);
    if (withScript) {
        Json spec = record["spec"];
        spec.set("script", "");
        spec.set("env", Json::array());
        record.set("spec", std::move(spec));
        if (!m_db.exec("BEGIN;", error)) {
            return false;
        }
    }
    Statement st(m_db,
        "INSERT OR REPLACE INTO jobs (id, user, state, submit_time, start_time, "
        "end_time, record, array_job_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, static_cast<std::int64_t>(job.id.value));
    st.bind(2, job.spec.user);
    st.bind(3, sched::longName(job.state));
    st.bind(4, job.submitTime);
    st.bind(5, job.startTime);
    st.bind(6, job.endTime);
    st.bind(7, record.dump());
    st.bind(8, static_cast<std::int64_t>(job.arrayJobId));
    bool ok = st.run();
    if (!ok) {
        error = st.error();
    }
    if (withScript) {
        if (ok) {
            Statement script(
                m_db, "INSERT OR REPLACE INTO job_scripts (id, script, env) VALUES (?, ?, ?)");
            script.bind(1, static_cast<std::int64_t>(job.id.value));
            script.bind(2, job.spec.script);
            script.bind(3, proto::stringList(job.spec.env).dump());
            ok = script.run();
            if (!ok) {
                error = script.error();
            }
        }
        std::string ignored;
        if (!ok || !m_db.exec("COMMIT;", error)) {
            m_db.exec("ROLLBACK;", ignored);
            return false;
        }
    }
    return ok;
}

bool JobStore::dropFinishedScripts(
    std::int64_t before, bool keepScript, bool keepEnv, std::string &error)
{
    if (keepScript && keepEnv) {
        return true;
    }
    std::string active;
    for (auto state : {sched::JobState::Pending, sched::JobState::Running,
             sched::JobState::Suspended, sched::JobState::Completing}) {
        active += std::string(active.empty() ? "'" : ", '") + std::string(sched::longName(state))
            + "'";
    }
    // Kept: the scripts of jobs still active or ended since `before`, and their arrays'.
    const std::string live = "SELECT id FROM jobs WHERE state IN (" + active
        + ") OR end_time >= ?1 UNION SELECT array_job_id FROM jobs WHERE state IN (" + active
        + ") OR end_time >= ?1";
    const std::string what = keepScript ? "UPDATE job_scripts SET env = '[]'"
        : keepEnv                       ? "UPDATE job_scripts SET script = ''"
                                        : "DELETE FROM job_scripts";
    Statement st(m_db, what + " WHERE id NOT IN (" + live + ")");
    st.bind(1, before);
    if (!st.run()) {
        error = st.error();
        return false;
    }
    return true;
}

bool JobStore::loadScript(sched::JobId job, sched::JobSpec &spec)
{
    Statement st(m_db, "SELECT script, env FROM job_scripts WHERE id = ?");
    st.bind(1, static_cast<std::int64_t>(job.value));
    if (!st.next()) {
        return false;
    }
    spec.script = st.textColumn(0);
    const auto env = Json::parse(st.textColumn(1));
    spec.env = env ? env->toStringList() : std::vector<std::string>{};
    return true;
}

bool JobStore::saveStep(const StepRecord &step, std::string &error)
{
    Statement st(m_db,
        "INSERT OR REPLACE INTO steps (job_id, step, state, exit_code, exit_signal, "
        "start_time, end_time, nodes, cpus, total_cpu_ms, max_rss_kb, ave_rss_kb, name, ntasks) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
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
    st.bind(13, step.name);
    st.bind(14, static_cast<std::int64_t>(step.ntasks));
    if (!st.run()) {
        error = st.error();
        return false;
    }
    return true;
}

std::vector<sched::Job> JobStore::loadUnfinished(std::string &error)
{
    Statement st(m_db,
        "SELECT record FROM jobs WHERE state IN " + std::string(kUnfinishedStates)
            + " ORDER BY id");
    auto jobs = jobRecords(st);
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

std::optional<std::int64_t> JobStore::meta(const std::string &key)
{
    Statement st(m_db, "SELECT value FROM meta WHERE key = ?");
    st.bind(1, key);
    if (!st.next()) {
        return std::nullopt;
    }
    return st.intColumn(0);
}

void JobStore::setMeta(const std::string &key, std::int64_t value)
{
    Statement st(m_db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    st.bind(1, key);
    st.bind(2, value);
    st.run();
}

std::vector<sched::Job> JobStore::finishedJobs(std::uint32_t id)
{
    Statement st(m_db,
        "SELECT record FROM jobs WHERE id IN (SELECT id FROM jobs WHERE id = ? UNION ALL "
        "SELECT id FROM jobs WHERE array_job_id = ? AND array_job_id != 0) AND state NOT IN "
            + std::string(kUnfinishedStates) + " ORDER BY id");
    st.bind(1, static_cast<std::int64_t>(id));
    st.bind(2, static_cast<std::int64_t>(id));
    return jobRecords(st);
}

std::vector<AcctRow> JobStore::query(const AcctQuery &q, std::string &error)
{
    // The filters run in SQL (indexes on end_time, user, array_job_id): parsing a record costs
    // far more than the query, and a large queue has thousands of them.
    // Without job ids the finished ones are found by the end_time index: left to itself,
    // SQLite walks the user index or the whole table (ORDER BY id), reading every record of a
    // large queue. Job ids are looked up by key and by the array index.
    std::string sql = q.finishedOnly
        ? std::string("SELECT record FROM jobs ")
            + (q.jobIds.empty() ? "INDEXED BY jobs_end_time " : "")
            + "WHERE end_time >= ? AND state NOT IN " + std::string(kUnfinishedStates)
        : std::string("SELECT record FROM jobs WHERE (end_time = 0 OR end_time >= ?)");
    if (!q.users.empty()) {
        sql += " AND user IN " + placeholders(q.users.size());
    }
    if (!q.jobIds.empty()) {
        sql += " AND id IN (SELECT id FROM jobs WHERE id IN " + placeholders(q.jobIds.size())
            + " UNION ALL SELECT id FROM jobs WHERE array_job_id IN "
            + placeholders(q.jobIds.size()) + " AND array_job_id != 0)";
    }
    sql += " ORDER BY id";
    Statement st(m_db, sql);
    int index = 1;
    st.bind(index++, q.since);
    for (const auto &user : q.users) {
        st.bind(index++, user);
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (std::uint32_t id : q.jobIds) {
            st.bind(index++, static_cast<std::int64_t>(id));
        }
    }
    std::vector<AcctRow> rows;
    while (st.next()) {
        auto json = proto::Json::parse(st.textColumn(0));
        if (!json) {
            continue;
        }
        if (auto job = record::jobFromRecord(*json)) {
            rows.push_back(AcctRow{std::move(*job), {}});
        }
    }
    error = st.error();
    for (auto &row : rows) {
        if (row.job.startTime > 0 || row.job.restarts > 0 || !isUnfinished(row.job.state)) {
            row.steps = steps(row.job.id);
        }
    }
    return rows;
}

std::vector<StepRecord> JobStore::steps(sched::JobId job)
{
    if (!m_steps) {
        m_steps.emplace(m_db,
            "SELECT step, state, exit_code, exit_signal, start_time, end_time, nodes, "
            "cpus, total_cpu_ms, max_rss_kb, ave_rss_kb, name, ntasks FROM steps WHERE job_id = ? "
            "ORDER BY rowid");
    }
    Statement &st = *m_steps;
    st.reset();
    st.bind(1, static_cast<std::int64_t>(job.value));
    std::vector<StepRecord> result;
    while (st.next()) {
        StepRecord s;
        s.job = job;
        s.step = st.textColumn(0);
        s.state = sched::parseJobState(st.textColumn(1)).value_or(sched::JobState::Failed);
        s.exit.code = static_cast<int>(st.intColumn(2));
        s.exit.signal = static_cast<int>(st.intColumn(3));
        s.startTime = st.intColumn(4);
        s.endTime = st.intColumn(5);
        s.nodes = sched::expandHostlist(st.textColumn(6)).value_or(std::vector<std::string>{});
        s.cpus = static_cast<int>(st.intColumn(7));
        s.totalCpuMs = st.intColumn(8);
        s.maxRssKb = st.intColumn(9);
        s.aveRssKb = st.intColumn(10);
        s.name = st.textColumn(11);
        s.ntasks = static_cast<int>(st.intColumn(12));
        result.push_back(std::move(s));
    }
    st.reset();
    return result;
}

} // namespace mc::acct
