#include "mc/record/plan_entry.h"

#include "mc/sched/hostlist.h"

namespace mc::record {

using proto::Json;

Json planEntryToJson(const PlanEntry &entry)
{
    Json j = Json::object();
    j.set("job_id", entry.jobId);
    j.set("planned_start", entry.plannedStart);
    j.set("nodes", proto::stringList(entry.nodes));
    return j;
}

PlanEntry planEntryFromJson(const Json &j)
{
    PlanEntry entry;
    entry.jobId = j["job_id"].toInt();
    entry.plannedStart = j["planned_start"].toInt();
    const Json &nodes = j["nodes"];
    entry.nodes = nodes.isString()
        ? sched::expandHostlist(nodes.toString()).value_or(std::vector<std::string>{})
        : nodes.toStringList();
    return entry;
}

} // namespace mc::record
