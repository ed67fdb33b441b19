#include "mc/ctl/controller.h"

#include "mc/record/job_codec.h"
#include "mc/record/launch_order.h"
#include "mc/sched/explanation.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_transitions.h"
#include "mc/sched/preemption.h"
#include "mc/sched/schedule_pass.h"
#include "replies.h"
#include "submit_limits.h"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;
using sched::JobState;
using sched::Reason;

namespace {

// The dependency as Slurm keeps it: targets that never existed (ids past the last one handed
// out) are dropped, and with them items left without a target (squeue %E then shows "(null)").
std::string knownDependencies(const sched::Dependency &dep, std::uint32_t lastJobId)
{
    std::string text;
    for (const auto &item : dep.items) {
        std::string part;
        if (item.type == sched::DependencyType::Singleton) {
            part = "singleton";
        } else {
            for (const auto &target : item.targets) {
                if (target.job.value > lastJobId) {
                    continue;
                }
                part += ':' + std::to_string(target.job.value);
                if (target.delay > 0) {
                    part += '+' + std::to_string(target.delay / 60);
                }
            }
            if (part.empty()) {
                continue;
            }
            static constexpr const char *kNames[]
                = {"after", "afterok", "afternotok", "afterany", "aftercorr", "singleton"};
            part = kNames[static_cast<int>(item.type)] + part;
        }
        if (!text.empty()) {
            text += dep.anyOf ? '?' : ',';
        }
        text += part;
    }
    return text;
}

// Whether every feature --constraint names ("a&b", "[a|b]", "a*2") is some node's: Slurm
// refuses a name no node has (Invalid feature specification), not only unsatisfiable sets.
bool knownFeatures(const std::string &constraint, const sched::ClusterConfig &config)
{
    std::size_t at = 0;
    while (at < constraint.size()) {
        std::size_t end = constraint.find_first_of("&|,[]()", at);
        end = end == std::string::npos ? constraint.size() : end;
        const std::string name
            = constraint.substr(at, std::min(end, constraint.find('*', at)) - at);
        at = end + 1;
        if (name.empty()) {
            continue;
        }
        const bool known = std::any_of(
            config.nodes.begin(), config.nodes.end(), [&](const sched::NodeConfig &node) {
                return std::find(node.features.begin(), node.features.end(), name)
                    != node.features.end();
            });
        if (!known) {
            return false;
        }
    }
    return true;
}

// Whether slurmctld refuses the submission only once it has given the job its id (in
// select_nodes() and the checks after _job_create()), which then is used up: the next job
// gets the one after.
bool usesUpJobId(const Json &refusal)
{
    static constexpr std::string_view kAfterId[] = {"Requested node configuration is not available",
        "Invalid feature specification", "Job dependency problem"};
    const std::string error = refusal["error"].toString();
    return std::find(std::begin(kAfterId), std::end(kAfterId), error) != std::end(kAfterId);
}

} // namespace

bool prologFlagsContain(const std::string &slurmConf)
{
    auto lower = [](std::string s) {
        for (auto &c : s) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return s;
    };
    std::istringstream in(slurmConf);
    for (std::string line; std::getline(in, line);) {
        line = lower(line.substr(0, line.find('#')));
        auto at = line.find("prologflags=");
        if (at != std::string::npos
            && (at == 0 || std::isspace(static_cast<unsigned char>(line[at - 1])))) {
            std::string value = line.substr(at + 12);
            value = value.substr(0, value.find_first_of(" \t"));
            std::istringstream flags(value);
            for (std::string flag; std::getline(flags, flag, ',');) {
                if (flag == "contain") {
                    return true;
                }
            }
        }
    }
    return false;
}

Controller::Controller(sched::ClusterConfig config, sched::SiteUsers users, acct::JobStore &store,
    NodeGateway &gateway)
    : m_config(std::move(config))
    , m_users(std::move(users))
    , m_store(store)
    , m_gateway(gateway)
    , m_nodes(m_config)
    , m_fairshare(m_config, m_users)
    , m_accounting(m_config, m_store, m_jobs,
          [this](const Job &job, std::vector<acct::StepRecord> stored) {
              return accountedSteps(job, std::move(stored));
          })
    , m_lastPlan(Json::array())
{ }

bool Controller::restore(std::string &error)
{
    m_jobs.restoreLastId(m_store.lastJobId());
    for (auto &job : m_store.loadUnfinished(error)) {
        if (job.isActive()) {
            m_nodes.allocate(job, +1);
        }
        m_jobs[job.id] = std::move(job);
    }
    for (const auto &[id, job] : m_jobs) {
        m_jobs.touch(job);
    }
    // Fairshare: the decayed usage of every finished job, charged in the order they ended.
    std::string queryError;
    auto rows = m_store.query(acct::AcctQuery{}, queryError);
    std::sort(rows.begin(), rows.end(), [](const acct::AcctRow &a, const acct::AcctRow &b) {
        return a.job.endTime < b.job.endTime;
    });
    for (const auto &row : rows) {
        if (sched::isFinished(row.job.state) && row.job.startTime > 0) {
            m_fairshare.chargeEnded(row.job, row.job.endTime);
        }
    }
    return error.empty();
}

