#pragma once
// scontrol's records: a job, node or partition as the lines of `Key=Value` pairs Slurm 22.05
// prints, and how they are laid out (indented lines, or one line with -o).

#include "../shared/cluster_view.h"
#include "mc/proto/json.h"
#include "mc/record/job_object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mc::cmd::scontrol {

// The first line, then the indented ones; a record prints as "first\n   line\n...\n\n", or with
// -o as all lines joined by single spaces.
using Record = std::vector<std::string>;

std::string render(const Record &record, bool oneLiner);

// `detail`: 0, 1 (-d: DerivedExitCode) or 2 (-dd: also the per-node allocation line).
Record jobRecord(const record::JobObject &job, std::int64_t now, int detail);
// The same of a reply's job object (decoded here).
Record jobRecord(const proto::Json &job, std::int64_t now, int detail);
Record nodeRecord(const NodeView &node, const ClusterView &view);
Record partitionRecord(const PartitionView &part, const ClusterView &view);

// sbatch's filename patterns as scontrol shows them: %j %x %u %A %a %% expanded, relative paths
// under the working directory, the default slurm-%j.out when none was given (/dev/null for
// standard input). bpeek and qstat -f read the same.
std::string stdioPath(const record::JobObject &job, const std::string &pattern, bool isInput);

} // namespace mc::cmd::scontrol
