#pragma once
// Slurm hostlists: "cn[01-04,07],gpu01" <-> {"cn01","cn02","cn03","cn04","cn07","gpu01"}.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

// Expands a hostlist expression (names separated by commas or blanks); zero padding of ranges
// is kept ("cn[08-10]" -> cn08 cn09 cn10). Brackets before the last one multiply out
// ("r[1-2]n[1-2]" -> r1n1 r1n2 r2n1 r2n2); as in Slurm 22.05 nothing may follow the last
// bracket. nullopt for unbalanced brackets, a bad range, a range of more than 64K hosts or an
// expansion of more than 1M names.
std::optional<std::vector<std::string>> expandHostlist(std::string_view text);

// Compresses names as Slurm's hostlist_ranged_string() does, keeping the given order:
// consecutive numbers of one prefix become a range and neighbouring ranges of one prefix share a
// bracket: {"cn01","cn02","cn04"} -> "cn[01-02,04]"; {"cn01","gpu01","cn02"} stays
// "cn01,gpu01,cn02"; a single name stays as it is.
std::string compressHostlist(const std::vector<std::string> &names);

// Per-node counts as Slurm writes them (SLURM_TASKS_PER_NODE, SLURM_JOB_CPUS_PER_NODE):
// runs of one value become "value(xN)": {2,2} -> "2(x2)", {4,4,2} -> "4(x2),2".
std::string compressCounts(const std::vector<int> &counts);

// `tasks` over `nodes` nodes with Slurm's block distribution: the first nodes take the extra
// ones ({5 tasks, 2 nodes} -> {3,2}). Empty when nodes < 1.
std::vector<int> blockTaskCounts(int tasks, int nodes);

// `tasks` over `nodes` nodes as Slurm's select plugin lays out a job's allocation: one task on
// each node, then the rest fill the nodes in order up to `perNode` each ({6, 2, 4} -> {4,2},
// {5, 3, 4} -> {3,1,1}). Tasks that do not fit that way are spread as blockTaskCounts does.
// Empty when nodes < 1.
std::vector<int> fillTaskCounts(int tasks, int nodes, int perNode);

} // namespace mc::sched
