#include "sinfo_options.h"

#include <array>

namespace mc::cmd::sinfo {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr bool kRefused = false;

// Slurm 22.05's table, in its order.
constexpr std::array kOptions{
    OptionDef{"all", 'a', kNo, kAll},
    OptionDef{"dead", 'd', kNo, kDead},
    OptionDef{"exact", 'e', kNo, kExact},
    OptionDef{"noheader", 'h', kNo, kNoHeader},
    OptionDef{"iterate", 'i', kReq, kIterate},
    OptionDef{"long", 'l', kNo, kLong},
    OptionDef{"cluster", 'M', kReq, kClusters},
    OptionDef{"clusters", 0, kReq, kClusters},
    OptionDef{"nodes", 'n', kReq, kNodes},
    OptionDef{"Node", 'N', kNo, kNodeCentric},
    OptionDef{"format", 'o', kReq, kFormat},
    OptionDef{"Format", 'O', kReq, kLongFormat},
    OptionDef{"partition", 'p', kReq, kPartition},
    OptionDef{"responding", 'r', kNo, kResponding},
    OptionDef{"list-reasons", 'R', kNo, kListReasons},
    OptionDef{"summarize", 's', kNo, kSummarize},
    OptionDef{"sort", 'S', kReq, kSort},
    OptionDef{"states", 't', kReq, kStates},
    OptionDef{"reservation", 'T', kNo, kReservation, kRefused},
    OptionDef{"verbose", 'v', kNo, kVerbose, kRefused},
    OptionDef{"version", 'V', kNo, kVersion},
    OptionDef{"help", 0, kNo, kHelp},
    OptionDef{"usage", 0, kNo, kUsage},
    OptionDef{"federation", 0, kNo, kFederation, kRefused},
    OptionDef{"hide", 0, kNo, kHide},
    OptionDef{"local", 0, kNo, kLocal},
    OptionDef{"noconvert", 0, kNo, kNoConvert},
    OptionDef{"json", 0, kNo, kJson},
    OptionDef{"yaml", 0, kNo, kYaml},
};

} // namespace

std::span<const OptionDef> optionTable()
{
    return kOptions;
}

} // namespace mc::cmd::sinfo
