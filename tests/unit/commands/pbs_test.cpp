// qsub, qstat and qdel in process against a fake controller: OpenPBS's meanings of the options
// and its words.
#include "command_harness.h"
#include "mc/cmd/pbs.h"

#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::Qdel;
using mc::cmd::Qstat;
using mc::cmd::Qsub;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

Json job(std::int64_t id, const std::string &state, const std::string &hold = "")
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("name", "a_rather_long_job_name");
    j.set("user", "alice");
    j.set("state", state);
    j.set("hold", hold);
    j.set("partition", "workq");
    j.set("reason", "None");
    j.set("num_cpus", std::int64_t{2});
    j.set("num_nodes", std::int64_t{1});
    j.set("time_limit", std::int64_t{3600});
    j.set("nodes", Json::array());
    return j;
}

auto controller(std::vector<Json> jobs)
{
    return [jobs](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        const std::string op = request["op"].toString();
        if (op == "ping") {
            reply.set("cluster_name", "teach");
        } else if (op == "submit") {
            reply.set("job_id", 21);
        } else if (op == "jobs") {
            Json list = Json::array();
            for (const Json &j : jobs) {
                list.push(j);
            }
            reply.set("jobs", std::move(list));
        } else if (op == "cancel") {
            Json results = Json::array();
            Json r = Json::object();
            r.set("job_id", 99);
            r.set("error", "Invalid job id specified");
            results.push(std::move(r));
            reply.set("results", std::move(results));
        }
        return reply;
    };
}

const Json &submitted(const Harness &h)
{
    for (const auto &request : h.requests) {
        if (request["op"].toString() == "submit") {
            return request["job"];
        }
    }
    static const Json none = Json::object();
    return none;
}

} // namespace

class PbsTest : public QObject {
    Q_OBJECT

private slots:
    void qsubReadsPbsLinesWithPbsMeanings();
    void qsubDefaultFilesAreNameDotOAndDotE();
    void qsubRefusesWhatMiniclusterLacks();
    void qstatListsJobsInOpenPbsColumns();
    void qdelNamesUnknownJobs();
    void qstatFullNamesTheFilesWithTheirPatternsExpanded();
};

void PbsTest::qsubReadsPbsLinesWithPbsMeanings()
{
    Harness h;
    h.reply = controller({});
    h.ctx.readStdin = [] {
        return std::string(
            "#PBS -N sim\n#PBS -l select=2:ncpus=4:mpiprocs=2:mem=2gb\n"
            "#PBS -l walltime=10:00\n#PBS -q workq\n#PBS -W depend=afterok:12.teach\n"
            "mpirun ./sim\n");
    };
    const Result r = h.run<Qsub>({"-l", "walltime=90"});
    COMPARE_TEXT(r.err, "");
    COMPARE_TEXT(r.out, "21.teach\n");
    const Json &spec = submitted(h);
    COMPARE_TEXT(spec["name"].toString(), "sim");
    QCOMPARE(spec["nodes"].toInt(), std::int64_t{2});
    QCOMPARE(spec["ntasks_per_node"].toInt(), std::int64_t{2});
    QCOMPARE(spec["cpus_per_task"].toInt(), std::int64_t{2});
    QCOMPARE(spec["mem_per_node"].toInt(), std::int64_t{2048});
    QCOMPARE(spec["time_limit"].toInt(), std::int64_t{120}); // 90 s, rounded up to minutes
    COMPARE_TEXT(spec["partition"].toString(), "workq");
    COMPARE_TEXT(spec["dependency"].toString(), "afterok:12");
    QVERIFY(spec["script"].toString().rfind("#!/bin/bash\n", 0) == 0);
    const auto env = spec["env"].toStringList();
    QVERIFY(std::find(env.begin(), env.end(), "MINICLUSTER_BATCH_SYSTEM=pbs") != env.end());
}

void PbsTest::qsubDefaultFilesAreNameDotOAndDotE()
{
    Harness h;
    h.reply = controller({});
    h.ctx.readStdin = [] {
        return std::string("#PBS -l mem=1048576\nhostname\n");
    };
    QCOMPARE(h.run<Qsub>({}).exitCode, 0);
    COMPARE_TEXT(submitted(h)["std_out"].toString(), "/home/alice/STDIN.o%j");
    COMPARE_TEXT(submitted(h)["std_err"].toString(), "/home/alice/STDIN.e%j");
    QCOMPARE(submitted(h)["mem_per_node"].toInt(), std::int64_t{1}); // bytes without a unit
}

void PbsTest::qsubRefusesWhatMiniclusterLacks()
{
    Harness h;
    h.reply = controller({});
    h.ctx.readStdin = [] {
        return std::string("true\n");
    };
    Result r = h.run<Qsub>({"-I"});
    COMPARE_TEXT(r.err, "qsub: -I is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Qsub>({"-l", "software=matlab"});
    COMPARE_TEXT(r.err, "qsub: -l software is not supported by minicluster\n");
    h.reply = [](const Json &request) -> std::optional<Json> {
        return request["op"].toString() == "submit" ? errorReply("Invalid partition name specified")
                                                    : okReply();
    };
    r = h.run<Qsub>({"-q", "nosuch"});
    COMPARE_TEXT(r.err, "qsub: Unknown queue\n");
}

void PbsTest::qstatListsJobsInOpenPbsColumns()
{
    Harness h;
    h.reply = controller({job(21, "PENDING"), job(22, "PENDING", "user"), job(23, "COMPLETED")});
    const Result r = h.run<Qstat>({});
    COMPARE_TEXT(r.out,
        "Job id            Name             User              Time Use S Queue\n"
        "----------------  ---------------- ----------------  -------- - -----\n"
        "21.teach          a_rather_long_j  alice                    0 Q workq           \n"
        "22.teach          a_rather_long_j  alice                    0 H workq           \n");
    const Result alt = h.run<Qstat>({"-a"});
    QVERIFY(alt.out.find("\n21.teach        alice    workq    a_rather_l     --   1   2     --"
                         " 01:00 Q    --\n")
        != std::string::npos);
}

void PbsTest::qdelNamesUnknownJobs()
{
    Harness h;
    h.reply = controller({});
    const Result r = h.run<Qdel>({"99.teach"});
    COMPARE_TEXT(r.err, "qdel: Unknown Job Id 99.teach\n");
    QCOMPARE(r.exitCode, 153);
}

void PbsTest::qstatFullNamesTheFilesWithTheirPatternsExpanded()
{
    Json j = job(21, "RUNNING");
    j.set("std_out", "/home/alice/%x.o%j");
    j.set("std_err", "");
    j.set("submit_host", "login1");
    Harness h;
    h.reply = controller({j});
    const Result r = h.run<Qstat>({"-f", "21"});
    QVERIFY2(r.out.rfind("Job Id: 21.teach\n    Job_Name = a_rather_long_job_name\n", 0) == 0,
        r.out.c_str());
    QVERIFY(r.out.find("    Output_Path = login1:/home/alice/a_rather_long_job_name.o21\n")
        != std::string::npos);
    QVERIFY(r.out.find("    Error_Path = login1:/home/alice/a_rather_long_job_name.o21\n")
        != std::string::npos);
    QVERIFY(r.out.find("    Resource_List.walltime = 01:00:00\n") != std::string::npos);
}

QTEST_APPLESS_MAIN(PbsTest)
#include "pbs_test.moc"
