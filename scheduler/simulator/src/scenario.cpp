#include "mc/sim/scenario.h"

#include "mc/base/text.h"
#include "mc/cmd/job_options_apply.h"
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

bool applySubmitOptions(sched::JobSpec &spec, const std::vector<std::string> &words, Seconds now,
    std::vector<std::string> &rest, std::string &error)
{
    std::vector<std::string> args;
    for (const std::string &word : words) {
        if (word.rfind("--user=", 0) == 0) {
            spec.user = word.substr(7);
        } else if (word.size() > 3 && word[0] == '-' && word[1] != '-' && word[2] == '=') {
            args.push_back(word.substr(0, 2) + word.substr(3)); // "-n=2" is "-n2"
        } else {
            args.push_back(word);
        }
    }
    const auto parsed = cmd::parseOptions(
        cmd::jobOptionTable(cmd::kSbatchCommand), args, "sbatch", cmd::Ordering::Permute);
    if (!parsed.ok()) {
        error = parsed.error.substr(0, parsed.error.find('\n'));
        return false;
    }
    cmd::JobOptionValues values;
    for (const cmd::ParsedOption &option : parsed.options) {
        if (!option.def->supported || !cmd::isCommonJobOption(option.def->id)) {
            error = cmd::optionName(*option.def) + " is not read in scenarios";
            return false;
        }
        if (auto bad = cmd::applyJobOption(values, *option.def, option.value, now)) {
            error = bad->message;
            return false;
        }
    }
    if (values.badGres) {
        error = cmd::gresError().message;
        return false;
    }
    cmd::fillJobSpec(values, spec);
    if (!values.beginText.empty()) {
        spec.begin = sched::parseTimeSpec(values.beginText, now);
    }
    rest = parsed.operands;
    return true;
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
            std::vector<std::string> rest;
            std::string error;
            if (!applySubmitOptions(spec, {w.begin() + 2, w.end()}, t, rest, error)) {
                fail(error);
            }
            for (const std::string &word : rest) {
                if (word.rfind("run=", 0) == 0) {
                    behaviour.runTime = integer(word.substr(4)).value_or(0);
                } else if (word.rfind("exit=", 0) == 0) {
                    behaviour.exitCode = static_cast<int>(integer(word.substr(5)).value_or(1));
                } else {
                    fail("unexpected word `" + word + "`");
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
