#include "mc/lessons/collector.h"

#include "mc/proto/client.h"

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>

namespace mc::lessons {

using proto::Json;

namespace {

long long wallClock()
{
    return std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::optional<Json> request(proto::Client &client, Json req, std::string &error)
{
    auto reply = client.call(req, error);
    if (!reply) {
        return std::nullopt;
    }
    if (!(*reply)["ok"].toBool()) {
        error = (*reply)["error"].toString();
        return std::nullopt;
    }
    return reply;
}

Json op(const char *name)
{
    Json j = Json::object();
    j.set("op", name);
    return j;
}

} // namespace

std::optional<long long> clusterNow(const emu::ClusterLayout &layout)
{
    proto::Client client;
    std::string error;
    if (!client.connect(layout.socket(), error)) {
        return std::nullopt;
    }
    auto reply = request(client, op("ping"), error);
    if (!reply) {
        return std::nullopt;
    }
    return (*reply)["now"].toInt(wallClock());
}

bool collectFacts(const emu::ClusterLayout &layout, const std::string &user,
    const std::string &account, long long since, double wallSince, Snapshot &out,
    std::string &error)
{
    proto::Client client;
    if (!client.connect(layout.socket(), error)) {
        error = "the cluster is not running (start it with `minicluster up`): " + error;
        return false;
    }
    Facts &f = out.facts;
    f.user = user;
    f.since = since;
    f.wallSince = wallSince;
    f.wallNow = wallClock();
    auto ping = request(client, op("ping"), error);
    if (!ping) {
        return false;
    }
    f.now = (*ping)["now"].toInt(f.wallNow);

    Json users = Json::array();
    users.push(user);
    Json acct = op("acct");
    acct.set("users", users);
    auto acctReply = request(client, acct, error);
    if (!acctReply) {
        return false;
    }
    std::map<std::int64_t, record::JobObject> byId;
    std::vector<std::int64_t> order;
    for (const auto &j : (*acctReply)["jobs"].items()) {
        record::JobObject job = record::jobObjectFromJson(j);
        if (!byId.count(job.jobId)) {
            order.push_back(job.jobId);
        }
        byId[job.jobId] = std::move(job);
    }
    // Live members (reason, planned start, array state) come from the queue; the accounting
    // keeps what the queue does not list: the steps and who cancelled the job.
    Json jobs = op("jobs");
    jobs.set("users", users);
    if (auto live = request(client, jobs, error)) {
        for (const auto &j : (*live)["jobs"].items()) {
            record::JobObject job = record::jobObjectFromJson(j);
            auto it = byId.find(job.jobId);
            if (it == byId.end()) {
                order.push_back(job.jobId);
                byId[job.jobId] = std::move(job);
                continue;
            }
            job.steps = std::move(it->second.steps);
            if (!job.cancelledBy) {
                job.cancelledBy = it->second.cancelledBy;
            }
            it->second = std::move(job);
        }
    }
    error.clear();
    for (auto id : order) {
        f.jobs.push_back(std::move(byId[id]));
    }
    if (auto cluster = request(client, op("cluster"), error)) {
        f.nodes = (*cluster)["nodes"].items();
    }
    error.clear();

    std::ifstream in(historyPath(layout, user));
    std::ostringstream ss;
    ss << in.rdbuf();
    f.history = parseHistory(ss.str());

    out.files = std::make_unique<FileView>(layout, user, account);
    f.files = out.files.get();
    return true;
}

} // namespace mc::lessons
