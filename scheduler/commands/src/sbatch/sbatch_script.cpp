#include "sbatch_script.h"

#include "../shared/text.h"
#include "mc/base/file.h"
#include "mc/sched/batch_script.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

namespace mc::cmd::sbatch {
namespace {

bool isReadable(const std::string &path)
{
    return access(path.c_str(), R_OK) == 0;
}

bool isBlank(std::string_view text)
{
    for (char c : text) {
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') {
            return false;
        }
    }
    return true;
}

void setVariable(std::vector<std::string> &env, const std::string &entry)
{
    const std::string name = entry.substr(0, entry.find('=') + 1);
    for (auto &existing : env) {
        if (existing.compare(0, name.size(), name) == 0) {
            existing = entry;
            return;
        }
    }
    env.push_back(entry);
}

} // namespace

std::optional<std::string> resolveScript(
    const std::string &name, const std::string &base, const Context &ctx)
{
    if (name.empty()) {
        return std::nullopt;
    }
    if (name.front() == '/') {
        return name;
    }
    if (name.front() == '.' || isReadable(absolutePath(name, base))) {
        return absolutePath(name, base);
    }
    if (name.find('/') == std::string::npos) {
        for (const auto &dir : splitList(ctx.getenv("PATH").value_or(""), ':')) {
            std::string candidate = absolutePath(name, absolutePath(dir, base));
            if (isReadable(candidate)) {
                return candidate;
            }
        }
    }
    return std::nullopt;
}

std::string scriptProblems(std::string_view script)
{
    auto error = [](std::string_view message) {
        return errorLine("sbatch", message);
    };
    if (script.empty()) {
        return error("Batch script is empty!");
    }
    if (isBlank(script)) {
        return error("Batch script contains only whitespace!");
    }
    if (!sched::hasShebang(script)) {
        return error("This does not look like a batch script.  The first")
            + error("line must start with #! followed by the path to an interpreter.")
            + error("For instance: #!/bin/sh");
    }
    if (script.find('\0') != std::string_view::npos) {
        return error("The Slurm controller does not allow scripts that")
            + error("contain a NULL character '\\0'.");
    }
    if (script.find("\r\n") != std::string_view::npos) {
        return error("Batch script contains DOS line breaks (\\r\\n)")
            + error("instead of expected UNIX line breaks (\\n).");
    }
    return {};
}

std::string wrapScript(std::string_view command)
{
    std::string script = "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n";
    script += command;
    script += '\n';
    return script;
}

std::vector<std::string> exportedEnvironment(
    const std::optional<std::string> &exportSpec, const Context &ctx)
{
    std::vector<std::string> words = splitList(exportSpec.value_or("ALL"));
    bool all = false;
    for (const auto &word : words) {
        all = all || equalsIgnoreCase(word, "ALL");
    }
    std::vector<std::string> env;
    for (const auto &entry : ctx.environment) {
        if (all || entry.rfind("SLURM_", 0) == 0) {
            env.push_back(entry);
        }
    }
    for (const auto &word : words) {
        if (equalsIgnoreCase(word, "ALL") || equalsIgnoreCase(word, "NONE")
            || equalsIgnoreCase(word, "NIL")) {
            continue;
        }
        if (word.find('=') != std::string::npos) {
            setVariable(env, word);
        } else if (auto value = ctx.getenv(word)) {
            setVariable(env, word + "=" + *value);
        }
    }
    setVariable(env, "SLURM_SUBMIT_DIR=" + ctx.cwd);
    setVariable(env, "SLURM_SUBMIT_HOST=" + ctx.hostname);
    return env;
}

} // namespace mc::cmd::sbatch
