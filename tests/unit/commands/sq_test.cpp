#include "command_harness.h"
#include "mc/cmd/sq.h"

#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::Sq;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual).split(u'\n'),                                          \
        QString::fromStdString(expected).split(u'\n'))

namespace {

constexpr std::int64_t kNow = 1795259373;

Json job(int id, const char *user, const char *state, const char *shortState)
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("name", "simple_job");
    j.set("user", user);
    j.set("account", "def-prof");
    j.set("partition", "cpu");
    j.set("state", state);
    j.set("state_short", shortState);
    j.set("reason", std::string(state) == "PENDING" ? "Priority" : "None");
    j.set("submit_time", kNow - 60);
    j.set("start_time", std::string(state) == "RUNNING" ? kNow - 3 : 0);
    j.set("time_limit", 3600);
    j.set("nodes",
        mc::proto::stringList(std::string(state) == "RUNNING" ? std::vector<std::string>{"cn01"}
                                                              : std::vector<std::string>{}));
    j.set("num_nodes", 1);
    j.set("num_cpus", 4);
    j.set("min_memory", 4096);
    j.set("priority", 100 - id);
    return j;
}

// Answers "jobs" as the controller does for the users asked about, and records the request.
void serveJobs(Harness &h)
{
    h.reply = [](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        reply.set("now", kNow);
        Json jobs = Json::array();
        for (const Json &j : {job(7, "alice", "RUNNING", "R"), job(8, "alice", "PENDING", "PD"),
                 job(9, "bob", "RUNNING", "R")}) {
            bool wanted = request["users"].size() == 0;
            for (const auto &user : request["users"].items()) {
                wanted = wanted || user == j["user"];
            }
            if (wanted) {
                jobs.push(j);
            }
        }
        reply.set("jobs", std::move(jobs));
        return reply;
    };
}

} // namespace

class SqTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void listsOnlyTheCallersJobsInTheAllianceColumns();
    void squeueFormatVariableAndOptionsStillApply();
};

void SqTest::initTestCase()
{
    qputenv("TZ", "UTC");
    tzset();
}

void SqTest::listsOnlyTheCallersJobsInTheAllianceColumns()
{
    Harness h;
    serveJobs(h);
    Result r = h.run<Sq>({});
    COMPARE_TEXT(r.out,
        "     JOBID     USER      ACCOUNT           NAME  ST  TIME_LEFT NODES CPUS TRES_PER_N "
        "MIN_MEM NODELIST (REASON)\n"
        "         8    alice     def-prof     simple_job  PD    1:00:00     1    4        N/A "
        "     4G  (Priority)\n"
        "         7    alice     def-prof     simple_job   R      59:57     1    4        N/A "
        "     4G cn01 (None)\n");
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(h.requests.front()["users"].toStringList(), std::vector<std::string>{"alice"});
}

void SqTest::squeueFormatVariableAndOptionsStillApply()
{
    Harness h("bob");
    serveJobs(h);
    h.ctx.environment.push_back("SQUEUE_FORMAT=%i %u");
    Result r = h.run<Sq>({"-h"});
    COMPARE_TEXT(r.out, "9 bob\n");
    r = h.run<Sq>({"-o", "%T", "-t", "R"});
    COMPARE_TEXT(r.out, "STATE\nRUNNING\n");
    r = h.run<Sq>({"--bogus"});
    QCOMPARE(r.exitCode, 1);
}

QTEST_APPLESS_MAIN(SqTest)
#include "sq_test.moc"
