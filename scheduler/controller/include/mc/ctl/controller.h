#pragma once
// The controller: owns the queue and node usage, applies the scheduler's decisions, keeps the
// job store durable, and tells node daemons and subscribers what changed. Transport-free: the
// Server feeds it requests and reports; NodeGateway and `publish` carry its orders and events
// out. Time comes in as `now` on every call.
//
// Job life here: submit -> PENDING (committed before the reply) -> RUNNING (launch order sent)
// -> COMPLETING after scancel -> COMPLETED / FAILED / CANCELLED (end report committed, then
// acknowledged to the node).

#include "mc/acct/job_store.h"
#include "mc/proto/json.h"
#include "mc/sched/job.h"
#include "mc/sched/scheduler.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace mc::ctl {

using sched::Seconds;

// How orders reach node daemons. `launch` returns false when the node is not connected.
class NodeGateway {
public:
    virtual ~NodeGateway() = default;
    virtual bool send(const std::string &node, const proto::Json &order) = 0;
};

// True when slurm.conf text sets PrologFlags with Contain (what makes Slurm create the extern
// step of every job). The core's parser accepts the key without keeping it.
bool prologFlagsContain(const std::string &slurmConf);

class Controller {
public:
    Controller(sched::ClusterConfig config, sched::SiteUsers users, acct::JobStore &store,
        NodeGateway &gateway);

    // Reloads unfinished jobs and the job id counter from the store.
    bool restore(std::string &error);

    // Called with every job or node change (docs/protocol.md events).
    std::function<void(const proto::Json &event)> publish;

    // Requests from commands and apps: ping, submit, jobs, cancel, acct, cluster.
    proto::Json handleRequest(const proto::Json &request, Seconds now);
    // The snapshot a new subscriber gets.
    proto::Json snapshot(Seconds now) const;

    // Node daemon reports (node_register, job_started, job_ended) and disconnects.
    void nodeRegistered(const std::string &node, const proto::Json &message, Seconds now);
    void nodeReport(const std::string &node, const proto::Json &message, Seconds now);
    void nodeLost(const std::string &node, Seconds now);

    // Runs a scheduling pass and applies it.
    void schedule(Seconds now);
    // Drops finished jobs older than MinJobAge from memory (they stay in the store).
    void purgeOldJobs(Seconds now);

    const sched::ClusterConfig &config() const { return m_config; }

    // slurm.conf PrologFlags=Contain: every job also gets an "extern" step in accounting.
    void setExternSteps(bool on) { m_externSteps = on; }

private:
    struct NodeInfo {
        sched::NodeUsage usage;
        bool connected = false;
        std::string reason;
        std::string limits; // how the node enforces limits ("cgroup-v1", ...), and why
        std::string limitsDetail;
    };

    proto::Json submit(const proto::Json &request, Seconds now);
    proto::Json listJobs(const proto::Json &request, Seconds now) const;
    proto::Json cancel(const proto::Json &request, Seconds now);
    proto::Json accounting(const proto::Json &request, Seconds now) const;
    proto::Json clusterInfo() const;

    proto::Json jobJson(const sched::Job &job, Seconds now) const;
    proto::Json nodeJson(const NodeInfo &node) const;
    void jobEnded(sched::Job &job, const proto::Json &report, Seconds now);
    void release(sched::Job &job);
    void persist(const sched::Job &job);
    void emitJob(const sched::Job &job, Seconds now);
    void emitNode(const NodeInfo &node);
    proto::Json launchOrder(const sched::Job &job) const;

    sched::ClusterConfig m_config;
    sched::SiteUsers m_users;
    acct::JobStore &m_store;
    NodeGateway &m_gateway;
    std::map<sched::JobId, sched::Job> m_jobs;
    std::map<std::string, NodeInfo> m_nodes;
    std::uint32_t m_lastJobId = 0;
    bool m_externSteps = false;
};

} // namespace mc::ctl