// Slurm's reset_job_bitmaps() at slurmctld's start: a job whose partition or nodes are no
// longer in slurm.conf ends NODE_FAIL with Reason NodeDown (a pending one with no run time); a
// running batch job that lost a node but kept its partition is requeued, as after a node
// failure. Its kills happen at registration: a node that runs a job it is not given kills it.
void Controller::endJobsOfVanishedConfig(Seconds now)
{
    std::vector<JobId> failed;
    for (const auto &[id, job] : m_jobs) {
        if (sched::isFinished(job.state)) {
            continue;
        }
        std::string gone;
        if (!m_config.partition(job.spec.partition)) {
            std::fprintf(stderr, "minicluster-ctld: error: Invalid partition (%s) for JobId=%u\n",
                job.spec.partition.c_str(), id.value);
            gone = "partition";
        } else if (job.isActive()) {
            for (const auto &node : job.nodeList) {
                if (m_nodes.find(node) == m_nodes.end()) {
                    std::fprintf(stderr,
                        "minicluster-ctld: error: Invalid nodes (%s) for JobId=%u\n", node.c_str(),
                        id.value);
                    gone = "node";
                    break;
                }
            }
        }
        if (!gone.empty()) {
            failed.push_back(id);
        }
    }
    for (JobId id : failed) {
        Job &job = m_jobs[id];
        if (job.isActive()) {
            jobEnded(job, record::JobEnd{.job = id, .nodeFail = true}, now);
            continue;
        }
        job.state = JobState::NodeFail;
        job.reason = Reason::NodeDown;
        job.startTime = now;
        job.endTime = now;
        persist(job);
        emitJob(job, now);
    }
}

Json Controller::ping(Seconds now) const
{
    Json reply = success();
    reply.set("cluster_name", m_config.clusterName);
    reply.set("now", now);
    if (m_bootTime > 0) {
        reply.set("boot_time", m_bootTime);
    }
    reply.set("next_job_id", static_cast<std::int64_t>(m_jobs.nextId().value));
    return reply;
}

std::optional<Json> Controller::validate(Job &job, Seconds now)
{
    sched::JobSpec &spec = job.spec;
    std::string why;
    if (auto refused = checkSubmitLimits(spec, why)) {
        std::fprintf(stderr, "minicluster-ctld: submission of %s refused: %s\n", spec.user.c_str(),
            why.c_str());
        return refused;
    }
    const sched::SiteUser *user = m_users.find(spec.user);
    if (!user) {
        return failure("Invalid user id");
    }
    spec.uid = user->uid;
    spec.gid = user->gid;
    if (spec.nice < 0 && spec.user != "root") { // only an operator may raise a job's priority
        return failure("Invalid --nice value");
    }
    const sched::PartitionConfig *part
        = spec.partition.empty() ? m_config.defaultPartition() : m_config.partition(spec.partition);
    if (!part) {
        return failure(spec.partition.empty() ? "No partition specified or system default "
                                                "partition"
                                              : "Invalid partition name specified");
    }
    spec.partition = part->name;
    if (spec.account.empty()) {
        spec.account = user->defaultAccount;
    }
    if (spec.account.empty()
        || std::find(user->accounts.begin(), user->accounts.end(), spec.account)
            == user->accounts.end()) {
        return failure("Invalid account or account/partition combination specified");
    }
    if (spec.qos.empty()) {
        spec.qos = m_config.qos.empty() ? std::string("normal") : m_config.qos.front().name;
    } else if (!m_config.findQos(spec.qos)) {
        return failure("Invalid qos specification", kInvalidQos);
    }
    if (!spec.memPerNode && !spec.memPerCpu && !spec.memPerGpu) {
        // Slurm records the cluster default as the job's request (MinMemoryCPU=500M).
        if (m_config.defMemPerCpu) {
            spec.memPerCpu = m_config.defMemPerCpu;
        } else if (m_config.defMemPerNode) {
            spec.memPerNode = m_config.defMemPerNode;
        }
    }
    sched::JobShape shape = sched::shapeOf(spec, m_config);
    if (shape.gpusPerNode == 0 && (spec.cpusPerGpu > 0 || spec.memPerGpu)) {
        return failure("Invalid generic resource (gres) specification"); // per GPU, of none
    }
    if (!spec.gpuType.empty()
        && std::none_of(m_config.nodes.begin(), m_config.nodes.end(),
            [&](const sched::NodeConfig &n) { return n.gpus > 0 && n.gpuType == spec.gpuType; })) {
        return failure("Invalid generic resource (gres) specification"); // no GPU of that type
    }
    // More nodes than the partition has: accepted, and it waits with PartitionNodeLimit
    // (Slurm's EnforcePartLimits=NO default), if the partition's nodes could hold it.
    for (const auto &name : spec.nodeList) {
        if (!m_config.node(name)) {
            return failure("Invalid node name specified");
        }
    }
    const int needed = std::min(shape.nodes, static_cast<int>(part->nodes.size()));
    int fitting = 0;
    for (const auto &name : part->nodes) {
        const sched::NodeConfig *n = m_config.node(name);
        const bool excluded = std::find(spec.excludeNodes.begin(), spec.excludeNodes.end(), name)
            != spec.excludeNodes.end();
        if (n && !excluded && n->cpus >= shape.cpusPerNode && n->realMemory >= shape.memPerNode
            && n->gpus >= shape.gpusPerNode && sched::hasGpuType(n, spec.gpuType)) {
            ++fitting;
        }
    }
    if (fitting < needed) {
        return failure("Requested node configuration is not available");
    }
    for (const auto &name : spec.nodeList) {
        if (std::find(part->nodes.begin(), part->nodes.end(), name) == part->nodes.end()) {
            return failure("Requested node configuration is not available");
        }
    }
    if (!knownFeatures(spec.constraint, m_config)) {
        return failure("Invalid feature specification");
    }
    if (!spec.array.empty()) {
        auto array = sched::parseArraySpec(spec.array);
        if (!array) {
            return failure("Invalid job array specification");
        }
        job.arrayPending = array->taskIds;
        job.arrayMaxRunning = array->maxRunning;
    }
    if (!spec.dependency.empty()) {
        auto dep = sched::parseDependency(spec.dependency);
        if (!dep) {
            Json reply = failure("Job dependency problem");
            reply.set("errno", kDependencyProblem);
            return reply;
        }
        // Slurm gives the job its id before it reads the dependency: naming that id is a
        // dependency on itself.
        Job self = job;
        self.id = m_jobs.nextId();
        self.arrayJobId = job.arrayPending.empty() ? 0 : self.id.value;
        if (sched::dependsOnItself(self, *dep, makeLookup())) {
            return failure("Circular job dependency", kCircularDependency);
        }
        spec.dependency = knownDependencies(*dep, m_jobs.lastId());
    }
    job.submitTime = now;
    job.eligibleTime = now;
    job.timeLimit = spec.timeLimit ? *spec.timeLimit : part->defaultTime.value_or(part->maxTime);
    job.memPerNode = shape.memPerNode;
    job.state = JobState::Pending;
    job.reason = spec.hold ? Reason::JobHeldUser : Reason::None;
    if (spec.name.empty()) {
        spec.name = "sbatch";
    }
    return std::nullopt;
}

