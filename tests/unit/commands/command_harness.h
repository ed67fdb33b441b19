#pragma once
// Runs a command in process against a fake controller and captures what it prints: the one
// seam of the command tests. The fake records every request and answers with `reply`.

#include "mc/cmd/context.h"
#include "mc/proto/json.h"

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace mc::cmd::test {

using proto::Json;

struct Result {
    std::string out;
    std::string err;
    int exitCode = -1;
};

// Users of the reference cluster (alice 1001, bob 1002, root 0).
inline std::optional<UserInfo> referenceUser(std::string_view nameOrUid)
{
    static const std::vector<UserInfo> users{
        {"alice", 1001, 1001}, {"bob", 1002, 1002}, {"root", 0, 0}};
    for (const auto &user : users) {
        if (user.name == nameOrUid || std::to_string(user.uid) == nameOrUid) {
            return user;
        }
    }
    return std::nullopt;
}

class Harness {
public:
    // What the fake controller answers; nullopt plays an unreachable controller.
    std::function<std::optional<Json>(const Json &)> reply = [](const Json &) {
        return std::optional<Json>();
    };
    std::vector<Json> requests;
    Context ctx;

    explicit Harness(std::string user = "alice")
    {
        ctx.user = *referenceUser(user);
        ctx.lookupUser = referenceUser;
        ctx.cwd = "/home/" + user;
        ctx.hostname = "vm";
        ctx.environment = {"HOME=/home/" + user, "PATH=/usr/bin:/bin", "USER=" + user};
        ctx.controller = [this](const Json &request) {
            requests.push_back(request);
            return reply(request);
        };
    }

    template <typename Command> Result run(std::vector<std::string> args)
    {
        std::ostringstream out;
        std::ostringstream err;
        ctx.args = std::move(args);
        ctx.out = &out;
        ctx.err = &err;
        Result result;
        result.exitCode = Command(ctx).run();
        result.out = out.str();
        result.err = err.str();
        return result;
    }
};

inline Json okReply()
{
    Json reply = Json::object();
    reply.set("ok", true);
    return reply;
}

inline Json errorReply(std::string_view message)
{
    Json reply = Json::object();
    reply.set("ok", false);
    reply.set("error", message);
    return reply;
}

// A controller that also answers `ping` with the reference cluster's name (the CLUSTER columns
// and -M of squeue, sinfo and sacct).
template <class Reply> auto withClusterName(Reply inner)
{
    return [inner = std::move(inner)](const Json &request) -> std::optional<Json> {
        if (request["op"].toString() == "ping") {
            Json reply = okReply();
            reply.set("cluster_name", "refcluster");
            return reply;
        }
        return inner(request);
    };
}

} // namespace mc::cmd::test
