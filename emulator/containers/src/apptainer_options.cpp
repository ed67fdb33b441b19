#include "mc/containers/apptainer_options.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace mc::containers {

namespace {

// Commands of Apptainer 1.2 that a sandbox without network or privileges cannot offer.
constexpr std::array<std::string_view, 5> kNetworkCommands
    = {"pull", "push", "search", "remote", "registry"};
constexpr std::array<std::string_view, 9> kUnsupportedCommands
    = {"instance", "key", "sign", "verify", "oci", "overlay", "plugin", "checkpoint", "sif"};
// Options the action commands accept that minicluster does not implement.
constexpr std::array<std::string_view, 13> kUnsupportedOptions = {"--writable", "-w", "--overlay",
    "-o", "--fakeroot", "-f", "--net", "-n", "--network", "--userns", "-u", "--security", "--rocm"};

bool isAction(const std::string &c)
{
    return c == "exec" || c == "shell" || c == "run" || c == "test";
}

std::string unknownFlag(const ApptainerCall &call, const std::string &flag)
{
    return "Error: unknown flag: " + flag + "\nRun '" + call.program + " " + call.command
        + " --help' for more detailed usage information.\n";
}

} // namespace

bool parseBinds(const std::string &text, std::vector<BindSpec> &out, std::string &error)
{
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        if (item.empty()) {
            continue;
        }
        std::vector<std::string> parts;
        std::size_t p = 0;
        while (true) {
            std::size_t colon = item.find(':', p);
            parts.push_back(item.substr(p, colon == std::string::npos ? colon : colon - p));
            if (colon == std::string::npos) {
                break;
            }
            p = colon + 1;
        }
        BindSpec b;
        b.source = parts[0];
        b.destination = parts.size() > 1 && !parts[1].empty() ? parts[1] : parts[0];
        if (parts.size() > 2) {
            if (parts[2] != "ro" && parts[2] != "rw") {
                error = "bind option " + parts[2]
                    + " is not supported by minicluster (only ro and rw are)";
                return false;
            }
            b.readOnly = parts[2] == "ro";
        }
        if (b.source.empty()) {
            error = "wrong bind syntax: " + item;
            return false;
        }
        out.push_back(b);
    }
    return true;
}

