#include "mc/emu/output_pattern.h"

#include <cctype>

namespace mc::emu {

namespace {

std::string padded(std::uint64_t value, int width)
{
    std::string digits = std::to_string(value);
    if (static_cast<int>(digits.size()) < width) {
        digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
    }
    return digits;
}

} // namespace

std::string expandOutputPattern(std::string_view pattern, const PatternFields &f)
{
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        char c = pattern[i];
        if (c != '%' || i + 1 >= pattern.size()) {
            out += c;
            continue;
        }
        std::size_t j = i + 1;
        int width = 0;
        while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j]))) {
            width = width * 10 + (pattern[j] - '0');
            ++j;
        }
        if (j >= pattern.size()) {
            out.append(pattern.substr(i));
            break;
        }
        char letter = pattern[j];
        std::string value;
        switch (letter) {
        case '%':
            value = "%";
            break;
        case 'A':
            value = padded(f.arrayJobId.value_or(f.jobId), width);
            break;
        case 'a':
            value = padded(f.arrayTaskId.value_or(4294967294U), width);
            break;
        case 'j':
            value = padded(f.jobId, width);
            break;
        case 'J':
            value = padded(f.jobId, width) + "."
                + (f.batchStep ? std::string("batch") : std::to_string(f.stepId));
            break;
        case 's':
            value = f.batchStep ? std::string("batch") : padded(f.stepId, width);
            break;
        case 'N':
            value = f.node;
            break;
        case 'n':
            value = padded(static_cast<std::uint64_t>(f.nodeIndex), width);
            break;
        case 't':
            value = padded(static_cast<std::uint64_t>(f.taskId), width);
            break;
        case 'u':
            value = f.user;
            break;
        case 'x':
            value = f.jobName;
            break;
        default:
            value = std::string(pattern.substr(i, j - i + 1));
            break;
        }
        out += value;
        i = j;
    }
    return out;
}

} // namespace mc::emu
