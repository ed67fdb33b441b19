#pragma once
// sacctmgr's option table (Slurm 22.05's long_options[]) and its help text.

#include "mc/cmd/option_parser.h"

#include <span>
#include <string_view>

namespace mc::cmd::sacctmgr {

enum Opt : int {
    kHelp = 1,
    kUsage,
    kImmediate,
    kJson,
    kNoHeader,
    kOneLiner,
    kParsable,
    kParsable2,
    kQuiet,
    kReadOnly,
    kWithAssoc,
    kVerbose,
    kVersion,
    kYaml,
};

std::span<const OptionDef> optionTable();
std::string_view help();

} // namespace mc::cmd::sacctmgr
