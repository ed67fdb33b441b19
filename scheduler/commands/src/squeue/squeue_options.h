#pragma once
// squeue's option table (Slurm 22.05's long_options[] and optstring), with the options
// minicluster does not implement marked unsupported.

#include "mc/cmd/option_parser.h"

#include <span>

namespace mc::cmd::squeue {

enum Opt : int {
    kAccounts = 1,
    kAll,
    kArray,
    kArrayUnique,
    kLongFormat,
    kFormat,
    kFederation,
    kHelp,
    kHide,
    kIterate,
    kJobs,
    kLocal,
    kLong,
    kLicenses,
    kClusters,
    kMe,
    kName,
    kNoConvert,
    kNodes,
    kNoHeader,
    kPartitions,
    kPriority,
    kQos,
    kReservation,
    kSibling,
    kSort,
    kStart,
    kSteps,
    kStates,
    kUsage,
    kUsers,
    kVerbose,
    kVersion,
    kJson,
    kYaml,
};

std::span<const OptionDef> optionTable();

} // namespace mc::cmd::squeue
