#pragma once
// sinfo's option table (Slurm 22.05's long_options[] and optstring), with the options
// minicluster does not implement marked unsupported.

#include "mc/cmd/option_parser.h"

#include <span>

namespace mc::cmd::sinfo {

enum Opt : int {
    kAll = 1,
    kDead,
    kExact,
    kNoHeader,
    kIterate,
    kLong,
    kClusters,
    kNodes,
    kNodeCentric,
    kFormat,
    kLongFormat,
    kPartition,
    kResponding,
    kListReasons,
    kSummarize,
    kSort,
    kStates,
    kReservation,
    kVerbose,
    kVersion,
    kHelp,
    kUsage,
    kHide,
    kLocal,
    kNoConvert,
    kFederation,
    kJson,
    kYaml,
};

std::span<const OptionDef> optionTable();

} // namespace mc::cmd::sinfo
