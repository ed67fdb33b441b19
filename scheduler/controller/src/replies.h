#pragma once
// What the controller's request handlers share (controller*.cpp): Slurm's errno values, the
// ok/error reply shapes of docs/protocol.md, and membership tests on a request's lists.

#include "mc/proto/json.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace mc::ctl {

// Slurm's errno values (slurm_errno.h), carried as "errno" in failed replies.
inline constexpr int kInvalidPartition = 2000; // ESLURM_INVALID_PARTITION_NAME
inline constexpr int kTooManyProcessors = 2001; // ESLURM_TOO_MANY_REQUESTED_CPUS
inline constexpr int kAccessDenied = 2002; // ESLURM_ACCESS_DENIED
inline constexpr int kInvalidUser = 2010; // ESLURM_USER_ID_MISSING
inline constexpr int kPathnameTooLong = 2012; // ESLURM_PATHNAME_TOO_LONG
inline constexpr int kInvalidJobId = 2017; // ESLURM_INVALID_JOB_ID
inline constexpr int kInvalidNodeName = 2018; // ESLURM_INVALID_NODE_NAME
inline constexpr int kWritingToFile = 2019; // ESLURM_WRITING_TO_FILE
inline constexpr int kNotPending = 2020; // ESLURM_JOB_NOT_PENDING
inline constexpr int kAlreadyDone = 2021; // ESLURM_ALREADY_DONE
inline constexpr int kJobPending = 2024; // ESLURM_JOB_PENDING
inline constexpr int kInvalidNodeState = 2028; // ESLURM_INVALID_NODE_STATE
inline constexpr int kNotSupported = 2036; // ESLURM_NOT_SUPPORTED
inline constexpr int kDependencyProblem = 2038; // ESLURM_DEPENDENCY
inline constexpr int kInvalidTimeLimit = 2050; // ESLURM_INVALID_TIME_LIMIT
inline constexpr int kInvalidQos = 2066; // ESLURM_INVALID_QOS
inline constexpr int kCircularDependency = 2071; // ESLURM_CIRCULAR_DEPENDENCY

// Operators, who may act on and read every job: root, SlurmUser (slurm) and the instructor
// account of the presets.
inline bool isOperator(std::string_view user)
{
    return user == "root" || user == "slurm" || user == "prof";
}

inline proto::Json success()
{
    proto::Json reply = proto::Json::object();
    reply.set("ok", true);
    return reply;
}

inline proto::Json failure(std::string_view message)
{
    proto::Json reply = proto::Json::object();
    reply.set("ok", false);
    reply.set("error", message);
    return reply;
}

inline proto::Json failure(std::string_view message, int slurmErrno)
{
    proto::Json reply = failure(message);
    reply.set("errno", slurmErrno);
    return reply;
}

// `value` is one of the strings of `list`.
inline bool listed(const proto::Json &list, std::string_view value)
{
    const auto &items = list.items();
    return std::any_of(items.begin(), items.end(),
        [&](const proto::Json &item) { return item.toString() == value; });
}

// `id` is one of the numbers of `list`.
inline bool listedId(const proto::Json &list, std::uint32_t id)
{
    const auto &items = list.items();
    return std::any_of(items.begin(), items.end(),
        [&](const proto::Json &item) { return item.toInt(-1) == static_cast<std::int64_t>(id); });
}

} // namespace mc::ctl
