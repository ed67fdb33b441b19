#pragma once
// scontrol's option table (Slurm 22.05's long_options[]), with the options minicluster does not
// implement marked unsupported.

#include "mc/cmd/option_parser.h"

#include <span>

namespace mc::cmd::scontrol {

std::span<const OptionDef> optionTable();

} // namespace mc::cmd::scontrol
