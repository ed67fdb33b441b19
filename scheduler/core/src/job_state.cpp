#include "mc/sched/job_state.h"

#include "mc/base/text.h"

#include <array>
#include <cctype>

namespace mc::sched {
namespace {

using base::equalsIgnoreCase;

struct StateNames {
    JobState state;
    std::string_view shortName;
    std::string_view longName;
};

// Slurm's job_state_string_compact() / job_state_string().
constexpr std::array kStates{
    StateNames{JobState::Pending, "PD", "PENDING"},
    StateNames{JobState::Running, "R", "RUNNING"},
    StateNames{JobState::Suspended, "S", "SUSPENDED"},
    StateNames{JobState::Completing, "CG", "COMPLETING"},
    StateNames{JobState::Completed, "CD", "COMPLETED"},
    StateNames{JobState::Cancelled, "CA", "CANCELLED"},
    StateNames{JobState::Failed, "F", "FAILED"},
    StateNames{JobState::Timeout, "TO", "TIMEOUT"},
    StateNames{JobState::NodeFail, "NF", "NODE_FAIL"},
    StateNames{JobState::Preempted, "PR", "PREEMPTED"},
    StateNames{JobState::BootFail, "BF", "BOOT_FAIL"},
    StateNames{JobState::Deadline, "DL", "DEADLINE"},
    StateNames{JobState::OutOfMemory, "OOM", "OUT_OF_MEMORY"},
};

struct ReasonName {
    Reason reason;
    std::string_view name;
};

// Slurm's job_reason_string().
constexpr std::array kReasons{
    ReasonName{Reason::None, "None"},
    ReasonName{Reason::Priority, "Priority"},
    ReasonName{Reason::Resources, "Resources"},
    ReasonName{Reason::Dependency, "Dependency"},
    ReasonName{Reason::DependencyNeverSatisfied, "DependencyNeverSatisfied"},
    ReasonName{Reason::BeginTime, "BeginTime"},
    ReasonName{Reason::JobHeldUser, "JobHeldUser"},
    ReasonName{Reason::JobHeldAdmin, "JobHeldAdmin"},
    ReasonName{Reason::PartitionTimeLimit, "PartitionTimeLimit"},
    ReasonName{Reason::PartitionNodeLimit, "PartitionNodeLimit"},
    ReasonName{Reason::PartitionDown, "PartitionDown"},
    ReasonName{Reason::PartitionInactive, "PartitionInactive"},
    ReasonName{Reason::JobArrayTaskLimit, "JobArrayTaskLimit"},
    ReasonName{Reason::ReqNodeNotAvail, "ReqNodeNotAvail"},
    ReasonName{Reason::NodeDown, "NodeDown"},
    ReasonName{Reason::BadConstraints, "BadConstraints"},
    ReasonName{Reason::InvalidAccount, "InvalidAccount"},
    ReasonName{Reason::QOSMaxJobsPerUserLimit, "QOSMaxJobsPerUserLimit"},
    ReasonName{Reason::TimeLimit, "TimeLimit"},
    ReasonName{Reason::NonZeroExitCode, "NonZeroExitCode"},
    ReasonName{Reason::OutOfMemory, "OutOfMemory"},
    ReasonName{Reason::Prolog, "Prolog"},
    ReasonName{Reason::JobLaunchFailure, "JobLaunchFailure"},
    ReasonName{Reason::InactiveLimit, "InactiveLimit"},
};

const StateNames &namesOf(JobState state)
{
    for (const auto &entry : kStates) {
        if (entry.state == state) {
            return entry;
        }
    }
    return kStates.front(); // unreachable for a valid enumerator
}

} // namespace

std::string_view shortName(JobState state)
{
    return namesOf(state).shortName;
}

std::string_view longName(JobState state)
{
    return namesOf(state).longName;
}

std::optional<JobState> parseJobState(std::string_view text)
{
    for (const auto &entry : kStates) {
        if (equalsIgnoreCase(text, entry.shortName) || equalsIgnoreCase(text, entry.longName)) {
            return entry.state;
        }
    }
    return std::nullopt;
}

bool isFinished(JobState state)
{
    switch (state) {
    case JobState::Pending:
    case JobState::Running:
    case JobState::Suspended:
    case JobState::Completing:
        return false;
    case JobState::Completed:
    case JobState::Cancelled:
    case JobState::Failed:
    case JobState::Timeout:
    case JobState::NodeFail:
    case JobState::Preempted:
    case JobState::BootFail:
    case JobState::Deadline:
    case JobState::OutOfMemory:
        return true;
    }
    return true;
}

std::string_view reasonName(Reason reason)
{
    for (const auto &entry : kReasons) {
        if (entry.reason == reason) {
            return entry.name;
        }
    }
    return "None";
}

std::optional<Reason> parseReason(std::string_view text)
{
    for (const auto &entry : kReasons) {
        if (equalsIgnoreCase(text, entry.name)) {
            return entry.reason;
        }
    }
    return std::nullopt;
}

} // namespace mc::sched
