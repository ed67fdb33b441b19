#pragma once
// The command line of `apptainer` (and `singularity`, its old name): global options, the
// command, its options (as `apptainer <command> --help` names them) and the image and
// arguments. Options minicluster does not implement are refused, never ignored.

#include <string>
#include <vector>

namespace mc::containers {

struct BindSpec {
    std::string source;
    std::string destination;
    bool readOnly = false;
};

struct ApptainerCall {
    std::string program = "apptainer"; // or "singularity", for messages and env prefixes
    std::string command; // exec, shell, run, inspect, build, version, help
    std::vector<BindSpec> binds; // -B/--bind, then $APPTAINER_BIND
    std::vector<std::string> env; // --env KEY=VALUE, in order
    std::string envFile;
    std::string pwd;
    std::string home; // --home src[:dst]
    bool noHome = false;
    bool cleanEnv = false;
    bool contain = false;
    bool nv = false;
    bool writableTmpfs = false; // the root is writable in memory; the image's folders are not
    bool quiet = false;
    // build
    bool force = false;
    bool sandbox = false;
    // inspect: which part ("labels", "runscript", "deffile", "environment", "helpfile")
    std::string inspectWhat = "labels";
    std::string image;
    std::vector<std::string> args; // the command and its arguments (exec), or build's source
};

// Parses argv (argv[0] included). On bad input, returns false with `error` holding the whole
// message to print on stderr (already in Apptainer's words, ending with a newline).
bool parseApptainerArgs(const std::vector<std::string> &argv, const std::string &envBind,
    ApptainerCall &call, std::string &error);

// "src[:dst[:ro|rw]]" comma-separated specs; false with `error` on an empty source.
bool parseBinds(const std::string &text, std::vector<BindSpec> &out, std::string &error);

} // namespace mc::containers
