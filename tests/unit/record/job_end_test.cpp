// The end reports carry every member both ways: a batch job's `job_ended`, srun's `step_end`
// and `alloc_release`, the step server's `task_exit` and `step_done`, and the usage inside them.
// Each member set to a value of its own comes back and has its own key; the wire is the one
// docs/protocol.md describes, to the byte.
#include "mc/record/job_end.h"
#include "mc/record/step_end.h"

#include <QtTest>

#include <set>

// A member added to one of these structs changes its size: then fill it in its full...() below,
// write and read it in its codec (job_end.cpp, step_end.cpp, usage.cpp), and write the new size
// here. Sizes are those of x86-64 libstdc++, where CI builds.
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
static_assert(sizeof(mc::record::Usage) == 40, "a Usage member is new: see above");
static_assert(sizeof(mc::record::JobEnd) == 176, "a JobEnd member is new: see above");
static_assert(sizeof(mc::record::TaskExit) == 16, "a TaskExit member is new: see above");
static_assert(sizeof(mc::record::StepDone) == 48, "a StepDone member is new: see above");
static_assert(sizeof(mc::record::StepEnd) == 72, "a StepEnd member is new: see above");
static_assert(sizeof(mc::record::AllocRelease) == 96, "an AllocRelease member is new: see above");
#endif

using namespace mc;
using proto::Json;

class JobEndTest : public QObject {
    Q_OBJECT

private slots:
    void everyMemberRoundTrips();
    void everyMemberHasItsOwnKey();
    void defaultsAreNotWritten();
    void aBatchJobsEndIsWrittenAsTheNodeSendsIt();
    void aStepsEndIsWrittenAsSrunSendsIt();
    void aReportWithoutAJobIdIsNoReport();
};

namespace {

// Each struct with every member set, to a value unlike its default and the others'.
record::Usage fullUsage(std::int64_t base)
{
    return {base + 1, base + 2, base + 3, base + 4};
}

record::JobEnd fullJobEnd()
{
    record::JobEnd end;
    end.job = sched::JobId{101};
    end.exit = {102, 103};
    end.endTime = 104.5;
    end.timeout = true;
    end.oom = true;
    end.nodeReboot = true;
    end.memoryLimitKb = 105;
    end.nodeFail = true;
    end.launchFailed = true;
    end.error = "error106";
    end.usage = fullUsage(110);
    end.limits = "cgroup-v2";
    return end;
}

record::TaskExit fullTaskExit()
{
    return {201, {202, 203}, true};
}

record::StepDone fullStepDone()
{
    return {fullUsage(300), true};
}

record::StepEnd fullStepEnd()
{
    record::StepEnd end;
    end.job = sched::JobId{401};
    end.stepId = 402;
    end.exit = {403, 404};
    end.usage = fullUsage(410);
    end.oom = true;
    end.timeout = true;
    end.cancelled = true;
    return end;
}

record::AllocRelease fullRelease()
{
    record::AllocRelease release;
    release.job = sched::JobId{501};
    release.exit = {502, 503};
    release.lost = true;
    release.stepEnd = fullStepEnd();
    return release;
}

Json throughText(const Json &json)
{
    return Json::parse(json.dump()).value();
}

// `json` without its member `key`.
Json without(const Json &json, const std::string &key)
{
    Json rest = Json::object();
    for (const auto &[other, value] : json.members()) {
        if (other != key) {
            rest.set(other, value);
        }
    }
    return rest;
}

// Each member of `full`'s written form, taken away in turn, changes what is read back: no two
// members share a key, and none is written and not read. `envelope` keys (op, event) are not
// members. Returns how many keys were written.
template <typename T, typename Write, typename Read>
std::size_t keysOwnedByOneMember(const T &full, Write write, Read read)
{
    const Json json = write(full);
    std::set<std::string> keys;
    for (const auto &[key, value] : json.members()) {
        keys.insert(key);
        if (key == "op" || key == "event") {
            continue;
        }
        if (read(without(json, key)) == full) {
            qWarning("key %s is read by no member", key.c_str());
            return 0;
        }
    }
    return keys.size() == json.size() ? keys.size() : 0;
}

} // namespace

void JobEndTest::everyMemberRoundTrips()
{
    const record::Usage usage = fullUsage(0);
    QVERIFY(record::usageFromJson(throughText(record::usageToJson(usage))) == usage);
    const record::JobEnd end = fullJobEnd();
    QVERIFY(record::jobEndFromJson(throughText(record::jobEndToJson(end))) == end);
    const record::TaskExit task = fullTaskExit();
    QVERIFY(record::taskExitFromJson(throughText(record::taskExitToJson(task))) == task);
    const record::StepDone done = fullStepDone();
    QVERIFY(record::stepDoneFromJson(throughText(record::stepDoneToJson(done))) == done);
    const record::StepEnd step = fullStepEnd();
    QVERIFY(record::stepEndFromJson(throughText(record::stepEndToJson(step))) == step);
    const record::AllocRelease release = fullRelease();
    QVERIFY(
        record::allocReleaseFromJson(throughText(record::allocReleaseToJson(release))) == release);
    // Unset, the optional members come back unset.
    const record::JobEnd bare{sched::JobId{7}};
    QVERIFY(record::jobEndFromJson(throughText(record::jobEndToJson(bare))) == bare);
    const record::AllocRelease plain{sched::JobId{8}, {1, 0}};
    QVERIFY(record::allocReleaseFromJson(record::allocReleaseToJson(plain)) == plain);
}

