#include "command_harness.h"
#include "mc/cmd/sbatch.h"
#include "mc/sched/time_format.h"
#include "reference_cluster.h"

#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace mc::cmd::test;
using mc::cmd::Sbatch;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

// hello.sh of 02_sbatch.txt.
const std::string kHello = "#!/bin/bash\n"
                           "#SBATCH --job-name=hello\n"
                           "#SBATCH --output=%x-%j.out\n"
                           "#SBATCH --error=%x-%j.err\n"
                           "#SBATCH --time=00:05:00\n"
                           "#SBATCH --mem=200M\n"
                           "#SBATCH --cpus-per-task=2\n"
                           "#SBATCH --partition=debug\n"
                           "\n"
                           "echo \"Hello from $(hostname)\"\n";

// Accepts every submission as job `id`.
auto acceptingAs(std::int64_t id)
{
    return [id](const Json &) -> std::optional<Json> {
        Json reply = okReply();
        reply.set("job_id", id);
        return reply;
    };
}

bool hasEntry(const Json &list, const std::string &entry)
{
    const auto items = list.toStringList();
    return std::find(items.begin(), items.end(), entry) != items.end();
}

} // namespace

class SbatchTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void scriptWithDirectivesIsSubmittedAsTheyAsk();
    void overQuotaWarnsAndStillSubmits();
    void parsablePrintsOnlyTheJobId();
    void waitReturnsWhenTheJobEndsWithItsExitCode();
    void wrapSubmitsAShScriptNamedWrap();
    void commandLineOverridesDirectives();
    void environmentOverridesDirectivesButNotTheCommandLine();
    void scriptOnStdinIsNamedSbatch();
    void argumentsAfterTheScriptArePassedToIt();
    void quietPrintsNothingAndVerboseIsAccepted();
    void mailOptionsAreStoredInSlurmsWordsLikeSlurmWithoutMailer();
    void holdAndNiceAreSent();
    void commentIsSentFromTheCommandLineOrTheScript();
    void timeZeroMeansUnlimited();
    void exportControlsTheJobEnvironment();
    void scriptWithoutShebangIsRefused();
    void missingScriptCannotBeOpened();
    void badTimeAndMemoryAreRejectedWithExit255();
    void memAndMemPerCpuTogetherAreFatal();
    void unsupportedOptionsAreRefusedNeverIgnored();
    void whatTheClusterHasNoneOfIsRefusedInSlurmsWords();
    void valuesSlurmChecksFirstEndWithItsWordsAndExit255();
    void clustersOptionNamesTheOneCluster();
    void priorityOfAUserIsAcceptedAndIgnoredAsSlurmDoes();
    void unknownOptionsGetGetoptsMessageAndTheHelpHint();
    void strayWordInDirectivesIsAnInvalidDirective();
    void controllerRefusalIsReported();
    void refusalNamesTheUnknownPartitionOrTheNodeLimitFirst();
    void unreachableControllerIsReported();
    void versionHelpAndUsageMatchSlurm();
    void schedulerRequestsAreSentAsTheContractNamesThem();
    void gpuOptionsGoToTheControllerAsGiven();
    void malformedOrOtherGresIsRefusedBySbatch();
    void beginIsResolvedOnTheClusterClock();
    void badBeginTimeMinAndExclusiveAreRejectedWithExit255();
    void testOnlyPrintsWhenAndWhereTheJobWouldStart();
    void testOnlyFailureIsAnAllocationFailure();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string path(const std::string &name) const
    {
        return m_dir->path().toStdString() + "/" + name;
    }
    void write(const std::string &name, const std::string &text) const
    {
        std::ofstream(path(name), std::ios::binary) << text;
    }
    Harness harness() const
    {
        Harness h;
        h.ctx.cwd = m_dir->path().toStdString();
        h.reply = acceptingAs(3);
        return h;
    }
};

void SbatchTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    write("hello.sh", kHello);
}

void SbatchTest::scriptWithDirectivesIsSubmittedAsTheyAsk()
{
    Harness h = harness();
    const Result r = h.run<Sbatch>({"hello.sh"});
    COMPARE_TEXT(r.out, "Submitted batch job 3\n");
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);

    QCOMPARE(h.requests.size(), std::size_t{1});
    COMPARE_TEXT(h.requests[0]["op"].toString(), "submit");
    const Json &job = h.requests[0]["job"];
    COMPARE_TEXT(job["name"].toString(), "hello");
    COMPARE_TEXT(job["user"].toString(), "alice");
    QCOMPARE(job["uid"].toInt(), std::int64_t{1001});
    COMPARE_TEXT(job["partition"].toString(), "debug");
    COMPARE_TEXT(job["account"].toString(), "");
    COMPARE_TEXT(job["work_dir"].toString(), h.ctx.cwd);
    COMPARE_TEXT(job["script"].toString(), kHello);
    COMPARE_TEXT(job["command"].toString(), path("hello.sh"));
    QCOMPARE(job["argv"].size(), std::size_t{0});
    COMPARE_TEXT(job["std_out"].toString(), path("%x-%j.out"));
    COMPARE_TEXT(job["std_err"].toString(), path("%x-%j.err"));
    COMPARE_TEXT(job["std_in"].toString(), "/dev/null");
    QCOMPARE(job["time_limit"].toInt(), std::int64_t{300});
    QCOMPARE(job["mem_per_node"].toInt(), std::int64_t{200});
    QVERIFY(!job.contains("mem_per_cpu"));
    QCOMPARE(job["cpus_per_task"].toInt(), std::int64_t{2});
    QCOMPARE(job["cpus_per_task_given"].toBool(), true);
    QCOMPARE(job["ntasks"].toInt(), std::int64_t{1});
    QCOMPARE(job["ntasks_given"].toBool(), false);
    QCOMPARE(job["nodes"].toInt(), std::int64_t{1});
    COMPARE_TEXT(job["submit_host"].toString(), "vm");
    QCOMPARE(job["hold"].toBool(), false);
    QVERIFY(hasEntry(job["env"], "HOME=/home/alice"));
    QVERIFY(hasEntry(job["env"], "SLURM_SUBMIT_DIR=" + h.ctx.cwd));
    QVERIFY(hasEntry(job["env"], "SLURM_SUBMIT_HOST=vm"));
}

