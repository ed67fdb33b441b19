// squeue names the job members it reads (`fields` of the jobs request): every field, filter
// and sort key must print and order the same with only those members as with whole objects.
#include "../../../scheduler/commands/src/squeue/squeue_filter.h"
#include "../../../scheduler/commands/src/squeue/squeue_keys.h"
#include "command_harness.h"

#include <QtTest>

using namespace mc::cmd::squeue;
using mc::proto::Json;
using mc::record::jobObjectFromJson;

namespace {

constexpr std::int64_t kT0 = 1795259639;

// Jobs in every shape squeue prints, with every member of the contract's job object.
std::vector<Json> sampleJobs()
{
    std::vector<Json> jobs;
    auto base = [](std::int64_t id, const char *state, const char *shortState) {
        Json j = Json::object();
        j.set("job_id", id);
        j.set("name", "job" + std::to_string(id));
        j.set("user", id % 2 ? "alice" : "bob");
        j.set("uid", id % 2 ? 1001 : 1002);
        j.set("gid", 1001);
        j.set("group", "students");
        j.set("account", "def-prof");
        j.set("partition", id % 3 ? "cpu" : "gpu");
        j.set("qos", "normal");
        j.set("state", state);
        j.set("state_short", shortState);
        j.set("reason", "Priority");
        j.set("submit_time", kT0 - id);
        j.set("eligible_time", kT0);
        j.set("start_time", std::int64_t{0});
        j.set("end_time", std::int64_t{0});
        j.set("time_limit", 600 + id);
        j.set("nodes", Json::array());
        j.set("num_nodes", 1 + id % 2);
        j.set("num_cpus", 2 + id % 3);
        j.set("num_tasks", 2);
        j.set("cpus_per_task", 1);
        j.set("min_memory", 500 + id);
        j.set("mem_per_cpu", false);
        j.set("nice", static_cast<std::int64_t>(id % 4));
        j.set("exit_code", 0);
        j.set("exit_signal", 0);
        j.set("work_dir", "/home/alice");
        j.set("std_out", "out.txt");
        j.set("std_err", "");
        j.set("std_in", "/dev/null");
        j.set("command", "/home/alice/job.sh");
        j.set("batch_host", "");
        j.set("priority", 4294901000 + id);
        j.set("array_job_id", 0);
        j.set("array_task_str", "");
        j.set("dependency", "");
        j.set("planned_start", 0);
        j.set("hold", "");
        j.set("constraint", "");
        j.set("time_min", 0);
        j.set("gres", "");
        j.set("gpus", 0);
        j.set("exclusive", false);
        j.set("req_nodes", Json::array());
        j.set("exc_nodes", Json::array());
        return j;
    };
    Json running = base(11, "RUNNING", "R");
    running.set("start_time", kT0 - 30);
    running.set("nodes", mc::proto::stringList({"cn01", "cn02"}));
    running.set("batch_host", "cn01");
    running.set("gres", "gpu:2");
    running.set("exclusive", true);
    jobs.push_back(running);
    Json pending = base(12, "PENDING", "PD");
    pending.set("dependency", "afterok:11(unfulfilled)");
    pending.set("reason", "Dependency");
    pending.set("planned_start", kT0 + 900);
    pending.set("constraint", "avx2");
    pending.set("req_nodes", mc::proto::stringList({"cn03"}));
    pending.set("exc_nodes", mc::proto::stringList({"cn04"}));
    jobs.push_back(pending);
    Json record = base(13, "PENDING", "PD");
    record.set("array_job_id", 13);
    record.set("array_task_str", "3-10%2");
    jobs.push_back(record);
    Json task = base(14, "RUNNING", "R");
    task.set("array_job_id", 13);
    task.set("array_task_id", 1);
    task.set("start_time", kT0 - 5);
    task.set("nodes", mc::proto::stringList({"cn02"}));
    jobs.push_back(task);
    Json done = base(15, "COMPLETED", "CD");
    done.set("start_time", kT0 - 100);
    done.set("end_time", kT0 - 40);
    done.set("exit_code", 3);
    jobs.push_back(done);
    Json timeout = base(16, "TIMEOUT", "TO");
    timeout.set("reason", "TimeLimit");
    jobs.push_back(timeout);
    return jobs;
}

Json project(const Json &job, const std::vector<std::string> &keys)
{
    Json out = Json::object();
    for (const auto &key : keys) {
        if (job.contains(key)) {
            out.set(key, job[key]);
        }
    }
    return out;
}

// The sample jobs as a `rows` reply of every member, read as squeue reads it.
mc::proto::RowTable rowsOf(const std::vector<Json> &jobs)
{
    std::vector<std::string> columns;
    for (std::size_t i = 0; i < mc::record::kJobMemberCount; ++i) {
        columns.emplace_back(mc::record::jobMemberKey(static_cast<mc::record::JobMember>(i)));
    }
    Json rows = Json::array();
    for (const auto &job : jobs) {
        Json row = Json::array();
        for (const auto &column : columns) {
            row.push(job[column]);
        }
        rows.push(std::move(row));
    }
    Json reply = Json::object();
    reply.set("ok", true);
    reply.set("columns", mc::proto::stringList(columns));
    reply.set("rows", std::move(rows));
    return mc::proto::RowTable::parse(reply.dump()).value();
}

} // namespace

class SqueueKeysTest : public QObject {
    Q_OBJECT

private slots:
    void everyFieldPrintsTheSameFromItsKeys();
    void everySortKeyOrdersTheSameFromItsKeys();
    void filtersSelectTheSameFromTheirKeys();
    void aFieldPrintsTheSameOverAnotherJobsMembers();
    void aSortKeyOrdersTheSameOverAnotherJobsMembers();
};

