#include "mc/sim/swf.h"

#include <charconv>

namespace mc::sim {
namespace {

std::optional<std::int64_t> integer(std::string_view text)
{
    std::int64_t value = 0;
    // SWF fields are integers, but some archives write "12.00"; keep the integral part.
    const auto dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    auto [ptr, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), value);
    if (whole.empty() || ec != std::errc{} || ptr != whole.data() + whole.size()) {
        return std::nullopt;
    }
    return value;
}

} // namespace

SwfTrace parseSwf(std::string_view text)
{
    SwfTrace trace;
    int lineNumber = 0;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        ++lineNumber;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == ';') {
            continue;
        }
        std::vector<std::int64_t> fields;
        bool bad = false;
        while (true) {
            const auto start = line.find_first_not_of(" \t\r");
            if (start == std::string_view::npos) {
                break;
            }
            line.remove_prefix(start);
            const auto end = line.find_first_of(" \t\r");
            const auto value = integer(line.substr(0, end));
            if (!value) {
                bad = true;
                break;
            }
            fields.push_back(*value);
            line.remove_prefix(end == std::string_view::npos ? line.size() : end);
        }
        if (bad || fields.size() != 18) {
            trace.problems.push_back(
                "line " + std::to_string(lineNumber) + ": expected 18 integer fields");
            continue;
        }
        SwfJob job;
        job.id = static_cast<std::uint32_t>(fields[0]);
        job.submit = fields[1];
        job.runTime = fields[3];
        job.allocatedProcs = static_cast<int>(fields[4]);
        job.requestedProcs = static_cast<int>(fields[7]);
        job.requestedTime = fields[8];
        job.requestedMemoryKb = fields[9];
        job.status = static_cast<int>(fields[10]);
        job.user = static_cast<int>(fields[11]);
        job.queue = static_cast<int>(fields[14]);
        job.partition = static_cast<int>(fields[15]);
        job.precedingJob = fields[16];
        job.thinkTime = fields[17];
        trace.jobs.push_back(job);
    }
    return trace;
}

} // namespace mc::sim