Json Controller::submit(const Json &request, Seconds now)
{
    std::string why;
    if (auto refused = checkSubmitTypes(request["job"], why)) {
        std::fprintf(stderr, "minicluster-ctld: submission refused: %s\n", why.c_str());
        return *refused;
    }
    Job job;
    job.spec = record::specFromJson(request["job"]);
    if (auto refused = validate(job, now)) {
        if (usesUpJobId(*refused)) {
            m_store.setLastJobId(m_jobs.takeId().value);
        }
        return *refused;
    }
    job.id = m_jobs.nextId();
    if (job.spec.testOnly || request["test_only"].toBool()) {
        // As Slurm's will-run: the id it answers is used.
        m_store.setLastJobId(m_jobs.takeId().value);
        return testOnly(std::move(job), now); // sbatch --test-only: nothing is stored
    }
    if (!job.arrayPending.empty()) {
        job.arrayJobId = job.id.value;
    }
    const auto context = sched::makePriorityContext(m_config, &m_fairshare.ledger());
    job.priority = job.spec.hold ? 0 : sched::priorityOf(job, context, now).priority;

    // A store that refuses writes (a full disk) refuses new work, with slurmctld's words
    // when it cannot write a job's script (ESLURM_WRITING_TO_FILE); the cause is in its log.
    std::string error;
    if (!flushUnsaved() || !m_store.saveJob(job, error)) {
        if (!error.empty()) {
            storeFailed("submitted job " + std::to_string(job.id.value), error);
        }
        return failure("I/O error writing script/environment to file", kWritingToFile);
    }
    m_jobs.takeId(); // job.id; the store derives it from MAX(id): one commit per submission
    // The script and environment stay in the store until launch (launchOrder): they are most
    // of a pending job's size (issue #6: memory per pending job).
    std::string().swap(job.spec.script);
    std::vector<std::string>().swap(job.spec.env);
    auto [it, inserted] = m_jobs.emplace(job.id, std::move(job));
    emitJob(it->second, now);

    Json reply = success();
    reply.set("job_id", static_cast<std::int64_t>(it->first.value));
    return reply;
}