void SqueueKeysTest::everyFieldPrintsTheSameFromItsKeys()
{
    const auto jobs = sampleJobs();
    for (const auto &field : fieldTable()) {
        std::string errors;
        const auto columns = parseLongFormat(std::string(field.name), errors);
        QVERIFY2(errors.empty(), errors.c_str());
        const auto keys = requestedKeys(columns, "");
        QVERIFY2(!keys.empty(), std::string(field.name).c_str());
        for (const auto &job : jobs) {
            const auto whole = jobObjectFromJson(job);
            const auto projected = jobObjectFromJson(project(job, keys));
            const JobRow full{&whole, kT0, false};
            const JobRow part{&projected, kT0, false};
            QCOMPARE(renderLine(columns, &part), renderLine(columns, &full));
        }
    }
}

void SqueueKeysTest::everySortKeyOrdersTheSameFromItsKeys()
{
    const auto jobs = sampleJobs();
    for (const auto &field : fieldTable()) {
        if (!field.letter) {
            continue;
        }
        for (const std::string &spec :
            {std::string(1, field.letter), "-" + std::string(1, field.letter)}) {
            const auto keys = requestedKeys({}, spec);
            std::vector<mc::record::JobObject> whole;
            std::vector<mc::record::JobObject> projected;
            for (const auto &job : jobs) {
                whole.push_back(jobObjectFromJson(job));
                projected.push_back(jobObjectFromJson(project(job, keys)));
            }
            std::vector<JobRow> full;
            std::vector<JobRow> part;
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                full.push_back({&whole[i], kT0, false});
                part.push_back({&projected[i], kT0, false});
            }
            if (sortRows(full, spec)) {
                continue; // not a sort key
            }
            QVERIFY(!sortRows(part, spec));
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                QCOMPARE(part[i].job->jobId, full[i].job->jobId);
            }
        }
    }
}

void SqueueKeysTest::filtersSelectTheSameFromTheirKeys()
{
    const auto keys = requestedKeys({}, "");
    Filter filter;
    filter.accounts = {"def-prof"};
    filter.names = {"job11", "job14"};
    filter.users = std::vector<std::string>{"alice", "bob"};
    filter.nodes = {"cn02"};
    filter.jobIds = {11, 13};
    for (const auto &job : sampleJobs()) {
        QCOMPARE(filter.accepts(jobObjectFromJson(project(job, keys))),
            filter.accepts(jobObjectFromJson(job)));
    }
    // -j 13_1 and -j 13_4: a started task and one of the pending record, whatever the format.
    for (std::uint32_t task : {1U, 4U}) {
        Filter tasks;
        tasks.jobIds = {13};
        tasks.tasks = {{13, {task}}};
        int accepted = 0;
        for (const auto &job : sampleJobs()) {
            QCOMPARE(tasks.accepts(jobObjectFromJson(project(job, keys))),
                tasks.accepts(jobObjectFromJson(job)));
            accepted += tasks.accepts(jobObjectFromJson(job)) ? 1 : 0;
        }
        QCOMPARE(accepted, 1);
    }
}

// squeue prints a row from one object into which only the members its columns read were
// decoded, over what the rows before it left there: each field reads no other member.
void SqueueKeysTest::aFieldPrintsTheSameOverAnotherJobsMembers()
{
    const auto jobs = sampleJobs();
    const auto table = rowsOf(jobs);
    for (const auto &field : fieldTable()) {
        std::string errors;
        const auto columns = parseLongFormat(std::string(field.name), errors);
        const auto members = membersRead(columns, "");
        QVERIFY2(members, std::string(field.name).c_str());
        const mc::record::JobRowReader reader(table, *members);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const auto whole = jobObjectFromJson(jobs[i]);
            auto reused = jobObjectFromJson(jobs[(i + 1) % jobs.size()]); // another job's
            reader.read(i, reused);
            const JobRow full{&whole, kT0, false};
            const JobRow part{&reused, kT0, false};
            QCOMPARE(renderLine(columns, &part), renderLine(columns, &full));
        }
    }
}

// squeue's selecting pass reads the members its filters and sort keys read into one object, row
// after row, and takes each row's sort keys there: each key reads no other member.
void SqueueKeysTest::aSortKeyOrdersTheSameOverAnotherJobsMembers()
{
    const auto jobs = sampleJobs();
    const auto table = rowsOf(jobs);
    for (const auto &field : fieldTable()) {
        if (!field.letter) {
            continue;
        }
        for (const std::string &spec :
            {std::string(1, field.letter), "-" + std::string(1, field.letter)}) {
            std::vector<mc::record::JobObject> whole;
            std::vector<JobRow> full;
            for (const auto &job : jobs) {
                whole.push_back(jobObjectFromJson(job));
            }
            for (const auto &job : whole) {
                full.push_back({&job, kT0, false});
            }
            if (sortRows(full, spec)) {
                continue; // not a sort key
            }
            const auto members = membersRead({}, spec);
            QVERIFY(members);
            const mc::record::JobRowReader reader(table, *members);
            RowSorter sorter(spec);
            auto reused = jobObjectFromJson(jobs.back());
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                reader.read(i, reused);
                sorter.add({&reused, kT0, false});
            }
            const auto order = sorter.order();
            for (std::size_t i = 0; i < jobs.size(); ++i) {
                QCOMPARE(whole[order[i]].jobId, full[i].job->jobId);
            }
        }
    }
}

QTEST_APPLESS_MAIN(SqueueKeysTest)
#include "squeue_keys_test.moc"
