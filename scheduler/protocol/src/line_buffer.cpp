#include "mc/proto/line_buffer.h"

namespace mc::proto {

std::optional<std::string> LineBuffer::nextLine()
{
    auto end = m_data.find('\n', m_start);
    if (end == std::string::npos) {
        if (m_start > 0 && m_start == m_data.size()) {
            m_data.clear();
            m_start = 0;
        }
        return std::nullopt;
    }
    std::string line = m_data.substr(m_start, end - m_start);
    m_start = end + 1;
    if (m_start == m_data.size()) {
        m_data.clear();
        m_start = 0;
    } else if (m_start > 65536) {
        m_data.erase(0, m_start);
        m_start = 0;
    }
    return line;
}

} // namespace mc::proto
