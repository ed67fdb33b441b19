// Nodes you can reach (issues #16 and #15): `ssh NODE` from login1 lands in the user's running
// job on NODE, as pam_slurm_adopt allows it on the Alliance's clusters, and is refused with
// pam_slurm_adopt's words otherwise; a web server that a job runs on a compute node is reached
// from the laptop through an `ssh -f -N -L PORT:NODE:PORT` tunnel to login1, the Alliance's
// documented way to open a notebook. As root, each node has a network of its own
// (mc/emu/node_network.h): two jobs on two nodes serve the same port.
#include "cluster_fixture.h"

#include <QStandardPaths>
#include <QtTest>

#include <unistd.h>

namespace {

// Shell lines that wait (up to a minute) until job `id` runs.
QString waitRunning(const QString &id)
{
    return QStringLiteral("for i in $(seq 600); do [ \"$(squeue -h -j %1 -o %T)\" = RUNNING ] "
                          "&& break; sleep 0.1; done\n")
        .arg(id);
}

} // namespace

class NodeSshTest : public QObject {
    Q_OBJECT

private slots:
    void sshToANodeWithoutAJobThereIsRefusedAsPamSlurmAdoptDoes();
    void sshToANodeOfARunningJobLandsInThatJob();
    void aPageServedByAJobIsFetchedFromTheLaptopThroughAnSshTunnel();
    void aNotebookOnAComputeNodeAnswersTheLaptopThroughAnSshTunnel();
    void eachNodeHasItsOwnNetworkSoTwoJobsServeTheSamePort();
};

void NodeSshTest::sshToANodeWithoutAJobThereIsRefusedAsPamSlurmAdoptDoes()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const QString refusal
        = QStringLiteral("Access denied by pam_slurm_adopt: you have no active jobs on this node\n"
                         "Connection closed by %1 port 22\n");
    ShellResult ssh = cluster.shell(QStringLiteral("ssh cn01 hostname"));
    QCOMPARE(ssh.exitCode, 255);
    QCOMPARE(ssh.out, QString());
    QCOMPARE(ssh.err,
        refusal.arg(
            cluster.shell(QStringLiteral("getent hosts cn01 | cut -d' ' -f1")).out.trimmed()));
    // A job of another user on the node gives no access either.
    ShellResult other = cluster.shell(QStringLiteral("sbatch -Q -w cn02 -o /dev/null --wrap 'sleep "
                                                     "300'\n")
            + waitRunning(QStringLiteral("1")),
        QStringLiteral("bob"));
    QCOMPARE(other.exitCode, 0);
    ssh = cluster.shell(QStringLiteral("ssh -o BatchMode=yes cn02 true"));
    QCOMPARE(ssh.exitCode, 255);
    QVERIFY2(ssh.err.startsWith(QStringLiteral("Access denied by pam_slurm_adopt")),
        qPrintable(ssh.err));
    cluster.shell(QStringLiteral("scancel 1"), QStringLiteral("bob"));
}