bool parseApptainerArgs(const std::vector<std::string> &argv, const std::string &envBind,
    ApptainerCall &call, std::string &error)
{
    std::size_t i = 1;
    // Global options, before the command.
    for (; i < argv.size() && !argv[i].empty() && argv[i][0] == '-'; ++i) {
        const std::string &a = argv[i];
        if (a == "-q" || a == "--quiet" || a == "-s" || a == "--silent") {
            call.quiet = true;
        } else if (a == "--nocolor" || a == "-c" || a == "--nocolour") {
            // minicluster's messages have no colours
        } else if (a == "--version") {
            call.command = "version";
            return true;
        } else if (a == "-h" || a == "--help") {
            call.command = "help";
            return true;
        } else {
            error
                = "Error: unknown flag: " + a + "\nRun '" + call.program + " --help' for usage.\n";
            if (a == "-d" || a == "--debug" || a == "-v" || a == "--verbose") {
                error = "FATAL:   " + a + " is not supported by minicluster\n";
            }
            return false;
        }
    }
    if (i >= argv.size()) {
        call.command = "help";
        return true;
    }
    call.command = argv[i++];
    const std::string &c = call.command;
    if (c == "version" || c == "help") {
        return true;
    }
    if (std::find(kNetworkCommands.begin(), kNetworkCommands.end(), c) != kNetworkCommands.end()) {
        error = "FATAL:   " + call.program + " " + c
            + " needs the network, which minicluster's nodes do not have: use the images in "
              "/opt/minicluster/software/images, or build one with Bootstrap: localimage\n";
        return false;
    }
    if (std::find(kUnsupportedCommands.begin(), kUnsupportedCommands.end(), c)
        != kUnsupportedCommands.end()) {
        error = "FATAL:   " + call.program + " " + c + " is not supported by minicluster\n";
        return false;
    }
    if (c == "cache") { // cache list | cache clean [-f]
        call.image = i < argv.size() ? argv[i++] : "";
        for (; i < argv.size(); ++i) {
            if (call.image == "clean" && (argv[i] == "-f" || argv[i] == "--force")) {
                call.force = true;
            } else {
                error = unknownFlag(call, argv[i]);
                return false;
            }
        }
        if (call.image != "list" && call.image != "clean") {
            error = "FATAL:   " + call.program + " cache " + call.image
                + " is not supported by minicluster (only list and clean are)\n";
            return false;
        }
        return true;
    }
    if (!isAction(c) && c != "inspect" && c != "build") {
        error = "Error: unknown command \"" + c + "\" for \"" + call.program + "\"\nRun '"
            + call.program + " --help' for usage.\n";
        return false;
    }
    // Command options, up to the image (then everything is the container's).
    auto value = [&](const std::string &a, std::string &out) {
        const auto eq = a.find('=');
        if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
            out = a.substr(eq + 1);
            return true;
        }
        if (i + 1 >= argv.size()) {
            error = "Error: flag needs an argument: " + a + "\n";
            return false;
        }
        out = argv[++i];
        return true;
    };
    for (; i < argv.size() && !argv[i].empty() && argv[i][0] == '-'; ++i) {
        const std::string a = argv[i];
        const std::string name = a.substr(0, a.find('='));
        std::string v;
        if (isAction(c) && (name == "-B" || name == "--bind" || name == "--mount")) {
            if (name == "--mount") {
                error = "FATAL:   --mount is not supported by minicluster: use --bind\n";
                return false;
            }
            if (!value(a, v) || !parseBinds(v, call.binds, error)) {
                error = error.rfind("Error", 0) == 0 ? error : "FATAL:   " + error + "\n";
                return false;
            }
        } else if (isAction(c) && name == "--env") {
            if (!value(a, v)) {
                return false;
            }
            call.env.push_back(v);
        } else if (isAction(c) && name == "--env-file") {
            if (!value(a, call.envFile)) {
                return false;
            }
        } else if (isAction(c) && name == "--pwd") {
            if (!value(a, call.pwd)) {
                return false;
            }
        } else if (isAction(c) && (name == "-H" || name == "--home")) {
            if (!value(a, call.home)) {
                return false;
            }
        } else if (isAction(c) && name == "--no-home") {
            call.noHome = true;
        } else if (isAction(c) && (name == "-e" || name == "--cleanenv")) {
            call.cleanEnv = true;
        } else if (isAction(c) && (name == "-c" || name == "--contain")) {
            call.contain = true;
        } else if (isAction(c) && (name == "-C" || name == "--containall")) {
            call.contain = true;
            call.cleanEnv = true;
        } else if (isAction(c) && name == "--nv") {
            call.nv = true;
        } else if (isAction(c) && name == "--writable-tmpfs") {
            call.writableTmpfs = true;
        } else if (isAction(c) && name == "--sharens") {
            // Every container here is its own bubblewrap under the step: what --sharens shares
            // (one namespace for the containers a job starts) changes nothing a job can see.
        } else if (isAction(c)
            && std::find(kUnsupportedOptions.begin(), kUnsupportedOptions.end(), name)
                != kUnsupportedOptions.end()) {
            error = "FATAL:   " + name + " is not supported by minicluster\n";
            return false;
        } else if (c == "build" && (name == "-F" || name == "--force")) {
            call.force = true;
        } else if (c == "build" && (name == "-s" || name == "--sandbox")) {
            call.sandbox = true;
        } else if (c == "build" && (name == "--fakeroot" || name == "-f")) {
            // an unprivileged build is a fakeroot build here already
        } else if (c == "inspect"
            && (name == "--labels" || name == "-l" || name == "--runscript" || name == "-r"
                || name == "--deffile" || name == "-d" || name == "--environment" || name == "-e"
                || name == "--helpfile" || name == "-H")) {
            static const std::array<std::pair<std::string_view, std::string_view>, 5> kShort
                = {{{"-l", "labels"}, {"-r", "runscript"}, {"-d", "deffile"}, {"-e", "environment"},
                    {"-H", "helpfile"}}};
            call.inspectWhat = name.substr(2);
            for (const auto &[s, l] : kShort) {
                if (name == s) {
                    call.inspectWhat = l;
                }
            }
        } else if (c == "inspect" && (name == "--json" || name == "-j" || name == "--list-apps")) {
            error = "FATAL:   " + name + " is not supported by minicluster\n";
            return false;
        } else if (name == "-h" || name == "--help") {
            call.command = "help";
            return true;
        } else {
            error = unknownFlag(call, name);
            return false;
        }
    }
    if (i >= argv.size()) {
        error = "Error: requires at least " + std::string(c == "build" ? "2 args" : "1 arg")
            + "(s), only received 0\nRun '" + call.program + " " + c
            + " --help' for more detailed usage information.\n";
        return false;
    }
    call.image = argv[i++];
    call.args.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
    if ((c == "exec" && call.args.empty()) || (c == "build" && call.args.size() != 1)) {
        error = "Error: requires at least 2 arg(s), only received 1\nRun '" + call.program + " " + c
            + " --help' for more detailed usage information.\n";
        return false;
    }
    if (isAction(c) && !envBind.empty() && !parseBinds(envBind, call.binds, error)) {
        error = "FATAL:   " + error + "\n";
        return false;
    }
    return true;
}

} // namespace mc::containers
