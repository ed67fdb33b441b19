// Interactive work end to end (issue #4): salloc, srun inside and outside an allocation, srun
// --pty through a real pseudo-terminal, numbered steps in sacct, seff and sstat, on a real
// cluster with real processes.
#include "cluster_fixture.h"

#include <QDir>
#include <QRegularExpression>
#include <QtTest>

class InteractiveStepsTest : public QObject {
    Q_OBJECT

private slots:
    void sallocGrantsRunsSrunOnTheNodeAndReleases_data();
    void sallocGrantsRunsSrunOnTheNodeAndReleases();
    void srunStartsFourTasksWithTheirProcids();
    void srunPtyGivesAShellWhosePromptNamesTheNode();
    void stepsAreAccountedAndSeffReportsTheJob();
    void sstatShowsARunningStepAndAllocationsEndAtTheirTimeLimit();
    void sallocShellIsAnInteractiveStepWithUseInteractiveStep();
    void sallocShellIsStepInteractiveAndTheUsersStepsCountFromZero();
    void sallocShellStaysOnTheSubmitHostWithoutUseInteractiveStep();
    void srunThatWaitsIsQueuedThenRunsWithItsAllocationsVariables();
};

void InteractiveStepsTest::sallocGrantsRunsSrunOnTheNodeAndReleases_data()
{
    QTest::addColumn<QString>("sandbox");
    QTest::newRow("bubblewrap sandbox") << QStringLiteral("bubblewrap");
    QTest::newRow("plain fallback") << QStringLiteral("plain");
}

void InteractiveStepsTest::sallocGrantsRunsSrunOnTheNodeAndReleases()
{
    QFETCH(QString, sandbox);
    if (sandbox == QStringLiteral("bubblewrap") && !bubblewrapWorks()) {
        QSKIP("bubblewrap with user namespaces is not available on this machine");
    }
    ClusterFixture cluster(sandbox);
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    ShellResult run = cluster.shell(QStringLiteral(
        "salloc -N1 -t 5 bash -c 'echo job=$SLURM_JOB_ID nodes=$SLURM_JOB_NODELIST; srun hostname; "
        "hostname'"));
    QCOMPARE(run.exitCode, 0);
    const QStringList out = outputLines(run.out);
    QCOMPARE(out.size(), 3);
    QCOMPARE(out.at(0), QStringLiteral("job=1 nodes=") + out.at(1));
    QVERIFY2(out.at(1).startsWith(QStringLiteral("cn")), qPrintable(run.out));
    QCOMPARE(out.at(2), QStringLiteral("login1")); // salloc's command runs on the login node
    // Slurm 22.05.8's salloc, run live on the reference cluster, mostly ends on the release
    // alone (its "has been revoked." after it is a race with slurmctld's message).
    QCOMPARE(run.err,
        QStringLiteral("salloc: Granted job allocation 1\n"
                       "salloc: Relinquishing job allocation 1\n"));

    // Leaving released the allocation: the job is over and its nodes are free.
    ShellResult state = cluster.shell(QStringLiteral("sacct -j 1 -n -P -o JobID,State"));
    QCOMPARE(state.exitCode, 0);
    QCOMPARE(outputLines(state.out),
        (QStringList{QStringLiteral("1|COMPLETED"), QStringLiteral("1.0|COMPLETED")}));
    ShellResult queue = cluster.shell(QStringLiteral("squeue -h -t R"));
    QCOMPARE(queue.out, QString());

    // $SLURM_TMPDIR on the node lasts as long as the allocation, across its steps...
    ShellResult tmp = cluster.shell(QStringLiteral(
        "salloc -Q -N1 -w cn02 bash -c 'srun bash -c \"touch \\$SLURM_TMPDIR/kept\"; "
        "srun bash -c \"ls \\$SLURM_TMPDIR\"'"));
    QCOMPARE(tmp.exitCode, 0);
    QCOMPARE(tmp.out, QStringLiteral("kept\n"));
    // ... and goes with it (the node hears of the end right after salloc's release).
    QTRY_VERIFY_WITH_TIMEOUT(QDir(cluster.dir() + QStringLiteral("/nodes/cn02/localscratch"))
                                 .entryList(QDir::NoDotAndDotDot | QDir::AllEntries)
                                 .isEmpty(),
        5000);

    // --mail-type and --mail-user are kept in the allocation's record and shown as the
    // reference cluster's scontrol shows a salloc's (no mail is sent).
    ShellResult mail = cluster.shell(
        QStringLiteral("salloc -Q -N1 --mail-type=fail,end --mail-user=bob@example.org "
                       "bash -c 'scontrol show job $SLURM_JOB_ID | grep Mail'"));
    QCOMPARE(mail.exitCode, 0);
    QCOMPARE(mail.out, QStringLiteral("   MailUser=bob@example.org MailType=END,FAIL\n"));

    // srun outside an allocation makes its own job, and says why it fails.
    ShellResult own = cluster.shell(QStringLiteral("srun -N1 bash -c 'exit 3'"));
    QCOMPARE(own.exitCode, 3);
    QVERIFY2(QRegularExpression(QStringLiteral("^srun: error: cn\\d+: task 0: Exited with exit "
                                               "code 3\n$"))
                 .match(own.err)
                 .hasMatch(),
        qPrintable(own.err));
    ShellResult bad = cluster.shell(QStringLiteral("salloc -p nosuch -t 5 true"));
    QCOMPARE(bad.exitCode, 1);
    QCOMPARE(bad.err,
        QStringLiteral("salloc: error: invalid partition specified: nosuch\n"
                       "salloc: error: Job submit/allocate failed: Invalid partition name "
                       "specified\n"));
}