void SbatchTest::overQuotaWarnsAndStillSubmits()
{
    Harness h = harness();
    h.ctx.quotaWarnings = [] {
        return std::vector<std::string>{"You are over your quota on /scratch (user alice)."};
    };
    const Result r = h.run<Sbatch>({"--parsable", "hello.sh"});
    COMPARE_TEXT(r.out, "3\n");
    COMPARE_TEXT(r.err, "sbatch: warning: You are over your quota on /scratch (user alice).\n");
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(h.requests.size(), std::size_t{1});
}

void SbatchTest::parsablePrintsOnlyTheJobId()
{
    Harness h = harness();
    h.reply = acceptingAs(4);
    const Result r = h.run<Sbatch>({"--parsable", "hello.sh"});
    COMPARE_TEXT(r.out, "4\n");
    QCOMPARE(r.exitCode, 0);
}

void SbatchTest::waitReturnsWhenTheJobEndsWithItsExitCode()
{
    Harness h = harness();
    int asked = 0;
    h.reply = [&asked](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        if (request["op"].toString() == "submit") {
            reply.set("job_id", 6);
            return reply;
        }
        // Running at the first look, then FAILED with exit code 3.
        Json job = Json::object();
        job.set("job_id", 6);
        job.set("state", ++asked == 1 ? "RUNNING" : "FAILED");
        job.set("exit_code", asked == 1 ? 0 : 3);
        Json jobs = Json::array();
        jobs.push(std::move(job));
        reply.set("jobs", std::move(jobs));
        return reply;
    };
    const Result r = h.run<Sbatch>({"-W", "hello.sh"});
    COMPARE_TEXT(r.out, "Submitted batch job 6\n");
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(asked, 2);
    COMPARE_TEXT(h.requests[1]["op"].toString(), "jobs");
    QCOMPARE(h.requests[1]["job_ids"].items().front().toInt(), std::int64_t(6));
}

void SbatchTest::wrapSubmitsAShScriptNamedWrap()
{
    Harness h = harness();
    h.reply = acceptingAs(5);
    const Result r = h.run<Sbatch>({"--wrap", "echo wrapped; hostname"});
    COMPARE_TEXT(r.out, "Submitted batch job 5\n");
    const Json &job = h.requests[0]["job"];
    COMPARE_TEXT(job["script"].toString(),
        "#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho wrapped; hostname\n");
    COMPARE_TEXT(job["name"].toString(), "wrap");
    COMPARE_TEXT(job["command"].toString(), "(null)");
    COMPARE_TEXT(job["std_out"].toString(), "");
    const Result withArgs = h.run<Sbatch>({"--wrap", "true", "extra"});
    COMPARE_TEXT(
        withArgs.err, "sbatch: error: Script arguments not permitted with --wrap option\n");
    QCOMPARE(withArgs.exitCode, 1);
}

void SbatchTest::commandLineOverridesDirectives()
{
    Harness h = harness();
    h.reply = acceptingAs(6);
    COMPARE_TEXT(h.run<Sbatch>({"--job-name=override", "-p", "cpu", "hello.sh"}).out,
        "Submitted batch job 6\n");
    COMPARE_TEXT(h.requests[0]["job"]["name"].toString(), "override");
    COMPARE_TEXT(h.requests[0]["job"]["partition"].toString(), "cpu");
}

void SbatchTest::environmentOverridesDirectivesButNotTheCommandLine()
{
    Harness h = harness();
    h.ctx.environment.push_back("SBATCH_PARTITION=cpu");
    h.ctx.environment.push_back("SBATCH_TIMELIMIT=10");
    h.ctx.environment.push_back("SBATCH_ACCOUNT=physics");
    QCOMPARE(h.run<Sbatch>({"hello.sh"}).exitCode, 0);
    COMPARE_TEXT(h.requests[0]["job"]["partition"].toString(), "cpu");
    QCOMPARE(h.requests[0]["job"]["time_limit"].toInt(), std::int64_t{600});
    COMPARE_TEXT(h.requests[0]["job"]["account"].toString(), "physics");
    QCOMPARE(h.run<Sbatch>({"-p", "gpu", "-t", "1", "hello.sh"}).exitCode, 0);
    COMPARE_TEXT(h.requests[1]["job"]["partition"].toString(), "gpu");
    QCOMPARE(h.requests[1]["job"]["time_limit"].toInt(), std::int64_t{60});
}

