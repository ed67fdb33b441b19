// LSF's commands on a real cluster: bsub's job runs on a node with LSF's variables, bjobs
// follows it to DONE, bkill ends a waiting one.
#include "cluster_fixture.h"

#include <QtTest>

namespace {

const char *const kLsfScript = R"(cat > lsf.sh <<'EOF'
#!/bin/bash
#BSUB -J lsfjob
#BSUB -n 2
#BSUB -W 5
#BSUB -o lsf_%J.out
echo "id=$LSB_JOBID name=$LSB_JOBNAME procs=$LSB_DJOB_NUMPROC hosts=$LSB_HOSTS queue=$LSB_QUEUE"
echo "slurm=$SLURM_JOB_ID marker=${MINICLUSTER_BATCH_SYSTEM:-unset}"
EOF
)";

const char *const kPbsScript = R"SH(cat > pbs.sh <<'EOF'
#!/bin/bash
#PBS -N pbsjob
#PBS -l select=1:ncpus=2:mem=100mb
#PBS -l walltime=00:05:00
#PBS -j oe
cd "$PBS_O_WORKDIR"
echo "id=$PBS_JOBID name=$PBS_JOBNAME dir=$PWD queue=$PBS_QUEUE env=$PBS_ENVIRONMENT"
echo "nodes=$(tr '\n' ' ' < "$PBS_NODEFILE")"
echo "to stderr" >&2
EOF
)SH";

} // namespace

class LsfPbsTest : public QObject {
    Q_OBJECT

private slots:
    void bsubJobRunsWithLsfVariablesAndBjobsFollowsIt();
    void qsubJobRunsWithPbsVariablesAndQstatFollowsIt();
    void dtuPresetSpeaksLsfWithItsQueues();
    void lesson14FailsBeforeAndPassesAfterTheThreeSubmissions();
};

void LsfPbsTest::bsubJobRunsWithLsfVariablesAndBjobsFollowsIt()
{
    ClusterFixture cluster(QStringLiteral("plain"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    ShellResult submit
        = cluster.shell(QString::fromUtf8(kLsfScript) + QStringLiteral("bsub < lsf.sh"));
    QCOMPARE(submit.err, QString());
    QCOMPARE(submit.out, QStringLiteral("Job <1> is submitted to queue <cpu>.\n"));
    QCOMPARE(submit.exitCode, 0);

    const QString outFile = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("lsf_1.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(outFile).contains(QStringLiteral("marker")), 20000);
    QCOMPARE(readTextFile(outFile),
        QStringLiteral("id=1 name=lsfjob procs=2 hosts=cn01 cn01 queue=cpu\n"
                       "slurm=1 marker=unset\n"));

    QTRY_VERIFY_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("bjobs -a 1")).out.contains(QStringLiteral("DONE")), 20000);
    const QStringList rows = outputLines(cluster.shell(QStringLiteral("bjobs -a")).out);
    QCOMPARE(rows.value(0),
        QStringLiteral(
            "JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME"));
    // FROM_HOST is the submitting host (login1 in the bubblewrap sandbox, the machine's name in
    // the plain fallback).
    QVERIFY2(rows.value(1).startsWith(QStringLiteral("1       alice   DONE  cpu        ")),
        qPrintable(rows.value(1)));
    QCOMPARE(rows.value(1).mid(45, 22), QStringLiteral("2*cn01      lsfjob    "));

    ShellResult held = cluster.shell(QStringLiteral("bsub -H -J waiting sleep 60"));
    QCOMPARE(held.out, QStringLiteral("Job <2> is submitted to queue <cpu>.\n"));
    ShellResult pending = cluster.shell(QStringLiteral("bjobs -p"));
    QVERIFY2(pending.out.contains(QStringLiteral("PSUSP")), qPrintable(pending.out));
    ShellResult kill = cluster.shell(QStringLiteral("bkill 2"));
    QCOMPARE(kill.out, QStringLiteral("Job <2> is being terminated\n"));
    QCOMPARE(kill.exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("bjobs"))
                                 .err.contains(QStringLiteral("No unfinished job found")),
        20000);
}