Json Controller::listJobs(const Json &request, Seconds now) const
{
    const Json &ids = request["job_ids"];
    const Json &users = request["users"];
    const Json &states = request["states"];
    const Json &partitions = request["partitions"];
    // `fields`: only those members (docs/protocol.md); `form: rows`: as rows of values.
    const std::vector<std::string> fields = request["fields"].toStringList();
    const bool rows = !fields.empty() && request["form"].toString() == "rows";
    auto keep = [&](JobId id, std::uint32_t arrayJobId, const std::string &user, JobState state,
                    const std::string &partition) {
        if (ids.size() && !listedId(ids, id.value)
            && !(arrayJobId != 0 && listedId(ids, arrayJobId))) {
            return false;
        }
        if (users.size() && !listed(users, user)) {
            return false;
        }
        if (states.size() && !listed(states, sched::longName(state))) {
            return false;
        }
        return !partitions.size() || listed(partitions, partition);
    };
    Json reply = success();
    reply.set("now", now);
    if (rows) {
        reply.set("columns", proto::stringList(fields));
        auto kept = [this, &keep](const JobTable::CachedRow &row) {
            return keep(row.id, row.arrayJobId, m_jobs.rowName(row.user), row.state,
                m_jobs.rowName(row.partition));
        };
        reply.set("rows", m_jobs.jobRows(fields, now, kept, m_waits, m_starts));
        return reply;
    }
    const JobView view = fields.empty() ? JobView{} : JobView::of(fields);
    Json jobs = Json::array();
    for (const auto &[id, job] : m_jobs) {
        if (keep(id, job.arrayJobId, job.spec.user, job.state, job.spec.partition)) {
            jobs.push(jobJson(job, now, view));
        }
    }
    reply.set("jobs", std::move(jobs));
    return reply;
}

Json Controller::cancel(const Json &request, Seconds now)
{
    std::string userName = request["user"].toString();
    const sched::SiteUser *user = m_users.find(userName);
    bool isRoot = userName == "root";
    int signal = static_cast<int>(request["signal"].toInt(SIGKILL));
    Json results = Json::array();
    // scancel of an array's id cancels the record and every task of it; "12_3" one task.
    std::vector<NamedJob> wanted;
    for (NamedJob &named : namedJobs(request["job_ids"], now)) {
        wanted.push_back(named);
        if (!named.wholeJob || !named.id) {
            continue;
        }
        for (const auto &[other, job] : m_jobs) {
            if (job.arrayJobId == named.id->value && other != *named.id
                && !sched::isFinished(job.state)) {
                wanted.push_back(NamedJob{std::to_string(other.value), other, false});
            }
        }
    }
    for (const NamedJob &named : wanted) {
        auto fail = [&](std::string_view message, int slurmErrno) {
            results.push(jobFailure(named, message, slurmErrno));
        };
        const std::uint32_t id = named.id ? named.id->value : 0;
        auto it = m_jobs.find(JobId{id});
        if (it == m_jobs.end()) {
            fail("Invalid job id specified", kInvalidJobId);
            continue;
        }
        Job &job = it->second;
        if (!isRoot && job.spec.user != userName) {
            fail("Access/permission denied", kAccessDenied);
            continue;
        }
        if (sched::isFinished(job.state)) {
            fail("Job/step already completing or completed", kAlreadyDone);
            continue;
        }
        std::uint32_t by = isRoot ? 0 : (user ? user->uid : 0);
        if (job.state == JobState::Pending) { // its reason stays (JobHeldUser...), as Slurm's
            job.state = JobState::Cancelled;
            job.cancelledBy = by;
            job.endTime = now;
            persist(job);
            emitJob(job, now);
            continue;
        }
        if (job.isActive()) {
            if (signal == SIGKILL) {
                foldSuspension(job, now); // its node thaws it to end it
                job.state = JobState::Completing;
                job.cancelledBy = by;
                persist(job);
                emitJob(job, now);
            }
            Json order = Json::object();
            order.set("op", "signal");
            order.set("job_id", static_cast<std::int64_t>(id));
            order.set("signal", signal);
            order.set("cancel", signal == SIGKILL);
            order.set("time", now); // the notice's "CANCELLED AT", on the cluster clock
            order.set("kill_wait_ms",
                m_clock ? m_clock->wallMs(m_config.killWait)
                        : std::int64_t{m_config.killWait} * 1000);
            if (signal != SIGKILL) {
                // scancel --signal: steps (Slurm's default), batch (--batch) or full (--full).
                order.set("scope", request["scope"].toString("steps"));
                for (const auto &node : job.nodeList) { // steps may run on every node
                    if (node != job.batchHost) {
                        m_gateway.send(node, order);
                    }
                }
            }
            m_gateway.send(job.batchHost, order);
        }
    }
    Json reply = success();
    reply.set("results", std::move(results));
    return reply;
}

Json Controller::clusterInfo() const
{
    Json nodes = Json::array();
    for (const auto &[name, node] : m_nodes) {
        nodes.push(m_nodes.nodeJson(node));
    }
    Json partitions = Json::array();
    for (const auto &p : m_config.partitions) {
        Json part = Json::object();
        part.set("name", p.name);
        part.set("default", p.isDefault);
        part.set("max_time", p.maxTime);
        part.set("nodes", proto::stringList(p.nodes));
        part.set("state", p.state == sched::PartitionState::Up ? "up" : "down");
        partitions.push(std::move(part));
    }
    Json reply = success();
    reply.set("cluster_name", m_config.clusterName);
    reply.set("nodes", std::move(nodes));
    reply.set("partitions", std::move(partitions));
    return reply;
}