void SbatchTest::scriptOnStdinIsNamedSbatch()
{
    Harness h = harness();
    h.reply = acceptingAs(8);
    h.ctx.readStdin = [] {
        return std::string("#!/bin/bash\necho from-stdin\n");
    };
    COMPARE_TEXT(h.run<Sbatch>({}).out, "Submitted batch job 8\n");
    COMPARE_TEXT(h.requests[0]["job"]["name"].toString(), "sbatch");
    COMPARE_TEXT(h.requests[0]["job"]["command"].toString(), "(null)");
    COMPARE_TEXT(h.requests[0]["job"]["script"].toString(), "#!/bin/bash\necho from-stdin\n");
}

void SbatchTest::argumentsAfterTheScriptArePassedToIt()
{
    write("args.sh", "#!/bin/bash\necho \"args: $# [$*]\"\n");
    Harness h = harness();
    h.reply = acceptingAs(9);
    COMPARE_TEXT(h.run<Sbatch>({"-o", "args-%j.out", "args.sh", "one", "two three"}).out,
        "Submitted batch job 9\n");
    const Json &job = h.requests[0]["job"];
    QCOMPARE(job["argv"], mc::proto::stringList({"one", "two three"}));
    COMPARE_TEXT(job["name"].toString(), "args.sh");
    COMPARE_TEXT(job["std_out"].toString(), path("args-%j.out"));
}

void SbatchTest::quietPrintsNothingAndVerboseIsAccepted()
{
    Harness h = harness();
    h.reply = acceptingAs(10);
    const Result quiet = h.run<Sbatch>({"-Q", "--wrap", "true"});
    COMPARE_TEXT(quiet.out, "");
    COMPARE_TEXT(quiet.err, "");
    QCOMPARE(quiet.exitCode, 0);
    h.reply = acceptingAs(11);
    COMPARE_TEXT(h.run<Sbatch>({"-v", "--wrap", "true"}).out, "Submitted batch job 11\n");
    const Result both = h.run<Sbatch>({"-v", "-Q", "--wrap", "true"});
    COMPARE_TEXT(both.err, "sbatch: error: don't specify both --verbose (-v) and --quiet (-Q)\n");
    QCOMPARE(both.exitCode, 1);
}

void SbatchTest::mailOptionsAreStoredInSlurmsWordsLikeSlurmWithoutMailer()
{
    Harness h = harness();
    h.reply = acceptingAs(13);
    COMPARE_TEXT(
        h.run<Sbatch>({"--mail-type=end", "--mail-user=alice@example.org", "--wrap", "true"}).out,
        "Submitted batch job 13\n");
    COMPARE_TEXT(h.requests[0]["job"]["mail_type"].toString(), "END");
    COMPARE_TEXT(h.requests[0]["job"]["mail_user"].toString(), "alice@example.org");
    // Slurm 22.05's words and order, whatever the order given; ALL is six of them.
    QCOMPARE(h.run<Sbatch>({"--mail-type=TIME_LIMIT,fail,BEGIN", "--wrap", "true"}).exitCode, 0);
    COMPARE_TEXT(h.requests[1]["job"]["mail_type"].toString(), "BEGIN,FAIL,TIME_LIMIT");
    write("m.sh", "#!/bin/sh\n#SBATCH --mail-type=ALL\ntrue\n");
    QCOMPARE(h.run<Sbatch>({"m.sh"}).exitCode, 0);
    COMPARE_TEXT(h.requests[2]["job"]["mail_type"].toString(),
        "INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT");
    QVERIFY(!h.requests[2]["job"].contains("mail_user")); // the submitting user's
    QCOMPARE(h.run<Sbatch>({"--mail-type=END,NONE", "--wrap", "true"}).exitCode, 0);
    QVERIFY(!h.requests[3]["job"].contains("mail_type")); // NONE anywhere: no mail
    const Result bad = h.run<Sbatch>({"--mail-type=SOMETIMES", "--wrap", "true"});
    COMPARE_TEXT(bad.err, "sbatch: error: Invalid --mail-type specification\n");
    QCOMPARE(bad.exitCode, 255);
    QCOMPARE(h.requests.size(), std::size_t{4}); // the bad one sent nothing
}

void SbatchTest::holdAndNiceAreSent()
{
    Harness h = harness();
    QCOMPARE(h.run<Sbatch>({"-H", "--nice", "-n", "4", "-N", "2", "--wrap", "true"}).exitCode, 0);
    const Json &job = h.requests[0]["job"];
    QCOMPARE(job["hold"].toBool(), true);
    QCOMPARE(job["nice"].toInt(), std::int64_t{100});
    QCOMPARE(job["ntasks"].toInt(), std::int64_t{4});
    QCOMPARE(job["ntasks_given"].toBool(), true);
    QCOMPARE(job["nodes"].toInt(), std::int64_t{2});
}

