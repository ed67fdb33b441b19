// Real workflow managers against a real cluster: snakemake (--cluster and --slurm) and makeflow
// (-T slurm) must run a three-step workflow to completion, unmodified, with their jobs visible
// in squeue and sacct. Each test skips, saying why, when its tool is not installed (Debian
// packages snakemake and coop-computing-tools; scripts/deps.sh installs them).
#include "cluster_fixture.h"

#include <QFile>
#include <QStandardPaths>
#include <QtTest>

namespace {

// Three rules in a chain: a.txt -> b.txt -> c.txt, each one line longer.
const char *const kSnakefile = R"(mkdir -p wf && cat > wf/Snakefile <<'EOF'
rule all:
    input: "c.txt"

rule a:
    output: "a.txt"
    shell: "echo a > {output}"

rule b:
    input: "a.txt"
    output: "b.txt"
    shell: "cat {input} > {output}; echo b >> {output}"

rule c:
    input: "b.txt"
    output: "c.txt"
    shell: "cat {input} > {output}; echo c >> {output}"
EOF
)";

const char *const kMakeflow = R"(mkdir -p wf && cat > wf/wf.mf <<'EOF'
a.txt:
	echo a > a.txt

b.txt: a.txt
	cat a.txt > b.txt; echo b >> b.txt

c.txt: b.txt
	cat b.txt > c.txt; echo c >> c.txt
EOF
)";

// Workflow managers poll for tens of seconds, longer than the fixture's default wait.
constexpr int kWorkflowTimeoutMs = 240000;

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Lines of `text` that start with `prefix`.
QStringList linesStarting(const QString &text, const QString &prefix)
{
    QStringList found;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(prefix)) {
            found << line;
        }
    }
    return found;
}

// The workflow's three jobs are COMPLETED in both squeue (-t all) and sacct.
void verifyJobsListed(const ClusterFixture &cluster, const QString &namePrefix)
{
    ShellResult queue = cluster.shell(QStringLiteral("squeue -t all -h -o '%j %T'"));
    QCOMPARE(queue.exitCode, 0);
    const QStringList inQueue = linesStarting(queue.out, namePrefix);
    QCOMPARE(inQueue.size(), 3);
    for (const QString &line : inQueue) {
        QVERIFY2(line.endsWith(QStringLiteral(" COMPLETED")), qPrintable(line));
    }
    ShellResult acct = cluster.shell(QStringLiteral("sacct -X -n -P -o JobName%40,State"));
    QCOMPARE(acct.exitCode, 0);
    const QStringList accounted = linesStarting(acct.out, namePrefix);
    QCOMPARE(accounted.size(), 3);
    for (const QString &line : accounted) {
        QVERIFY2(line.endsWith(QStringLiteral("|COMPLETED")), qPrintable(line));
    }
}

} // namespace

class WorkflowClientsTest : public QObject {
    Q_OBJECT

private slots:
    void snakemakeClusterModeRunsThreeStepsAsBatchJobs();
    void snakemakeSlurmExecutorRunsThreeStepsAsBatchJobs();
    void makeflowSlurmBatchSystemRunsThreeStepsAsBatchJobs();
};

void WorkflowClientsTest::snakemakeClusterModeRunsThreeStepsAsBatchJobs()
{
    if (QStandardPaths::findExecutable(QStringLiteral("snakemake")).isEmpty()) {
        QSKIP("snakemake is not installed (Debian package snakemake; scripts/deps.sh installs it)");
    }
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run = cluster.shell(QString::fromUtf8(kSnakefile)
            + QStringLiteral("cd wf && snakemake --cluster 'sbatch --parsable -t 5' -j 3 "
                             "--latency-wait 10 --quiet"),
        QString(), kWorkflowTimeoutMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("wf/c.txt"))),
        QStringLiteral("a\nb\nc\n"));
    verifyJobsListed(cluster, QStringLiteral("snakejob."));
}

void WorkflowClientsTest::snakemakeSlurmExecutorRunsThreeStepsAsBatchJobs()
{
    if (QStandardPaths::findExecutable(QStringLiteral("snakemake")).isEmpty()) {
        QSKIP("snakemake is not installed (Debian package snakemake; scripts/deps.sh installs it)");
    }
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // snakemake --slurm runs every rule through srun inside its batch job.
    const ShellResult srun = cluster.shell(QStringLiteral("srun --version"));
    QVERIFY2(srun.exitCode == 0, qPrintable(srun.out + srun.err));
    ShellResult run = cluster.shell(QString::fromUtf8(kSnakefile)
            + QStringLiteral("cd wf && snakemake --slurm -j 3 --latency-wait 10 --quiet "
                             "--default-resources runtime=5 mem_mb=200"),
        QString(), kWorkflowTimeoutMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("wf/c.txt"))),
        QStringLiteral("a\nb\nc\n"));
}

void WorkflowClientsTest::makeflowSlurmBatchSystemRunsThreeStepsAsBatchJobs()
{
    if (QStandardPaths::findExecutable(QStringLiteral("makeflow")).isEmpty()) {
        QSKIP("makeflow is not installed (Debian package coop-computing-tools; scripts/deps.sh "
              "installs it)");
    }
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // Debian's makeflow is built with Open MPI, whose start-up looks for an orted daemon that
    // the package does not install; an isolated singleton needs none.
    ShellResult run = cluster.shell(QString::fromUtf8(kMakeflow)
            + QStringLiteral("cd wf && OMPI_MCA_ess_singleton_isolated=1 makeflow -T slurm wf.mf"),
        QString(), kWorkflowTimeoutMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("nothing left to do.")), qPrintable(run.out));
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("wf/c.txt"))),
        QStringLiteral("a\nb\nc\n"));
    verifyJobsListed(cluster, QStringLiteral("makeflow"));
}

QTEST_GUILESS_MAIN(WorkflowClientsTest)
#include "workflow_clients_test.moc"
