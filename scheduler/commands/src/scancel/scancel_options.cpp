#include "scancel_options.h"

#include "../shared/text.h"

#include <array>
#include <csignal>
#include <utility>

namespace mc::cmd::scancel {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr bool kRefused = false;

constexpr std::array kOptions{
    OptionDef{"account", 'A', kReq, kAccount},
    OptionDef{"batch", 'b', kNo, kBatch},
    OptionDef{"ctld", 0, kNo, kCtld},
    OptionDef{"full", 'f', kNo, kFull},
    OptionDef{"help", 0, kNo, kHelp},
    OptionDef{"hurry", 'H', kNo, kHurry},
    OptionDef{"interactive", 'i', kNo, kInteractive, kRefused},
    OptionDef{"cluster", 'M', kReq, kClusters, kRefused},
    OptionDef{"clusters", 0, kReq, kClusters, kRefused},
    OptionDef{"jobname", 'n', kReq, kName},
    OptionDef{"me", 0, kNo, kMe},
    OptionDef{"name", 0, kReq, kName},
    OptionDef{"nodelist", 'w', kReq, kNodelist},
    OptionDef{"partition", 'p', kReq, kPartition},
    OptionDef{"qos", 'q', kReq, kQos},
    OptionDef{"quiet", 'Q', kNo, kQuiet},
    OptionDef{"reservation", 'R', kReq, kReservation, kRefused},
    OptionDef{"sibling", 0, kReq, kSibling, kRefused},
    OptionDef{"signal", 's', kReq, kSignal},
    OptionDef{"state", 't', kReq, kState},
    OptionDef{"usage", 0, kNo, kUsage},
    OptionDef{"user", 'u', kReq, kUser},
    OptionDef{"verbose", 'v', kNo, kVerbose},
    OptionDef{"version", 'V', kNo, kVersion},
    OptionDef{"wckey", 0, kReq, kWckey, kRefused},
};

constexpr std::array<std::pair<std::string_view, int>, 16> kSignals{{
    {"HUP", SIGHUP},
    {"INT", SIGINT},
    {"QUIT", SIGQUIT},
    {"ABRT", SIGABRT},
    {"KILL", SIGKILL},
    {"ALRM", SIGALRM},
    {"TERM", SIGTERM},
    {"USR1", SIGUSR1},
    {"USR2", SIGUSR2},
    {"URG", SIGURG},
    {"CONT", SIGCONT},
    {"STOP", SIGSTOP},
    {"TSTP", SIGTSTP},
    {"TTIN", SIGTTIN},
    {"TTOU", SIGTTOU},
    {"XCPU", SIGXCPU},
}};

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) {
        text.remove_suffix(1);
    }
    return text;
}

} // namespace

std::span<const OptionDef> optionTable()
{
    return kOptions;
}

std::optional<int> signalNumber(std::string_view text)
{
    std::string_view rest;
    const std::int64_t number = parseLeadingInteger(text, &rest);
    if (rest != text) {
        if (!trimmed(rest).empty() || number <= 0 || number > 0xffff) {
            return std::nullopt;
        }
        return static_cast<int>(number);
    }
    std::string_view name = trimmed(text);
    if (name.size() >= 3 && equalsIgnoreCase(name.substr(0, 3), "SIG")) {
        name.remove_prefix(3);
    }
    for (const auto &[signalName, value] : kSignals) {
        if (equalsIgnoreCase(name, signalName)) {
            return value;
        }
    }
    return std::nullopt;
}

} // namespace mc::cmd::scancel