void NodeSshTest::sshToANodeOfARunningJobLandsInThatJob()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run
        = cluster.shell(QStringLiteral("sbatch -Q -w cn02 -o /dev/null --wrap 'sleep 300'\n")
            + waitRunning(QStringLiteral("1"))
            + QStringLiteral("ssh cn02 'hostname; echo $SLURM_JOB_ID; exit 3'; echo rc=$?\n"
                             "echo through-stdin | ssh -T -l $USER cn02 cat\n"));
    QCOMPARE(run.err, QString()); // ssh says nothing of the remote exit code, srun would
    QCOMPARE(outputLines(run.out),
        (QStringList{QStringLiteral("cn02"), QStringLiteral("1"), QStringLiteral("rc=3"),
            QStringLiteral("through-stdin")}));
    ShellResult err = cluster.shell(QStringLiteral("ssh cn02 'echo oops >&2; exit 4'"));
    QCOMPARE(err.exitCode, 4);
    QCOMPARE(err.err, QStringLiteral("oops\n"));

    run = cluster.shell(QStringLiteral(
        // the session is one of the job's: it ends with the job
        "ssh cn02 'echo started; exec sleep 300' > started.txt & pid=$!\n"
        "for i in $(seq 600); do [ -s started.txt ] && break; sleep 0.1; done\n"
        "scancel 1; wait $pid; echo ended=$?\n"
        "ssh cn02 true; echo after=$?\n"));
    QStringList lines = outputLines(run.out);
    QVERIFY2(lines.value(0).startsWith(QStringLiteral("ended=")), qPrintable(run.out));
    QVERIFY2(lines.value(0) != QStringLiteral("ended=0"), qPrintable(run.out + run.err));
    QCOMPARE(lines.value(1), QStringLiteral("after=255"));
    QCOMPARE(cluster.shell(QStringLiteral("cat started.txt")).out, QStringLiteral("started\n"));
    QVERIFY2(run.err.contains(QStringLiteral(
                 "Access denied by pam_slurm_adopt: you have no active jobs on this node\n")),
        qPrintable(run.err));

    // What needs an SSH channel to the node says what works instead, and so does another
    // user's name.
    ShellResult tunnel = cluster.shell(QStringLiteral("ssh -N -L 8888:localhost:8888 cn01"));
    QCOMPARE(tunnel.exitCode, 255);
    QCOMPARE(tunnel.err,
        QStringLiteral("ssh: cn01: minicluster does not support ssh -N to a compute node (ssh "
                       "NODE gives a shell or runs a command in your job there); forward a port "
                       "from your laptop through the login node instead: ssh -L "
                       "8888:cn01:8888 USER@CLUSTER\n"));
    ShellResult bob = cluster.shell(QStringLiteral("ssh bob@cn01 true"));
    QCOMPARE(bob.exitCode, 255);
    QCOMPARE(bob.err,
        QStringLiteral("bob@cn01: Permission denied "
                       "(publickey,gssapi-keyex,gssapi-with-mic,hostbased).\n"));
}