void LsfPbsTest::qsubJobRunsWithPbsVariablesAndQstatFollowsIt()
{
    ClusterFixture cluster(QStringLiteral("plain"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    ShellResult submit
        = cluster.shell(QString::fromUtf8(kPbsScript) + QStringLiteral("qsub pbs.sh"));
    QCOMPARE(submit.err, QString());
    QCOMPARE(submit.exitCode, 0);
    QVERIFY2(submit.out.startsWith(QStringLiteral("1.")), qPrintable(submit.out));
    const QString id = submit.out.trimmed();
    const QString server = id.mid(2);

    // PBS's default output file, <name>.o<sequence>, holds stderr too with -j oe.
    const QString outFile = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("pbsjob.o1"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(outFile).contains(QStringLiteral("to stderr")), 20000);
    const QString home = cluster.shell(QStringLiteral("echo $HOME")).out.trimmed();
    QCOMPARE(readTextFile(outFile),
        QStringLiteral("id=%1 name=pbsjob dir=%2 queue=cpu env=PBS_BATCH\nnodes=cn01 \n"
                       "to stderr\n")
            .arg(id, home));

    QTRY_VERIFY_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("qstat -x 1")).out.contains(QStringLiteral(" F cpu")), 20000);
    const QStringList rows = outputLines(cluster.shell(QStringLiteral("qstat -x")).out);
    QCOMPARE(rows.value(0),
        QStringLiteral("Job id            Name             User              Time Use S Queue"));
    QCOMPARE(rows.value(1),
        QStringLiteral("----------------  ---------------- ----------------  -------- - -----"));
    QVERIFY2(rows.value(2).startsWith(QStringLiteral("%1 pbsjob           alice             ")
                                          .arg(id.leftJustified(17, QLatin1Char(' '), true))),
        qPrintable(rows.value(2)));
    ShellResult full = cluster.shell(QStringLiteral("qstat -f ") + id);
    QVERIFY2(full.out.startsWith(QStringLiteral("Job Id: ") + id + QStringLiteral("\n")),
        qPrintable(full.out));
    QVERIFY(full.out.contains(QStringLiteral("    Resource_List.walltime = 00:05:00\n")));
    QVERIFY(full.out.contains(QStringLiteral("    Exit_status = 0\n")));

    ShellResult held = cluster.shell(QStringLiteral("echo 'sleep 60' | qsub -h -N waiting"));
    QCOMPARE(held.out, QStringLiteral("2.") + server + QStringLiteral("\n"));
    QVERIFY(cluster.shell(QStringLiteral("qstat")).out.contains(QStringLiteral(" H cpu")));
    ShellResult del = cluster.shell(QStringLiteral("qdel 2.") + server);
    QCOMPARE(del.err, QString());
    QCOMPARE(del.exitCode, 0);
    ShellResult unknown = cluster.shell(QStringLiteral("qdel 99"));
    QCOMPARE(
        unknown.err, QStringLiteral("qdel: Unknown Job Id 99.") + server + QStringLiteral("\n"));
    QCOMPARE(unknown.exitCode, 153);
    ShellResult nodes = cluster.shell(QStringLiteral("pbsnodes -a"));
    QVERIFY2(nodes.out.startsWith(QStringLiteral("cn01\n     Mom = cn01\n     ntype = PBS\n")),
        qPrintable(nodes.out));
}

void LsfPbsTest::dtuPresetSpeaksLsfWithItsQueues()
{
    ClusterFixture cluster(QStringLiteral("plain"));
    QVERIFY2(cluster.up({QStringLiteral("--preset"), QStringLiteral("dtu")}),
        qPrintable(cluster.lastError()));

    const QStringList queues = outputLines(cluster.shell(QStringLiteral("bqueues")).out);
    QCOMPARE(queues.value(0),
        QStringLiteral("QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  "
                       "SUSP "));
    QVERIFY2(queues.value(1).startsWith(QStringLiteral("hpc                1  Open:Active ")),
        qPrintable(queues.value(1)));
    QVERIFY(queues.value(2).startsWith(QStringLiteral("gpuv100")));
    const QString hosts = cluster.shell(QStringLiteral("bhosts")).out;
    QVERIFY2(
        hosts.startsWith(QStringLiteral("HOST_NAME          STATUS       JL/U    MAX  NJOBS    "
                                        "RUN  SSUSP  USUSP    RSV \n")),
        qPrintable(hosts));
    QVERIFY2(
        hosts.contains(QStringLiteral(
            "\nn01                ok              -      8      0      0      0      0      0\n")),
        qPrintable(hosts));

    // A job that writes, then waits: bpeek shows what it wrote so far.
    ShellResult submit
        = cluster.shell(QStringLiteral("bsub -J peek -o peek.out 'echo started; sleep 60'"));
    QCOMPARE(submit.out, QStringLiteral("Job <1> is submitted to queue <hpc>.\n"));
    QTRY_VERIFY_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("bpeek 1")).out.contains(QStringLiteral("started")), 20000);
    QCOMPARE(cluster.shell(QStringLiteral("bpeek")).out,
        QStringLiteral("<< output from stdout >>\nstarted\n"));
    // The owner stops a running job (USUSP: its processes stopped on the node) and resumes it.
    ShellResult stopRunning = cluster.shell(QStringLiteral("bstop 1"));
    QCOMPARE(stopRunning.out, QStringLiteral("Job <1> is being stopped\n"));
    QCOMPARE(stopRunning.exitCode, 0);
    QVERIFY(cluster.shell(QStringLiteral("bjobs 1")).out.contains(QStringLiteral(" USUSP ")));
    QCOMPARE(cluster.shell(QStringLiteral("squeue -h -j 1 -o %t")).out, QStringLiteral("S\n"));
    ShellResult resumeRunning = cluster.shell(QStringLiteral("bresume 1"));
    QCOMPARE(resumeRunning.out, QStringLiteral("Job <1> is being resumed\n"));
    QVERIFY(cluster.shell(QStringLiteral("bjobs 1")).out.contains(QStringLiteral(" RUN ")));

    // A pending job stopped (PSUSP), then resumed.
    cluster.shell(QStringLiteral("bsub -J later -w 'done(1)' true"));
    ShellResult stop = cluster.shell(QStringLiteral("bstop 2"));
    QCOMPARE(stop.out, QStringLiteral("Job <2> is being stopped\n"));
    QVERIFY(cluster.shell(QStringLiteral("bjobs 2")).out.contains(QStringLiteral(" PSUSP ")));
    ShellResult resume = cluster.shell(QStringLiteral("bresume 2"));
    QCOMPARE(resume.out, QStringLiteral("Job <2> is being resumed\n"));
    QVERIFY(cluster.shell(QStringLiteral("bjobs 2")).out.contains(QStringLiteral(" PEND ")));
    QCOMPARE(cluster.shell(QStringLiteral("bkill 0")).exitCode, 0);

    // DTU's own wrappers are not emulated: they say so, not "command not found".
    ShellResult bstat = cluster.shell(QStringLiteral("bstat"));
    QCOMPARE(bstat.err,
        QStringLiteral("bstat: this site's own command is not supported by minicluster; bjobs "
                       "shows the same in LSF's words\n"));
    QCOMPARE(bstat.exitCode, 1);
}

