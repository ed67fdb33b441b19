#include "squeue_keys.h"

#include <algorithm>
#include <array>

namespace mc::cmd::squeue {
namespace {

using M = record::JobMember;
using Keys = std::vector<M>;

// What the shared helpers of squeue_fields.cpp read.
const Keys kJobId{M::JobId, M::ArrayJobId, M::ArrayTaskId, M::ArrayTaskStr};
const Keys kTimeUsed{M::StartTime, M::EndTime, M::State, M::Suspended, M::SuspendTime};

Keys join(Keys a, const Keys &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

struct Entry {
    std::string_view field; // -O name
    Keys members;
};

// One entry per field of fieldTable(), by its -O name.
const std::array kEntries{
    Entry{"account", {M::Account}},
    Entry{"jobid", {M::JobId}},
    Entry{"tres-per-node", {M::Gres}},
    Entry{"batchhost", {M::BatchHost}},
    Entry{"mincpus", {M::CpusPerTask}},
    Entry{"numcpus", {M::NumCpus}},
    Entry{"mintmpdisk", {}},
    Entry{"numnodes", {M::NumNodes}},
    Entry{"endtime", {M::TimeLimit, M::EndTime, M::State, M::StartTime, M::Suspended}},
    Entry{"dependency", {M::Dependency}},
    Entry{"feature", {M::Constraint}},
    Entry{"arrayjobid", {M::ArrayJobId, M::JobId}},
    Entry{"groupname", {M::Group, M::Gid, M::User}},
    Entry{"groupid", {M::Gid}},
    Entry{"oversubscribe", {M::Exclusive}},
    Entry{"sockets", {}},
    Entry{"jobarrayid", kJobId},
    Entry{"cores", {}},
    Entry{"name", {M::Name}},
    Entry{"threads", {}},
    Entry{"comment", {M::Comment}},
    Entry{"arraytaskid", {M::ArrayTaskId, M::ArrayJobId, M::ArrayTaskStr}},
    Entry{"timelimit", {M::TimeLimit}},
    Entry{"timeleft", join({M::TimeLimit}, kTimeUsed)},
    Entry{"minmemory", {M::MinMemory}},
    Entry{"timeused", kTimeUsed},
    Entry{"reqnodes", {M::ReqNodes}},
    Entry{"nodelist", {M::Nodes}},
    Entry{"command", {M::Command}},
    Entry{"contiguous", {}},
    Entry{"priority", {M::Priority}},
    Entry{"partition", {M::Partition}},
    Entry{"qos", {M::Qos}},
    Entry{"prioritylong", {M::Priority}},
    Entry{"reason", {M::Reason}},
    Entry{"reasonlist", {M::State, M::Reason, M::Nodes}},
    Entry{"selectjobinfo", {}},
    Entry{"starttime", {M::StartTime, M::PlannedStart}},
    Entry{"statecompact", {M::StateShort}},
    Entry{"state", {M::State}},
    Entry{"username", {M::User}},
    Entry{"userid", {M::Uid}},
    Entry{"reservation", {}},
    Entry{"submittime", {M::SubmitTime}},
    Entry{"wckey", {}},
    Entry{"licenses", {}},
    Entry{"excnodes", {M::ExcNodes}},
    Entry{"corespec", {}},
    Entry{"nice", {M::Nice}},
    Entry{"schednodes", {}},
    Entry{"sct", {}},
    Entry{"workdir", {M::WorkDir}},
    Entry{"numtasks", {M::NumTasks}},
    Entry{"cpus-per-task", {M::CpusPerTask}},
    Entry{"cpuspertask", {M::CpusPerTask}},
    Entry{"eligibletime", {M::EligibleTime, M::State, M::Reason}},
    Entry{"exit_code", {M::ExitCode, M::ExitSignal}},
    Entry{"stdout", {M::StdOut, M::JobId, M::Name, M::User, M::WorkDir}},
    Entry{"stderr", {M::StdErr, M::StdOut, M::JobId, M::Name, M::User, M::WorkDir}},
    Entry{"stdin", {M::StdIn}},
    Entry{"batchflag", {}},
    Entry{"accruetime", {M::State, M::Reason, M::EligibleTime, M::SubmitTime}},
    Entry{"allocnodes", {M::SubmitHost}},
    Entry{"cluster", {}},
    Entry{"lastschedeval", {M::LastSchedEval, M::State, M::SubmitTime, M::StartTime}},
    Entry{"maxcpus", {M::NumCpus}},
    Entry{"maxnodes", {M::NumNodes}},
    Entry{"mintime", {M::TimeMin}},
    Entry{"ntpernode", {M::NtasksPerNode}},
    Entry{"restartcnt", {M::Restarts}},
    Entry{"tres-alloc", {M::NumCpus, M::NumNodes, M::MinMemory, M::MemPerCpu, M::GpusReq}},
    Entry{"tres-per-job", {M::TresPerJob}},
};

// What Filter::accepts() reads (the task ids too: `-j 12_3 -o %T` names a task, whatever the
// format shows).
const Keys kFilterKeys{M::JobId, M::ArrayJobId, M::ArrayTaskId, M::ArrayTaskStr, M::Account, M::Qos,
    M::State, M::Partition, M::User, M::Name, M::Nodes};

void add(Keys &members, const Keys &more)
{
    for (auto member : more) {
        if (std::find(members.begin(), members.end(), member) == members.end()) {
            members.push_back(member);
        }
    }
}

} // namespace

std::optional<std::vector<record::JobMember>> membersOfField(const Field &field)
{
    if (!field.value) {
        return Keys{}; // a fixed value reads nothing
    }
    for (const auto &entry : kEntries) {
        if (entry.field == field.name) {
            return entry.members;
        }
    }
    return std::nullopt;
}

std::span<const record::JobMember> filterMembers()
{
    return kFilterKeys;
}

std::optional<std::vector<record::JobMember>> membersRead(
    const std::vector<Column> &columns, std::string_view sortSpec)
{
    Keys members;
    bool unknown = false;
    auto addField = [&](const Field &field) {
        if (const auto more = membersOfField(field)) {
            add(members, *more);
        } else {
            unknown = true;
        }
    };
    for (const auto &column : columns) {
        if (column.field) {
            addField(*column.field);
        }
    }
    for (char letter : sortSpec) {
        for (const auto &field : fieldTable()) {
            if (field.letter == letter && letter != 0) {
                addField(field);
            }
        }
    }
    if (unknown) {
        return std::nullopt;
    }
    return members;
}

std::vector<std::string> requestedKeys(
    const std::vector<Column> &columns, std::string_view sortSpec)
{
    const auto read = membersRead(columns, sortSpec);
    if (!read) {
        return {}; // a field without an entry reads an unknown set: ask for everything
    }
    Keys members = kFilterKeys;
    add(members, *read);
    std::vector<std::string> keys;
    for (const auto member : members) {
        keys.emplace_back(record::jobMemberKey(member));
    }
    return keys;
}

} // namespace mc::cmd::squeue