void NodeSshTest::aPageServedByAJobIsFetchedFromTheLaptopThroughAnSshTunnel()
{
    if (!bubblewrapWorks()) {
        QSKIP("ssh from the laptop needs the bubblewrap sandbox");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // The job serves its $SLURM_TMPDIR on a port the system picks; the port is in its output.
    ShellResult job = cluster.shell(QStringLiteral(
        "sbatch -Q -w cn01 -o web.out --wrap 'cd $SLURM_TMPDIR && echo page of $(hostname) job "
        "$SLURM_JOB_ID > page.txt && exec python3 -u -m http.server 0'\n"
        "for i in $(seq 600); do grep -q ' port ' web.out 2>/dev/null && break; sleep 0.1; done\n"
        "sed -n 's/.* port \\([0-9]*\\) .*/\\1/p' web.out\n"));
    const QString port = job.out.trimmed();
    QVERIFY2(!port.isEmpty(), qPrintable(job.out + job.err));

    const QString laptop = QStringLiteral(
        "lp=$(python3 -c 'import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); "
        "print(s.getsockname()[1])')\n"
        "ssh -f -N -o ControlMaster=yes -o ControlPath=~/.ssh/tunnel -L $lp:cn01:%1 "
        "minicluster || exit 9\n"
        "curl -sS http://127.0.0.1:$lp/page.txt; rc=$?\n"
        "ssh -o ControlPath=~/.ssh/tunnel -O exit minicluster 2>/dev/null\n"
        "exit $rc\n")
                               .arg(port);
    ShellResult fetched
        = cluster.minicluster({QStringLiteral("workstation"), QStringLiteral("-c"), laptop});
    QCOMPARE(fetched.err, QString());
    QCOMPARE(fetched.exitCode, 0);
    QCOMPARE(fetched.out, QStringLiteral("page of cn01 job 1\n"));
    cluster.shell(QStringLiteral("scancel 1"));
}

// The course's notebook (issue #15), the Alliance's way: jupyter started in a job on a compute
// node from the modules, then reached from the laptop through an ssh tunnel via login1.
void NodeSshTest::aNotebookOnAComputeNodeAnswersTheLaptopThroughAnSshTunnel()
{
    if (!bubblewrapWorks()) {
        QSKIP("ssh from the laptop needs the bubblewrap sandbox");
    }
    if (QStandardPaths::findExecutable(QStringLiteral("jupyter-notebook")).isEmpty()) {
        QSKIP("jupyter is not installed (Debian's jupyter-notebook; scripts/deps.sh installs it)");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // Its port is the first free one from 8888 (as on a shared node), read from its log.
    ShellResult job = cluster.shell(QStringLiteral(
        "sbatch -Q -w cn01 -t 10 -o nb.out --wrap 'module load python scipy-stack && "
        "exec jupyter notebook --no-browser --ip=$(hostname) --port=8888 "
        "--NotebookApp.token=course'\n"
        "for i in $(seq 900); do grep -q 'http://cn01:[0-9]*/' nb.out 2>/dev/null && break; "
        "sleep 0.1; done\n"
        "grep -o 'http://cn01:[0-9]*/' nb.out | head -1 | sed 's/.*:\\([0-9]*\\)\\/$/\\1/'\n"));
    const QString port = job.out.trimmed();
    QVERIFY2(port.toInt() >= 8888,
        qPrintable(job.out + job.err
            + readTextFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("nb.out")))));

    const QString laptop = QStringLiteral(
        "lp=$(python3 -c 'import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); "
        "print(s.getsockname()[1])')\n"
        "ssh -f -N -o ControlMaster=yes -o ControlPath=~/.ssh/nbtunnel -L $lp:cn01:%1 "
        "minicluster || exit 9\n"
        "curl -sS http://127.0.0.1:$lp/api; echo\n"
        "curl -sS -o /dev/null -w '%{http_code}\\n' http://127.0.0.1:$lp/api/status\n"
        "curl -sS \"http://127.0.0.1:$lp/api/status?token=course\"; rc=$?\n"
        "ssh -o ControlPath=~/.ssh/nbtunnel -O exit minicluster 2>/dev/null\n"
        "exit $rc\n")
                               .arg(port);
    ShellResult fetched
        = cluster.minicluster({QStringLiteral("workstation"), QStringLiteral("-c"), laptop});
    QVERIFY2(fetched.exitCode == 0, qPrintable(fetched.out + fetched.err));
    const QStringList lines = fetched.out.split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 3, qPrintable(fetched.out + fetched.err));
    // The notebook server answers with its version; its status needs the token.
    QVERIFY2(lines[0].startsWith(QStringLiteral("{\"version\": ")), qPrintable(fetched.out));
    QCOMPARE(lines[1], QStringLiteral("403"));
    QVERIFY2(lines[2].contains(QStringLiteral("\"kernels\": 0")), qPrintable(fetched.out));
    cluster.shell(QStringLiteral("scancel 1"));
}

void NodeSshTest::eachNodeHasItsOwnNetworkSoTwoJobsServeTheSamePort()
{
    if (::geteuid() != 0 || !bubblewrapWorks()) {
        QSKIP("a network namespace per node needs root and the bubblewrap sandbox");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run = cluster.shell(QStringLiteral(
        "for n in cn01 cn02; do sbatch -Q -w $n -o /dev/null --wrap 'mkdir $SLURM_TMPDIR/w && "
        "cd $SLURM_TMPDIR/w && hostname > who && exec python3 -m http.server 3000'; done\n"
        "for i in $(seq 600); do curl -sf cn01:3000/who >/dev/null && curl -sf cn02:3000/who "
        ">/dev/null && break; sleep 0.1; done\n"
        "curl -sS http://cn01:3000/who; curl -sS http://cn02:3000/who\n"
        "srun -w cn03 curl -sS http://cn02:3000/who\n"
        "srun -w cn01 curl -sS http://localhost:3000/who\n"
        "srun -w cn03 curl -sS http://localhost:3000/who 2>/dev/null || echo cn03: nothing\n"
        "scancel 1 2\n"));
    QCOMPARE(run.err, QString());
    QCOMPARE(outputLines(run.out),
        (QStringList{QStringLiteral("cn01"), QStringLiteral("cn02"), QStringLiteral("cn02"),
            QStringLiteral("cn01"), QStringLiteral("cn03: nothing")}));
}

QTEST_GUILESS_MAIN(NodeSshTest)
#include "node_ssh_test.moc"
