// `jobs` and `acct` replies with `form: "rows"` (docs/protocol.md, issue #6): thousands of jobs
// written straight to text by acct::JobRowWriter, without a Json tree per job.
#include "mc/ctl/controller.h"
#include "mc/sched/explanation.h"

namespace mc::ctl {

using proto::Json;
using sched::Job;

Json Controller::jobRows(const std::vector<std::string> &fields, Seconds now,
    const std::function<bool(const Job &)> &keep) const
{
    acct::JobRowWriter writer(fields);
    auto columnOf = [&fields](std::string_view name) {
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (fields[i] == name) {
                return static_cast<int>(i);
            }
        }
        return -1;
    };
    // The members jobJson() adds to the codec's, as it adds them.
    const int waitingFor = columnOf("waiting_for");
    const int dependency = columnOf("dependency");
    const int explanation = columnOf("explanation");
    const int nowColumn = columnOf("now");
    std::string nowText;
    if (nowColumn >= 0) {
        Json(now).dumpTo(nowText);
    }

    std::string text = "[";
    text.reserve(m_jobs.size() * (fields.size() * 8 + 4));
    auto wait = m_waits.begin(); // both maps are ordered by id: walked together
    bool first = true;
    for (const auto &[id, job] : m_jobs) {
        if (!keep(job)) {
            continue;
        }
        writer.encode(job);
        while (wait != m_waits.end() && wait->first < id) {
            ++wait;
        }
        if (wait != m_waits.end() && wait->first == id && job.isPending()) {
            const sched::WaitDecision &decision = wait->second;
            if (waitingFor >= 0) {
                Json ids = Json::array();
                for (sched::JobId other : decision.waitingFor) {
                    ids.push(static_cast<std::int64_t>(other.value));
                }
                std::string &cell = writer.cell(waitingFor);
                cell.clear();
                ids.dumpTo(cell);
            }
            if (dependency >= 0 && !decision.dependency.empty()) {
                std::string &cell = writer.cell(dependency);
                cell.clear();
                proto::appendQuoted(cell, decision.dependency);
            }
            if (explanation >= 0) {
                Json words = Json::object();
                words.add("en", sched::explain(decision, "en", now));
                words.add("fr", sched::explain(decision, "fr", now));
                std::string &cell = writer.cell(explanation);
                cell.clear();
                words.dumpTo(cell);
            }
        }
        if (nowColumn >= 0) {
            writer.cell(nowColumn) = nowText;
        }
        if (!first) {
            text += ',';
        }
        first = false;
        writer.appendRow(text);
    }
    text += ']';
    return Json::raw(std::move(text));
}

} // namespace mc::ctl
