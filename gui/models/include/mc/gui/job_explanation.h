#pragma once
// A job's state in plain words, for the job details: what its state and reason (Slurm's names,
// docs/protocol.md) mean and, when it waits or failed, what the user can do. Translated
// (context "mc::gui::JobExplanation").

#include <QString>

namespace mc::proto {
class Json;
}

namespace mc::gui {

// One or two sentences for a job object. Unknown states or reasons are named as they are.
QString explainJobState(const mc::proto::Json &job);

} // namespace mc::gui
