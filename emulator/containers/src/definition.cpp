#include "mc/containers/definition.h"

#include "mc/base/text.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <string_view>

namespace mc::containers {

namespace {

// Definition files may hold any white space C's isspace() knows, vertical tab and form feed too.
std::string trim(std::string_view s)
{
    return base::trim(s, " \t\n\v\f\r");
}

// Sections Apptainer knows that minicluster does not run.
constexpr std::array<std::string_view, 8> kUnsupported = {
    "setup", "startscript", "appinstall", "apprun", "appenv", "appfiles", "applabels", "apphelp"};

} // namespace

Definition parseDefinition(const std::string &text, std::string &error)
{
    Definition d;
    d.text = text;
    std::istringstream in(text);
    std::string line;
    std::string section; // "" while in the header
    std::string *body = nullptr;
    while (std::getline(in, line)) {
        const std::string t = trim(line);
        if (!t.empty() && t.front() == '%') {
            std::string name = base::toLower(t.substr(1));
            name = name.substr(0, name.find_first_of(" \t"));
            section = name;
            body = nullptr;
            if (name == "post") {
                body = &d.post;
            } else if (name == "environment") {
                body = &d.environment;
            } else if (name == "runscript") {
                body = &d.runscript;
            } else if (name == "help") {
                body = &d.help;
            } else if (name == "test") {
                body = &d.test;
            } else if (name != "files" && name != "labels") {
                if (std::find(kUnsupported.begin(), kUnsupported.end(), name)
                    == kUnsupported.end()) {
                    error = "invalid section(s) specified: " + name;
                    return d;
                }
                d.unsupportedSections.push_back(name);
            }
            continue;
        }
        if (section.empty()) {
            if (t.empty() || t.front() == '#') {
                continue;
            }
            const auto colon = t.find(':');
            if (colon == std::string::npos) {
                error = "invalid header keyword found: " + t;
                return d;
            }
            d.header[base::toLower(trim(t.substr(0, colon)))] = trim(t.substr(colon + 1));
        } else if (body) {
            *body += line + "\n";
        } else if (section == "files" && !t.empty() && t.front() != '#') {
            const auto space = t.find_first_of(" \t");
            if (space == std::string::npos) {
                d.files.emplace_back(t, t);
            } else {
                d.files.emplace_back(t.substr(0, space), trim(t.substr(space)));
            }
        } else if (section == "labels" && !t.empty() && t.front() != '#') {
            const auto space = t.find_first_of(" \t");
            d.labels.emplace_back(
                t.substr(0, space), space == std::string::npos ? "" : trim(t.substr(space)));
        }
    }
    if (d.header.find("bootstrap") == d.header.end()) {
        error = "no bootstrap specification found";
    }
    return d;
}

} // namespace mc::containers
