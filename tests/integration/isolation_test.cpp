// Nobody in (issue #18): emulated users are real uids of their own, so a job of alice's
// cannot read bob's mode-600 file, write in his mode-700 folder, read his script in the
// node's spool, or signal his job or a host process, which its node's PID namespace does not
// even show; run/ is read-only in the nodes; and the controller takes a client's user from the
// kernel, so requests naming bob (cancel, hold, rename, submit), `user: prof` draining a node,
// a node_register or a shutdown sent from alice's job are refused with Slurm's
// "Access/permission denied". Real clusters, real
// processes, as root (where `minicluster status` says users are isolated); skipped elsewhere.
#include "cluster_fixture.h"

#include <QFile>
#include <QProcess>
#include <QtTest>

#include <unistd.h>

namespace {

// Bob's job: its pid where alice's job can find it (the node's shared /tmp), then it waits.
constexpr const char *kBobJob = R"(#!/bin/bash
echo $$ > /tmp/bob-job.pid
chmod 644 /tmp/bob-job.pid
sleep 300
)";

// Alice's job on the same node: every attempt prints "<what> rc=<status>".
constexpr const char *kAliceJob = R"SH(#!/bin/bash
#SBATCH -w cn01
cat /home/bob/secret.txt > /dev/null 2>&1; echo "read rc=$?"
touch /home/bob/private/x 2>/dev/null; echo "write rc=$?"
cat /var/spool/slurmd/job00001/slurm_script > /dev/null 2>&1; echo "spool rc=$?"
kill -TERM "$(cat /tmp/bob-job.pid)" 2>/dev/null; echo "kill-job rc=$?"
kill -TERM "$HOST_PID" 2>/dev/null; echo "kill-host rc=$?"
[ -e "/proc/$HOST_PID" ]; echo "see-host rc=$?"
ps -e -o comm= | grep -q '^minicluster-ctl'; echo "see-controller rc=$?"
echo 1 > /opt/minicluster/run/ctld.pid 2>/dev/null; echo "run rc=$?"
python3 - <<'EOF'
import json, os, socket
s = socket.socket(socket.AF_UNIX)
s.connect(os.environ["MINICLUSTER_SOCKET"])
f = s.makefile("rw")
for name, request in [
        ("cancel", {"op": "cancel", "user": "bob", "job_ids": ["1"]}),
        ("hold", {"op": "hold", "user": "bob", "job_ids": ["1"]}),
        ("update", {"op": "update", "user": "bob", "job_id": 1, "fields": {"name": "x"}}),
        ("submit", {"op": "submit", "job": {"user": "bob", "uid": 1002, "gid": 1002,
                                            "script": "#!/bin/bash\ntrue\n"}}),
        ("drain", {"op": "node_update", "user": "prof", "nodes": "cn02", "state": "DRAIN",
                   "reason": "x"}),
        ("register", {"op": "node_register", "node": "cn03"}),
        ("shutdown", {"op": "shutdown"})]:
    f.write(json.dumps(request) + "\n")
    f.flush()
    reply = json.loads(f.readline())
    print(name, reply.get("error", "accepted"))
EOF
)SH";

} // namespace

class IsolationTest : public QObject {
    Q_OBJECT

private slots:
    void aJobCannotReachAClassmatesFilesJobsOrTheHostNorSpeakForAnother();
};

void IsolationTest::aJobCannotReachAClassmatesFilesJobsOrTheHostNorSpeakForAnother()
{
    if (!bubblewrapWorks() || ::geteuid() != 0) {
        QSKIP("users are isolated only as root with bubblewrap (minicluster status says so)");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult status = cluster.minicluster({QStringLiteral("status")});
    QVERIFY2(status.out.contains(QStringLiteral("users: isolated")), qPrintable(status.out));

    for (const auto &[name, text] :
        {std::pair{QStringLiteral("bob.sh"), kBobJob}, {QStringLiteral("alice.sh"), kAliceJob}}) {
        QFile script(cluster.homeFile(name.left(name.indexOf(QLatin1Char('.'))), name));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(text);
    }
    ShellResult bob = cluster.shell(QStringLiteral("echo secret > secret.txt && chmod 600 "
                                                   "secret.txt && mkdir -m 700 private && "
                                                   "sbatch -w cn01 -o bob.out bob.sh"),
        QStringLiteral("bob"));
    QCOMPARE(bob.exitCode, 0);
    const QString bobPid = cluster.dir() + QStringLiteral("/nodes/cn01/tmp/bob-job.pid");
    QTRY_VERIFY_WITH_TIMEOUT(!readTextFile(bobPid).trimmed().isEmpty(), 30000);

    // A host process of the cluster's owner, which no job may signal.
    QProcess host;
    host.start(QStringLiteral("sleep"), {QStringLiteral("300")});
    QVERIFY(host.waitForStarted());
    ShellResult alice
        = cluster.shell(QStringLiteral("HOST_PID=%1 sbatch --export=ALL -o alice.out alice.sh")
                            .arg(host.processId()),
            QStringLiteral("alice"));
    QCOMPARE(alice.exitCode, 0);
    const QString out = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("alice.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(out).contains(QStringLiteral("shutdown ")), 60000);
    const QStringList lines = outputLines(readTextFile(out));
    // kill-host: a uid of the user's own cannot signal the owner's processes, nor reach them
    // from the node's PID namespace, where they are not seen (see-host, see-controller); run:
    // run/ is read-only in the nodes.
    for (const char *attempt :
        {"read", "write", "spool", "kill-job", "kill-host", "see-host", "see-controller", "run"}) {
        QVERIFY2(lines.contains(QStringLiteral("%1 rc=1").arg(QLatin1String(attempt))),
            qPrintable(lines.join(QLatin1Char('\n'))));
    }
    for (const char *request :
        {"cancel", "hold", "update", "submit", "drain", "register", "shutdown"}) {
        QVERIFY2(lines.contains(
                     QStringLiteral("%1 Access/permission denied").arg(QLatin1String(request))),
            qPrintable(lines.join(QLatin1Char('\n'))));
    }

    // Nothing happened: bob's job runs under its name, alone, cn02 is not drained, the host
    // process lives, the file is whole and the folder empty.
    QCOMPARE(host.state(), QProcess::Running);
    ShellResult queue = cluster.shell(QStringLiteral("squeue -h -u bob -o '%i %j %T'"));
    QCOMPARE(queue.out.trimmed(), QStringLiteral("1 bob.sh RUNNING"));
    ShellResult node = cluster.shell(QStringLiteral("sinfo -h -n cn02 -o %t"));
    QVERIFY2(!node.out.contains(QStringLiteral("drain")), qPrintable(node.out));
    QCOMPARE(readTextFile(cluster.homeFile(QStringLiteral("bob"), QStringLiteral("secret.txt"))),
        QStringLiteral("secret\n"));
    QVERIFY(!QFile::exists(cluster.homeFile(QStringLiteral("bob"), QStringLiteral("private/x"))));
    host.kill();
    host.waitForFinished();
}

QTEST_GUILESS_MAIN(IsolationTest)
#include "isolation_test.moc"
