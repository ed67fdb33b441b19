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
    std::vector<const Json *> rows;
    for (const Json &step : (*reply)["steps"].items()) {
        const std::string id
            = std::to_string(step["job_id"].toInt()) + "." + step["step_id"].toString();
        const std::string user = step["user"].toString();
        if ((!steps.empty() && std::find(steps.begin(), steps.end(), id) == steps.end())
            || (users && std::find(users->begin(), users->end(), user) == users->end())) {
            continue;
        }
        rows.push_back(&step);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Json *a, const Json *b) {
        return std::make_tuple((*a)["job_id"].toInt(), stepOrder((*a)["step_id"].toString()))
            < std::make_tuple((*b)["job_id"].toInt(), stepOrder((*b)["step_id"].toString()));
    });
    std::string out = noHeader ? std::string()
                               : cell("STEPID", 15) + " " + cell("NAME", 8) + " "
            + cell("PARTITION", 9) + " " + cell("USER", 8) + " " + cell("TIME", 9) + " NODELIST\n";
    for (const Json *step : rows) {
        const Json &s = *step;
        out += cell(std::to_string(s["job_id"].toInt()) + "." + s["step_id"].toString(), 15) + " "
            + cell(s["name"].toString(), 8) + " " + cell(s["partition"].toString(), 9) + " "
            + cell(s["user"].toString(), 8) + " "
            + cell(formatSeconds(now - s["start_time"].toInt(now)), 9) + " "
            + sched::compressHostlist(s["nodes"].toStringList()) + "\n";
    }
    return {out, {}, 0};
}

} // namespace mc::cmd::squeue