void SbatchTest::commentIsSentFromTheCommandLineOrTheScript()
{
    Harness h = harness();
    QCOMPARE(h.run<Sbatch>({"--comment=first try", "--wrap", "true"}).exitCode, 0);
    COMPARE_TEXT(h.requests[0]["job"]["comment"].toString(), "first try");
    write("c.sh", "#!/bin/sh\n#SBATCH --comment=\"from the script\"\ntrue\n");
    QCOMPARE(h.run<Sbatch>({"c.sh"}).exitCode, 0);
    COMPARE_TEXT(h.requests[1]["job"]["comment"].toString(), "from the script");
    QCOMPARE(h.run<Sbatch>({"--wrap", "true"}).exitCode, 0);
    QVERIFY(!h.requests[2]["job"].contains("comment")); // none: Slurm's (null)
}

void SbatchTest::timeZeroMeansUnlimited()
{
    Harness h = harness();
    QCOMPARE(h.run<Sbatch>({"-t", "0", "--wrap", "true"}).exitCode, 0);
    QCOMPARE(h.requests[0]["job"]["time_limit"].toInt(), std::int64_t{-1});
}

void SbatchTest::exportControlsTheJobEnvironment()
{
    Harness h = harness();
    h.ctx.environment.push_back("FOO=bar");
    h.ctx.environment.push_back("SLURM_CONF=/etc/slurm/slurm.conf");
    QCOMPARE(h.run<Sbatch>({"--export=NONE", "--wrap", "true"}).exitCode, 0);
    const Json &none = h.requests[0]["job"]["env"];
    QVERIFY(!hasEntry(none, "FOO=bar"));
    QVERIFY(!hasEntry(none, "HOME=/home/alice"));
    QVERIFY(hasEntry(none, "SLURM_CONF=/etc/slurm/slurm.conf"));
    QCOMPARE(h.run<Sbatch>({"--export=ALL,BAZ=1", "--wrap", "true"}).exitCode, 0);
    const Json &all = h.requests[1]["job"]["env"];
    QVERIFY(hasEntry(all, "FOO=bar"));
    QVERIFY(hasEntry(all, "BAZ=1"));
    QCOMPARE(h.run<Sbatch>({"--export=FOO", "--wrap", "true"}).exitCode, 0);
    const Json &some = h.requests[2]["job"]["env"];
    QVERIFY(hasEntry(some, "FOO=bar"));
    QVERIFY(!hasEntry(some, "HOME=/home/alice"));
}

void SbatchTest::scriptWithoutShebangIsRefused()
{
    Harness h = harness();
    h.ctx.readStdin = [] {
        return std::string("echo x\n");
    };
    const Result r = h.run<Sbatch>({});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "sbatch: error: This does not look like a batch script.  The first\n"
        "sbatch: error: line must start with #! followed by the path to an interpreter.\n"
        "sbatch: error: For instance: #!/bin/sh\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
}

void SbatchTest::missingScriptCannotBeOpened()
{
    Harness h = harness();
    const Result r = h.run<Sbatch>({"nosuch.sh"});
    COMPARE_TEXT(r.err, "sbatch: error: Unable to open file nosuch.sh\n");
    QCOMPARE(r.exitCode, 1);
}

void SbatchTest::badTimeAndMemoryAreRejectedWithExit255()
{
    Harness h = harness();
    const Result time = h.run<Sbatch>({"--time=abc", "hello.sh"});
    COMPARE_TEXT(time.err, "sbatch: error: Invalid --time specification\n");
    QCOMPARE(time.exitCode, 255);
    const Result mem = h.run<Sbatch>({"--mem=lots", "hello.sh"});
    COMPARE_TEXT(mem.err, "sbatch: error: Invalid --mem specification\n");
    QCOMPARE(mem.exitCode, 255);
    write("badtime.sh", "#!/bin/sh\n#SBATCH -t 1:2:3:4\ntrue\n");
    const Result directive = h.run<Sbatch>({"badtime.sh"});
    COMPARE_TEXT(directive.err, "sbatch: error: Invalid --time specification\n");
    QCOMPARE(directive.exitCode, 255);
    const Result tasks = h.run<Sbatch>({"-n", "x", "hello.sh"});
    COMPARE_TEXT(tasks.err, "sbatch: error: Invalid numeric value \"x\" for --ntasks.\n");
    QCOMPARE(tasks.exitCode, 1);
    QVERIFY(h.requests.empty());
}

void SbatchTest::memAndMemPerCpuTogetherAreFatal()
{
    Harness h = harness();
    const Result r = h.run<Sbatch>({"--mem-per-cpu=100", "hello.sh"});
    COMPARE_TEXT(
        r.err, "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n");
    QCOMPARE(r.exitCode, 1);
    h.ctx.environment.push_back("SBATCH_MEM_PER_CPU=100");
    QCOMPARE(h.run<Sbatch>({"hello.sh"}).exitCode, 0);
    QCOMPARE(h.requests.back()["job"]["mem_per_node"].toInt(), std::int64_t{200});
    QVERIFY(!h.requests.back()["job"].contains("mem_per_cpu"));
}