void InteractiveStepsTest::srunStartsFourTasksWithTheirProcids()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run = cluster.shell(QStringLiteral(
        "srun -n4 -l bash -c 'echo task $SLURM_PROCID of $SLURM_NTASKS step $SLURM_STEP_ID' | "
        "sort"));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(outputLines(run.out),
        (QStringList{QStringLiteral("0: task 0 of 4 step 0"),
            QStringLiteral("1: task 1 of 4 step 0"), QStringLiteral("2: task 2 of 4 step 0"),
            QStringLiteral("3: task 3 of 4 step 0")}));

    // In a two-node allocation a step without -n runs one task per node.
    ShellResult perNode = cluster.shell(QStringLiteral("salloc -Q -N2 srun -l hostname | sort"));
    QCOMPARE(perNode.exitCode, 0);
    QCOMPARE(outputLines(perNode.out).size(), 2);
    QVERIFY2(outputLines(perNode.out).value(0).startsWith(QStringLiteral("0: cn"))
            && outputLines(perNode.out).value(1).startsWith(QStringLiteral("1: cn"))
            && outputLines(perNode.out).value(0).mid(3) != outputLines(perNode.out).value(1).mid(3),
        qPrintable(perNode.out));

    // Without --label the tasks share srun's stdout; SLURM_LOCALID counts on the node.
    ShellResult plain = cluster.shell(
        QStringLiteral("srun -n4 bash -c 'echo $SLURM_PROCID.$SLURM_LOCALID' | sort"));
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(outputLines(plain.out),
        (QStringList{QStringLiteral("0.0"), QStringLiteral("1.1"), QStringLiteral("2.2"),
            QStringLiteral("3.3")}));
}

