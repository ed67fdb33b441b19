#pragma once
// Job <-> JSON, the one mapping used for the wire (docs/protocol.md) and for the stored record.

#include "mc/proto/json.h"
#include "mc/sched/job.h"

#include <optional>

namespace mc::acct {

// The submit spec as `submit` carries it.
proto::Json specToJson(const sched::JobSpec &spec);
sched::JobSpec specFromJson(const proto::Json &json);

// The public job object of docs/protocol.md (no script or environment).
proto::Json jobToJson(const sched::Job &job);
// Everything, for storage: the public object plus "spec" with script, env and argv.
proto::Json jobToRecord(const sched::Job &job);
std::optional<sched::Job> jobFromRecord(const proto::Json &record);

} // namespace mc::acct
