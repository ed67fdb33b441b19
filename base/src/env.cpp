#include "mc/base/env.h"

namespace mc::base {

void setEnv(std::vector<std::string> &env, const std::string &name, const std::string &value)
{
    const std::string prefix = name + "=";
    for (auto &e : env) {
        if (e.rfind(prefix, 0) == 0) {
            e = prefix + value;
            return;
        }
    }
    env.push_back(prefix + value);
}

std::optional<std::string> getEnv(const std::vector<std::string> &env, const std::string &name)
{
    const std::string prefix = name + "=";
    for (const auto &e : env) {
        if (e.rfind(prefix, 0) == 0) {
            return e.substr(prefix.size());
        }
    }
    return std::nullopt;
}

} // namespace mc::base
