#include "mc/sim/scenario.h"

#include "mc/base/text.h"
#include "mc/sched/explanation.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/slurm_conf.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>

namespace mc::sim {
namespace {

std::optional<std::int64_t> integer(std::string_view text)
{
    std::int64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::string_view eventWord(EventKind kind)
{
    switch (kind) {
    case EventKind::Submit:
        return "submit";
    case EventKind::Start:
        return "start";
    case EventKind::End:
        return "end";
    case EventKind::Requeue:
        return "requeue";
    case EventKind::Preempt:
        return "preempt";
    case EventKind::Pending:
        return "pending";
    case EventKind::Hold:
        return "hold";
    case EventKind::Release:
        return "release";
    case EventKind::NodeDown:
        return "node-down";
    case EventKind::NodeUp:
        return "node-up";
    }
    return "event";
}

std::string fixed(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", value);
    return buffer;
}

} // namespace

bool applySbatchOption(
    sched::JobSpec &spec, std::string_view option, Seconds now, std::string &error)
{
    const auto eq = option.find('=');
    const std::string name(option.substr(0, eq));
    const std::string value(
        eq == std::string_view::npos ? std::string_view() : option.substr(eq + 1));
    auto count = [&](int &into) {
        const auto n = integer(value);
        if (!n || *n < 0) {
            error = "bad value for " + name;
            return false;
        }
        into = static_cast<int>(*n);
        return true;
    };
    auto hosts = [&](std::vector<std::string> &into) {
        auto list = sched::expandHostlist(value);
        if (!list) {
            error = "bad hostlist for " + name;
            return false;
        }
        into = std::move(*list);
        return true;
    };
    if (name == "--nodes" || name == "-N") {
        return count(spec.nodes);
    }
    if (name == "--ntasks" || name == "-n") {
        spec.ntasksGiven = true;
        return count(spec.ntasks);
    }
    if (name == "--ntasks-per-node") {
        return count(spec.ntasksPerNode);
    }
    if (name == "--cpus-per-task" || name == "-c") {
        spec.cpusPerTaskGiven = true;
        return count(spec.cpusPerTask);
    }
    if (name == "--mem" || name == "--mem-per-cpu") {
        const auto mib = sched::parseMemory(value);
        if (!mib) {
            error = "bad value for " + name;
            return false;
        }
        (name == "--mem" ? spec.memPerNode : spec.memPerCpu) = *mib;
        return true;
    }
    if (name == "--gres") {
        const auto colon = value.rfind(':');
        if (value.rfind("gpu", 0) != 0) {
            error = "--gres: only gpu is supported by minicluster";
            return false;
        }
        spec.gpusPerNode = 1;
        if (colon != std::string::npos && colon > 2) {
            const auto n = integer(std::string_view(value).substr(colon + 1));
            if (!n || *n < 0) {
                error = "bad value for --gres";
                return false;
            }
            spec.gpusPerNode = static_cast<int>(*n);
        }
        return true;
    }
    if (name == "--gpus" || name == "-G") {
        int total = 0;
        if (!count(total)) {
            return false;
        }
        const int nodes = std::max(1, spec.nodes);
        spec.gpusPerNode = (total + nodes - 1) / nodes;
        return true;
    }
    if (name == "--exclusive") {
        spec.exclusive = true;
        return true;
    }
    if (name == "--nodelist" || name == "-w") {
        return hosts(spec.nodeList);
    }
    if (name == "--exclude" || name == "-x") {
        return hosts(spec.excludeNodes);
    }
    if (name == "--constraint" || name == "-C") {
        spec.constraint = value;
        return true;
    }
    if (name == "--time" || name == "-t" || name == "--time-min") {
        const auto limit = sched::parseTimeLimit(value);
        if (!limit) {
            error = "Invalid time limit specification";
            return false;
        }
        (name == "--time-min" ? spec.timeMin : spec.timeLimit) = *limit;
        return true;
    }
    if (name == "--begin" || name == "-b") {
        const auto at = sched::parseTimeSpec(value, now);
        if (!at) {
            error = "Invalid time specification " + value;
            return false;
        }
        spec.begin = *at;
        return true;
    }
    if (name == "--nice") {
        const auto n = integer(value.empty() ? std::string_view("100") : std::string_view(value));
        if (!n) {
            error = "bad value for --nice";
            return false;
        }
        spec.nice = static_cast<int>(*n);
        return true;
    }
    if (name == "--hold" || name == "-H") {
        spec.hold = true;
        return true;
    }
    if (name == "--partition" || name == "-p") {
        spec.partition = value;
        return true;
    }
    if (name == "--job-name" || name == "-J") {
        spec.name = value;
        return true;
    }
    if (name == "--user") {
        spec.user = value;
        return true;
    }
    if (name == "--account" || name == "-A") {
        spec.account = value;
        return true;
    }
    if (name == "--dependency" || name == "-d") {
        spec.dependency = value;
        return true;
    }
    if (name == "--array" || name == "-a") {
        spec.array = value;
        return true;
    }
    error = "unknown option " + name;
    return false;
}

ScenarioResult runScenario(std::string_view slurmConf, std::string_view jobsText)
{
    ScenarioResult result;
    auto parsed = sched::parseSlurmConf(slurmConf);
    for (const auto &p : parsed.problems) {
        result.errors.push_back("slurm.conf:" + std::to_string(p.line) + ": " + p.message);
    }
    Simulation sim(parsed.config);
    std::vector<std::pair<Seconds, std::string>> queries; // printed in the transcript
    std::optional<Seconds> end;
    std::uint32_t nextId = 1;
    int lineNumber = 0;
    std::istringstream in{std::string(jobsText)};
    std::string line;
    while (std::getline(in, line)) {
        ++lineNumber;
        line = line.substr(0, line.find('#'));
        auto w = base::splitWords(line);
        if (w.empty()) {
            continue;
        }
        auto fail = [&](const std::string &message) {
            result.errors.push_back("jobs.txt:" + std::to_string(lineNumber) + ": " + message);
        };
        if (w[0] == "end" && w.size() == 2 && integer(w[1])) {
            end = *integer(w[1]);
            continue;
        }
        const auto time = integer(w[0]);
        if (!time || w.size() < 2) {
            fail("expected `<time> <command> ...`");
            continue;
        }
        const Seconds t = *time;
        const std::string &command = w[1];
        const auto id = w.size() > 2 ? integer(w[2]) : std::nullopt;
        const JobId job{static_cast<std::uint32_t>(id.value_or(0))};
        const bool admin = w.size() > 3 && w[3] == "admin";
        if (command == "submit") {
            sched::JobSpec spec;
            spec.user = "alice";
            spec.account = "def-prof";
            spec.name = "job" + std::to_string(nextId);
            Behaviour behaviour;
            for (std::size_t i = 2; i < w.size(); ++i) {
                std::string error;
                static const std::string kShortWithValue = "NnctwxCpJAdabG";
                if (w[i].size() == 2 && w[i][0] == '-'
                    && kShortWithValue.find(w[i][1]) != std::string::npos && i + 1 < w.size()) {
                    w[i + 1] = w[i] + '=' + w[i + 1]; // "-n 2" is "-n=2"
                    continue;
                }
                if (w[i].rfind("run=", 0) == 0) {
                    behaviour.runTime = integer(w[i].substr(4)).value_or(0);
                } else if (w[i].rfind("exit=", 0) == 0) {
                    behaviour.exitCode = static_cast<int>(integer(w[i].substr(5)).value_or(1));
                } else if (!applySbatchOption(spec, w[i], t, error)) {
                    fail(error);
                }
            }
            sim.submit(t, std::move(spec), behaviour);
            ++nextId;
        } else if (command == "cancel" && id) {
            sim.cancel(t, job);
        } else if (command == "hold" && id) {
            sim.hold(t, job, admin);
        } else if (command == "release" && id) {
            sim.release(t, job, admin);
        } else if (command == "requeue" && id) {
            sim.requeue(t, job);
        } else if (command == "fail" && w.size() == 3) {
            sim.failNode(t, w[2]);
        } else if (command == "resume" && w.size() == 3) {
            sim.resumeNode(t, w[2]);
        } else if (command == "partition" && w.size() == 4) {
            const std::string &s = w[3];
            const auto state = s == "UP" ? sched::PartitionState::Up
                : s == "DOWN"            ? sched::PartitionState::Down
                : s == "DRAIN"           ? sched::PartitionState::Drain
                                         : sched::PartitionState::Inactive;
            sim.setPartitionState(t, w[2], state);
        } else if ((command == "show" || command == "priority") && id) {
            queries.emplace_back(t, command + ' ' + std::to_string(job.value));
        } else if (command == "explain" && id && w.size() == 4) {
            queries.emplace_back(t, "explain " + std::to_string(job.value) + ' ' + w[3]);
        } else if (command == "queue") {
            queries.emplace_back(t, "queue");
        } else {
            fail("unknown command `" + command + "`");
        }
    }
    if (!end) {
        result.errors.push_back("jobs.txt: missing `end <time>`");
        end = 0;
    }

    // Run event time by event time so that queries print after the pass of their time.
    std::string transcript;
    std::size_t printed = 0;
    auto flushEvents = [&] {
        const auto &events = sim.events();
        for (; printed < events.size(); ++printed) {
            const SimEvent &e = events[printed];
            if (e.kind == EventKind::Submit) {
                continue;
            }
            transcript += std::to_string(e.time) + ' ' + std::string(eventWord(e.kind)) + ' '
                + e.job + (e.detail.empty() ? "" : " " + e.detail) + '\n';
        }
    };
    auto answer = [&](const std::string &query) {
        const auto q = base::splitWords(query);
        const Seconds now = sim.now();
        std::string out = std::to_string(now) + ' ' + q[0];
        if (q[0] == "queue") {
            for (const auto &[jid, j] : sim.jobs()) {
                if (!sched::isFinished(j.state)) {
                    out += ' ' + sim.displayId(j) + ':' + std::string(sched::shortName(j.state));
                }
            }
            transcript += out + '\n';
            return;
        }
        const JobId jid{static_cast<std::uint32_t>(integer(q[1]).value_or(0))};
        const sched::Job *j = sim.job(jid);
        if (!j) {
            transcript += out + ' ' + q[1] + " unknown\n";
            return;
        }
        out += ' ' + sim.displayId(*j);
        if (q[0] == "show") {
            out += ' ' + std::string(sched::longName(j->state))
                + " reason=" + std::string(sched::reasonName(j->reason)) + " start="
                + (j->plannedStart
                        ? std::to_string(*j->plannedStart)
                        : (j->isPending() ? std::string("N/A") : std::to_string(j->startTime)))
                + " limit=" + sched::formatElapsed(j->timeLimit);
            if (!j->nodeList.empty()) {
                out += " nodes=" + sched::compressHostlist(j->nodeList);
            }
            if (const auto *w = sim.lastWait(jid); w && !w->dependency.empty() && j->isPending()) {
                out += " dependency=" + w->dependency;
            }
        } else if (q[0] == "priority") {
            const auto context = sched::makePriorityContext(sim.config(), &sim.fairshare());
            const auto f = sched::priorityOf(*j, context, now);
            out += " priority=" + std::to_string(f.priority) + " age=" + fixed(f.age)
                + " fairshare=" + fixed(f.fairshare) + " jobsize=" + fixed(f.jobSize)
                + " partition=" + fixed(f.partition) + " qos=" + fixed(f.qos)
                + " nice=" + std::to_string(f.nice);
        } else if (q[0] == "explain") {
            const auto *w = sim.lastWait(jid);
            if (j->isPending() && w) {
                out += ' ' + q[2] + ": " + sched::explain(*w, q[2], now);
            } else {
                out += ' ' + q[2] + ": " + std::string(sched::longName(j->state));
            }
        }
        transcript += out + '\n';
    };
    // Queries see the state after the scheduling pass of their time.
    std::stable_sort(queries.begin(), queries.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[t, query] : queries) {
        if (t > *end) {
            break;
        }
        sim.run(t);
        flushEvents();
        answer(query);
    }
    sim.run(*end);
    flushEvents();
    result.transcript = transcript;
    return result;
}

} // namespace mc::sim
