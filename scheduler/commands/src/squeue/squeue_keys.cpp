#include "squeue_keys.h"

#include <algorithm>
#include <array>

namespace mc::cmd::squeue {
namespace {

using Keys = std::vector<std::string_view>;

// What the shared helpers of squeue_fields.cpp read.
const Keys kJobId{"job_id", "array_job_id", "array_task_id", "array_task_str"};
const Keys kTimeUsed{"start_time", "end_time", "state", "suspended", "suspend_time"};

Keys join(Keys a, const Keys &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

struct Entry {
    std::string_view field; // -O name
    Keys keys;
};

// One entry per field of fieldTable(), by its -O name.
const std::array kEntries{
    Entry{"account", {"account"}},
    Entry{"jobid", {"job_id"}},
    Entry{"tres-per-node", {"gres"}},
    Entry{"batchhost", {"batch_host"}},
    Entry{"mincpus", {"cpus_per_task"}},
    Entry{"numcpus", {"num_cpus"}},
    Entry{"mintmpdisk", {}},
    Entry{"numnodes", {"num_nodes"}},
    Entry{"endtime", {"time_limit", "end_time", "state", "start_time", "suspended"}},
    Entry{"dependency", {"dependency"}},
    Entry{"feature", {"constraint"}},
    Entry{"arrayjobid", {"array_job_id", "job_id"}},
    Entry{"groupname", {"group", "gid", "user"}},
    Entry{"groupid", {"gid"}},
    Entry{"oversubscribe", {"exclusive"}},
    Entry{"sockets", {}},
    Entry{"jobarrayid", kJobId},
    Entry{"cores", {}},
    Entry{"name", {"name"}},
    Entry{"threads", {}},
    Entry{"comment", {"comment"}},
    Entry{"arraytaskid", {"array_task_id", "array_job_id", "array_task_str"}},
    Entry{"timelimit", {"time_limit"}},
    Entry{"timeleft", join({"time_limit"}, kTimeUsed)},
    Entry{"minmemory", {"min_memory"}},
    Entry{"timeused", kTimeUsed},
    Entry{"reqnodes", {"req_nodes"}},
    Entry{"nodelist", {"nodes"}},
    Entry{"command", {"command"}},
    Entry{"contiguous", {}},
    Entry{"priority", {"priority"}},
    Entry{"partition", {"partition"}},
    Entry{"qos", {"qos"}},
    Entry{"prioritylong", {"priority"}},
    Entry{"reason", {"reason"}},
    Entry{"reasonlist", {"state", "reason", "nodes"}},
    Entry{"selectjobinfo", {}},
    Entry{"starttime", {"start_time", "planned_start"}},
    Entry{"statecompact", {"state_short"}},
    Entry{"state", {"state"}},
    Entry{"username", {"user"}},
    Entry{"userid", {"uid"}},
    Entry{"reservation", {}},
    Entry{"submittime", {"submit_time"}},
    Entry{"wckey", {}},
    Entry{"licenses", {}},
    Entry{"excnodes", {"exc_nodes"}},
    Entry{"corespec", {}},
    Entry{"nice", {"nice"}},
    Entry{"schednodes", {}},
    Entry{"sct", {}},
    Entry{"workdir", {"work_dir"}},
    Entry{"numtasks", {"num_tasks"}},
    Entry{"cpus-per-task", {"cpus_per_task"}},
    Entry{"cpuspertask", {"cpus_per_task"}},
    Entry{"eligibletime", {"eligible_time", "state", "reason"}},
    Entry{"exit_code", {"exit_code", "exit_signal"}},
    Entry{"stdout", {"std_out", "job_id", "name", "user", "work_dir"}},
    Entry{"stderr", {"std_err", "std_out", "job_id", "name", "user", "work_dir"}},
    Entry{"stdin", {"std_in"}},
    Entry{"batchflag", {}},
    Entry{"accruetime", {"state", "reason", "eligible_time", "submit_time"}},
    Entry{"allocnodes", {"submit_host"}},
    Entry{"cluster", {}},
    Entry{"lastschedeval", {"last_sched_eval", "state", "submit_time", "start_time"}},
    Entry{"maxcpus", {"num_cpus"}},
    Entry{"maxnodes", {"num_nodes"}},
    Entry{"mintime", {"time_min"}},
    Entry{"ntpernode", {"ntasks_per_node"}},
    Entry{"restartcnt", {"restarts"}},
    Entry{"tres-alloc", {"num_cpus", "num_nodes", "min_memory", "mem_per_cpu", "gpus_req"}},
    Entry{"tres-per-job", {"tres_per_job"}},
};

// What Filter::accepts() reads (the task ids too: `-j 12_3 -o %T` names a task, whatever the
// format shows).
const Keys kFilterKeys{"job_id", "array_job_id", "array_task_id", "array_task_str", "account",
    "qos", "state", "partition", "user", "name", "nodes"};

void add(std::vector<std::string> &keys, const Keys &more)
{
    for (auto key : more) {
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            keys.emplace_back(key);
        }
    }
}

} // namespace

std::vector<std::string_view> keysOfField(const Field &field)
{
    if (!field.value) {
        return {}; // a fixed value reads nothing
    }
    for (const auto &entry : kEntries) {
        if (entry.field == field.name) {
            return entry.keys;
        }
    }
    // A field without an entry reads an unknown set: ask for everything.
    return {"*"};
}

std::vector<std::string> requestedKeys(
    const std::vector<Column> &columns, std::string_view sortSpec)
{
    std::vector<std::string> keys;
    add(keys, kFilterKeys);
    for (const auto &column : columns) {
        if (column.field) {
            add(keys, keysOfField(*column.field));
        }
    }
    for (char letter : sortSpec) {
        for (const auto &field : fieldTable()) {
            if (field.letter == letter && letter != 0) {
                add(keys, keysOfField(field));
            }
        }
    }
    if (std::find(keys.begin(), keys.end(), "*") != keys.end()) {
        return {};
    }
    return keys;
}

} // namespace mc::cmd::squeue