Json Controller::snapshot(Seconds now) const
{
    Json reply = listJobs(Json::object(), now);
    Json nodes = Json::array();
    for (const auto &[name, node] : m_nodes) {
        nodes.push(m_nodes.nodeJson(node));
    }
    reply.set("nodes", std::move(nodes));
    reply.set("cluster_name", m_config.clusterName);
    return reply;
}

Controller::JobView Controller::JobView::of(const std::vector<std::string> &fields)
{
    JobView view;
    view.keys = record::JobKeys::of(fields);
    auto named = [&fields](std::string_view key) {
        return std::find(fields.begin(), fields.end(), key) != fields.end();
    };
    view.waitingFor = named("waiting_for");
    view.dependency = named("dependency");
    view.explanation = named("explanation");
    view.now = named("now");
    view.backfilled = named("backfilled");
    return view;
}

Json Controller::jobJson(const Job &job, Seconds now) const
{
    return jobJson(job, now, JobView{});
}

Json Controller::jobJson(const Job &job, Seconds now, const JobView &view) const
{
    Json j = record::jobToJson(job, view.keys);
    if (auto wait = m_waits.find(job.id); wait != m_waits.end() && job.isPending()) {
        if (view.waitingFor) {
            Json ids = Json::array();
            for (JobId id : wait->second.waitingFor) {
                ids.push(static_cast<std::int64_t>(id.value));
            }
            j.set("waiting_for", std::move(ids));
        }
        if (view.dependency && !wait->second.dependency.empty()) {
            j.set("dependency", wait->second.dependency);
        }
        if (view.explanation) {
            Json explanation = Json::object();
            explanation.set("en", sched::explain(wait->second, "en", now));
            explanation.set("fr", sched::explain(wait->second, "fr", now));
            j.add("explanation", std::move(explanation));
        }
    } else if (auto start = m_starts.find(job.id); start != m_starts.end() && !job.isPending()) {
        if (view.backfilled) {
            j.set("backfilled", start->second.backfilled);
        }
        if (view.explanation) {
            Json explanation = Json::object();
            explanation.set("en", sched::explain(start->second, "en"));
            explanation.set("fr", sched::explain(start->second, "fr"));
            j.add("explanation", std::move(explanation));
        }
    }
    if (view.now) {
        j.add("now", now);
    }
    return j;
}

void Controller::nodeRegistered(const std::string &node, const Json &message, Seconds now)
{
    auto it = m_nodes.find(node);
    if (it == m_nodes.end()) {
        return;
    }
    it->second.connected = true;
    it->second.limits = message["limits"].toString();
    it->second.limitsDetail = message["limits_detail"].toString();
    it->second.usage.available = true;
    if (it->second.adminState.empty()) {
        it->second.reason.clear(); // a drained node stays drained, with its reason
    }
    // Reconciled with the store before any pass (issue #18: a pass here launched new jobs on
    // the node, which the lost-job check below then took for lost and requeued while they ran).
    // First the end reports the node kept while we were away, each acknowledged once stored.
    for (const auto &item : message["finished"].items()) {
        if (const auto report = record::jobEndFromJson(item)) {
            applyEndReport(node, *report, now);
            ackEnd(node, report->job.value);
        }
    }
    // Then what the node runs. A job we do not believe runs there (ended, requeued elsewhere
    // while the node was away) is killed there; a job we believe runs there and the node does
    // not know is lost with its earlier daemon (which the node killed before registering).
    const Json &running = message["running"];
    for (const auto &item : running.items()) {
        auto job = m_jobs.find(JobId{static_cast<std::uint32_t>(item.toInt())});
        if (job != m_jobs.end() && job->second.batchHost == node) {
            m_launching.erase(job->first); // it runs there: launched (BatchStartTimeout)
        }
        if (job == m_jobs.end() || !job->second.isActive() || job->second.batchHost != node) {
            Json order = Json::object();
            order.set("op", "signal");
            order.set("job_id", item.toInt());
            order.set("signal", SIGKILL);
            order.set("cancel", false);
            m_gateway.send(node, order);
        }
    }
    std::vector<JobId> lost;
    for (auto &[id, job] : m_jobs) {
        if (job.isActive() && !job.spec.interactive && job.batchHost == node
            && !listedId(running, id.value)) {
            lost.push_back(id);
        }
    }
    for (JobId id : lost) {
        jobEnded(m_jobs[id], record::JobEnd{.job = id, .nodeFail = true}, now);
    }
    if (it->second.rebooting) { // a new daemon: the restart is over
        nodeRebooted(it->second, now);
        return;
    }
    emitNode(it->second);
    schedule(now);
}

void Controller::nodeLost(const std::string &node, Seconds now)
{
    auto it = m_nodes.find(node);
    if (it == m_nodes.end()) {
        return;
    }
    it->second.connected = false;
    it->second.usage.available = false;
    it->second.reason = "Not responding";
    it->second.reasonTime = now;
    // Its batch jobs stay RUNNING on a node that does not respond, as under Slurm while
    // slurmd is away: no copy of them starts until the node's next daemon has registered,
    // which kills what its predecessor left before it does (docs/design.md, "At most once").
    // Allocations (salloc/srun) are never requeued: they end NODE_FAIL now.
    std::vector<JobId> lost;
    for (const auto &[id, job] : m_jobs) {
        if (job.isActive() && job.spec.interactive && job.batchHost == node) {
            lost.push_back(id);
        }
    }
    for (JobId id : lost) {
        jobEnded(m_jobs[id], record::JobEnd{.job = id, .nodeFail = true}, now);
    }
    emitNode(it->second);
    schedule(now);
}

