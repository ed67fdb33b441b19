// The request table: every request the controller answers, its handler, and whether it may
// change what a scheduling pass decides. Dispatch (Controller::handleRequest) and the Server's
// scheduling trigger both read this one list, so a new request is added in one place: one
// missing here is answered "Unknown request", never left waiting for the next tick.

#include "mc/ctl/controller.h"
#include "replies.h"

#include <algorithm>
#include <array>

namespace mc::ctl {

using proto::Json;

namespace {

bool always(const Json &)
{
    return true;
}

bool never(const Json &)
{
    return false;
}

// `clock` changes the time jobs wait for only when it sets the speed or jumps ahead.
bool movesClock(const Json &request)
{
    return request["speed"].isNumber() || request["advance"].isNumber();
}

} // namespace

std::span<const Controller::Request> Controller::requests()
{
    // The handlers are member lambdas: they reach the controller's private request methods.
    static const std::array<Request, 24> kRequests{{
        {"ping", [](Controller &c, const Json &, Seconds now) { return c.ping(now); }, never},
        {"submit", [](Controller &c, const Json &r, Seconds now) { return c.submit(r, now); },
            always},
        {"jobs", [](Controller &c, const Json &r, Seconds now) { return c.listJobs(r, now); },
            never},
        {"job_scripts",
            [](Controller &c, const Json &r, Seconds) { return c.m_accounting.jobScripts(r); },
            never},
        {"cancel", [](Controller &c, const Json &r, Seconds now) { return c.cancel(r, now); },
            always},
        {"acct",
            [](Controller &c, const Json &r, Seconds now) {
                return c.m_accounting.accounting(r, now);
            },
            never},
        {"cluster", [](Controller &c, const Json &, Seconds) { return c.clusterInfo(); }, never},
        {"hold",
            [](Controller &c, const Json &r, Seconds now) { return c.holdOrRelease(r, now, true); },
            always},
        {"release",
            [](Controller &c, const Json &r, Seconds now) {
                return c.holdOrRelease(r, now, false);
            },
            always},
        {"requeue", [](Controller &c, const Json &r, Seconds now) { return c.requeue(r, now); },
            always},
        {"update", [](Controller &c, const Json &r, Seconds now) { return c.update(r, now); },
            always},
        // A suspended job keeps its allocation: nothing a pass decides changes.
        {"suspend",
            [](Controller &c, const Json &r, Seconds now) {
                return c.suspendOrResume(r, now, false);
            },
            never},
        {"resume",
            [](Controller &c, const Json &r, Seconds now) {
                return c.suspendOrResume(r, now, true);
            },
            never},
        {"priorities",
            [](Controller &c, const Json &r, Seconds now) { return c.priorities(r, now); }, never},
        {"shares",
            [](Controller &c, const Json &r, Seconds now) { return c.m_fairshare.shares(r, now); },
            never},
        {"node_update",
            [](Controller &c, const Json &r, Seconds now) { return c.nodeUpdate(r, now); }, always},
        {"clock", [](Controller &c, const Json &r, Seconds now) { return c.clockRequest(r, now); },
            movesClock},
        {"config", [](Controller &c, const Json &, Seconds now) { return c.configInfo(now); },
            never},
        // srun and salloc (controller_steps.cpp). A step runs inside its job's allocation: only
        // the allocation's end frees what a pass can give.
        {"step_create",
            [](Controller &c, const Json &r, Seconds now) { return c.stepCreate(r, now); }, never,
            false},
        {"step_usage", [](Controller &c, const Json &r, Seconds) { return c.stepUsage(r); }, never,
            false},
        {"step_end", [](Controller &c, const Json &r, Seconds now) { return c.stepEnd(r, now); },
            never, false},
        {"steps", [](Controller &c, const Json &r, Seconds now) { return c.listSteps(r, now); },
            never, false},
        // scancel JOB.STEP: the step ends, its job keeps its allocation.
        {"step_signal",
            [](Controller &c, const Json &r, Seconds now) { return c.stepSignal(r, now); }, never},
        {"alloc_release",
            [](Controller &c, const Json &r, Seconds now) { return c.allocationRelease(r, now); },
            always, false},
    }};
    return kRequests;
}

const Controller::Request *Controller::findRequest(std::string_view op)
{
    auto table = requests();
    auto it = std::find_if(
        table.begin(), table.end(), [op](const Request &request) { return request.op == op; });
    return it == table.end() ? nullptr : &*it;
}

Json Controller::handleRequest(const Json &request, Seconds now)
{
    std::string op = request["op"].toString();
    if (const Request *entry = findRequest(op)) {
        return entry->handle(*this, request, now);
    }
    return failure("Unknown request: " + op);
}

} // namespace mc::ctl
