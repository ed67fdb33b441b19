#pragma once
// Sizes and counts as minicluster.conf writes them and as diskusage_report prints them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::storage {

// "50G", "2048k", "20T", "4096", "none" (0). Binary for bytes (k = 1024), decimal for counts
// (k = 1000); nullopt on anything else.
std::optional<std::int64_t> parseSize(std::string_view text);
std::optional<std::int64_t> parseCount(std::string_view text);

// diskusage_report's words: the smallest unit in which the value is below 10000, truncated:
// 4096, 157k, 50G, 20T for bytes; 13, 1025, 500k, 1000k for counts (as on the Alliance's
// clusters: "157k/50G", "13/500k").
std::string formatSize(std::int64_t bytes);
std::string formatCount(std::int64_t count);

// "1.2 MB"-like wording for people (notices, logs): one decimal, binary units.
std::string humanSize(std::int64_t bytes);

} // namespace mc::storage
