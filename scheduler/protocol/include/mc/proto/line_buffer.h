#pragma once
// Splits a byte stream into newline-terminated messages (the protocol's framing).

#include <optional>
#include <string>
#include <string_view>

namespace mc::proto {

class LineBuffer {
public:
    void append(std::string_view bytes) { m_data.append(bytes); }
    // The next complete line without its '\n', or nullopt when none is complete yet.
    std::optional<std::string> nextLine();
    std::size_t pending() const { return m_data.size() - m_start; }

private:
    std::string m_data;
    std::size_t m_start = 0;
};

} // namespace mc::proto
