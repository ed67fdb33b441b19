#include "squeue_steps.h"

#include "../shared/text.h"
#include "mc/record/step.h"
#include "mc/sched/hostlist.h"
#include "squeue_fields.h"

#include <algorithm>
#include <tuple>

namespace mc::cmd::squeue {
namespace {

using proto::Json;

// A field of `width`, right-aligned and cut to the width, as Slurm's "%.Nx".
std::string cell(std::string_view text, std::size_t width)
{
    return padLeft(text.substr(0, width), width);
}

// Slurm's step number: numbered steps first, then interactive (0xfffffffa), batch (0xfffffffb)
// and extern (0xfffffffc).
std::int64_t stepOrder(const std::string &step)
{
    if (step == "interactive") {
        return record::kInteractiveStep;
    }
    if (step == "batch") {
        return 0xfffffffb;
    }
    if (step == "extern") {
        return 0xfffffffc;
    }
    return parseLeadingInteger(step);
}

} // namespace

Outcome listSteps(Context &ctx, const std::vector<std::int64_t> &jobIds,
    const std::optional<std::vector<std::string>> &users, const std::vector<std::string> &steps,
    bool noHeader)
{
    Json request = Json::object();
    request.set("op", "steps");
    Json ids = Json::array();
    for (const std::int64_t id : jobIds) {
        ids.push(id);
    }
    for (const std::string &step : steps) {
        ids.push(parseLeadingInteger(step));
    }
    if (ids.size() > 0) {
        request.set("job_ids", std::move(ids));
    }
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply) {
        return {{},
            "slurm_get_job_steps error: Unable to contact slurm controller (connect failure)\n", 1};
    }
    if (!(*reply)["ok"].toBool()) {
        return {{}, "slurm_get_job_steps error: " + (*reply)["error"].toString() + "\n", 1};
    }
    const std::int64_t now = (*reply)["now"].toInt(ctx.now);
    std::vector<record::StepObject> rows;
    for (const Json &item : (*reply)["steps"].items()) {
        record::StepObject step = record::stepObjectFromJson(item);
        const std::string id = std::to_string(step.jobId) + "." + step.stepId;
        if ((!steps.empty() && std::find(steps.begin(), steps.end(), id) == steps.end())
            || (users && std::find(users->begin(), users->end(), step.user) == users->end())) {
            continue;
        }
        rows.push_back(std::move(step));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
        return std::make_tuple(a.jobId, stepOrder(a.stepId))
            < std::make_tuple(b.jobId, stepOrder(b.stepId));
    });
    std::string out = noHeader ? std::string()
                               : cell("STEPID", 15) + " " + cell("NAME", 8) + " "
            + cell("PARTITION", 9) + " " + cell("USER", 8) + " " + cell("TIME", 9) + " NODELIST\n";
    for (const record::StepObject &step : rows) {
        // a step not yet dated has run for no time
        const std::int64_t start = step.startTime != 0 ? step.startTime : now;
        out += cell(std::to_string(step.jobId) + "." + step.stepId, 15) + " "
            + cell(step.name.value_or(""), 8) + " " + cell(step.partition, 9) + " "
            + cell(step.user, 8) + " " + cell(formatSeconds(now - start), 9) + " "
            + sched::compressHostlist(step.nodes) + "\n";
    }
    return {out, {}, 0};
}

} // namespace mc::cmd::squeue
