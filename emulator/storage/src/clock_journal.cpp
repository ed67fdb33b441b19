#include "mc/storage/clock_journal.h"

#include "mc/base/file.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace mc::storage {

namespace {

std::int64_t predict(const ClockSegment &s, std::int64_t wall)
{
    return s.cluster + std::llround(static_cast<double>(wall - s.wall) * s.speed);
}

} // namespace

bool ClockJournal::observe(
    std::int64_t wall, std::int64_t cluster, double speed, std::int64_t tolerance)
{
    if (!m_segments.empty()) {
        const ClockSegment &last = m_segments.back();
        bool sameSpeed = std::fabs(last.speed - speed) < 1e-9;
        // Wall seconds are whole: at `speed`, a reading can be off by `speed` cluster seconds.
        std::int64_t slack = tolerance + static_cast<std::int64_t>(std::ceil(speed));
        if (sameSpeed && std::llabs(predict(last, wall) - cluster) <= slack) {
            return false;
        }
    }
    m_segments.push_back({wall, cluster, speed});
    return true;
}

std::int64_t ClockJournal::clusterTimeOf(std::int64_t wall) const
{
    if (m_segments.empty()) {
        return wall;
    }
    const ClockSegment *seg = &m_segments.front();
    if (wall < seg->wall) {
        return wall + (seg->cluster - seg->wall); // before the journal: its first offset
    }
    for (const auto &s : m_segments) {
        if (s.wall <= wall) {
            seg = &s;
        }
    }
    return predict(*seg, wall);
}

std::string ClockJournal::encode() const
{
    std::string out;
    for (const auto &s : m_segments) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%lld %lld %.6f\n", static_cast<long long>(s.wall),
            static_cast<long long>(s.cluster), s.speed);
        out += buf;
    }
    return out;
}

ClockJournal ClockJournal::decode(const std::string &text)
{
    ClockJournal j;
    std::istringstream in(text);
    ClockSegment s;
    while (in >> s.wall >> s.cluster >> s.speed) {
        j.m_segments.push_back(s);
    }
    return j;
}

bool ClockJournal::save(const std::string &path) const
{
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << encode();
        if (!out) {
            return false;
        }
    }
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

ClockJournal ClockJournal::load(const std::string &path)
{
    return decode(base::fileText(path));
}

} // namespace mc::storage