void SbatchTest::unsupportedOptionsAreRefusedNeverIgnored()
{
    Harness h = harness();
    const Result cli = h.run<Sbatch>({"--wckey=w1", "hello.sh"});
    COMPARE_TEXT(cli.err, "sbatch: error: --wckey is not supported by minicluster\n");
    QCOMPARE(cli.exitCode, 1);
    const Result shortForm = h.run<Sbatch>({"-S", "1", "hello.sh"});
    COMPARE_TEXT(shortForm.err, "sbatch: error: --core-spec is not supported by minicluster\n");
    write("dep.sh", "#!/bin/sh\n#SBATCH --exclusive=user\ntrue\n");
    const Result directive = h.run<Sbatch>({"dep.sh"});
    COMPARE_TEXT(
        directive.err, "sbatch: error: --exclusive=user is not supported by minicluster\n");
    QCOMPARE(directive.exitCode, 1);
    QVERIFY(h.requests.empty());
}

void SbatchTest::whatTheClusterHasNoneOfIsRefusedInSlurmsWords()
{
    Harness h = harness();
    std::string conf = "ClusterName=refcluster\nNodeName=node01 CPUs=4\n";
    h.ctx.readSlurmConf = [&conf] {
        return std::optional<std::string>(conf);
    };
    const Result reservation = h.run<Sbatch>({"--reservation=r1", "hello.sh"});
    COMPARE_TEXT(reservation.err,
        "sbatch: error: Batch job submission failed: Requested reservation is invalid\n");
    QCOMPARE(reservation.exitCode, 1);
    const Result license = h.run<Sbatch>({"-L", "matlab", "hello.sh"});
    COMPARE_TEXT(
        license.err, "sbatch: error: Batch job submission failed: Invalid license specification\n");
    for (const char *gpu : {"--gres=gpu:1", "--gpus=1", "--gpus-per-node=v100:1"}) {
        const Result r = h.run<Sbatch>({gpu, "hello.sh"});
        COMPARE_TEXT(r.err, "sbatch: error: Invalid generic resource (gres) specification\n");
        QCOMPARE(r.exitCode, 1);
    }
    QVERIFY(h.requests.empty());
    // Licenses= and GresTypes=gpu in slurm.conf: the GPUs go to the controller; licenses
    // minicluster does not count.
    conf += "Licenses=matlab:2\nGresTypes=gpu\n";
    COMPARE_TEXT(h.run<Sbatch>({"-L", "matlab", "hello.sh"}).err,
        "sbatch: error: --licenses is not supported by minicluster\n");
    QCOMPARE(h.run<Sbatch>({"--gres=gpu:1", "hello.sh"}).exitCode, 0);
    QCOMPARE(h.requests.back()["job"]["gpus_per_node"].toInt(), std::int64_t{1});
}

void SbatchTest::valuesSlurmChecksFirstEndWithItsWordsAndExit255()
{
    Harness h = harness();
    h.ctx.now = 1700000000;
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--open-mode=bogus"}, "sbatch: error: Invalid --open-mode specification\n"},
        {{"--signal=BOGUS"}, "sbatch: error: Invalid --signal specification\n"},
        {{"--signal=USR1@99999"}, "sbatch: error: Invalid --signal specification\n"},
        {{"-m", "bogus"}, "sbatch: error: Invalid --distribution specification\n"},
        {{"-m", "block:block:block:block"},
            "sbatch: error: Invalid --distribution specification\n"},
        {{"-m", "plane"},
            "sbatch: error: Invalid plane size or size not specified\n"
            "sbatch: error: Invalid --distribution specification\n"},
        {{"--deadline=bogus"},
            "Invalid time specification (pos=0): bogus\n"
            "sbatch: error: Invalid --deadline specification\n"},
    };
    for (const auto &[args, err] : cases) {
        std::vector<std::string> words = args;
        words.push_back("hello.sh");
        const Result r = h.run<Sbatch>(words);
        COMPARE_TEXT(r.err, err);
        QCOMPARE(r.exitCode, 255);
    }
    // A valid value of an option minicluster does not implement: then refused as such.
    COMPARE_TEXT(h.run<Sbatch>({"-m", "cyclic:fcyclic,Pack", "hello.sh"}).err,
        "sbatch: error: --distribution is not supported by minicluster\n");
    COMPARE_TEXT(h.run<Sbatch>({"--deadline=now+1hour", "hello.sh"}).err,
        "sbatch: error: --deadline is not supported by minicluster\n");
    const Result past = h.run<Sbatch>({"--deadline=2020-01-01", "hello.sh"});
    COMPARE_TEXT(past.err,
        "sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or "
        "exceeds some limit)\n");
    QCOMPARE(past.exitCode, 1);
    QVERIFY(std::none_of(h.requests.begin(), h.requests.end(),
        [](const Json &request) { return request["op"].toString() == "submit"; }));
    // -t -5: five days below zero in minutes (rounded up towards zero), read unsigned.
    QCOMPARE(h.run<Sbatch>({"-t", "-5", "hello.sh"}).exitCode, 0);
    QCOMPARE(h.requests.back()["job"]["time_limit"].toInt(),
        ((std::int64_t{1} << 32) - 5 * 1440 + 1) * 60);
}

