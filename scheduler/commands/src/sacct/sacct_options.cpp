#include "sacct_options.h"

#include <array>

namespace mc::cmd::sacct {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr ArgKind kOptArg = ArgKind::Optional;
constexpr bool kRefused = false;

// Slurm 22.05's table, in its order; -t is the old spelling of -X.
constexpr std::array kOptions{
    OptionDef{"allusers", 'a', kNo, kAllUsers},
    OptionDef{"accounts", 'A', kReq, kAccounts},
    OptionDef{"allocations", 'X', kNo, kAllocations},
    OptionDef{"brief", 'b', kNo, kBrief},
    OptionDef{"batch-script", 'B', kNo, kBatchScript},
    OptionDef{"completion", 'c', kNo, kCompletion, kRefused},
    OptionDef{"constraints", 'C', kReq, kConstraints, kRefused},
    OptionDef{"delimiter", 0, kReq, kDelimiter},
    OptionDef{"duplicates", 'D', kNo, kDuplicates},
    OptionDef{"federation", 0, kNo, kFederation, kRefused},
    OptionDef{"helpformat", 'e', kNo, kHelpFormat},
    OptionDef{"help-fields", 0, kNo, kHelpFormat},
    OptionDef{"endtime", 'E', kReq, kEndTime},
    OptionDef{"env-vars", 0, kNo, kEnvVars},
    OptionDef{"file", 'f', kReq, kFile, kRefused},
    OptionDef{"flags", 'F', kReq, kFlags, kRefused},
    OptionDef{"gid", 'g', kReq, kGroup, kRefused},
    OptionDef{"group", 0, kReq, kGroup, kRefused},
    OptionDef{"help", 'h', kNo, kHelp},
    OptionDef{"local", 0, kNo, kLocal},
    OptionDef{"name", 0, kReq, kName},
    OptionDef{"nnodes", 'i', kReq, kNnodes, kRefused},
    OptionDef{"ncpus", 'I', kReq, kNcpus, kRefused},
    OptionDef{"jobs", 'j', kReq, kJobs},
    OptionDef{"timelimit-min", 'k', kReq, kTimelimitMin, kRefused},
    OptionDef{"timelimit-max", 'K', kReq, kTimelimitMax, kRefused},
    OptionDef{"long", 'l', kNo, kLong},
    OptionDef{"allclusters", 'L', kNo, kAllClusters},
    OptionDef{"cluster", 'M', kReq, kClusters, kRefused},
    OptionDef{"clusters", 0, kReq, kClusters, kRefused},
    OptionDef{"nodelist", 'N', kReq, kNodelist},
    OptionDef{"noconvert", 0, kNo, kNoConvert},
    OptionDef{"units", 0, kReq, kUnits},
    OptionDef{"noheader", 'n', kNo, kNoHeader},
    OptionDef{"fields", 0, kReq, kFormat},
    OptionDef{"format", 'o', kReq, kFormat},
    OptionDef{"parsable", 'p', kNo, kParsable},
    OptionDef{"parsable2", 'P', kNo, kParsable2},
    OptionDef{"qos", 'q', kReq, kQos, kRefused},
    OptionDef{"partition", 'r', kReq, kPartition},
    OptionDef{"reason", 'R', kReq, kReason, kRefused},
    OptionDef{"state", 's', kReq, kState},
    OptionDef{"starttime", 'S', kReq, kStartTime},
    OptionDef{"truncate", 'T', kNo, kTruncate, kRefused},
    OptionDef{"uid", 'u', kReq, kUser},
    OptionDef{"use-local-uid", 0, kNo, kUseLocalUid},
    OptionDef{"usage", 'U', kNo, kUsage},
    OptionDef{"user", 0, kReq, kUser},
    OptionDef{"verbose", 'v', kNo, kVerbose},
    OptionDef{"version", 'V', kNo, kVersion},
    OptionDef{"wckeys", 'W', kReq, kWckeys, kRefused},
    OptionDef{"whole-hetjob", 0, kOptArg, kWholeHetjob, kRefused},
    OptionDef{"associations", 'x', kReq, kAssociations, kRefused},
    OptionDef{"json", 0, kNo, kJson},
    OptionDef{"yaml", 0, kNo, kYaml},
    OptionDef{{}, 't', kNo, kAllocations},
};

} // namespace

std::span<const OptionDef> optionTable()
{
    return kOptions;
}

} // namespace mc::cmd::sacct
