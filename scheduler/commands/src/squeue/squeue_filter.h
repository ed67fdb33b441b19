#pragma once
// What squeue selects and how it orders the selection: the filters of its options and Slurm's
// sort keys (-S).

#include "squeue_fields.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
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

    bool accepts(const record::JobObject &job) const;
    // The tasks of an array's pending record that -j asks for (all of them when it names the
    // array, or nothing of it, by its id); nullopt: no task restriction applies.
    std::optional<std::vector<std::uint32_t>> tasksOf(const record::JobObject &job) const;
};

// Orders rows by a Slurm sort specification ("P,t,-p", "-i", "S"); the first key is the primary
// one. Each row's keys are computed (and copied) when it is added, so that squeue can decode its
// jobs one at a time into the same object.
class RowSorter {
public:
    explicit RowSorter(std::string_view spec);
    // The first unknown key letter of the specification, if any.
    std::optional<char> unknownKey() const { return m_unknown; }
    void add(const JobRow &row);
    // The rows' indexes (in the order they were added), sorted.
    std::vector<std::uint32_t> order() const;

    // A row's value for one sort key (its own copy).
    using Key = std::variant<std::monostate, std::int64_t, std::string, std::vector<std::string>>;
    using Extract = std::function<Key(const JobRow &)>;

private:
    std::vector<Extract> m_keys;
    std::vector<bool> m_reverse;
    std::vector<Key> m_values; // row i's keys at i * m_keys.size()
    std::optional<char> m_unknown;
    std::size_t m_rows = 0;
};

// Sorts `rows` by a Slurm sort specification with a RowSorter. Returns the first unknown key
// letter, if any (rows are then left unsorted).
std::optional<char> sortRows(std::vector<JobRow> &rows, std::string_view spec);

// The long name of a state as `squeue -t` accepts it (any case, long or short); nullopt for an
// unknown state. Includes Slurm's states that minicluster never reports (CONFIGURING, ...).
std::optional<std::string> stateFilterName(std::string_view text);

// Slurm's list of valid job states for the -t error message.
std::string_view validStatesList();

} // namespace mc::cmd::squeue