void SbatchTest::clustersOptionNamesTheOneCluster()
{
    Harness h = harness();
    h.reply = withClusterName(acceptingAs(3));
    const Result named = h.run<Sbatch>({"-M", "refcluster", "hello.sh"});
    COMPARE_TEXT(named.out, "Submitted batch job 3 on cluster refcluster\n");
    QCOMPARE(named.exitCode, 0);
    const Result parsable = h.run<Sbatch>({"--parsable", "--clusters=REFCLUSTER", "hello.sh"});
    COMPARE_TEXT(parsable.out, "3;refcluster\n");
    const Result oneUnknown = h.run<Sbatch>({"-M", "foo,refcluster", "hello.sh"});
    COMPARE_TEXT(oneUnknown.err, "sbatch: error: No cluster 'foo' known by database.\n");
    COMPARE_TEXT(oneUnknown.out, "Submitted batch job 3 on cluster refcluster\n");
    const Result none = h.run<Sbatch>({"-M", "foo,bar", "hello.sh"});
    COMPARE_TEXT(none.err,
        "sbatch: error: No cluster 'foo' known by database.\n"
        "sbatch: error: No cluster 'bar' known by database.\n"
        "sbatch: error: 'foo,bar' can't be reached now, or it is an invalid entry for --cluster.  "
        "Use 'sacctmgr list clusters' to see available clusters.\n");
    QCOMPARE(none.exitCode, 1);
    QVERIFY(none.out.empty());
}

void SbatchTest::priorityOfAUserIsAcceptedAndIgnoredAsSlurmDoes()
{
    Harness h = harness();
    const Result user = h.run<Sbatch>({"--priority=100", "hello.sh"});
    QCOMPARE(user.exitCode, 0);
    QVERIFY(!h.requests.back()["job"].contains("priority"));
    Harness root("root");
    root.ctx.cwd = h.ctx.cwd;
    root.reply = acceptingAs(4);
    COMPARE_TEXT(root.run<Sbatch>({"--priority=100", "hello.sh"}).err,
        "sbatch: error: --priority is not supported by minicluster\n");
}

void SbatchTest::unknownOptionsGetGetoptsMessageAndTheHelpHint()
{
    Harness h = harness();
    const Result longForm = h.run<Sbatch>({"--foo", "hello.sh"});
    COMPARE_TEXT(longForm.err,
        "sbatch: unrecognized option '--foo'\nTry \"sbatch --help\" for more information\n");
    QCOMPARE(longForm.exitCode, 255);
    const Result shortForm = h.run<Sbatch>({"-Z", "hello.sh"});
    COMPARE_TEXT(shortForm.err,
        "sbatch: invalid option -- 'Z'\nTry \"sbatch --help\" for more information\n");
    write("foo.sh", "#!/bin/sh\n#SBATCH --foo\ntrue\n");
    const Result directive = h.run<Sbatch>({"foo.sh"});
    COMPARE_TEXT(directive.err,
        "sbatch: unrecognized option '--foo'\nTry \"sbatch --help\" for more information\n");
    QCOMPARE(directive.exitCode, 255);
}

void SbatchTest::strayWordInDirectivesIsAnInvalidDirective()
{
    write("stray.sh", "#!/bin/sh\n#SBATCH -t 5 later\ntrue\n");
    Harness h = harness();
    const Result r = h.run<Sbatch>({"stray.sh"});
    COMPARE_TEXT(r.err, "sbatch: error: Invalid directive found in batch script: later\n");
    QCOMPARE(r.exitCode, 255);
}