void InteractiveStepsTest::srunPtyGivesAShellWhosePromptNamesTheNode()
{
    if (!bubblewrapWorks()) {
        QSKIP("the node's hostname in a prompt needs the bubblewrap sandbox");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // script(1) gives srun a real terminal; the shell on the node reads our lines from it.
    ShellResult run = cluster.shell(QStringLiteral(
        "(sleep 1; printf 'tty -s && echo on-a-tty; echo at-$(hostname)\\nexit 4\\n') | "
        "script -qfec \"srun --pty bash -i\" /dev/null; echo exit=$?"));
    QVERIFY2(run.out.contains(QStringLiteral("on-a-tty")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("at-cn01")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QStringLiteral("exit=4")), qPrintable(run.out));
    // The prompt of the home's ~/.bashrc ([\u@node \W]\$) names the node.
    QVERIFY2(run.out.contains(QStringLiteral("[alice@cn01 ~]$ ")), qPrintable(run.out));
}

void InteractiveStepsTest::stepsAreAccountedAndSeffReportsTheJob()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // A batch job with two srun steps that use CPU and memory.
    ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -c2 --mem=200M --wrap 'srun true; srun python3 -c \"b = bytearray(60 * 2**20); "
        "import time; t = time.time()\nwhile time.time() - t < 1.2: pass\"'"));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    ShellResult wait = cluster.shell(QStringLiteral(
        "for i in $(seq 100); do squeue -h -j 1 | grep -q . || break; sleep 0.1; done; "
        "sacct -j 1 -n -P -o JobID,State"));
    QStringList steps = outputLines(wait.out);
    steps.sort(); // sacct lists batch first in Slurm; the order is sacct's business
    QCOMPARE(steps,
        (QStringList{QStringLiteral("1.0|COMPLETED"), QStringLiteral("1.1|COMPLETED"),
            QStringLiteral("1.batch|COMPLETED"), QStringLiteral("1|COMPLETED")}));

    ShellResult seff = cluster.shell(QStringLiteral("seff 1"));
    QCOMPARE(seff.exitCode, 0);
    const QStringList report = outputLines(seff.out);
    QCOMPARE(report.value(0), QStringLiteral("Job ID: 1"));
    QVERIFY2(report.value(1).startsWith(QStringLiteral("Cluster: ")), qPrintable(seff.out));
    QCOMPARE(report.value(3), QStringLiteral("State: COMPLETED (exit code 0)"));
    QCOMPARE(report.value(4), QStringLiteral("Nodes: 1"));
    QCOMPARE(report.value(5), QStringLiteral("Cores per node: 2"));
    QVERIFY2(QRegularExpression(QStringLiteral("^CPU Utilized: 00:00:0\\d$"))
                 .match(report.value(6))
                 .hasMatch(),
        qPrintable(seff.out));
    QVERIFY2(QRegularExpression(QStringLiteral("^Memory Utilized: (\\d+\\.\\d\\d) MB$"))
                 .match(report.value(9))
                 .hasMatch(),
        qPrintable(seff.out));
    double used = report.value(9).section(QLatin1Char(' '), 2, 2).toDouble();
    QVERIFY2(used >= 60.0 && used < 200.0, qPrintable(seff.out));
    QVERIFY2(report.value(10).endsWith(QStringLiteral("% of 200.00 MB")), qPrintable(seff.out));

    ShellResult missing = cluster.shell(QStringLiteral("seff 999"));
    QCOMPARE(missing.exitCode, 2);
    QCOMPARE(missing.err, QStringLiteral("Job not found.\n"));
}

void InteractiveStepsTest::sstatShowsARunningStepAndAllocationsEndAtTheirTimeLimit()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run = cluster.shell(QStringLiteral(
        "srun -J busy python3 -c \"b = bytearray(40 * 2**20); import time; time.sleep(3)\" & "
        "sleep 2; sstat -n -P -j 1 -o JobID,NTasks,MaxRSS; wait"));
    QCOMPARE(run.exitCode, 0);
    const QStringList fields = outputLines(run.out).value(0).split(QLatin1Char('|'));
    QCOMPARE(fields.value(0), QStringLiteral("1.0"));
    QCOMPARE(fields.value(1), QStringLiteral("1"));
    QVERIFY2(fields.value(2).endsWith(QLatin1Char('K'))
            && fields.value(2).chopped(1).toLongLong() > 40 * 1024,
        qPrintable(run.out));
    ShellResult none = cluster.shell(QStringLiteral("sstat -j 1"));
    QCOMPARE(none.exitCode, 0); // Slurm 22.05's sstat says so and exits 0
    QCOMPARE(none.err, QStringLiteral("sstat: error: couldn't get steps for job 1\n"));

    // An allocation past its --time is revoked with its steps: the cluster clock jumps ahead.
    ShellResult limit = cluster.shell(QStringLiteral(
        "(salloc -t 1 srun sleep 30; echo salloc=$?) & sleep 1; python3 -c '"
        "import os, socket; s = socket.socket(socket.AF_UNIX); "
        "s.connect(os.environ[\"MINICLUSTER_SOCKET\"]); "
        "s.sendall(b\"{\\\"op\\\":\\\"clock\\\",\\\"advance\\\":120}\\n\"); s.recv(999)'; wait; "
        "sacct -j 2 -n -P -o JobID,State"));
    QVERIFY2(limit.err.contains(QStringLiteral("salloc: Job allocation 2 has been revoked.\n")),
        qPrintable(limit.err));
    QVERIFY2(
        limit.out.contains(QStringLiteral("2|TIMEOUT\n2.0|CANCELLED\n")), qPrintable(limit.out));
}