void JobEndTest::everyMemberHasItsOwnKey()
{
    QCOMPARE(keysOwnedByOneMember(fullUsage(0), record::usageToJson, record::usageFromJson),
        std::size_t{4});
    QCOMPARE(keysOwnedByOneMember(fullJobEnd(), record::jobEndToJson,
                 [](const Json &j) { return record::jobEndFromJson(j); }),
        std::size_t{14});
    QCOMPARE(keysOwnedByOneMember(fullTaskExit(), record::taskExitToJson, record::taskExitFromJson),
        std::size_t{5});
    QCOMPARE(keysOwnedByOneMember(fullStepDone(), record::stepDoneToJson, record::stepDoneFromJson),
        std::size_t{3});
    QCOMPARE(keysOwnedByOneMember(fullStepEnd(), record::stepEndToJson, record::stepEndFromJson),
        std::size_t{9});
    QCOMPARE(keysOwnedByOneMember(
                 fullRelease(), record::allocReleaseToJson, record::allocReleaseFromJson),
        std::size_t{6});
}

void JobEndTest::defaultsAreNotWritten()
{
    QCOMPARE(record::jobEndToJson(record::JobEnd{sched::JobId{3}}).dump(),
        std::string(R"({"op":"job_ended","job_id":3,"exit_code":0,"exit_signal":0})"));
    QCOMPARE(record::taskExitToJson({}).dump(),
        std::string(R"({"event":"task_exit","task":0,"exit_code":0,"exit_signal":0})"));
    QCOMPARE(record::stepDoneToJson({}).dump(),
        std::string(R"({"event":"step_done","usage":{"total_cpu_ms":0,"max_rss_kb":0,)"
                    R"("ave_rss_kb":0}})"));
    QCOMPARE(record::allocReleaseToJson(record::AllocRelease{sched::JobId{4}}).dump(),
        std::string(R"({"op":"alloc_release","job_id":4,"exit_code":0,"exit_signal":0})"));
    // A step_end without a step id is no step's (the controller answers "Invalid job id").
    QCOMPARE(record::stepEndFromJson(Json::object()).stepId, std::int64_t{-1});
}

// The report of a batch job killed over its memory, as the node daemon has always written it.
void JobEndTest::aBatchJobsEndIsWrittenAsTheNodeSendsIt()
{
    record::JobEnd end;
    end.job = sched::JobId{12};
    end.exit = {0, 9};
    end.endTime = 1764160000.25;
    end.oom = true;
    end.usage = record::Usage{1500, 204800, 102400, 8};
    end.limits = "rlimit";
    QCOMPARE(record::jobEndToJson(end).dump(),
        std::string(R"({"op":"job_ended","job_id":12,"exit_code":0,"exit_signal":9,)"
                    R"("end_time":1764160000.25,"oom":true,"usage":{"total_cpu_ms":1500,)"
                    R"("max_rss_kb":204800,"ave_rss_kb":102400,"samples":8},"limits":"rlimit"})"));
}

// srun's own allocation ends with its step in one round trip, as srun has always sent it.
void JobEndTest::aStepsEndIsWrittenAsSrunSendsIt()
{
    record::StepEnd step;
    step.job = sched::JobId{12};
    step.stepId = 0;
    step.exit = {0, 125};
    step.usage = record::Usage{10, 20, 15, std::nullopt};
    step.oom = true;
    const record::AllocRelease release{sched::JobId{12}, {0, 125}, false, step};
    QCOMPARE(record::allocReleaseToJson(release).dump(),
        std::string(R"({"op":"alloc_release","job_id":12,"exit_code":0,"exit_signal":125,)"
                    R"("step_end":{"op":"step_end","job_id":12,"step_id":0,"exit_code":0,)"
                    R"("exit_signal":125,"usage":{"total_cpu_ms":10,"max_rss_kb":20,)"
                    R"("ave_rss_kb":15},"oom":true}})"));
}

void JobEndTest::aReportWithoutAJobIdIsNoReport()
{
    QVERIFY(!record::jobEndFromJson(Json::object()));
    QVERIFY(!record::jobEndFromJson(Json::parse(R"({"op":"job_ended","job_id":"12"})").value()));
    QVERIFY(record::jobEndFromJson(Json::parse(R"({"job_id":12})").value()));
}

QTEST_APPLESS_MAIN(JobEndTest)
#include "job_end_test.moc"
