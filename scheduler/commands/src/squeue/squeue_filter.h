#pragma once
// What squeue selects and how it orders the selection: the filters of its options and Slurm's
// sort keys (-S).

#include "mc/proto/json.h"
#include "squeue_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mc::cmd::squeue {

struct Filter {
    std::vector<std::int64_t> jobIds; // empty: any; the job part of each of `tasks`
    // -j 12_3, 12_[1-3]: only those tasks of array 12 (by job id, in `jobIds` order).
    std::vector<std::pair<std::int64_t, std::vector<std::uint32_t>>> tasks;
    std::optional<std::vector<std::string>> users; // names; set but empty: nobody
    std::vector<std::string> accounts, names, partitions, qos, nodes;
    // -L: jobs that asked for one of these licenses. minicluster's jobs hold none (sbatch -L is
    // not supported), so the filter selects no job, as Slurm's does on a cluster without them.
    std::optional<std::vector<std::string>> licenses;
    bool allStates = false;
    std::vector<std::string> states; // long names; empty: the active states

    bool accepts(const JobView &job) const;
    // The tasks of an array's pending record that -j asks for (all of them when it names the
    // array, or nothing of it, by its id); nullopt: no task restriction applies.
    std::optional<std::vector<std::uint32_t>> tasksOf(const JobView &job) const;
};

// Sorts `rows` by a Slurm sort specification ("P,t,-p", "-i", "S"); the first key is the
// primary one. Returns the first unknown key letter, if any (rows are then left unsorted).
std::optional<char> sortRows(std::vector<JobRow> &rows, std::string_view spec);

// The long name of a state as `squeue -t` accepts it (any case, long or short); nullopt for an
// unknown state. Includes Slurm's states that minicluster never reports (CONFIGURING, ...).
std::optional<std::string> stateFilterName(std::string_view text);

// Slurm's list of valid job states for the -t error message.
std::string_view validStatesList();

} // namespace mc::cmd::squeue
