#include "mc/launch/scenario.h"

#include "mc/base/file.h"
#include "mc/base/text.h"
#include "mc/proto/client.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace mc::launch {

namespace fs = std::filesystem;

namespace {

using base::trim;

// splitmix64: the same numbers from the same seed on every machine and library.
struct Random {
    unsigned long long state;
    unsigned long long next()
    {
        unsigned long long z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    long long between(long long lo, long long hi)
    {
        if (hi <= lo) {
            return lo;
        }
        return lo + static_cast<long long>(next() % static_cast<unsigned long long>(hi - lo + 1));
    }
};

// Words, with "double quotes" grouping (quotes removed).
std::vector<std::string> words(std::string_view line)
{
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    bool in = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
            in = true;
        } else if (!quoted && (c == ' ' || c == '\t')) {
            if (in) {
                out.push_back(cur);
                cur.clear();
                in = false;
            }
        } else {
            cur += c;
            in = true;
        }
    }
    if (in) {
        out.push_back(cur);
    }
    return out;
}

bool range(const std::string &text, long long &lo, long long &hi)
{
    auto dash = text.find('-');
    char *end = nullptr;
    lo = std::strtoll(text.c_str(), &end, 10);
    if (end == text.c_str()) {
        return false;
    }
    hi = dash == std::string::npos ? lo : std::strtoll(text.c_str() + dash + 1, nullptr, 10);
    return hi >= lo;
}

std::string minutes(long long m)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:00", m / 60, m % 60);
    return buf;
}

} // namespace

ScenarioParse parseScenario(std::string_view text, std::string name)
{
    ScenarioParse result;
    Scenario &s = result.scenario;
    s.name = std::move(name);
    std::vector<std::string> lines;
    std::istringstream in{std::string(text)};
    for (std::string l; std::getline(in, l);) {
        lines.push_back(l);
    }
    // The seed first, wherever it is written: random jobs depend on it.
    for (const auto &l : lines) {
        if (trim(l).rfind("seed:", 0) == 0) {
            s.seed = std::strtoull(trim(trim(l).substr(5)).c_str(), nullptr, 10);
        }
    }
    Random rng{s.seed};
    int lineNo = 0;
    for (const auto &raw : lines) {
        ++lineNo;
        std::string l = trim(raw);
        auto problem = [&](const std::string &what) {
            result.problems.push_back("line " + std::to_string(lineNo) + ": " + what);
        };
        if (l.empty() || l[0] == '#' || l.rfind("seed:", 0) == 0) {
            continue;
        }
        if (l.rfind("title:", 0) == 0) {
            s.title = trim(l.substr(6));
        } else if (l.rfind("description:", 0) == 0) {
            s.description += (s.description.empty() ? "" : " ") + trim(l.substr(12));
        } else if (l.rfind("requires:", 0) == 0) {
            s.requires_.push_back(trim(l.substr(9)));
        } else if (l.rfind("jobs ", 0) == 0) {
            auto w = words(l);
            if (w.size() < 2) {
                problem("`jobs` needs a count");
                continue;
            }
            long long count = std::atoll(w[1].c_str());
            std::map<std::string, std::string> kv
                = {{"users", "bob"}, {"partition", ""}, {"cpus", "1"}, {"mem", "100"},
                    {"time", "10"}, {"run", "60"}, {"every", "0"}, {"start", "0"}, {"name", "bg"}};
            for (std::size_t i = 2; i < w.size(); ++i) {
                auto eq = w[i].find('=');
                if (eq == std::string::npos || !kv.count(w[i].substr(0, eq))) {
                    problem("unknown setting '" + w[i] + "'");
                    continue;
                }
                kv[w[i].substr(0, eq)] = w[i].substr(eq + 1);
            }
            std::vector<std::string> users;
            std::stringstream us(kv["users"]);
            for (std::string u; std::getline(us, u, ',');) {
                users.push_back(u);
            }
            long long cLo, cHi, mLo, mHi, tLo, tHi, rLo, rHi, eLo, eHi, sLo, sHi;
            if (!range(kv["cpus"], cLo, cHi) || !range(kv["mem"], mLo, mHi)
                || !range(kv["time"], tLo, tHi) || !range(kv["run"], rLo, rHi)
                || !range(kv["every"], eLo, eHi) || !range(kv["start"], sLo, sHi)) {
                problem("a range is not like 1-4");
                continue;
            }
            double at = static_cast<double>(rng.between(sLo, sHi));
            for (long long i = 0; i < count; ++i) {
                ScenarioAction a;
                a.at = at;
                a.user = users[static_cast<std::size_t>(
                    rng.between(0, static_cast<long long>(users.size()) - 1))];
                long long cpus = rng.between(cLo, cHi);
                long long mem = rng.between(mLo, mHi);
                long long limit = rng.between(tLo, tHi);
                long long run = std::min(rng.between(rLo, rHi), limit * 60 - 5);
                a.sbatchArgs = "--job-name=" + kv["name"] + "-" + std::to_string(i + 1)
                    + (kv["partition"].empty() ? "" : " --partition=" + kv["partition"])
                    + " --cpus-per-task=" + std::to_string(cpus) + " --mem=" + std::to_string(mem)
                    + "M --time=" + minutes(limit) + " --output=/dev/null --wrap=\"sleep "
                    + std::to_string(run) + "\"";
                s.actions.push_back(a);
                at += static_cast<double>(rng.between(eLo, eHi));
            }
        } else if (l.rfind("at ", 0) == 0) {
            auto w = words(l);
            ScenarioAction a;
            a.at = std::atof(w.size() > 1 ? w[1].c_str() : "0");
            if (w.size() >= 5 && w[2] == "as" && w[4] == "sbatch") {
                a.user = w[3];
                // The rest of the line as written, after "sbatch".
                auto pos = l.find("sbatch");
                a.sbatchArgs = trim(l.substr(pos + 6));
            } else if (w.size() >= 5 && w[2] == "node") {
                a.node = w[3];
                a.nodeState = w[4];
                a.reason = w.size() > 5 ? w[5] : "scenario";
            } else {
                problem(
                    "expected `at T as USER sbatch ...` or `at T node NAME STATE [\"reason\"]`");
                continue;
            }
            s.actions.push_back(a);
        } else {
            problem("unknown line '" + l + "'");
        }
    }
    std::stable_sort(s.actions.begin(), s.actions.end(),
        [](const ScenarioAction &a, const ScenarioAction &b) { return a.at < b.at; });
    return result;
}

