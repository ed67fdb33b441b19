// `minicluster clock`: the cluster clock from a terminal, as the instructor panel drives it.
#include "mc/launch/cluster_control.h"
#include "mc/lessons/check.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mc::launch {

using proto::Json;

namespace {

constexpr const char *kClockUsage = R"(Usage: minicluster clock [--speed N] [--forward DURATION]

Shows the cluster clock, or changes it for everything on the cluster (time limits,
--begin, sacct's times, fairshare decay, the scratch purge):
  --speed N             the clock runs N times as fast as this computer's (N > 0)
  --forward DURATION    jump ahead: "90" (minutes, as sbatch -t), "1:30:00", "2-12",
                        "61-00:00:00", or a number with a unit: "90s", "45m", "6h", "61d"
)";

std::string speedText(double speed)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", speed);
    return text;
}

} // namespace

std::optional<long long> parseForward(const std::string &text)
{
    if (!text.empty()
        && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::atoll(text.c_str()) * 60; // minutes, as Slurm reads a bare number
    }
    return lessons::parseDuration(text);
}

int clock(const ClusterOptions &o, const std::vector<std::string> &args)
{
    Json request = Json::object();
    request.set("op", "clock");
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "-h" || a == "--help") {
            std::fputs(kClockUsage, stdout);
            return 0;
        }
        if ((a == "--speed" || a == "--forward") && i + 1 < args.size()) {
            const std::string &value = args[++i];
            if (a == "--speed") {
                char *end = nullptr;
                const double speed = std::strtod(value.c_str(), &end);
                if (end == value.c_str() || *end != '\0' || !(speed > 0)) {
                    std::fprintf(
                        stderr, "minicluster clock: --speed %s: a number above 0\n", value.c_str());
                    return 2;
                }
                request.set("speed", speed);
            } else {
                const auto seconds = parseForward(value);
                if (!seconds || *seconds < 0) {
                    std::fprintf(stderr,
                        "minicluster clock: --forward %s: not a duration (\"61d\", \"6h\", "
                        "\"1-00:00:00\")\n",
                        value.c_str());
                    return 2;
                }
                request.set("advance", static_cast<std::int64_t>(*seconds));
            }
            continue;
        }
        std::fprintf(
            stderr, "minicluster clock: unknown argument '%s'\n%s", a.c_str(), kClockUsage);
        return 2;
    }
    const auto reply = callController(o, request);
    if (!reply) {
        std::fprintf(stderr, "minicluster: the cluster in %s is not running (`minicluster up`)\n",
            o.layout.dir.c_str());
        return 1;
    }
    if (!(*reply)["ok"].toBool()) {
        std::fprintf(stderr, "minicluster clock: %s\n", (*reply)["error"].toString().c_str());
        return 1;
    }
    const auto now = (*reply)["now"].toInt();
    const auto wall = static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch())
                                                    .count());
    const auto ahead = now - wall;
    std::printf("cluster clock: %s, speed %sx, %s %s this computer's clock\n",
        sched::formatTimestamp(now).c_str(), speedText((*reply)["speed"].toDouble()).c_str(),
        sched::formatHms(std::llabs(ahead)).c_str(), ahead < 0 ? "behind" : "ahead of");
    return 0;
}

} // namespace mc::launch
