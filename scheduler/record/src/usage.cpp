#include "mc/record/usage.h"

namespace mc::record {

using proto::Json;

Json usageToJson(const Usage &usage)
{
    Json j = Json::object();
    j.add("total_cpu_ms", usage.totalCpuMs);
    j.add("max_rss_kb", usage.maxRssKb);
    j.add("ave_rss_kb", usage.aveRssKb);
    if (usage.samples) {
        j.add("samples", *usage.samples);
    }
    return j;
}

Usage usageFromJson(const Json &j)
{
    Usage usage;
    usage.totalCpuMs = j["total_cpu_ms"].toInt();
    usage.maxRssKb = j["max_rss_kb"].toInt();
    usage.aveRssKb = j["ave_rss_kb"].toInt();
    if (j["samples"].isNumber()) {
        usage.samples = j["samples"].toInt();
    }
    return usage;
}

} // namespace mc::record
