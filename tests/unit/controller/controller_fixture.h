#pragma once
// What the controller's unit tests share: a gateway that records the orders sent to nodes (the
// seam), request builders, and a controller on a real job store (SQLite in a test directory).

#include "mc/ctl/controller.h"

#include <QTemporaryDir>

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mc::test {

// Two nodes of 4 CPUs in one default partition, and two users of one account.
inline constexpr const char *kTwoNodeConf = R"(ClusterName=test
DefMemPerCPU=1000
NodeName=cn[01-02] CPUs=4 RealMemory=8000
PartitionName=cpu Nodes=cn[01-02] Default=YES DefaultTime=01:00:00 MaxTime=1-00:00:00
)";
inline constexpr const char *kTwoUsers = "User=alice UID=1001 DefaultAccount=def-prof\n"
                                         "User=bob UID=1002 DefaultAccount=def-prof\n";

struct RecordingGateway : ctl::NodeGateway {
    std::vector<std::pair<std::string, proto::Json>> orders; // (node, order), in sending order
    bool send(const std::string &node, const proto::Json &order) override
    {
        orders.emplace_back(node, order);
        return true;
    }
};

// A JSON object of `list`'s members.
inline proto::Json fields(std::initializer_list<std::pair<const char *, proto::Json>> list)
{
    proto::Json j = proto::Json::object();
    for (const auto &[k, v] : list) {
        j.set(k, v);
    }
    return j;
}

// A JSON array of job ids.
inline proto::Json ids(std::initializer_list<std::int64_t> list)
{
    proto::Json j = proto::Json::array();
    for (auto id : list) {
        j.push(id);
    }
    return j;
}

// The request `op` with the members of `body`.
inline proto::Json request(const char *op, proto::Json body = proto::Json::object())
{
    body.set("op", op);
    return body;
}

// A node's report that job `id` ended at `endTime` with `exitCode`, or killed by `signal`.
inline proto::Json jobEnded(
    std::int64_t id, sched::Seconds endTime, int exitCode = 0, int signal = 0)
{
    return request("job_ended",
        fields({{"job_id", id}, {"exit_code", exitCode}, {"exit_signal", signal},
            {"end_time", endTime}}));
}

// A submit request of a job of `cpus` CPUs running `true`; `extra` members are added to the
// spec (partition, array...).
inline proto::Json submitRequest(
    const std::string &user, int cpus, const proto::Json &extra = proto::Json::object())
{
    proto::Json job = proto::Json::object();
    job.set("name", "t");
    job.set("user", user);
    job.set("script", "#!/bin/bash\ntrue\n");
    job.set("work_dir", "/home/" + user);
    job.set("cpus_per_task", cpus);
    for (const auto &[key, value] : extra.members()) {
        job.set(key, value);
    }
    return request("submit", fields({{"job", job}}));
}

// A controller of `conf` and `users` over the job store `dir`/ctld.sqlite (opened into `store`),
// restored from what the store holds: a second call on the same directory is a restart. Errors
// of the store or the restore are in `error`; the controller is returned anyway.
inline std::unique_ptr<ctl::Controller> openController(const QTemporaryDir &dir,
    std::unique_ptr<acct::JobStore> &store, ctl::NodeGateway &gateway, const char *conf,
    const char *users, std::string &error)
{
    store = std::make_unique<acct::JobStore>();
    const bool opened = store->open(dir.path().toStdString() + "/ctld.sqlite", error);
    auto c = std::make_unique<ctl::Controller>(
        sched::parseSlurmConf(conf).config, sched::parseSiteUsers(users), *store, gateway);
    std::string restoreError;
    if (!c->restore(restoreError) && opened) {
        error = restoreError;
    }
    return c;
}

} // namespace mc::test
