// The update codec carries every change `scontrol update job` can ask for: each member set to a
// value of its own comes back, each has its own key, and keys the controller does not know are
// kept by name for it to refuse.
#include "mc/record/job_update.h"

#include <QtTest>

#include <set>

// A member added to JobUpdate changes its size: then fill it in fullUpdate() below, write and
// read it in job_update.cpp, and write the new size here. Sizes are those of x86-64 libstdc++,
// where CI builds.
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
static_assert(sizeof(mc::record::JobUpdate) == 296, "a JobUpdate member is new: see above");
#endif

using namespace mc;
using proto::Json;

class JobUpdateTest : public QObject {
    Q_OBJECT

private slots:
    void everyMemberRoundTrips();
    void everyMemberHasItsOwnKey();
    void unsetMembersAreNotWritten();
    void startTimeReadsAsBeginAndUnknownKeysAreKept();
};

namespace {

// An update whose every member is set, to a value unlike its default and the others'.
record::JobUpdate fullUpdate()
{
    record::JobUpdate u;
    u.timeLimit = 101;
    u.timeMin = 102;
    u.nice = -103;
    u.partition = "partition104";
    u.name = "name105";
    u.numNodes = 106;
    u.dependency = "afterok:107";
    u.begin = 108;
    u.arrayTaskThrottle = 109;
    u.constraint = "feature110";
    u.comment = "comment111";
    return u;
}

record::JobUpdate throughText(const record::JobUpdate &u)
{
    return record::updateFromJson(Json::parse(record::updateToJson(u).dump()).value());
}

} // namespace

void JobUpdateTest::everyMemberRoundTrips()
{
    const record::JobUpdate full = fullUpdate();
    QVERIFY(throughText(full) == full);
    QVERIFY(!full.empty());
    QVERIFY(record::JobUpdate{}.empty());
    // "" is a change too: Dependency= clears the job's dependencies.
    record::JobUpdate clear;
    clear.dependency = "";
    QVERIFY(!clear.empty());
    QVERIFY(throughText(clear) == clear);
    QCOMPARE(record::updateToJson(clear).dump(), std::string(R"({"dependency":""})"));
}

// Each member, taken away in turn, takes one key away (and only one) from the written object.
void JobUpdateTest::everyMemberHasItsOwnKey()
{
    const Json full = record::updateToJson(fullUpdate());
    std::set<std::string> keys;
    for (const auto &[key, value] : full.members()) {
        keys.insert(key);
        Json without = Json::object();
        for (const auto &[other, v] : full.members()) {
            if (other != key) {
                without.set(other, v);
            }
        }
        QVERIFY2(!(record::updateFromJson(without) == fullUpdate()), key.c_str());
        QVERIFY2(record::updateFromJson(without).unknown.empty(), key.c_str());
    }
    QCOMPARE(keys.size(), full.size());
    QCOMPARE(full.size(), std::size_t{11});
}

void JobUpdateTest::unsetMembersAreNotWritten()
{
    QCOMPARE(record::updateToJson(record::JobUpdate{}).dump(), std::string("{}"));
    record::JobUpdate u;
    u.timeLimit = sched::kInfinite;
    u.nice = 0;
    QCOMPARE(record::updateToJson(u).dump(),
        R"({"time_limit":)" + std::to_string(sched::kInfinite) + R"(,"nice":0})");
}

void JobUpdateTest::startTimeReadsAsBeginAndUnknownKeysAreKept()
{
    const Json fields = Json::parse(R"({"start_time":500,"licenses":"x","qos":"high"})").value();
    const record::JobUpdate u = record::updateFromJson(fields);
    QCOMPARE(u.begin, std::optional<sched::Seconds>(500));
    QCOMPARE(u.unknown, (std::vector<std::string>{"licenses", "qos"}));
    QVERIFY(!u.empty());
    // Unknown keys are the controller's to refuse, never written on.
    QCOMPARE(record::updateToJson(u).dump(), std::string(R"({"begin":500})"));
    // A time limit that is not a number is UNLIMITED, as the controller always read it.
    QCOMPARE(record::updateFromJson(Json::parse(R"({"time_limit":null})").value()).timeLimit,
        std::optional<sched::Seconds>(sched::kInfinite));
}

QTEST_APPLESS_MAIN(JobUpdateTest)
#include "job_update_test.moc"
