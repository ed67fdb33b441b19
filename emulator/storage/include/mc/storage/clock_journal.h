#pragma once
// The cluster clock over the past, so that a file's host timestamps can be read on the cluster
// clock. The controller's clock runs at `speed` times the wall clock and can be fast-forwarded
// (`clock` request): a file last used before a fast-forward of 61 days is 61 days older on the
// cluster clock, one used after it is not. The journal keeps one segment per change of the
// clock, as the storage daemon observed it (each `ping`'s `now` beside the wall clock, and the
// controller's `clock` events); a change while no daemon was watching is dated at the next
// observation.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::storage {

struct ClockSegment {
    std::int64_t wall = 0; // host epoch seconds where the segment starts
    std::int64_t cluster = 0; // cluster clock at that moment
    double speed = 1.0;
};

class ClockJournal {
public:
    // Records an observation; returns true when it starts a new segment (the clock jumped by
    // more than `tolerance` + `speed` seconds from what the last segment predicts, the wall
    // clock being read in whole seconds, or its speed changed).
    bool observe(std::int64_t wall, std::int64_t cluster, double speed, std::int64_t tolerance = 2);

    // The cluster time of host time `wall`. Before the first segment: the first segment's offset.
    // With no segment at all: `wall` itself.
    std::int64_t clusterTimeOf(std::int64_t wall) const;

    const std::vector<ClockSegment> &segments() const { return m_segments; }

    std::string encode() const; // one "wall cluster speed" line per segment
    static ClockJournal decode(const std::string &text);
    bool save(const std::string &path) const;
    static ClockJournal load(const std::string &path);

private:
    std::vector<ClockSegment> m_segments;
};

} // namespace mc::storage
