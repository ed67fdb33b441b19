#pragma once
// Job objects as the controller sends them (docs/protocol.md), for GUI tests, and decoded.

#include "mc/proto/json.h"
#include "mc/record/job_object.h"

#include <QList>

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

// What the app's views take: the job objects decoded once, as ControllerLink decodes what the
// controller sends.
inline mc::record::JobObject decoded(const mc::proto::Json &job)
{
    return mc::record::jobObjectFromJson(job);
}

inline QList<mc::record::JobObject> decodedAll(const QList<mc::proto::Json> &jobs)
{
    QList<mc::record::JobObject> out;
    for (const mc::proto::Json &job : jobs) {
        out.push_back(decoded(job));
    }
    return out;
}

} // namespace mc::gui::test