void SbatchTest::controllerRefusalIsReported()
{
    Harness h = harness();
    h.reply = [](const Json &) -> std::optional<Json> {
        return errorReply("Invalid partition name specified");
    };
    const Result r = h.run<Sbatch>({"-p", "nosuch", "hello.sh"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "sbatch: error: invalid partition specified: nosuch\n"
        "sbatch: error: Batch job submission failed: Invalid partition name specified\n");
    QCOMPARE(r.exitCode, 1);
}

// Real Slurm 22.05 (tests/differential, sbatch-errors): the controller's cause comes first.
void SbatchTest::refusalNamesTheUnknownPartitionOrTheNodeLimitFirst()
{
    Harness h = harness();
    serveCluster(h, clusterReply());
    auto cluster = h.reply;
    h.reply = [cluster](const Json &request) -> std::optional<Json> {
        if (request["op"].toString() == "submit") {
            const std::string partition = request["job"]["partition"].toString();
            return errorReply(partition.find("nosuch") != std::string::npos
                    ? "Invalid partition name specified"
                    : "Requested node configuration is not available");
        }
        return cluster(request);
    };
    Result r = h.run<Sbatch>({"-p", "debug,nosuch", "--wrap=true"});
    COMPARE_TEXT(r.err,
        "sbatch: error: invalid partition specified: nosuch\n"
        "sbatch: error: Batch job submission failed: Invalid partition name specified\n");
    const std::string notAvailable
        = "sbatch: error: Batch job submission failed: Requested node configuration is not "
          "available\n";
    r = h.run<Sbatch>({"--mem=999999", "--wrap=true"});
    COMPARE_TEXT(
        r.err, "sbatch: error: Memory specification can not be satisfied\n" + notAvailable);
    r = h.run<Sbatch>({"--mem-per-cpu=5000", "--wrap=true"});
    COMPARE_TEXT(
        r.err, "sbatch: error: Memory specification can not be satisfied\n" + notAvailable);
    r = h.run<Sbatch>({"-c", "5", "--wrap=true"});
    COMPARE_TEXT(r.err, "sbatch: error: CPU count per node can not be satisfied\n" + notAvailable);
    r = h.run<Sbatch>({"--ntasks-per-node=5", "--wrap=true"});
    COMPARE_TEXT(r.err, "sbatch: error: CPU count per node can not be satisfied\n" + notAvailable);
    r = h.run<Sbatch>({"-w", "node04", "--wrap=true"}); // Slurm names no cause for a node list
    COMPARE_TEXT(r.err, notAvailable);
    QCOMPARE(r.exitCode, 1);
    r = h.run<Sbatch>({"-N", "0", "--wrap=true"});
    COMPARE_TEXT(
        r.err, "sbatch: error: Batch job submission failed: Node count specification invalid\n");
    QCOMPARE(r.exitCode, 1);
}

void SbatchTest::unreachableControllerIsReported()
{
    Harness h = harness();
    h.reply = [](const Json &) {
        return std::optional<Json>();
    };
    const Result r = h.run<Sbatch>({"hello.sh"});
    COMPARE_TEXT(r.err,
        "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect "
        "failure)\n");
    QCOMPARE(r.exitCode, 1);
}

void SbatchTest::versionHelpAndUsageMatchSlurm()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sbatch>({"--version"}).out, "slurm-wlm 22.05.8\n");
    const Result usage = h.run<Sbatch>({"--usage"});
    QVERIFY(usage.out.rfind("Usage: sbatch [-N nnodes] [-n ntasks]\n", 0) == 0);
    QCOMPARE(std::count(usage.out.begin(), usage.out.end(), '\n'), 25);
    const Result help = h.run<Sbatch>({"--help", "--foo"});
    QVERIFY(help.out.rfind(
                "Usage: sbatch [OPTIONS(0)...] [ : [OPTIONS(N)...]] script(0) [args(0)...]\n\n"
                "Parallel run options:\n"
                "  -a, --array=indexes         job array index values\n",
                0)
        == 0);
    QCOMPARE(help.exitCode, 0);
    QVERIFY(h.requests.empty());
}

void SbatchTest::schedulerRequestsAreSentAsTheContractNamesThem()
{
    Harness h = harness();
    write("arr.sh",
        "#!/bin/bash\n#SBATCH --array=1-10%2\n#SBATCH -d afterok:12:13?singleton\ntrue\n");
    const Result r = h.run<Sbatch>({"-C", "cpu&avx", "--exclusive", "-w", "cn[01-02]", "-x", "cn04",
        "--ntasks-per-node=2", "--time-min=10", "--gres=gpu:2", "--hold", "arr.sh"});
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
    const Json &job = h.requests.back()["job"];
    COMPARE_TEXT(job["array"].toString(), "1-10%2");
    COMPARE_TEXT(job["dependency"].toString(), "afterok:12:13?singleton");
    COMPARE_TEXT(job["constraint"].toString(), "cpu&avx");
    QCOMPARE(job["exclusive"].toBool(), true);
    QCOMPARE(job["node_list"].toStringList(), (std::vector<std::string>{"cn01", "cn02"}));
    QCOMPARE(job["exclude"].toStringList(), (std::vector<std::string>{"cn04"}));
    QCOMPARE(job["ntasks_per_node"].toInt(), std::int64_t{2});
    QCOMPARE(job["time_min"].toInt(), std::int64_t{600});
    QCOMPARE(job["gpus_per_node"].toInt(), std::int64_t{2});
    QCOMPARE(job["hold"].toBool(), true);
    QVERIFY(!job.contains("test_only"));
    QVERIFY(!job.contains("begin"));
}

void SbatchTest::gpuOptionsGoToTheControllerAsGiven()
{
    Harness h = harness();
    QCOMPARE(h.run<Sbatch>({"-N", "2", "--gpus=3", "hello.sh"}).exitCode, 0);
    const Json spread = h.requests.back()["job"];
    QCOMPARE(spread["gpus_per_job"].toInt(), std::int64_t{3}); // the controller spreads them
    QVERIFY(!spread.contains("gpus_per_node"));
    QCOMPARE(h.run<Sbatch>({"--gpus-per-node=a100:1", "hello.sh"}).exitCode, 0);
    const Json perNode = h.requests.back()["job"];
    QCOMPARE(perNode["gpus_per_node"].toInt(), std::int64_t{1});
    QCOMPARE(perNode["gpus_per_node_given"].toBool(), true);
    COMPARE_TEXT(perNode["gpu_type"].toString(), "a100");
    QCOMPARE(h.run<Sbatch>({"--gres=gpu", "hello.sh"}).exitCode, 0);
    QCOMPARE(h.requests.back()["job"]["gpus_per_node"].toInt(), std::int64_t{1});
    QVERIFY(!h.requests.back()["job"].contains("gpus_per_node_given"));
    QCOMPARE(h.run<Sbatch>({"-n", "2", "--gpus-per-task=1", "--cpus-per-gpu=3", "--mem-per-gpu=2G",
                               "--wrap=true"})
                 .exitCode,
        0);
    const Json perTask = h.requests.back()["job"];
    QCOMPARE(perTask["gpus_per_task"].toInt(), std::int64_t{1});
    QCOMPARE(perTask["cpus_per_gpu"].toInt(), std::int64_t{3});
    QCOMPARE(perTask["mem_per_gpu"].toInt(), std::int64_t{2048});
}

