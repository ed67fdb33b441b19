#include "mc/cmd/man_page.h"

#include "../sacct/sacct_options.h"
#include "../sacctmgr/sacctmgr_options.h"
#include "../sbatch/sbatch_options.h"
#include "../scancel/scancel_options.h"
#include "../scontrol/scontrol_options.h"
#include "../sinfo/sinfo_options.h"
#include "../sprio/sprio_options.h"
#include "../squeue/squeue_options.h"
#include "../sshare/sshare_options.h"
#include "help_texts.h"
#include "mc/base/text.h"
#include "mc/cmd/job_option_table.h"

#include <cctype>
#include <map>
#include <sstream>
#include <vector>

namespace mc::cmd {
namespace {

using base::trim;

// Escapes roff's specials and turns `code` and **bold** into fonts.
std::string inlineText(std::string_view text)
{
    std::string out;
    bool code = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else if (c == '`' || (c == '*' && i + 1 < text.size() && text[i + 1] == '*')) {
            if (c == '*') {
                ++i;
            }
            out += code ? "\\fR" : "\\fB";
            code = !code;
        } else {
            out += c;
        }
    }
    if (!out.empty() && (out.front() == '.' || out.front() == '\'')) {
        out.insert(0, "\\&");
    }
    return out;
}

std::string argText(const OptionDef &def)
{
    switch (def.arg) {
    case ArgKind::Required:
        return "=<value>";
    case ArgKind::Optional:
        return "[=<value>]";
    case ArgKind::None:
        break;
    }
    return {};
}

std::string optionList(std::span<const OptionDef> options,
    const std::map<std::string, std::string> &notes,
    const std::map<std::string, std::string> &descriptions)
{
    std::string out;
    for (const auto &def : options) {
        std::string names;
        if (def.shortName) {
            names += std::string("\\fB\\-") + def.shortName + "\\fR";
        }
        if (!def.longName.empty()) {
            names += (names.empty() ? "" : ", ") + std::string("\\fB\\-\\-")
                + std::string(def.longName) + "\\fR";
        }
        out += ".TP\n" + names + inlineText(argText(def)) + "\n";
        const std::string key = def.longName.empty() ? std::string("-") + def.shortName
                                                     : "--" + std::string(def.longName);
        if (auto it = descriptions.find(key); it != descriptions.end() && !it->second.empty()) {
            std::string text = it->second;
            text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
            out += inlineText(text + (text.back() == '.' ? "" : ".")) + "\n.br\n";
        }
        out += def.supported ? "Implemented, with Slurm's meaning."
                             : "Not supported by minicluster: the command stops with "
                               "\"not supported by minicluster\" and exit code 1.";
        out += "\n";
        if (auto it = notes.find(key); it != notes.end()) {
            out += inlineText(it->second) + "\n";
        }
    }
    return out;
}

} // namespace

std::string_view commandHelpText(std::string_view command)
{
    if (command == "sbatch") {
        return sbatchHelp();
    }
    if (command == "squeue" || command == "sq") {
        return squeueHelp();
    }
    if (command == "scancel") {
        return scancelHelp();
    }
    if (command == "sacct") {
        return sacctHelp();
    }
    if (command == "sinfo") {
        return sinfoHelp();
    }
    if (command == "scontrol") {
        return scontrolHelp();
    }
    if (command == "sprio") {
        return sprio::help();
    }
    if (command == "sshare") {
        return sshare::help();
    }
    if (command == "sacctmgr") {
        return sacctmgr::help();
    }
    return {};
}

std::map<std::string, std::string> helpDescriptions(std::string_view help)
{
    std::map<std::string, std::string> found;
    std::string current;
    std::istringstream in{std::string(help)};
    std::string line;
    while (std::getline(in, line)) {
        const std::string text = trim(line);
        if (text.empty() || (line[0] != ' ' && line[0] != '\t')) {
            current.clear();
            continue;
        }
        if (text[0] != '-') {
            if (!current.empty()) {
                std::string &d = found[current];
                d += (d.empty() ? "" : " ") + text;
            }
            continue;
        }
        // "-t, --time=minutes   time limit", "--hide   ...", "-a, --allusers:"
        const auto dashes = text.find("--");
        std::size_t nameEnd = 0;
        if (dashes != std::string::npos && (dashes == 0 || text[dashes - 1] == ' ')) {
            nameEnd = text.find_first_of("=[:, \t", dashes + 2);
            current = text.substr(dashes, nameEnd - dashes);
        } else {
            nameEnd = text.find_first_of(",: \t");
            current = text.substr(0, nameEnd);
        }
        const auto gap = text.find("  ", std::min(nameEnd, text.size()));
        const auto colon = text.find(':', std::min(nameEnd, text.size()));
        std::string description;
        if (gap != std::string::npos) {
            description = trim(std::string_view(text).substr(gap));
        } else if (colon != std::string::npos && colon == nameEnd) {
            description = trim(std::string_view(text).substr(colon + 1));
        }
        found[current] = description;
    }
    return found;
}

