#pragma once
// sshare's option table (Slurm 22.05's long_options[]) and its --help text (also --usage).

#include "mc/cmd/option_parser.h"

#include <span>
#include <string_view>

namespace mc::cmd::sshare {

enum Opt : int {
    kAccounts = 1,
    kAll,
    kHelpFormat,
    kLong,
    kPartition,
    kClusters,
    kNoHeader,
    kFormat,
    kParsable,
    kParsable2,
    kUsers,
    kUsersOnly,
    kVerbose,
    kVersion,
    kHelp,
    kUsage,
};

std::span<const OptionDef> optionTable();
std::string_view help();

} // namespace mc::cmd::sshare
