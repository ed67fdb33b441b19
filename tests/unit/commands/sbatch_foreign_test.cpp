// sbatch reading #PBS and #BSUB lines, as /usr/bin/sbatch (Slurm 22.05.8) does on this machine:
// each expectation below was answered by real sbatch first (scontrol show job of the job).
#include "command_harness.h"
#include "mc/cmd/sbatch.h"

#include <QtTest>

#include <fstream>

using namespace mc::cmd::test;
using mc::cmd::Sbatch;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

class SbatchForeignTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void pbsLinesAreMappedToSbatchOptions();
    void pbsSelectAndNodesAskNodesCpusAndMemory();
    void bsubLinesAreMappedToSbatchOptions();
    void pbsLinesOverrideSbatchLinesAndBsubOverridesPbs();
    void environmentAndCommandLineOverrideForeignLines();
    void foreignLinesAfterTheFirstCommandAreStillRead();
    void ignorePbsLeavesThemAlone();
    void unknownForeignLetterFailsWithGetoptsWords();
    void strayWordIsAnInvalidArgument();
    void badWalltimeAndMailLettersAreSbatchErrors();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    Harness harness() const
    {
        Harness h;
        h.ctx.cwd = m_dir->path().toStdString();
        h.reply = [](const Json &) -> std::optional<Json> {
            Json reply = okReply();
            reply.set("job_id", 7);
            return reply;
        };
        return h;
    }
    // Submits a script of these lines; returns the result and the job sent.
    Result submit(Harness &h, const std::string &lines, std::vector<std::string> args = {})
    {
        std::ofstream(m_dir->path().toStdString() + "/t.sh") << "#!/bin/bash\n"
                                                             << lines << "true\n";
        args.push_back("t.sh");
        return h.run<Sbatch>(args);
    }
    std::string path(const std::string &name) const
    {
        return m_dir->path().toStdString() + "/" + name;
    }
};

void SbatchForeignTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void SbatchForeignTest::pbsLinesAreMappedToSbatchOptions()
{
    Harness h = harness();
    const Result r = submit(h,
        "#PBS -N pbsname\n#PBS -l walltime=01:30:00,mem=2gb\n#PBS -q cpu\n#PBS -o pbs.out\n"
        "#PBS -e pbs.err\n#PBS -j oe\n#PBS -m abe\n#PBS -p 10\n#PBS -A acct -r n -V\n"
        "#PBS -W depend=afterok:12\n#PBS -J 1-3\n#PBS -h\n");
    COMPARE_TEXT(r.err, "");
    COMPARE_TEXT(r.out, "Submitted batch job 7\n");
    const Json &job = h.requests.back()["job"];
    COMPARE_TEXT(job["name"].toString(), "pbsname");
    QCOMPARE(job["time_limit"].toInt(), std::int64_t{5400});
    QCOMPARE(job["mem_per_node"].toInt(), std::int64_t{2048});
    COMPARE_TEXT(job["partition"].toString(), "cpu");
    COMPARE_TEXT(job["std_out"].toString(), path("pbs.out"));
    COMPARE_TEXT(job["std_err"].toString(), path("pbs.err"));
    QCOMPARE(job["nice"].toInt(), std::int64_t{10});
    COMPARE_TEXT(job["account"].toString(), ""); // -A: real sbatch drops it
    COMPARE_TEXT(job["dependency"].toString(), "afterok:12");
    COMPARE_TEXT(job["array"].toString(), "1-3");
    QCOMPARE(job["hold"].toBool(), true);
}

void SbatchForeignTest::pbsSelectAndNodesAskNodesCpusAndMemory()
{
    Harness h = harness();
    QCOMPARE(submit(h, "#PBS -l select=2:ncpus=3:mem=100kb\n").exitCode, 0);
    QCOMPARE(h.requests.back()["job"]["nodes"].toInt(), std::int64_t{2});
    QCOMPARE(h.requests.back()["job"]["cpus_per_task"].toInt(), std::int64_t{3});
    QCOMPARE(h.requests.back()["job"]["mem_per_node"].toInt(), std::int64_t{1});
    QCOMPARE(submit(h, "#PBS -l nodes=2:ppn=2\n#PBS -l mem=100\n").exitCode, 0);
    QCOMPARE(h.requests.back()["job"]["nodes"].toInt(), std::int64_t{2});
    QCOMPARE(h.requests.back()["job"]["ntasks"].toInt(), std::int64_t{4});
    QCOMPARE(h.requests.back()["job"]["mem_per_node"].toInt(), std::int64_t{100});
}

