#include "mc/base/file.h"

#include <fstream>
#include <sstream>

namespace mc::base {

std::optional<std::string> readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (path.empty() || !in) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string fileText(const std::string &path)
{
    return readFile(path).value_or(std::string());
}

} // namespace mc::base
