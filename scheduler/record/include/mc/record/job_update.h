#pragma once
// What `scontrol update job` changes: the `fields` member of the `update` request
// (docs/protocol.md), built by scontrol and judged by the controller, which spell none of its
// keys. An unset member is left as it is.

#include "mc/proto/json.h"
#include "mc/sched/job.h"

#include <optional>
#include <string>
#include <vector>

namespace mc::record {

struct JobUpdate {
    std::optional<sched::Seconds> timeLimit; // seconds; sched::kInfinite is UNLIMITED
    std::optional<sched::Seconds> timeMin; // seconds
    std::optional<int> nice; // negative: operators only
    std::optional<std::string> partition;
    std::optional<std::string> name;
    std::optional<int> numNodes;
    std::optional<std::string> dependency; // "" clears it
    std::optional<sched::Seconds> begin; // seconds since the epoch, on the cluster clock
    std::optional<int> arrayTaskThrottle;
    std::optional<std::string> constraint;
    std::optional<std::string> comment;
    // Members of a received `fields` that none of the above holds, in their order: the
    // controller refuses them by name. Never written.
    std::vector<std::string> unknown;

    bool operator==(const JobUpdate &) const = default;
    bool empty() const;
};

// The `fields` object: only the members that are set.
proto::Json updateToJson(const JobUpdate &update);
// `start_time` is read as `begin`; a `time_limit` that is not a number reads as UNLIMITED.
JobUpdate updateFromJson(const proto::Json &fields);

} // namespace mc::record
