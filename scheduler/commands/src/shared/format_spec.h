#pragma once
// The column specifications that squeue and sinfo share: `-o "%.18i %j"` and
// `-O "JobID:.20,Name"`. This splits them into tokens; each command looks the fields up in its
// own table.

#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd {

struct FormatToken {
    char letter = '\0'; // -o form: the field letter ('\0' when the token ends early)
    std::string name; // -O form: the field name as written
    int width = 0; // 0: as wide as the value
    bool right = false; // '.': right-justified
    bool fitToData = false; // '#' (only when allowed): as wide as the widest value
    std::string suffix; // literal text after the field
    std::string raw; // -o form: the token as written after its '%'
};

struct ShortFormat {
    std::string prefix; // text before the first '%', printed as is
    std::vector<FormatToken> tokens;
};

// `%[.][#][width]letter[text]...`; '#' is read only when `allowFitToData`.
ShortFormat tokenizeShortFormat(std::string_view format, bool allowFitToData);

// `name[:[.]width[suffix]]` items separated by ','; without ':' the width is `defaultWidth`.
std::vector<FormatToken> tokenizeLongFormat(std::string_view format, int defaultWidth = 20);

// A value in its column, as Slurm's _print_str() does: width 0 (or less) prints it as it is;
// otherwise padded to `width`, right-justified (cut to the width only when `cut`) or
// left-justified (always cut, printf's "%.*s").
std::string fitToWidth(const std::string &value, int width, bool right, bool cut = true);
// The same, appended to `out` (no temporary per cell: squeue prints thousands of lines).
void appendFitted(std::string &out, std::string_view value, int width, bool right, bool cut = true);

} // namespace mc::cmd