void SbatchForeignTest::bsubLinesAreMappedToSbatchOptions()
{
    Harness h = harness();
    const Result r = submit(h,
        "#BSUB -J lsfname\n#BSUB -q cpu\n#BSUB -n 3\n#BSUB -o out.%J\n#BSUB -e err.%J\n"
        "#BSUB -W 90\n#BSUB -M 3000000\n#BSUB -x\n#BSUB -m node02\n");
    COMPARE_TEXT(r.err, "");
    const Json &job = h.requests.back()["job"];
    COMPARE_TEXT(job["name"].toString(), "lsfname");
    COMPARE_TEXT(job["partition"].toString(), "cpu");
    QCOMPARE(job["ntasks"].toInt(), std::int64_t{3});
    COMPARE_TEXT(job["std_out"].toString(), path("out.%J")); // %J is not Slurm's
    COMPARE_TEXT(job["std_err"].toString(), path("err.%J"));
    QCOMPARE(job["time_limit"].toInt(), std::int64_t{5400}); // minutes, Slurm's format
    QCOMPARE(job["mem_per_cpu"].toInt(), std::int64_t{2930}); // KB, rounded up to MiB
    QCOMPARE(job["exclusive"].toBool(), true);
    QCOMPARE(job["node_list"].toStringList(), std::vector<std::string>{"node02"});

    submit(h, "#BSUB -W 1:30\n#BSUB -c sub\n"); // Slurm's m:ss; -c is the working directory
    QCOMPARE(h.requests.back()["job"]["time_limit"].toInt(), std::int64_t{120});
    COMPARE_TEXT(h.requests.back()["job"]["work_dir"].toString(), path("sub"));
}

void SbatchForeignTest::pbsLinesOverrideSbatchLinesAndBsubOverridesPbs()
{
    Harness h = harness();
    submit(h, "#SBATCH -J sb\n#PBS -N pb\n");
    COMPARE_TEXT(h.requests.back()["job"]["name"].toString(), "pb");
    submit(h, "#PBS -N pb\n#SBATCH -J sb\n");
    COMPARE_TEXT(h.requests.back()["job"]["name"].toString(), "pb");
    submit(h, "#BSUB -J bs\n#PBS -N pb\n");
    COMPARE_TEXT(h.requests.back()["job"]["name"].toString(), "bs");
    submit(h, "#BSUB -W 7\n#PBS -l walltime=5:00\n");
    QCOMPARE(h.requests.back()["job"]["time_limit"].toInt(), std::int64_t{420});
}

void SbatchForeignTest::environmentAndCommandLineOverrideForeignLines()
{
    Harness h = harness();
    submit(h, "#PBS -N pb\n", {"-J", "cli"});
    COMPARE_TEXT(h.requests.back()["job"]["name"].toString(), "cli");
    h.ctx.environment.push_back("SBATCH_JOB_NAME=env");
    submit(h, "#PBS -N pb\n");
    COMPARE_TEXT(h.requests.back()["job"]["name"].toString(), "env");
}

void SbatchForeignTest::foreignLinesAfterTheFirstCommandAreStillRead()
{
    Harness h = harness();
    submit(h, "echo first\n#PBS -N late\n");
    COMPARE_TEXT(h.requests.back()["job"]["name"].toString(), "late");
}

void SbatchForeignTest::ignorePbsLeavesThemAlone()
{
    Harness h = harness();
    const Result r = submit(h, "#PBS -N pb\n#BSUB -R whatever\n", {"--ignore-pbs"});
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(h.requests.back()["job"]["name"].toString(), "t.sh");
}

void SbatchForeignTest::unknownForeignLetterFailsWithGetoptsWords()
{
    Harness h = harness();
    Result r = submit(h, "#BSUB -R \"rusage[mem=500]\"\n");
    COMPARE_TEXT(r.err,
        "sbatch: invalid option -- 'R'\nsbatch: error: Unrecognized command line parameter ?\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
    r = submit(h, "#PBS -l\n");
    COMPARE_TEXT(r.err,
        "sbatch: option requires an argument -- 'l'\n"
        "sbatch: error: Unrecognized command line parameter ?\n");
    QCOMPARE(r.exitCode, 1);
}

void SbatchForeignTest::strayWordIsAnInvalidArgument()
{
    Harness h = harness();
    const Result r = submit(h, "#PBS -N  name with space\n");
    COMPARE_TEXT(r.err, "sbatch: error: Invalid argument: with\n");
    QCOMPARE(r.exitCode, 1);
}

void SbatchForeignTest::badWalltimeAndMailLettersAreSbatchErrors()
{
    Harness h = harness();
    Result r = submit(h, "#PBS -l walltime=1:2:3:4\n");
    COMPARE_TEXT(r.err, "sbatch: error: Invalid --time specification\n");
    QCOMPARE(r.exitCode, 255);
    r = submit(h, "#PBS -m xyz\n");
    COMPARE_TEXT(r.err, "sbatch: error: Invalid --mail-type specification\n");
    QCOMPARE(r.exitCode, 255);
}

QTEST_APPLESS_MAIN(SbatchForeignTest)
#include "sbatch_foreign_test.moc"