void InteractiveStepsTest::sallocShellIsAnInteractiveStepWithUseInteractiveStep()
{
    // LaunchParameters=use_interactive_step (the Alliance's clusters, the default preset):
    // salloc without a command opens the shell on the first allocated node, with the
    // allocation's task and node counts (-E, as Slurm's --preserve-env); with a command, it
    // still runs locally.
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult shell = cluster.shell(
        QStringLiteral("(sleep 2; echo 'echo on=$(hostname) job=$SLURM_JOB_ID tasks=$SLURM_NTASKS "
                       "nodes=$SLURM_NNODES per-node=$SLURM_TASKS_PER_NODE'; sleep 2; echo exit) | "
                       "script -qfec 'salloc -N2 -n4 -t 5' /dev/null; echo salloc=$?"));
    QVERIFY2(shell.out.contains(QStringLiteral("on=cn01 job=1 tasks=4 nodes=2 per-node=3,1")),
        qPrintable(shell.out));
    QVERIFY2(shell.out.contains(QStringLiteral("salloc: Relinquishing job allocation 1")),
        qPrintable(shell.out));
    QVERIFY2(shell.out.contains(QStringLiteral("salloc=0")), qPrintable(shell.out));
    ShellResult local = cluster.shell(QStringLiteral("salloc -Q -N1 hostname"));
    QCOMPARE(local.out, QStringLiteral("login1\n"));
}

