#pragma once
// etc/gres.conf: the GPUs each node has, described as on real clusters
// (`NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-1]`). On Slurm each slurmd reads
// it and registers what it found; slurmctld compares that with slurm.conf's Gres= and, when a
// node reports fewer than configured, drains it (State=...+DRAIN+INVALID_REG) with the
// reason below. minicluster's controller does both halves at start, with Slurm's words.

#include "mc/sched/gres.h"
#include "mc/sched/slurm_conf.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

// One Name= record of gres.conf (a line, continuations joined).
struct GresRecord {
    int line = 0;
    std::vector<std::string> nodes; // NodeName= expanded; empty: every node
    std::string name; // Name=, lowercased as Slurm compares it ("gpu")
    std::string type; // Type=, "" when absent
    std::vector<std::string> files; // File= (or Files=) expanded: /dev/nvidia0, ...
    int count = 1; // from File= (one device per file), else Count=, else 1
};

struct GresConf {
    std::vector<GresRecord> records; // gpu records only, in file order
    // Problems, each in slurmd's words ("Ignoring gres.conf record, invalid name: mps",
    // "Invalid GRES record for gpu, count does not match File value"); `fatal` is true when
    // slurmd would not start with this file (the records are then not used).
    std::vector<ConfigProblem> problems;
    bool fatal = false;
};

// Parses gres.conf text: `Key=Value` words (keys case-insensitive), `#` comments, '\'
// continuations; records start with Name= or NodeName=. Keys: Name, NodeName, Type, File,
// Files, Count (with k/m/g suffixes), Cores, CPUs, Links, Flags, AutoDetect (only "off": the
// GPUs are emulated, there is no NVML to ask). Records of a GRES other than gpu are reported
// and ignored, as slurmd does with GresTypes=gpu.
GresConf parseGresConf(std::string_view text);

// What node `name`'s slurmd registers from `conf`: the sum of the records that name it (or
// name no node), and their type (the first typed record's; "" when none is typed).
NodeGpus gresConfGpus(const GresConf &conf, const std::string &name);

// slurmctld's check of each node's registration against slurm.conf, applied to `config`:
// a node with fewer GPUs (of its type) than its Gres= gets `gresInvalid` set to slurmctld's
// reason ("gres/gpu count reported lower than configured (2 < 4)", "gpu:a100 count too low
// (0 < 2)"); more than configured are ignored, as Slurm does; a type given only in gres.conf
// becomes the node's type (its nvidia-smi model, scontrol's Gres=gpu:<type>:N). Nodes that no
// record names keep their slurm.conf GPUs (gres.conf is optional per node). A fatal `conf`
// changes nothing.
void applyGresConf(ClusterConfig &config, const GresConf &conf);

} // namespace mc::sched
