#pragma once
// sacct's option table (Slurm 22.05's long_options[] and optstring).

#include "mc/cmd/option_parser.h"

#include <span>

namespace mc::cmd::sacct {

enum Opt : int {
    kAllUsers = 1,
    kAccounts,
    kAllocations,
    kBrief,
    kBatchScript,
    kCompletion,
    kConstraints,
    kDelimiter,
    kDuplicates,
    kFederation,
    kHelpFormat,
    kEndTime,
    kEnvVars,
    kFile,
    kFlags,
    kGroup,
    kHelp,
    kLocal,
    kName,
    kNnodes,
    kNcpus,
    kJobs,
    kTimelimitMin,
    kTimelimitMax,
    kLong,
    kAllClusters,
    kClusters,
    kNodelist,
    kNoConvert,
    kUnits,
    kNoHeader,
    kFormat,
    kParsable,
    kParsable2,
    kQos,
    kPartition,
    kReason,
    kState,
    kStartTime,
    kTruncate,
    kUser,
    kUseLocalUid,
    kUsage,
    kVerbose,
    kVersion,
    kWckeys,
    kWholeHetjob,
    kAssociations,
    kJson,
    kYaml,
};

std::span<const OptionDef> optionTable();

} // namespace mc::cmd::sacct
