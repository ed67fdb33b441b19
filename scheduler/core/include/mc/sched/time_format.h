#pragma once
// Slurm's time syntax: time limits as users type them, durations and timestamps as the commands
// print them. Pure functions; no clock is read.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::sched {

// Seconds since the epoch (timestamps) or a length of time in seconds (durations).
using Seconds = std::int64_t;

// Marks an unlimited time limit ("INFINITE", "UNLIMITED", "-1").
inline constexpr Seconds kInfinite = -1;

// Parses a time limit as sbatch --time accepts it: "minutes", "minutes:seconds",
// "hours:minutes:seconds", "days-hours", "days-hours:minutes", "days-hours:minutes:seconds",
// or "INFINITE"/"UNLIMITED"/"-1" (kInfinite). Returns seconds, rounded up to whole minutes as
// Slurm keeps limits in minutes ("1:30" -> 120); a bare "0" is 0 (no limit is set by the
// caller's policy). nullopt for anything else (Slurm: "Invalid time limit specification").
std::optional<Seconds> parseTimeLimit(std::string_view text);

// squeue TIME / TIME_LIMIT style (%M, %l): "0:00", "5:00", "1:02:03", "2-00:00:00";
// "UNLIMITED" for kInfinite. Negative values other than kInfinite, and anything past 365 days,
// print "INVALID" (as squeue does).
std::string formatElapsed(Seconds seconds);

// scontrol/sacct style (TimeLimit=, Elapsed): "00:05:00", "1-00:00:00"; "UNLIMITED" for
// kInfinite.
std::string formatHms(Seconds seconds);

// Local-time timestamp as Slurm prints it: "2026-11-21T11:08:59". Unknown (<= 0): "Unknown".
std::string formatTimestamp(Seconds epoch);

// Parses sbatch --begin / sacct -S forms: "now", "now+60" (seconds), "now+5minutes",
// "now+1hour", "now+2days", "now-1week", "today", "tomorrow", "midnight", "noon", "fika",
// "teatime", "HH:MM[:SS] [AM|PM]", "YYYY-MM-DD[THH:MM[:SS]]", "MM/DD[/YY]", "MMDD[YY]",
// "MM.DD[.YY]", "uts<epoch>", in local time. `now` is the reference time. Missing parts are
// filled as Slurm's parse_time() does, in the direction given: looking ahead (sbatch --begin),
// a clock time not later than now means tomorrow and a date without a year not later than
// now means next year; looking back (sacct -S/-E), a clock time is today's and a date without
// a year is this year's, or last year's when its month is still to come. nullopt when the
// text is not a time.
enum class TimeSpecFill { Future, Past };
std::optional<Seconds> parseTimeSpec(
    std::string_view text, Seconds now, TimeSpecFill fill = TimeSpecFill::Future);

} // namespace mc::sched
