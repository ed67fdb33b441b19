// srun's and salloc's command lines read in process (their input variables, options and
// operands), before anything forks or contacts the controller: every error in Slurm 22.05's
// words and exit codes, as the reference cluster's srun and salloc print them (a value
// slurm_opt.c refuses exits 255; parse_int() and the --hint and --cpu-bind checks exit 1).
#include "command_harness.h"
#include "mc/record/job_codec.h"
#include "shared/text.h"
#include "srun/srun_common.h"

#include <QtTest>

using namespace mc::cmd::test;
namespace ia = mc::cmd::interactive;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

ia::CommandLine srun(std::vector<std::string> args, std::vector<std::string> env = {})
{
    Harness h;
    h.ctx.args = std::move(args);
    h.ctx.environment.insert(h.ctx.environment.end(), env.begin(), env.end());
    return ia::parseSrunCommandLine(h.ctx);
}

ia::CommandLine salloc(std::vector<std::string> args, std::vector<std::string> env = {})
{
    Harness h;
    h.ctx.args = std::move(args);
    h.ctx.environment.insert(h.ctx.environment.end(), env.begin(), env.end());
    return ia::parseSallocCommandLine(h.ctx);
}

// The run ends with `err` on stderr, nothing on stdout, and `exitCode`.
void expectError(const ia::CommandLine &line, const std::string &err, int exitCode)
{
    QVERIFY(line.end.has_value());
    COMPARE_TEXT(line.end->err, err);
    COMPARE_TEXT(line.end->out, "");
    QCOMPARE(line.end->exitCode, exitCode);
}

} // namespace

class SrunSallocOptionsTest : public QObject {
    Q_OBJECT

private slots:
    void optionsAndTheCommandAreRead()
    {
        auto line = srun({"-N2", "-n", "4", "-l", "--mpi=none", "-t", "5", "hostname", "-s"});
        QVERIFY(!line.end);
        QCOMPARE(line.opts.nodes, std::optional<int>(2));
        QCOMPARE(line.opts.ntasks, std::optional<int>(4));
        QVERIFY(line.opts.label);
        QCOMPARE(line.opts.timeLimit, std::optional<mc::sched::Seconds>(300));
        // The first operand ends the options: "-s" is the command's.
        QCOMPARE(line.command, (std::vector<std::string>{"hostname", "-s"}));
    }

    void preserveEnvIsSrunsAndNotSallocs()
    {
        // salloc's interactive step is started with it (Slurm's InteractiveStepOptions).
        QVERIFY(srun({"-E", "bash"}).opts.preserveEnv);
        QVERIFY(srun({"--preserve-env", "bash"}).opts.preserveEnv);
        QVERIFY(!srun({"bash"}).opts.preserveEnv);
        expectError(salloc({"--preserve-env"}),
            "salloc: unrecognized option '--preserve-env'\nTry \"salloc --help\" for more "
            "information\n",
            255);
    }

    void theCommandLineWinsOverInputVariables()
    {
        auto line = salloc({"-p", "gpu"}, {"SALLOC_PARTITION=cpu", "SALLOC_TIMELIMIT=10"});
        QVERIFY(!line.end);
        QCOMPARE(line.opts.partition, std::optional<std::string>("gpu"));
        QCOMPARE(line.opts.timeLimit, std::optional<mc::sched::Seconds>(600));
        QVERIFY(line.command.empty()); // salloc runs the user's shell
    }

    void unknownOptionsAreGlibcsWordsAndExit255()
    {
        expectError(srun({"--bogus", "true"}),
            "srun: unrecognized option '--bogus'\nTry \"srun --help\" for more information\n", 255);
        expectError(salloc({"--bogus"}),
            "salloc: unrecognized option '--bogus'\nTry \"salloc --help\" for more information\n",
            255);
        expectError(srun({"--job=5", "true"}),
            "srun: option '--job=5' is ambiguous; possibilities: '--jobid' '--job-name'\n"
            "Try \"srun --help\" for more information\n",
            255);
    }

    void srunNeedsACommand()
    {
        expectError(srun({"-n2"}), "srun: fatal: No command given to execute.\n", 1);
    }