bool Controller::applyEndReport(const std::string &node, const record::JobEnd &report, Seconds now)
{
    auto it = m_jobs.find(report.job);
    // Only its batch host reports a job's end: a late report of a run that was lost with
    // another node (and since requeued elsewhere) is acknowledged, not applied.
    if (it == m_jobs.end() || !it->second.isActive() || it->second.batchHost != node) {
        return false;
    }
    jobEnded(it->second, report, now);
    auto info = m_nodes.find(node);
    if (report.nodeReboot && info != m_nodes.end()) {
        noteMemoryOverrun(info->second, report.job, report.memoryLimitKb.value_or(0), now);
    }
    return true;
}

void Controller::nodeReport(const std::string &node, const Json &message, Seconds now, bool pass)
{
    std::string op = message["op"].toString();
    auto id = static_cast<std::uint32_t>(message["job_id"].toInt());
    auto info = m_nodes.find(node);
    if (op == "job_ended") {
        if (const auto report = record::jobEndFromJson(message)) {
            applyEndReport(node, *report, now);
        }
        ackEnd(node, id); // held while the store refuses writes
        if (pass) {
            schedule(now);
        }
    } else if (op == "job_started") {
        if (auto it = m_launching.find(JobId{id}); it != m_launching.end()) {
            const auto job = m_jobs.find(JobId{id});
            if (job != m_jobs.end() && job->second.batchHost == node) {
                m_launching.erase(it); // launched in time (BatchStartTimeout)
            }
        }
    } else if (op == "batch_usage") {
        auto job = m_jobs.find(JobId{id});
        if (job != m_jobs.end() && job->second.isActive() && job->second.batchHost == node) {
            m_nodes.batchUsage()[id] = record::usageFromJson(message["usage"]); // sstat -j N.batch
        }
    } else if (op == "node_reboot" && info != m_nodes.end()) {
        nodeRebooting(info->second, JobId{id}, now);
    } else if (op == "node_rebooted" && info != m_nodes.end()) {
        nodeRebooted(info->second, now);
    }
}

// Ends every active job on `node` but `spared` as lost with the node (NODE_FAIL, or requeued).
// Their batch scripts are killed where they run: on another node, or on this one when it is
// still there to do it (`killHere`: a node an operator set down, not a rebooting one).
void Controller::failJobsOn(const std::string &node, JobId spared, bool killHere, Seconds now)
{
    std::vector<JobId> lost;
    for (const auto &[id, job] : m_jobs) {
        if (id != spared && job.isActive()
            && std::find(job.nodeList.begin(), job.nodeList.end(), node) != job.nodeList.end()) {
            lost.push_back(id);
        }
    }
    for (JobId id : lost) {
        Job &job = m_jobs[id];
        loseJob(job, job.batchHost != node || killHere, now);
    }
}

void Controller::loseJob(Job &job, bool kill, Seconds now)
{
    if (kill) {
        Json order = Json::object();
        order.set("op", "signal");
        order.set("job_id", static_cast<std::int64_t>(job.id.value));
        order.set("signal", SIGKILL);
        order.set("cancel", false);
        m_gateway.send(job.batchHost, order);
    }
    jobEnded(job, record::JobEnd{.job = job.id, .nodeFail = true}, now);
}

void Controller::nodeRebooting(NodeInfo &node, JobId culprit, Seconds now)
{
    node.rebooting = true;
    node.reason = "Node unexpectedly rebooted"; // what slurmctld says of such a node
    node.reasonTime = now;
    node.usage.available = false;
    // Every other job on it is lost, as in a node failure: requeued (JobRequeue=1) or
    // NODE_FAIL (--no-requeue, salloc/srun). The culprit's own end report follows.
    failJobsOn(node.usage.name, culprit, false, now);
    auto it = m_jobs.find(culprit);
    if (it != m_jobs.end() && it->second.isActive() && it->second.batchHost != node.usage.name) {
        // A step of the job on another node than its batch host's went over: the batch host
        // hears nothing of this restart, so the job ends as the batch host's own restart ends
        // it: CANCELLED by root (its batch script killed, no notice) and, once this node is
        // back, the cause in its Comment.
        Job &job = it->second;
        job.state = JobState::Completing;
        job.cancelledBy = 0;
        persist(job);
        emitJob(job, now);
        Json order = Json::object();
        order.set("op", "signal");
        order.set("job_id", static_cast<std::int64_t>(culprit.value));
        order.set("signal", SIGKILL);
        order.set("time", now);
        order.set("kill_wait_ms", 0);
        m_gateway.send(job.batchHost, order);
        noteMemoryOverrun(node, culprit, job.memPerNode * 1024, now);
    }
    emitNode(node);
    schedule(now);
}