void SbatchTest::malformedOrOtherGresIsRefusedBySbatch()
{
    Harness h = harness();
    for (const char *option : {"--gres=mps:10", "--gres=gpu:a100:x", "--gres=gpu:a100:1:2",
             "--gpus=x", "--gpus=a100:x"}) {
        const Result r = h.run<Sbatch>({option, "hello.sh"});
        COMPARE_TEXT(r.err, "sbatch: error: Invalid generic resource (gres) specification\n");
        QCOMPARE(r.exitCode, 1);
    }
    QVERIFY(h.requests.empty());
    const Result zero = h.run<Sbatch>({"--cpus-per-gpu=0", "hello.sh"});
    COMPARE_TEXT(zero.err, "sbatch: error: Invalid numeric value \"0\" for --cpus-per-gpu.\n");
    QCOMPARE(zero.exitCode, 1);
    const Result both = h.run<Sbatch>({"--mem-per-gpu=1G", "--mem=1G", "hello.sh"});
    COMPARE_TEXT(both.err,
        "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n");
    QCOMPARE(both.exitCode, 1);
    // A type the cluster lacks is the controller's to refuse.
    QCOMPARE(h.run<Sbatch>({"--gres=gpu:v100:1", "hello.sh"}).exitCode, 0);
    COMPARE_TEXT(h.requests.back()["job"]["gpu_type"].toString(), "v100");
}

void SbatchTest::beginIsResolvedOnTheClusterClock()
{
    Harness h = harness();
    h.ctx.now = 1000;
    h.reply = [](const Json &) -> std::optional<Json> {
        Json reply = okReply();
        reply.set("now", std::int64_t{50000}); // an accelerated cluster clock
        reply.set("job_id", std::int64_t{3});
        return reply; // ping and submit alike
    };
    QCOMPARE(h.run<Sbatch>({"--begin=now+1hour", "hello.sh"}).exitCode, 0);
    COMPARE_TEXT(h.requests.front()["op"].toString(), "ping");
    QCOMPARE(h.requests.back()["job"]["begin"].toInt(), std::int64_t{50000 + 3600});
}

void SbatchTest::badBeginTimeMinAndExclusiveAreRejectedWithExit255()
{
    Harness h = harness();
    const Result begin = h.run<Sbatch>({"--begin=someday", "hello.sh"});
    COMPARE_TEXT(begin.err,
        "Invalid time specification (pos=0): someday\nsbatch: error: Invalid --begin "
        "specification\n");
    QCOMPARE(begin.exitCode, 255);
    const Result timeMin = h.run<Sbatch>({"--time-min=abc", "hello.sh"});
    COMPARE_TEXT(timeMin.err, "sbatch: error: Invalid --time-min specification\n");
    QCOMPARE(timeMin.exitCode, 255);
    const Result exclusive = h.run<Sbatch>({"--exclusive=all", "hello.sh"});
    COMPARE_TEXT(exclusive.err, "sbatch: error: Invalid --exclusive specification\n");
    QCOMPARE(exclusive.exitCode, 255);
    const Result perNode = h.run<Sbatch>({"--ntasks-per-node=0", "hello.sh"});
    COMPARE_TEXT(
        perNode.err, "sbatch: error: Invalid numeric value \"0\" for --ntasks-per-node.\n");
    QCOMPARE(perNode.exitCode, 1);
    QVERIFY(h.requests.empty());
}

// 02_sbatch.txt: "sbatch --test-only hello.sh".
void SbatchTest::testOnlyPrintsWhenAndWhereTheJobWouldStart()
{
    Harness h = harness();
    h.reply = [](const Json &) -> std::optional<Json> {
        Json reply = okReply();
        reply.set("job_id", std::int64_t{7});
        reply.set("planned_start", mc::sched::parseTimeSpec("2026-11-21T11:09:25", 0).value());
        reply.set("nodes", mc::proto::stringList({"node01"}));
        reply.set("partition", "debug");
        reply.set("num_cpus", std::int64_t{2});
        return reply;
    };
    const Result r = h.run<Sbatch>({"--test-only", "hello.sh"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "sbatch: Job 7 to start at 2026-11-21T11:09:25 using 2 processors on nodes node01 in "
        "partition debug\n");
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(h.requests.back()["job"]["test_only"].toBool(), true);
}

void SbatchTest::testOnlyFailureIsAnAllocationFailure()
{
    Harness h = harness();
    h.reply = [](const Json &) -> std::optional<Json> {
        Json reply = Json::object();
        reply.set("ok", false);
        reply.set("error", "Requested node configuration is not available");
        return reply;
    };
    const Result r = h.run<Sbatch>({"--test-only", "hello.sh"});
    COMPARE_TEXT(r.err, "allocation failure: Requested node configuration is not available\n");
    QCOMPARE(r.exitCode, 1);
}

QTEST_APPLESS_MAIN(SbatchTest)
#include "sbatch_test.moc"