    void badCountsAreParseIntsWordsAndExitOne()
    {
        expectError(srun({"-n", "abc", "true"}),
            "srun: error: Invalid numeric value \"abc\" for --ntasks.\n", 1);
        expectError(
            salloc({"-n", "0"}), "salloc: error: Invalid numeric value \"0\" for --ntasks.\n", 1);
        expectError(srun({"-c", "0", "true"}),
            "srun: error: Invalid numeric value \"0\" for --cpus-per-task.\n", 1);
        expectError(srun({"--ntasks-per-node=0", "true"}),
            "srun: error: Invalid numeric value \"0\" for --ntasks-per-node.\n", 1);
        expectError(srun({"--jobid=abc", "true"}),
            "srun: error: Invalid numeric value \"abc\" for --jobid.\n", 1);
        expectError(
            salloc({"-I0x"}), "salloc: error: Invalid numeric value \"0x\" for immediate.\n", 1);
        expectError(srun({"--wait=x", "true"}),
            "srun: error: Invalid numeric value \"x\" for --wait.\n", 1);
    }

    void badNodeCountsAreSlurmsWords()
    {
        expectError(
            srun({"-N", "x", "true"}), "srun: error: \"x\" is not a valid node count\n", 255);
        expectError(salloc({"-N", "3-1"}),
            "salloc: error: Maximum node count 1 is less than minimum node count 3\n", 255);
        expectError(srun({"-N", "0", "true"}),
            "srun: error: Unable to allocate resources: Node count specification invalid\n", 1);
        expectError(salloc({"-N", "0"}),
            "salloc: error: Job submit/allocate failed: Node count specification invalid\n", 1);
    }

    void badValuesOfTheOptionTableExit255()
    {
        expectError(
            srun({"--time=abc", "true"}), "srun: error: Invalid --time specification\n", 255);
        expectError(salloc({"--mem=1Q"}), "salloc: error: Invalid --mem specification\n", 255);
        expectError(srun({"-m", "diagonal", "true"}),
            "srun: error: Invalid --distribution specification\n", 255);
        // From the environment too: SLURM_TIMELIMIT is --time.
        expectError(srun({"true"}, {"SLURM_TIMELIMIT=soon"}),
            "srun: error: Invalid --time specification\n", 255);
    }

    void aMalformedHostlistIsAFailedSubmission()
    {
        expectError(srun({"-w", "node[", "true"}),
            "srun: error: Unable to allocate resources: Invalid node name specified\n", 1);
        expectError(srun({"-x", "node[", "true"}),
            "srun: error: Unable to allocate resources: Invalid node name specified\n", 1);
        expectError(salloc({"-w", "node["}),
            "salloc: error: Job submit/allocate failed: Invalid node name specified\n", 1);
    }

    void aBadGresIsRefusedWithExitOne()
    {
        expectError(salloc({"--gres=foo:1"}),
            "salloc: error: Invalid generic resource (gres) specification\n", 1);
    }

    void gpuOptionsPerTaskAndPerGpuAreReadAsSbatchReadsThem()
    {
        auto line = srun(
            {"-n2", "--gpus-per-task=a100:1", "--cpus-per-gpu=3", "--mem-per-gpu=2G", "hostname"});
        QVERIFY(!line.end);
        QCOMPARE(line.opts.gpusPerTask, std::optional<int>(1));
        QCOMPARE(line.opts.gpuType, std::string("a100"));
        QCOMPARE(line.opts.cpusPerGpu, std::optional<int>(3));
        QCOMPARE(line.opts.memPerGpu, std::optional<mc::sched::MiB>(2048));
        // salloc's own input variables, and srun's inherited SLURM_* ones, stand for them.
        auto fromEnv = salloc(
            {}, {"SALLOC_GPUS_PER_TASK=2", "SALLOC_CPUS_PER_GPU=4", "SALLOC_MEM_PER_GPU=1G"});
        QVERIFY(!fromEnv.end);
        QCOMPARE(fromEnv.opts.gpusPerTask, std::optional<int>(2));
        QCOMPARE(fromEnv.opts.cpusPerGpu, std::optional<int>(4));
        QCOMPARE(fromEnv.opts.memPerGpu, std::optional<mc::sched::MiB>(1024));
        auto inherited = srun({"true"}, {"SLURM_GPUS_PER_TASK=1"});
        QCOMPARE(inherited.opts.gpusPerTask, std::optional<int>(1));
        // Slurm's words for bad values, as the reference cluster's srun prints them.
        expectError(srun({"--cpus-per-gpu=0", "true"}),
            "srun: error: Invalid numeric value \"0\" for --cpus-per-gpu.\n", 1);
        expectError(srun({"--mem-per-gpu=abc", "true"}),
            "srun: error: Invalid --mem-per-gpu specification\n", 255);
        expectError(salloc({"--gpus-per-task=x"}),
            "salloc: error: Invalid generic resource (gres) specification\n", 1);
    }

