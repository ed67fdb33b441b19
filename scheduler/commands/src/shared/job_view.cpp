#include "job_view.h"

namespace mc::cmd {

std::optional<sched::JobState> jobState(const record::JobObject &job)
{
    const std::string_view name = job.state;
    // The controller sends the long names: matched exactly first (squeue reads every job's).
    for (int i = 0; i <= static_cast<int>(sched::JobState::OutOfMemory); ++i) {
        const auto state = static_cast<sched::JobState>(i);
        if (sched::longName(state) == name) {
            return state;
        }
    }
    return sched::parseJobState(name);
}

} // namespace mc::cmd