void Controller::nodeRebooted(NodeInfo &node, Seconds now)
{
    node.rebooting = false;
    node.usage.available = node.connected;
    if (node.adminState.empty()) {
        node.reason = node.connected ? std::string() : std::string("Not responding");
        node.reasonTime = 0;
    }
    if (node.overrunComment) {
        // The site's mechanism writes the cause into the job's Comment once the node is up.
        auto it = m_jobs.find(node.overrunComment->first);
        if (it != m_jobs.end()) {
            it->second.spec.comment = node.overrunComment->second;
            persist(it->second);
            emitJob(it->second, now);
        }
        node.overrunComment.reset();
    }
    emitNode(node);
    schedule(now);
}

void Controller::noteMemoryOverrun(NodeInfo &node, JobId culprit, std::int64_t limitKb, Seconds now)
{
    std::string text = "Memory overrun: job exceeded its ";
    text += limitKb > 0 ? sched::formatMemory(limitKb / 1024) + " " : std::string();
    text += "memory allocation; node " + node.usage.name + " rebooted";
    node.overrunComment = std::make_pair(culprit, std::move(text));
    if (!node.rebooting) { // its daemon said it is back already
        nodeRebooted(node, now);
    }
}

void Controller::jobEnded(Job &job, const record::JobEnd &report, Seconds now)
{
    job.exit = report.exit;
    const bool timedOut = timingOut(job) || report.timeout;
    job.endTime = reportedEnd(job, report, now);
    foldSuspension(job, job.endTime);
    m_warned.erase(job.id);
    endRunningSteps(job, job.endTime);
    acct::StepRecord step;
    step.job = job.id;
    step.step = "batch";
    step.exit = job.exit;
    step.startTime = job.startTime;
    step.endTime = job.endTime;
    step.nodes = {job.batchHost};
    step.cpus = job.cpusOnNode(0);
    const record::Usage usage = report.usage.value_or(record::Usage{});
    step.totalCpuMs = usage.totalCpuMs;
    step.maxRssKb = usage.maxRssKb;
    step.aveRssKb = usage.aveRssKb;
    m_fairshare.chargeEnded(job, now); // fairshare: CPU time used, whatever the end
    const sched::PartitionConfig *part = m_config.partition(job.spec.partition);
    const bool preempted = job.preemptEnd.has_value();
    // A job scancel'led while it ends (a preemption's grace time, a pending scontrol requeue)
    // stays cancelled, however its script ends (a SIGTERM trap that exits 0 included).
    const bool preemptRequeue = preempted && !job.cancelledBy && part
        && sched::preemptModeOf(m_config, *part) == sched::PreemptMode::Requeue;
    m_preemptKilled.erase(job.id);
    auto asked = m_requeueOnEnd.find(job.id);
    if (asked != m_requeueOnEnd.end() && job.cancelledBy) {
        m_requeueOnEnd.erase(asked);
        asked = m_requeueOnEnd.end();
    }
    if (!report.launchFailed && (preemptRequeue || asked != m_requeueOnEnd.end())) {
        // scontrol requeue[hold], or preemption with PreemptMode=REQUEUE: back to the queue.
        const bool hold = asked != m_requeueOnEnd.end() && asked->second;
        if (asked != m_requeueOnEnd.end()) {
            m_requeueOnEnd.erase(asked);
        }
        release(job);
        job = sched::requeueJob(std::move(job), now, m_config.requeueDelay);
        job.exit = {};
        if (hold) {
            job = sched::holdJob(std::move(job), false);
        }
        persist(job);
        emitJob(job, now);
        return;
    }
    if (report.launchFailed) {
        // Slurm: FAILED with JobLaunchFailure, 0:53 on the job and its CANCELLED batch step.
        job.state = JobState::Failed;
        job.reason = Reason::JobLaunchFailure;
        step.state = JobState::Cancelled;
    } else if (report.nodeFail && job.spec.requeue.value_or(true) && !job.spec.interactive
        && !job.cancelledBy && part) {
        // Slurm's JobRequeue=1 default (or --requeue): the job goes back to the queue and runs
        // again elsewhere; --no-requeue makes it end NODE_FAIL instead, as does a partition
        // gone from slurm.conf (Slurm requeues only into a partition it has). A job
        // scancel'led while it ends stays cancelled (the branch of job.cancelledBy below).
        release(job);
        job = sched::requeueJob(std::move(job), now, m_config.requeueDelay);
        job.exit = {};
        persist(job);
        emitJob(job, now);
        return;
    } else if (report.nodeFail && !job.cancelledBy) {
        job.state = JobState::NodeFail;
        job.reason = Reason::NodeDown;
        step.state = JobState::Cancelled;
    } else if (report.nodeReboot) {
        // MemoryOverrun=reboot-node (the Inserm platform): its node restarted under it. Slurm
        // saw no OOM: CANCELLED (by root, the site's cleanup) with Reason None, 0:0; the batch
        // step CANCELLED by the kill. The cause goes into the Comment once the node is back.
        job.state = JobState::Cancelled;
        job.reason = Reason::None;
        job.cancelledBy = 0;
        job.exit = {};
        step.state = JobState::Cancelled;
        step.exit = {0, SIGKILL};
    } else if (preempted && !job.cancelledBy) {
        // PreemptMode=CANCEL: PREEMPTED 0:0, the batch step CANCELLED by the signal.
        job.state = JobState::Preempted;
        job.reason = Reason::None;
        step.state = JobState::Cancelled;
        step.exit = {0, job.exit.signal != 0 ? job.exit.signal : SIGKILL};
        job.exit = {};
    } else if (report.oom) {
        // Slurm: OUT_OF_MEMORY with 0:125 on the job and its batch step.
        job.state = JobState::OutOfMemory;
        job.reason = Reason::OutOfMemory;
        job.exit = {0, 125};
        step.state = JobState::OutOfMemory;
        step.exit = job.exit;
    } else if (timedOut && !job.cancelledBy) {
        // Slurm: TIMEOUT 0:0 on the job, its batch step CANCELLED by the SIGTERM (0:15).
        job.state = JobState::Timeout;
        job.reason = Reason::TimeLimit;
        step.state = JobState::Cancelled;
        step.exit = {0, job.exit.signal != 0 ? job.exit.signal : SIGTERM};
        job.exit = {};
    } else if (job.cancelledBy) {
        job.state = JobState::Cancelled;
        step.state = JobState::Cancelled;
        job.exit = {}; // Slurm shows 0:0 for the job, the signal on the batch step
    } else if (job.exit.signal != 0) {
        job.state = JobState::Failed;
        step.state = JobState::Failed;
    } else if (job.exit.code != 0) {
        job.state = JobState::Failed;
        job.reason = Reason::NonZeroExitCode;
        step.state = JobState::Failed;
    } else {
        job.state = JobState::Completed;
        step.state = JobState::Completed;
    }
    release(job);
    if (!job.spec.interactive) { // salloc/srun allocations have no batch step
        saveStep(step);
    }
    if (m_externSteps && !report.launchFailed) {
        // The extern step holds the job's allocation on its nodes from start to end.
        acct::StepRecord external;
        external.job = job.id;
        external.step = "extern";
        external.state = report.nodeFail ? JobState::Cancelled : JobState::Completed;
        external.startTime = job.startTime;
        external.endTime = job.endTime;
        external.nodes = job.nodeList;
        external.cpus = job.allocCpus;
        saveStep(external);
    }
    persist(job);
    emitJob(job, now);
}