    void memoryOptionsAreOneRequest()
    {
        expectError(srun({"--mem=100", "--mem-per-gpu=100", "true"}),
            "srun: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n", 1);
        expectError(salloc({}, {"SALLOC_MEM_PER_NODE=1G", "SALLOC_MEM_PER_GPU=1G"}),
            "salloc: fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are "
            "mutually exclusive.\n",
            1);
        // One on the command line replaces those of the environment (a batch job's
        // SLURM_MEM_PER_NODE under `srun --mem-per-gpu`).
        auto line = srun({"--mem-per-gpu=1G", "true"}, {"SLURM_MEM_PER_NODE=4000"});
        QVERIFY(!line.end);
        QVERIFY(!line.opts.mem);
        QCOMPARE(line.opts.memPerGpu, std::optional<mc::sched::MiB>(1024));
        auto inherited = srun({"true"}, {"SLURM_MEM_PER_NODE=4000"});
        QCOMPARE(inherited.opts.mem, std::optional<mc::sched::MiB>(4000));
    }

    void hintAndCpuBindAreCheckedAsSlurmDoes()
    {
        expectError(srun({"--hint=bogus", "true"}),
            "srun: error: unrecognized --hint argument \"bogus\", see --hint=help\n", 1);
        expectError(srun({"--cpu-bind=bogus", "true"}),
            "srun: error: unrecognized --cpu-bind argument \"bogus\"\n"
            "srun: fatal: Failed to parse --cpu-bind= values.\n",
            1);
    }

    void optionsMiniclusterDoesNotImplementAreRefused()
    {
        expectError(srun({"--signal=USR1", "true"}),
            "srun: error: --signal is not supported by minicluster\n", 1);
        expectError(salloc({"--no-shell"}),
            "salloc: error: --no-shell is not supported by minicluster\n", 1);
        expectError(srun({"true"}, {"SLURM_SIGNAL=USR1"}),
            "srun: error: SLURM_SIGNAL (--signal) is not supported by minicluster\n", 1);
    }

    void mailTypeAndUserAreStoredInTheAllocationAsSbatchsAre()
    {
        // As the reference cluster's salloc and srun: the job shows
        // "MailUser=someone@example.org MailType=END,FAIL" (words in Slurm's order).
        auto line = salloc({"--mail-type=fail,end", "--mail-user=someone@example.org"});
        QVERIFY(!line.end);
        const auto spec
            = mc::record::specFromJson(ia::allocationRequest(line.opts, "salloc")["job"]);
        QCOMPARE(spec.mailType, std::string("END,FAIL"));
        QCOMPARE(spec.mailUser, std::string("someone@example.org"));
        QVERIFY(spec.interactive);
        line = srun({"--mail-type=ALL", "true"});
        QVERIFY(!line.end);
        QCOMPARE(
            line.opts.mailType, std::string("INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT"));
        expectError(srun({"--mail-type=bogus", "true"}),
            "srun: error: Invalid --mail-type specification\n", 255);
        expectError(salloc({"--mail-type=begin,bogus"}),
            "salloc: error: Invalid --mail-type specification\n", 255);
    }

    void theSharedApplyGivesSrunSbatchsReadingOfANegativeTime()
    {
        // Slurm's time_str2mins() takes "-<days>" as a timespec for all three commands: the
        // reference cluster's srun -t -5 is accepted, its limit wrapped as sbatch's is.
        auto line = srun({"-t", "-5", "true"});
        QVERIFY(!line.end);
        QCOMPARE(line.opts.timeLimit,
            std::optional<mc::sched::Seconds>(
                ((-5 * 86400 + 59) / 60 + (std::int64_t{1} << 32)) * 60));
    }

    void versionIsPrintedOnStdout()
    {
        auto line = srun({"--version"});
        QVERIFY(line.end.has_value());
        QCOMPARE(line.end->exitCode, 0);
        COMPARE_TEXT(line.end->out, mc::cmd::kSlurmVersion); // "slurm-wlm 22.05.8\n"
    }
};

QTEST_APPLESS_MAIN(SrunSallocOptionsTest)
#include "srun_salloc_options_test.moc"
