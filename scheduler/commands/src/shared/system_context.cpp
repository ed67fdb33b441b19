#include "mc/base/file.h"
#include "mc/cmd/context.h"
#include "mc/proto/client.h"

#include <charconv>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <pwd.h>
#include <sstream>
#include <unistd.h>

extern char **environ;

namespace mc::cmd {
namespace {

std::optional<UserInfo> fromPasswd(const passwd *pw)
{
    if (!pw) {
        return std::nullopt;
    }
    return UserInfo{pw->pw_name, pw->pw_uid, pw->pw_gid};
}

std::optional<UserInfo> lookupSystemUser(std::string_view nameOrUid)
{
    std::string name(nameOrUid);
    if (auto user = fromPasswd(getpwnam(name.c_str()))) {
        return user;
    }
    std::uint32_t uid = 0;
    const char *end = name.data() + name.size();
    auto [ptr, ec] = std::from_chars(name.data(), end, uid);
    if (name.empty() || ec != std::errc{} || ptr != end) {
        return std::nullopt;
    }
    return fromPasswd(getpwuid(uid));
}

std::string readAllStdin()
{
    std::string text;
    char buffer[65536];
    for (;;) {
        ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0) {
            break;
        }
        text.append(buffer, static_cast<std::size_t>(n));
    }
    return text;
}

std::string currentDirectory()
{
    std::unique_ptr<char, decltype(&free)> dir(getcwd(nullptr, 0), &free);
    return dir ? std::string(dir.get()) : std::string();
}

std::string shortHostName()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) {
        return {};
    }
    std::string host(name);
    return host.substr(0, host.find('.'));
}

} // namespace

Context systemContext(int argc, char **argv)
{
    Context ctx;
    for (int i = 1; i < argc; ++i) {
        ctx.args.emplace_back(argv[i]);
    }
    for (char **env = environ; env && *env; ++env) {
        ctx.environment.emplace_back(*env);
    }
    ctx.cwd = currentDirectory();
    ctx.readStdin = readAllStdin;
    ctx.stdinIsTerminal = isatty(STDIN_FILENO) != 0;
    ctx.out = &std::cout;
    ctx.err = &std::cerr;
    ctx.lookupUser = lookupSystemUser;
    // In minicluster's plain mode (no user namespaces) every emulated user is the real user;
    // the login shell then names the emulated one in MINICLUSTER_USER.
    const char *emulated = std::getenv("MINICLUSTER_USER");
    if (emulated && *emulated) {
        ctx.user = UserInfo{emulated, getuid(), getgid()};
    } else if (auto me = fromPasswd(getpwuid(getuid()))) {
        ctx.user = *me;
    } else {
        ctx.user = UserInfo{std::to_string(getuid()), getuid(), getgid()};
    }
    ctx.hostname = shortHostName();
    ctx.now = static_cast<std::int64_t>(time(nullptr));
    ctx.readSlurmConf = []() -> std::optional<std::string> {
        if (const char *conf = std::getenv("SLURM_CONF"); conf && *conf) {
            return base::readFile(conf);
        }
        if (const char *dir = std::getenv("MINICLUSTER_DIR"); dir && *dir) {
            return base::readFile(std::string(dir) + "/etc/slurm.conf");
        }
        return std::nullopt;
    };
    ctx.readSiteConf = []() -> std::optional<std::string> {
        if (const char *conf = std::getenv("SLURM_CONF"); conf && *conf) {
            const std::string path(conf);
            const std::size_t slash = path.rfind('/');
            const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
            if (auto text = base::readFile(dir + "/minicluster.conf")) {
                return text;
            }
        }
        if (const char *dir = std::getenv("MINICLUSTER_DIR"); dir && *dir) {
            return base::readFile(std::string(dir) + "/etc/minicluster.conf");
        }
        return std::nullopt;
    };
    auto client = std::make_shared<proto::Client>();
    // A controller that does not answer within MessageTimeout (stopped, hung) is not one that
    // cannot be reached: the reply is Slurm's failure for it, which every command prints as it
    // prints the controller's own refusals ("... Socket timed out on send/recv operation").
    ctx.controller = [client](const proto::Json &request) -> std::optional<proto::Json> {
        std::string error;
        if (!client->isConnected() && !client->connect(proto::controllerSocketPath(), error)) {
            return std::nullopt;
        }
        auto reply = client->call(request, error);
        return reply || !client->timedOut() ? reply : proto::timedOutReply();
    };
    ctx.controllerText = [client](const proto::Json &request) -> std::optional<std::string> {
        std::string error;
        if (!client->isConnected() && !client->connect(proto::controllerSocketPath(), error)) {
            return std::nullopt;
        }
        auto reply = client->callText(request, error);
        return reply || !client->timedOut() ? reply : proto::timedOutReply().dump();
    };
    return ctx;
}

std::int64_t clusterNow(const Context &ctx)
{
    if (ctx.controller) {
        proto::Json ping = proto::Json::object();
        ping.set("op", "ping");
        if (auto reply = ctx.controller(ping); reply && (*reply)["now"].isNumber()) {
            return (*reply)["now"].toInt();
        }
    }
    return ctx.now;
}

std::optional<std::string> Context::getenv(std::string_view name) const
{
    for (const auto &entry : environment) {
        if (entry.size() > name.size() && entry[name.size()] == '='
            && std::string_view(entry).substr(0, name.size()) == name) {
            return entry.substr(name.size() + 1);
        }
    }
    return std::nullopt;
}

} // namespace mc::cmd
