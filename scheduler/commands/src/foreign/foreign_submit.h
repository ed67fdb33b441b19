#pragma once
// What LSF's and PBS's commands (bsub, qsub, bjobs, qstat...) share: they are clients of the
// same controller as the Slurm commands. A submission is translated into sbatch's own options
// and run through mc::cmd::Sbatch in process (one set of checks, one submit request), with
// MINICLUSTER_BATCH_SYSTEM=<lsf|pbs> in the job's environment so that the node gives the job
// its LSB_* or PBS_* variables (emu::foreignJobEnvironment).

#include "mc/cmd/context.h"
#include "mc/proto/json.h"
#include "mc/record/job_object.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::cmd::foreign {

struct Submission {
    std::int64_t jobId = 0; // 0 when refused
    std::string partition; // the queue the job went to (the default one when none was asked)
    std::vector<std::string> errors; // sbatch's error messages without "sbatch: error: "
};

// Submits `script` (its text, sent as sbatch's standard input) with sbatch's `args`.
// `system` is "lsf" or "pbs".
Submission submitWithSbatch(const Context &ctx, std::vector<std::string> args,
    const std::string &script, std::string_view system);

// The controller's jobs (`jobs` op, active and recently finished), restricted to `jobIds` when
// not empty; nullopt when the controller cannot be reached.
std::optional<std::vector<record::JobObject>> listJobs(
    const Context &ctx, const std::vector<std::int64_t> &jobIds = {});

// Cancels `jobIds` as the caller (`op` "cancel"), or holds them as their user ("hold") or
// releases them ("release"): each id with the controller's error, "" when it was done; nullopt
// when the controller cannot be reached.
std::optional<std::vector<std::pair<std::int64_t, std::string>>> actOnJobs(
    const Context &ctx, const std::vector<std::int64_t> &jobIds, std::string_view op = "cancel");

// The words of every line of `script` that starts with `prefix` ("#BSUB", "#PBS") before the
// first command, in order.
std::vector<std::string> directiveWords(std::string_view script, std::string_view prefix);

// The job's output file, or its error file (`error`), as scontrol shows them
// (scontrol::stdioPath): patterns expanded, slurm-<id>.out when none was given; errors that
// were not split go to the output file.
std::string jobFile(const record::JobObject &job, bool error = false);

// Local time as LSF prints it ("Nov 26 00:12") and as PBS -f does ("Thu Nov 26 00:12:05 2026").
std::string lsfTime(std::int64_t epoch);
std::string lsfLongTime(std::int64_t epoch); // bjobs -l: "Thu Nov 26 00:12:05"
std::string pbsTime(std::int64_t epoch);

// The PBS server's name: the cluster's (ping's cluster_name), "server" when it has none.
std::string serverName(const Context &ctx);

// The job ids a user names (digits, optionally followed by ".server" for PBS); nullopt if one
// is not a job id.
std::optional<std::int64_t> jobIdOf(std::string_view word);

} // namespace mc::cmd::foreign