void Controller::release(Job &job)
{
    m_nodes.allocate(job, -1);
    for (const auto &name : job.nodeList) {
        if (auto it = m_nodes.find(name); it != m_nodes.end()) {
            emitNode(it->second);
        }
    }
}

void Controller::purgeOldJobs(Seconds now)
{
    const Seconds age = m_config.minJobAge;
    if (age <= 0) {
        return; // MinJobAge=0: never forgotten
    }
    const auto purged = m_jobs.eraseIf([this, now, age](const auto &entry) {
        const Job &job = entry.second;
        return sched::isFinished(job.state) && job.endTime + age < now
            && !m_unsaved.contains(job.id); // kept until its record is stored
    });
    std::erase_if(m_starts, [this](const auto &e) { return !m_jobs.contains(e.first); });
    m_accounting.sweepScripts(purged, now);
}

Json Controller::launchOrder(const Job &job) const
{
    record::LaunchOrder order;
    order.job = job;
    if (job.spec.script.empty() && job.spec.env.empty()) { // left in the store at submission
        sched::JobSpec stored;
        if (m_store.loadScript(job.id, stored)
            || (job.arrayJobId != 0 && m_store.loadScript(JobId{job.arrayJobId}, stored))) {
            order.job.spec.script = std::move(stored.script);
            order.job.spec.env = std::move(stored.env);
        }
    }
    order.clusterName = m_config.clusterName;
    order.cpusOnNode = job.cpusOnNode(0);
    order.nodeList = sched::compressHostlist(job.nodeList);
    if (const sched::NodeConfig *batch = m_config.node(job.batchHost); batch && batch->gpus > 0) {
        order.gpuType = batch->gpuType; // nvidia-smi's model on the node
    }
    // The node keeps no timer of its own: the controller ends the job on the cluster clock
    // (enforceTimeLimits()) and sends --signal's warning then too.
    Json message = Json::object();
    message.set("op", "launch");
    message.set("job", record::launchToJson(order));
    return message;
}

void Controller::emitJob(const Job &job, Seconds now)
{
    m_jobs.touch(job);
    if (!publish) {
        return;
    }
    Json event = Json::object();
    event.set("event", "job");
    event.set("job", jobJson(job, now));
    publish(event);
}

void Controller::emitNode(const NodeInfo &node)
{
    if (!publish) {
        return;
    }
    Json event = Json::object();
    event.set("event", "node");
    event.set("node", m_nodes.nodeJson(node));
    publish(event);
}

} // namespace mc::ctl
