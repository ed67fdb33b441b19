#pragma once
// The --help and --usage texts of the commands, verbatim (newline-terminated).

#include <string_view>

namespace mc::cmd {

std::string_view sbatchHelp();
std::string_view sbatchUsage();
std::string_view squeueHelp();
std::string_view squeueUsage();
std::string_view scancelHelp();
std::string_view scancelUsage();
std::string_view sacctHelp();
std::string_view sacctUsage();
std::string_view sinfoHelp();
std::string_view sinfoUsage();
std::string_view scontrolHelp(); // also its --usage

} // namespace mc::cmd