void InteractiveStepsTest::sallocShellIsStepInteractiveAndTheUsersStepsCountFromZero()
{
    // As Slurm 22.05 with use_interactive_step (checked side by side with srun --interactive on
    // the reference cluster): the shell is step N.interactive (SLURM_STEP_ID 4294967290), the
    // user's own srun steps are numbered from 0, and every command names the step so.
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // What the student types in the shell on cn01, read by it from the terminal.
    QFile input(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("typed.txt")));
    QVERIFY(input.open(QIODevice::WriteOnly));
    input.write("echo pid=$$ task_pid=$SLURM_TASK_PID uid=$(id -u) gid=$(id -g) > shell.txt; "
                "env | grep ^SLURM_ | sort > shell-env.txt\n"
                "srun -l bash -c 'echo step=$SLURM_STEP_ID' < /dev/null | sort > steps.txt\n"
                "srun -n1 sleep 4 < /dev/null & sleep 2; squeue -s -j $SLURM_JOB_ID > squeue.txt; "
                "sstat -a -n -P -j $SLURM_JOB_ID -o JobID,NTasks,Nodelist > sstat.txt; "
                "scontrol -o show step $SLURM_JOB_ID.4294967290 > scontrol.txt; "
                "scontrol show step $SLURM_JOB_ID.interactive >> scontrol.txt; "
                "srun --interactive true < /dev/null 2> again.txt; wait\n"
                "exit\n");
    input.close();
    ShellResult shell
        = cluster.shell(QStringLiteral("(sleep 2; cat typed.txt; sleep 8) | "
                                       "script -qfec 'salloc -N2 -n4 -t 5' /dev/null; "
                                       "echo salloc=$?"),
            QString(), 120000);
    QVERIFY2(shell.out.contains(QStringLiteral("salloc=0")), qPrintable(shell.out));
    auto home = [&cluster](const char *name) {
        return readTextFile(cluster.homeFile(QStringLiteral("alice"), QLatin1String(name)));
    };

    // The shell's environment, item by item against a real srun --interactive step.
    QMap<QString, QString> env;
    for (const QString &line : outputLines(home("shell-env.txt"))) {
        env.insert(line.section(QLatin1Char('='), 0, 0), line.section(QLatin1Char('='), 1));
    }
    QCOMPARE(env.value(QStringLiteral("SLURM_STEP_ID")), QStringLiteral("4294967290"));
    QCOMPARE(env.value(QStringLiteral("SLURM_STEPID")), QStringLiteral("4294967290"));
    QCOMPARE(env.value(QStringLiteral("SLURM_STEP_NODELIST")), QStringLiteral("cn01"));
    QCOMPARE(env.value(QStringLiteral("SLURM_STEP_NUM_TASKS")), QStringLiteral("1"));
    QCOMPARE(env.value(QStringLiteral("SLURM_NTASKS")), QStringLiteral("4")); // --preserve-env
    QCOMPARE(env.value(QStringLiteral("SLURM_TASKS_PER_NODE")), QStringLiteral("3,1"));
    QCOMPARE(
        env.value(QStringLiteral("SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0")), QStringLiteral("3,1"));
    QCOMPARE(env.value(QStringLiteral("SLURM_JOB_USER")), QStringLiteral("alice"));
    QCOMPARE(env.value(QStringLiteral("SLURM_GTIDS")), QStringLiteral("0"));
    QCOMPARE(env.value(QStringLiteral("SLURM_TOPOLOGY_ADDR_PATTERN")), QStringLiteral("node"));
    QCOMPARE(env.value(QStringLiteral("SLURM_MPI_TYPE")), QStringLiteral("none"));
    QVERIFY(env.contains(QStringLiteral("SLURM_PRIO_PROCESS")));
    QVERIFY2(!env.contains(QStringLiteral("SLURM_DISTRIBUTION"))
            && !env.contains(QStringLiteral("SLURM_UMASK")),
        qPrintable(home("shell-env.txt")));
    // The shell is the step's task: its own pid, uid and gid.
    const QString ids = home("shell.txt").trimmed();
    QCOMPARE(ids.section(QLatin1Char(' '), 1, 1),
        QStringLiteral("task_pid=") + ids.section(QLatin1Char(' '), 0, 0).mid(4));
    QCOMPARE(QStringLiteral("uid=") + env.value(QStringLiteral("SLURM_JOB_UID")),
        ids.section(QLatin1Char(' '), 2, 2));
    QCOMPARE(QStringLiteral("gid=") + env.value(QStringLiteral("SLURM_JOB_GID")),
        ids.section(QLatin1Char(' '), 3, 3));

    // The user's first srun is step 0; a second interactive step is refused.
    QCOMPARE(outputLines(home("steps.txt")),
        (QStringList{QStringLiteral("0: step=0"), QStringLiteral("1: step=0"),
            QStringLiteral("2: step=0"), QStringLiteral("3: step=0")}));
    QCOMPARE(home("again.txt"),
        QStringLiteral("srun: error: Unable to create step for job 1: Duplicate job step id\n"));

    // Running steps: squeue -s after the numbered ones (by unsigned id), sstat and scontrol in
    // creation order; scontrol reads "1.interactive" as step 0, as Slurm 22.05's does.
    const QStringList queue = outputLines(home("squeue.txt"));
    QCOMPARE(queue.size(), 3);
    QVERIFY2(queue.at(1).startsWith(QStringLiteral("            1.1    sleep       cpu    alice"))
            && queue.at(2).startsWith(QStringLiteral("  1.interactive interact       cpu    alice"))
            && queue.at(2).endsWith(QStringLiteral(" cn01")),
        qPrintable(home("squeue.txt")));
    QCOMPARE(home("sstat.txt"), QStringLiteral("1.interactive|1|cn01\n1.1|1|cn01\n"));
    const QStringList shown = outputLines(home("scontrol.txt"));
    QCOMPARE(shown.size(), 2);
    QVERIFY2(shown.at(0).startsWith(QStringLiteral("StepId=1.interactive UserId="))
            && shown.at(0).contains(
                QStringLiteral(" State=RUNNING Partition=cpu NodeList=cn01 Nodes=1 CPUs=0 Tasks=1 "
                               "Name=interactive "))
            && shown.at(0).contains(QStringLiteral(" CPUFreqReq=Default SrunHost"))
            && !shown.at(0).contains(QStringLiteral("Dist=")),
        qPrintable(home("scontrol.txt")));
    QCOMPARE(shown.at(1), QStringLiteral("Job step 1.0 not found"));

    // Accounting: the interactive step first, holding the job's CPUs on its node, and so it
    // stays in the store a restarted controller reads.
    const QStringList expected{QStringLiteral("1|interactive||cn[01-02]|COMPLETED"),
        QStringLiteral("1.interactive|interactive|1|cn01|COMPLETED"),
        QStringLiteral("1.0|bash|4|cn[01-02]|COMPLETED"),
        QStringLiteral("1.1|sleep|1|cn01|COMPLETED")};
    const QString acct = QStringLiteral("sacct -j 1 -P -n -o JobID,JobName,NTasks,NodeList,State");
    QCOMPARE(outputLines(cluster.shell(acct).out), expected);
    QCOMPARE(
        cluster.shell(QStringLiteral("sacct -j 1.4294967290 -P -n -o JobID,JobName,AllocCPUS")).out,
        QStringLiteral("1.interactive|interactive|3\n"));
    QCOMPARE(cluster.minicluster({QStringLiteral("down")}).exitCode, 0);
    QCOMPARE(cluster.minicluster({QStringLiteral("up")}).exitCode, 0);
    QCOMPARE(outputLines(cluster.shell(acct).out), expected);
}

