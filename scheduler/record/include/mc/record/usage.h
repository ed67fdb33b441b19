#pragma once
// What a job step used on its nodes, as the nodes sample it every 250 ms: the `usage` member of
// the end reports (a batch job's `job_ended`, srun's `step_end`, the step server's `step_done`)
// and of the samples passed on while it runs (`batch_usage`, `step_usage`, the step server's
// `usage` event). sacct's TotalCPU, MaxRSS and AveRSS, sstat's and seff's figures.

#include "mc/proto/json.h"

#include <cstdint>
#include <optional>

namespace mc::record {

struct Usage {
    std::int64_t totalCpuMs = 0; // user + system CPU time of every process, in milliseconds
    std::int64_t maxRssKb = 0; // the largest resident set seen, in KiB
    std::int64_t aveRssKb = 0; // the mean of the samples' resident sets, in KiB
    // How many samples the figures come from: a batch job's end report says it; unset elsewhere.
    std::optional<std::int64_t> samples = {};

    bool operator==(const Usage &) const = default;
};

// `{total_cpu_ms, max_rss_kb, ave_rss_kb[, samples]}` and back; a member absent reads as 0.
proto::Json usageToJson(const Usage &usage);
Usage usageFromJson(const proto::Json &json);

} // namespace mc::record
