#pragma once
// One pending job's place in the plan: an entry of the `plan` event's array (docs/protocol.md),
// which the controller publishes after a scheduling pass that moved a planned start, and the
// app's timeline draws.

#include "mc/proto/json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mc::record {

struct PlanEntry {
    std::int64_t jobId = 0;
    std::int64_t plannedStart = 0; // seconds since the epoch, on the cluster clock
    std::vector<std::string> nodes; // where it is planned to start; empty: not placed yet

    bool operator==(const PlanEntry &) const = default;
};

proto::Json planEntryToJson(const PlanEntry &entry);
// `nodes` may also be a hostlist ("cn[01-02]"); a malformed one reads as no nodes.
PlanEntry planEntryFromJson(const proto::Json &json);

} // namespace mc::record