void InteractiveStepsTest::sallocShellStaysOnTheSubmitHostWithoutUseInteractiveStep()
{
    // Slurm's default (LaunchParameters unset): the shell is salloc's own, on login1.
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("LaunchParameters"), QString()));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult shell = cluster.shell(QStringLiteral(
        "(sleep 2; echo 'echo on=$(hostname) job=$SLURM_JOB_ID step=${SLURM_STEP_ID-none}'; "
        "sleep 2; echo exit) | script -qfec 'salloc -N1 -t 5' /dev/null; echo salloc=$?"));
    QVERIFY2(
        shell.out.contains(QStringLiteral("on=login1 job=1 step=none")), qPrintable(shell.out));
    QVERIFY2(shell.out.contains(QStringLiteral("salloc=0")), qPrintable(shell.out));
}

void InteractiveStepsTest::srunThatWaitsIsQueuedThenRunsWithItsAllocationsVariables()
{
    // srun's own allocation waits behind a batch job that holds cn01: Slurm's two lines, then
    // the variables of the job the event stream showed running, as when it starts at once.
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const QString vars
        = QStringLiteral("echo $SLURM_JOB_ID $SLURM_JOB_NODELIST $SLURM_CLUSTER_NAME");
    ShellResult run = cluster.shell(
        QStringLiteral("sbatch -Q -w cn01 --exclusive -t 1 --wrap 'sleep 3'; "
                       "srun -w cn01 --exclusive -t 1 bash -c '%1'; srun -w cn02 -t 1 bash -c '%1'")
            .arg(vars));
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err,
        QStringLiteral("srun: job 2 queued and waiting for resources\n"
                       "srun: job 2 has been allocated resources\n"));
    const QStringList out = outputLines(run.out);
    QCOMPARE(out.size(), 2);
    const QStringList waited = out.at(0).split(QLatin1Char(' '));
    const QStringList direct = out.at(1).split(QLatin1Char(' '));
    QCOMPARE(waited.size(), 3);
    QCOMPARE(direct.size(), 3);
    QCOMPARE(waited.mid(0, 2), (QStringList{QStringLiteral("2"), QStringLiteral("cn01")}));
    QCOMPARE(direct.mid(0, 2), (QStringList{QStringLiteral("3"), QStringLiteral("cn02")}));
    QVERIFY(!waited.at(2).isEmpty());
    QCOMPARE(waited.at(2), direct.at(2)); // the snapshot's cluster name, as the step reply's
}

QTEST_GUILESS_MAIN(InteractiveStepsTest)
#include "interactive_steps_test.moc"
