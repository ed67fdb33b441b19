#pragma once
// Splits a byte stream into newline-terminated messages (the protocol's framing).

#include <optional>
#include <string>
#include <string_view>

namespace mc::proto {

class LineBuffer {
public:
    void append(std::string_view bytes)
    {
        m_data.append(bytes);
        const auto nl = bytes.rfind('\n');
        m_tail = nl == std::string_view::npos ? m_tail + bytes.size() : bytes.size() - nl - 1;
    }
    // Bytes received since the last newline: the line still incomplete.
    std::size_t incompleteBytes() const { return m_tail; }
    // The next complete line without its '\n', or nullopt when none is complete yet.
    std::optional<std::string> nextLine();
    std::size_t pending() const { return m_data.size() - m_start; }

private:
    std::string m_data;
    std::size_t m_start = 0;
    std::size_t m_tail = 0;
};

} // namespace mc::proto
