// The controller's writes to its store, and what happens when the store refuses them (a full
// disk): nothing is lost from memory, nothing new starts, and a node's end report is
// acknowledged only once its records are committed (controller.h, "Durability").
#include "mc/ctl/controller.h"

#include <cstdio>
#include <utility>

namespace mc::ctl {

using proto::Json;
using sched::Job;

bool Controller::persist(const Job &job)
{
    m_jobs.touch(job);
    std::string error;
    if (storeFailing()) { // keep the order of writes: this one after those still waiting
        m_unsaved.insert(job.id);
        return flushUnsaved();
    }
    if (m_store.saveJob(job, error)) {
        return true;
    }
    storeFailed("job " + std::to_string(job.id.value), error);
    m_unsaved.insert(job.id);
    return false;
}

bool Controller::saveStep(const acct::StepRecord &step)
{
    std::string error;
    if (storeFailing()) {
        m_unsavedSteps.push_back(step);
        return flushUnsaved();
    }
    if (m_store.saveStep(step, error)) {
        return true;
    }
    storeFailed("step " + std::to_string(step.job.value) + "." + step.step, error);
    m_unsavedSteps.push_back(step);
    return false;
}

void Controller::storeFailed(const std::string &what, const std::string &error)
{
    if (storeFailing()) {
        return; // said once, when the store started refusing
    }
    std::fprintf(stderr,
        "minicluster-ctld: error: cannot save %s: %s; no job starts and submissions are "
        "refused until it is saved (retried every second)\n",
        what.c_str(), error.c_str());
}

bool Controller::flushUnsaved()
{
    if (!storeFailing()) {
        return true;
    }
    std::string error;
    // Steps first: a job stored as ended has its steps stored already.
    while (!m_unsavedSteps.empty()) {
        if (!m_store.saveStep(m_unsavedSteps.front(), error)) {
            return false;
        }
        m_unsavedSteps.erase(m_unsavedSteps.begin());
    }
    while (!m_unsaved.empty()) {
        auto it = m_jobs.find(*m_unsaved.begin());
        if (it != m_jobs.end() && !m_store.saveJob(it->second, error)) {
            return false;
        }
        m_unsaved.erase(m_unsaved.begin());
    }
    std::fprintf(stderr, "minicluster-ctld: every record is saved again\n");
    for (const auto &[node, job] : std::exchange(m_heldAcks, {})) {
        ackEnd(node, job);
    }
    return true;
}

void Controller::ackEnd(const std::string &node, std::uint32_t job)
{
    if (storeFailing()) {
        m_heldAcks.emplace_back(node, job); // the node keeps the report until then
        return;
    }
    Json ack = Json::object();
    ack.set("op", "job_end_ack");
    ack.set("job_id", static_cast<std::int64_t>(job));
    m_gateway.send(node, ack);
}

} // namespace mc::ctl