std::string scenariosDir(const std::string &binDir)
{
    return binDir + "/../share/minicluster/presets/scenarios";
}

namespace {

void submit(const ScenarioContext &c, const ScenarioAction &a, int logFd)
{
    pid_t pid = ::fork();
    if (pid == 0) {
        if (logFd >= 0) {
            ::dup2(logFd, 1);
            ::dup2(logFd, 2);
        }
        std::string exe = c.binDir + "/minicluster";
        std::string cmd = "sbatch " + a.sbatchArgs;
        ::execl(exe.c_str(), exe.c_str(), "--dir", c.layout.dir.c_str(), "--user", a.user.c_str(),
            "shell", "-c", cmd.c_str(), static_cast<char *>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    if (pid > 0) {
        ::waitpid(pid, &status, 0);
    }
}

void changeNode(const ScenarioContext &c, const ScenarioAction &a, int logFd)
{
    proto::Client client;
    std::string error;
    std::string message;
    if (client.connect(c.layout.socket(), error)) {
        proto::Json req = proto::Json::object();
        req.set("op", "node_update");
        req.set("node", a.node);
        req.set("state", a.nodeState);
        req.set("reason", a.reason);
        req.set("user", "prof");
        auto reply = client.call(req, error);
        message = reply ? ((*reply)["ok"].toBool() ? "ok" : (*reply)["error"].toString()) : error;
    } else {
        message = error;
    }
    std::string line = "node " + a.node + " " + a.nodeState + ": " + message + "\n";
    if (logFd >= 0) {
        [[maybe_unused]] auto n = ::write(logFd, line.data(), line.size());
    }
}

void apply(const ScenarioContext &c, const ScenarioAction &a, int logFd)
{
    if (a.isSubmit()) {
        submit(c, a, logFd);
    } else {
        changeNode(c, a, logFd);
    }
}

int stop(const ScenarioContext &c, bool quiet)
{
    std::string pidText = base::readFile(c.layout.run() + "/scenario.pid").value_or("");
    pid_t pid = static_cast<pid_t>(std::atoi(pidText.c_str()));
    std::string cmdline
        = pid > 0 ? base::readFile("/proc/" + std::to_string(pid) + "/cmdline").value_or("") : "";
    if (pid > 0 && cmdline.find("minicluster") != std::string::npos) {
        ::kill(pid, SIGTERM);
        if (!quiet) {
            std::printf("minicluster scenario: stopped the running scenario (pid %d)\n", pid);
        }
    } else if (!quiet) {
        std::printf("minicluster scenario: no scenario is running\n");
    }
    std::error_code ec;
    fs::remove(c.layout.run() + "/scenario.pid", ec);
    return 0;
}

int load(const ScenarioContext &c, const std::string &name, double speed)
{
    std::string path = c.scenariosDir + "/" + name + ".scenario";
    if (!fs::exists(path)) {
        std::fprintf(stderr,
            "minicluster scenario: no scenario '%s' (see `minicluster scenario list`)\n",
            name.c_str());
        return 2;
    }
    auto parsed = parseScenario(base::readFile(path).value_or(""), name);
    for (const auto &p : parsed.problems) {
        std::fprintf(stderr, "minicluster scenario: %s: %s\n", path.c_str(), p.c_str());
    }
    if (!parsed.problems.empty()) {
        return 1;
    }
    const Scenario &s = parsed.scenario;
    std::string conf = base::readFile(c.layout.etc() + "/slurm.conf").value_or("");
    for (const auto &req : s.requires_) {
        if (conf.find(req) == std::string::npos) {
            std::fprintf(stderr,
                "minicluster scenario: '%s' needs %s in %s/slurm.conf; add it, then run "
                "`minicluster down` and `minicluster up`\n",
                name.c_str(), req.c_str(), c.layout.etc().c_str());
            return 1;
        }
    }
    proto::Client probe;
    std::string error;
    if (!probe.connect(c.layout.socket(), error)) {
        std::fprintf(stderr, "minicluster scenario: the cluster is not running (minicluster up)\n");
        return 1;
    }
    probe.close();
    stop(c, true);
    std::string logPath = c.layout.log() + "/scenario.log";
    int logFd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    std::size_t now = 0;
    std::size_t submits = 0;
    for (; now < s.actions.size() && s.actions[now].at <= 0; ++now) {
        apply(c, s.actions[now], logFd);
    }
    for (const auto &a : s.actions) {
        submits += a.isSubmit() ? std::size_t{1} : std::size_t{0};
    }
    std::printf("minicluster scenario: %s — %s\n", name.c_str(), s.title.c_str());
    std::printf("  %zu submissions and %zu node changes over %.0f s (seed %llu); %zu done now\n",
        submits, s.actions.size() - submits, s.actions.empty() ? 0.0 : s.actions.back().at / speed,
        s.seed, now);
    for (const auto &a : s.actions) {
        if (!a.isSubmit()) {
            std::printf("  at %.0f s: node %s -> %s (%s)\n", a.at / speed, a.node.c_str(),
                a.nodeState.c_str(), a.reason.c_str());
        }
    }
    if (now == s.actions.size()) {
        if (logFd >= 0) {
            ::close(logFd);
        }
        return 0;
    }
    std::fflush(stdout);
    pid_t pid = ::fork();
    if (pid == 0) {
        ::setsid();
        int null = ::open("/dev/null", O_RDWR);
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::dup2(null, 2);
        auto start = std::chrono::steady_clock::now();
        for (std::size_t i = now; i < s.actions.size(); ++i) {
            std::this_thread::sleep_until(start
                + std::chrono::milliseconds(
                    static_cast<long long>(s.actions[i].at / speed * 1000)));
            apply(c, s.actions[i], logFd);
        }
        ::unlink((c.layout.run() + "/scenario.pid").c_str());
        ::_exit(0);
    }
    std::ofstream(c.layout.run() + "/scenario.pid") << pid << '\n';
    std::printf("  the rest plays in the background (pid %d, log %s); `minicluster scenario "
                "stop` ends it\n",
        pid, logPath.c_str());
    if (logFd >= 0) {
        ::close(logFd);
    }
    return 0;
}

} // namespace

int runScenarioCommand(const ScenarioContext &c, const std::vector<std::string> &args)
{
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        std::fputs("Usage: minicluster scenario list | load NAME [--speed N] | stop\n\n"
                   "Instructor set-ups that replay the same way each time: classmates' jobs\n"
                   "(submitted as bob, carol, ...) and node failures on a timeline.\n",
            args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "list") {
        std::vector<std::string> names;
        std::error_code ec;
        for (const auto &e : fs::directory_iterator(c.scenariosDir, ec)) {
            if (e.path().extension() == ".scenario") {
                names.push_back(e.path().stem().string());
            }
        }
        std::sort(names.begin(), names.end());
        for (const auto &n : names) {
            auto parsed = parseScenario(
                base::readFile(c.scenariosDir + "/" + n + ".scenario").value_or(""), n);
            std::printf("%-20s %s\n", n.c_str(), parsed.scenario.title.c_str());
        }
        return 0;
    }
    if (args[0] == "stop") {
        return stop(c, false);
    }
    if (args[0] == "load" && args.size() >= 2) {
        double speed = 1;
        for (std::size_t i = 2; i + 1 < args.size(); ++i) {
            if (args[i] == "--speed") {
                speed = std::max(0.01, std::atof(args[i + 1].c_str()));
            }
        }
        return load(c, args[1], speed);
    }
    std::fprintf(stderr, "minicluster scenario: unknown command (list, load NAME, stop)\n");
    return 2;
}

} // namespace mc::launch