std::span<const OptionDef> commandOptionTable(std::string_view command)
{
    if (command == "sbatch") {
        return sbatch::optionTable();
    }
    if (command == "srun") {
        return jobOptionTable(kSrunCommand);
    }
    if (command == "salloc") {
        return jobOptionTable(kSallocCommand);
    }
    if (command == "squeue" || command == "sq") {
        return squeue::optionTable();
    }
    if (command == "scancel") {
        return scancel::optionTable();
    }
    if (command == "sacct") {
        return sacct::optionTable();
    }
    if (command == "sinfo") {
        return sinfo::optionTable();
    }
    if (command == "scontrol") {
        return scontrol::optionTable();
    }
    if (command == "sprio") {
        return sprio::optionTable();
    }
    if (command == "sshare") {
        return sshare::optionTable();
    }
    if (command == "sacctmgr") {
        return sacctmgr::optionTable();
    }
    return {};
}

std::string markdownToMan(
    std::string_view markdown, std::span<const OptionDef> options, std::string_view help)
{
    const std::map<std::string, std::string> descriptions = helpDescriptions(help);
    std::vector<std::string> lines;
    std::map<std::string, std::string> notes;
    {
        std::istringstream in{std::string(markdown)};
        std::string line;
        bool inNotes = false;
        while (std::getline(in, line)) {
            if (line.rfind("## ", 0) == 0) {
                inNotes = line == "## OPTION NOTES";
            }
            if (inNotes) {
                const auto colon = line.find(": ");
                if (line.rfind("-", 0) == 0 && colon != std::string::npos) {
                    notes[line.substr(0, colon)] = line.substr(colon + 2);
                }
                continue;
            }
            lines.push_back(line);
        }
    }
    std::string out;
    bool inCode = false;
    bool paragraph = false;
    for (const auto &line : lines) {
        const bool codeLine = line.rfind("    ", 0) == 0;
        if (inCode && !codeLine) {
            out += ".fi\n.RE\n";
            inCode = false;
        }
        if (line.rfind("# ", 0) == 0) {
            // "# sbatch(1) -- submit a batch script"
            const std::string title = line.substr(2);
            const auto paren = title.find('(');
            const auto dash = title.find(" -- ");
            std::string name = title.substr(0, paren);
            std::string upper;
            for (char c : name) {
                upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            }
            out += ".TH \"" + upper
                + "\" \"1\" \"\" \"minicluster\" \"Slurm commands (minicluster)\"\n";
            out += ".SH NAME\n" + inlineText(name) + " \\- "
                + inlineText(dash == std::string::npos ? "" : title.substr(dash + 4)) + "\n";
        } else if (line.rfind("## ", 0) == 0) {
            out += ".SH " + inlineText(line.substr(3)) + "\n";
            paragraph = false;
        } else if (line == "@OPTIONS@") {
            out += optionList(options, notes, descriptions);
            paragraph = false;
        } else if (codeLine) {
            if (!inCode) {
                out += ".PP\n.RS 4\n.nf\n";
                inCode = true;
            }
            out += inlineText(line.substr(4)) + "\n";
        } else if (line.empty()) {
            paragraph = false;
        } else if (line.rfind("- ", 0) == 0) {
            out += ".IP \\(bu 2\n" + inlineText(line.substr(2)) + "\n";
            paragraph = true;
        } else {
            if (!paragraph) {
                out += ".PP\n";
                paragraph = true;
            }
            out += inlineText(line) + "\n";
        }
    }
    if (inCode) {
        out += ".fi\n.RE\n";
    }
    return out;
}

} // namespace mc::cmd
