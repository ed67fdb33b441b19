#pragma once
// Job objects as the controller sends them (docs/protocol.md), for GUI tests.

#include "mc/proto/json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mc::gui::test {

inline constexpr std::int64_t kNow = 1'800'000'000; // the cluster clock in these tests

inline mc::proto::Json job(std::int64_t id, const std::string &state, const std::string &stateShort)
{
    return mc::proto::Json::object()
        .set("job_id", id)
        .set("name", "train")
        .set("user", "alice")
        .set("partition", "cpu")
        .set("state", state)
        .set("state_short", stateShort)
        .set("reason", "None")
        .set("submit_time", kNow - 100)
        .set("start_time", std::int64_t{0})
        .set("end_time", std::int64_t{0})
        .set("nodes", mc::proto::Json::array())
        .set("num_nodes", 1)
        .set("now", kNow);
}

inline mc::proto::Json pendingJob(std::int64_t id, const std::string &reason = "Resources")
{
    return job(id, "PENDING", "PD").set("reason", reason);
}

inline mc::proto::Json runningJob(
    std::int64_t id, const std::vector<std::string> &nodes, std::int64_t startTime = kNow - 65)
{
    return job(id, "RUNNING", "R")
        .set("start_time", startTime)
        .set("nodes", mc::proto::stringList(nodes))
        .set("num_nodes", static_cast<std::int64_t>(nodes.size()));
}

} // namespace mc::gui::test
