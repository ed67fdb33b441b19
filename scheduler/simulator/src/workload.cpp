#include "mc/sim/workload.h"

namespace mc::sim {

std::size_t submitTrace(Simulation &simulation, const SwfTrace &trace)
{
    const auto &partitions = simulation.config().partitions;
    std::size_t skipped = 0;
    for (const SwfJob &swf : trace.jobs) {
        if (swf.procs() <= 0 || swf.runTime < 0 || swf.id == 0) {
            ++skipped;
            continue;
        }
        sched::JobSpec spec;
        spec.name = "swf" + std::to_string(swf.id);
        spec.user = "user" + std::to_string(std::max(0, swf.user));
        spec.account = "swf";
        spec.ntasks = swf.procs();
        spec.ntasksGiven = true;
        if (swf.requestedTime > 0) {
            spec.timeLimit = (swf.requestedTime + 59) / 60 * 60; // Slurm keeps whole minutes
        }
        const int queue = swf.queue > 0 ? swf.queue : swf.partition;
        if (queue > 0 && static_cast<std::size_t>(queue) <= partitions.size()) {
            spec.partition = partitions[static_cast<std::size_t>(queue - 1)].name;
        }
        if (swf.precedingJob > 0) {
            spec.dependency = "afterany:" + std::to_string(swf.precedingJob);
        }
        Behaviour behaviour;
        behaviour.runTime = swf.runTime;
        behaviour.exitCode = swf.status == 0 ? 1 : 0;
        simulation.submit(
            std::max<Seconds>(0, swf.submit), std::move(spec), behaviour, JobId{swf.id});
    }
    return skipped;
}

} // namespace mc::sim
