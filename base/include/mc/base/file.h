#pragma once
// Whole files as text (std only).

#include <optional>
#include <string>

namespace mc::base {

// The bytes of the file at `path`; nullopt when it cannot be opened (missing, unreadable, an
// empty path).
std::optional<std::string> readFile(const std::string &path);
// The same, empty when the file cannot be read (for /proc and /sys files, optional settings).
std::string fileText(const std::string &path);

} // namespace mc::base
