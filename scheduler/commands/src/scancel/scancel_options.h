#pragma once
// scancel's option table (Slurm 22.05's long_options[] and optstring) and its signal names.

#include "mc/cmd/option_parser.h"

#include <optional>
#include <span>
#include <string_view>

namespace mc::cmd::scancel {

enum Opt : int {
    kAccount = 1,
    kBatch,
    kCtld,
    kFull,
    kHelp,
    kHurry,
    kInteractive,
    kClusters,
    kName,
    kMe,
    kNodelist,
    kPartition,
    kQos,
    kQuiet,
    kReservation,
    kSibling,
    kSignal,
    kState,
    kUsage,
    kUser,
    kVerbose,
    kVersion,
    kWckey,
};

std::span<const OptionDef> optionTable();

// Slurm's sig_name2num(): a number, or a name with or without "SIG" (any case); nullopt (Slurm's
// 0) when unknown.
std::optional<int> signalNumber(std::string_view text);

} // namespace mc::cmd::scancel
