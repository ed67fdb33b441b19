#pragma once
// An environment as a list of "NAME=value" strings (what execve takes, what the protocol
// carries): set and read one variable.

#include <optional>
#include <string>
#include <vector>

namespace mc::base {

// Sets NAME to `value`: replaces its entry, or appends one.
void setEnv(std::vector<std::string> &env, const std::string &name, const std::string &value);
// The value of NAME; nullopt when it is not set.
std::optional<std::string> getEnv(const std::vector<std::string> &env, const std::string &name);

} // namespace mc::base
