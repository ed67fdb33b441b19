#pragma once
// sprio's option table (Slurm 22.05's long_options[]) and its --help and --usage texts.

#include "mc/cmd/option_parser.h"

#include <span>
#include <string_view>

namespace mc::cmd::sprio {

enum Opt : int {
    kNoHeader = 1,
    kJobs,
    kLong,
    kClusters,
    kNorm,
    kFormat,
    kPartition,
    kSort,
    kUser,
    kVerbose,
    kVersion,
    kWeights,
    kHelp,
    kUsage,
    kFederation,
    kLocal,
    kSibling,
};

std::span<const OptionDef> optionTable();
std::string_view help();
std::string_view usage();

} // namespace mc::cmd::sprio
