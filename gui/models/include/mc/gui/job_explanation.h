#pragma once
// A job's state in plain words, for the job details: what its state and reason (Slurm's names,
// docs/protocol.md) mean and, when it waits or failed, what the user can do. Translated
// (context "mc::gui::JobExplanation").

#include <QString>

namespace mc::record {
struct JobObject;
}

namespace mc::gui {

// One or two sentences for a job object. Unknown states or reasons are named as they are.
QString explainJobState(const mc::record::JobObject &job);

} // namespace mc::gui
