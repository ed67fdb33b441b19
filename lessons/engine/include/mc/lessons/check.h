#pragma once
// One check of a lesson, parsed from one line of a ```check block (lessons/README.md has the
// language). A check asks about the user's jobs, files, shell history or the cluster's nodes;
// it holds no state and evaluates to pass/fail with an explanation (evaluate.h).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::lessons {

enum class CheckKind {
    Job, // job name=hello state=COMPLETED
    File, // file ~/hello-*.out contains "Hello"
    Ran, // ran "sbatch *" [with -a|--archive] [on login1|login|compute|laptop]
    Node, // node cn02 state=drain
};

enum class Op { Eq, Ne, Lt, Le, Gt, Ge, Has }; // =  !=  <  <=  >  >=  ~ (contains)

// `field OP value`, e.g. state=COMPLETED, mem<=2G, name~train.
struct Condition {
    std::string field;
    Op op = Op::Eq;
    std::string value;
};

// What a `file` check asks: exists (the default), missing, contains "text",
// older_than / newer_than a duration (5m, 2h, 60d), a directory.
enum class FileTest { Exists, Missing, Contains, NotContains, OlderThan, NewerThan, IsDir };

struct Check {
    CheckKind kind = CheckKind::Job;
    std::string source; // the line as written, for messages
    int line = 0; // in the lesson file
    // Job/Node: how many must match. `job` = at least 1, `jobs N` = at least N,
    // `no job` = none. Ran: `ran` = at least 1, `not ran` = none.
    int atLeast = 1;
    bool none = false;
    std::vector<Condition> conditions; // Job, Node
    std::string target; // File: the path (~, $HOME, $SCRATCH, $PROJECT, globs); Node: a name or
                        // "any"; Ran: the pattern
    FileTest fileTest = FileTest::Exists;
    std::string fileArg; // the text of contains, the duration of older_than/newer_than
    std::string host; // Ran: "" any host, "login1", "login" (login nodes), "compute", "laptop"
    // Ran: the matching command must also carry one of these options (`with -a|--archive`): a
    // short one alone or among combined letters (-av), a long one alone or as --name=value.
    std::vector<std::string> options;
    std::string explain; // the lesson's own words for a failure (an `explain:` line), optional
};

struct CheckParse {
    std::optional<Check> check;
    std::string error; // when check is empty: what is wrong with the line
};

CheckParse parseCheck(std::string_view line);

// A duration as checks write them: "90" (seconds), "5m", "2h", "3d", or Slurm's time formats
// for job time limits ("00:05:00", "1-00:00:00"); nullopt when unreadable.
std::optional<long long> parseDuration(std::string_view text);
// A memory size in MiB: "500M", "2G", "1024" (MiB), "1T"; nullopt when unreadable.
std::optional<long long> parseMemoryMiB(std::string_view text);

} // namespace mc::lessons