void LsfPbsTest::lesson14FailsBeforeAndPassesAfterTheThreeSubmissions()
{
    ClusterFixture cluster(QStringLiteral("plain"));
    QVERIFY2(cluster.up({QStringLiteral("--preset"), QStringLiteral("dtu")}),
        qPrintable(cluster.lastError()));
    auto lesson = [&cluster](const QStringList &args) {
        return cluster.minicluster(
            QStringList{QStringLiteral("lesson"), QStringLiteral("--lang"), QStringLiteral("en")}
            + args);
    };
    ShellResult start = lesson({QStringLiteral("start"), QStringLiteral("14")});
    QVERIFY2(start.exitCode == 0, qPrintable(start.err));
    QVERIFY(start.out.contains(QStringLiteral("copied same_lsf.sh")));

    // Wrong attempt: the LSF script run on the login node is not a submitted job.
    QCOMPARE(cluster.shell(QStringLiteral("bash same_lsf.sh")).exitCode, 0);
    ShellResult wrong = lesson({QStringLiteral("check")});
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.out.contains(QStringLiteral("[ ] 1. The job in Slurm's words")),
        qPrintable(wrong.out));
    QVERIFY2(wrong.out.contains(QStringLiteral("Submit the Slurm version: sbatch same_slurm.sh.")),
        qPrintable(wrong.out));

    QCOMPARE(cluster.shell(QStringLiteral("sbatch same_slurm.sh")).exitCode, 0);
    ShellResult lsf = cluster.shell(QStringLiteral("bsub < same_lsf.sh"));
    QCOMPARE(lsf.out, QStringLiteral("Job <2> is submitted to queue <hpc>.\n"));
    ShellResult pbs = cluster.shell(QStringLiteral("qsub same_pbs.sh"));
    QCOMPARE(pbs.out, QStringLiteral("3.dtu\n"));
    QTRY_VERIFY_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("bjobs -a 2")).out.contains(QStringLiteral(" DONE ")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("qstat -x 3")).out.contains(QStringLiteral(" F hpc")), 30000);
    ShellResult refused = cluster.shell(QStringLiteral("sbatch same_lsf.sh"));
    QCOMPARE(refused.err,
        QStringLiteral("sbatch: invalid option -- 'R'\n"
                       "sbatch: error: Unrecognized command line parameter ?\n"));
    QTRY_VERIFY_WITH_TIMEOUT(
        lesson({QStringLiteral("check"), QStringLiteral("14")}).exitCode == 0, 30000);
    QCOMPARE(
        readTextFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("same-pbs.out"))),
        QStringLiteral("PBS job 3.dtu on n01: 2 tasks\n"));
    QCOMPARE(
        readTextFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("same-lsf-2.out"))),
        QStringLiteral("LSF job 2 on n01: 2 slots\n"));
}

QTEST_GUILESS_MAIN(LsfPbsTest)
#include "lsf_pbs_test.moc"
