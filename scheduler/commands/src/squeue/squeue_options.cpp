#include "squeue_options.h"

#include <array>

namespace mc::cmd::squeue {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr ArgKind kOptArg = ArgKind::Optional;
constexpr bool kRefused = false;

// Slurm 22.05's table, in its order; -U is the old spelling of -A.
constexpr std::array kOptions{
    OptionDef{"accounts", 'A', kReq, kAccounts},
    OptionDef{"all", 'a', kNo, kAll},
    OptionDef{"array", 'r', kNo, kArray},
    OptionDef{"array-unique", 0, kNo, kArrayUnique},
    OptionDef{"Format", 'O', kReq, kLongFormat},
    OptionDef{"format", 'o', kReq, kFormat},
    OptionDef{"federation", 0, kNo, kFederation, kRefused},
    OptionDef{"help", 0, kNo, kHelp},
    OptionDef{"hide", 0, kNo, kHide},
    OptionDef{"iterate", 'i', kReq, kIterate, kRefused},
    OptionDef{"jobs", 'j', kOptArg, kJobs},
    OptionDef{"local", 0, kNo, kLocal},
    OptionDef{"long", 'l', kNo, kLong},
    OptionDef{"licenses", 'L', kReq, kLicenses},
    OptionDef{"cluster", 'M', kReq, kClusters},
    OptionDef{"clusters", 0, kReq, kClusters},
    OptionDef{"me", 0, kNo, kMe},
    OptionDef{"name", 'n', kReq, kName},
    OptionDef{"noconvert", 0, kNo, kNoConvert},
    OptionDef{"node", 'w', kReq, kNodes},
    OptionDef{"nodes", 0, kReq, kNodes},
    OptionDef{"nodelist", 0, kReq, kNodes},
    OptionDef{"noheader", 'h', kNo, kNoHeader},
    OptionDef{"partitions", 'p', kReq, kPartitions},
    OptionDef{"priority", 'P', kNo, kPriority, kRefused},
    OptionDef{"qos", 'q', kReq, kQos},
    OptionDef{"reservation", 'R', kReq, kReservation, kRefused},
    OptionDef{"sib", 0, kNo, kSibling, kRefused},
    OptionDef{"sibling", 0, kNo, kSibling, kRefused},
    OptionDef{"sort", 'S', kReq, kSort},
    OptionDef{"start", 0, kNo, kStart},
    OptionDef{"steps", 's', kOptArg, kSteps, true},
    OptionDef{"states", 't', kReq, kStates},
    OptionDef{"usage", 0, kNo, kUsage},
    OptionDef{"user", 'u', kReq, kUsers},
    OptionDef{"users", 0, kReq, kUsers},
    OptionDef{"verbose", 'v', kNo, kVerbose},
    OptionDef{"version", 'V', kNo, kVersion},
    OptionDef{"json", 0, kNo, kJson},
    OptionDef{"yaml", 0, kNo, kYaml},
    OptionDef{{}, 'U', kReq, kAccounts},
};

} // namespace

std::span<const OptionDef> optionTable()
{
    return kOptions;
}

} // namespace mc::cmd::squeue
