// CPU binding, as Slurm's task/cgroup and task/affinity give it (issue #15): a job sees the CPUs
// it was given (nproc, os.sched_getaffinity, SLURM_CPUS_ON_NODE agree), two jobs of one node
// get disjoint CPUs, and where a cpuset controller is available (cgroup v1 or v2 as root) the
// job's cgroup holds them in cpuset.cpus, so a job cannot widen its own affinity. Without one
// (rlimit mode) the affinity alone binds it, and `minicluster status` says so.
#include "cluster_fixture.h"

#include <QFile>
#include <QtTest>

#include <sched.h>

namespace {

// What a job prints of its CPUs: its affinity, nproc, Slurm's count, the cpuset of its cgroup
// (v1 hierarchy or v2), and how many CPUs it gets when it asks for the machine's first two.
const char *const kShowCpus = R"SH(cat > cpus.sh <<'END'
#!/bin/bash
grep Cpus_allowed_list /proc/self/status
echo "nproc: $(nproc) cpus_on_node: $SLURM_CPUS_ON_NODE"
v1=$(awk -F: '$2 == "cpuset" { print $3 }' /proc/self/cgroup)
[ -n "$v1" ] && echo "cpuset.cpus: $(cat /sys/fs/cgroup/cpuset$v1/cpuset.cpus)"
v2=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
[ -r /sys/fs/cgroup$v2/cpuset.cpus ] && echo "cpuset.cpus: $(cat /sys/fs/cgroup$v2/cpuset.cpus)"
python3 -c 'import os; os.sched_setaffinity(0, {0, 1}); print("widened:", len(os.sched_getaffinity(0)))'
echo done
sleep "${1:-0}"
END
chmod +x cpus.sh)SH";

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

int usableCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    return ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

} // namespace

class CpuBindingTest : public QObject {
    Q_OBJECT

private slots:
    void aJobSeesItsCpusAndJobsOfANodeShareNone_data();
    void aJobSeesItsCpusAndJobsOfANodeShareNone();
};

void CpuBindingTest::aJobSeesItsCpusAndJobsOfANodeShareNone_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<bool>("cpuset"); // the job's cgroup holds its CPUs
    QTest::newRow("cgroup-v2") << QStringLiteral("cgroup-v2") << true;
    QTest::newRow("cgroup-v1") << QStringLiteral("cgroup-v1") << true;
    QTest::newRow("rlimit (affinity only)") << QStringLiteral("rlimit") << false;
}

void CpuBindingTest::aJobSeesItsCpusAndJobsOfANodeShareNone()
{
    QFETCH(QString, mode);
    QFETCH(bool, cpuset);
    if (usableCpus() < 2) {
        QSKIP("this machine gives the tests a single CPU: there is nothing to tell apart");
    }
    ClusterFixture cluster;
    if (!cluster.up(QStringList{QStringLiteral("--limits"), mode})) {
        if (cluster.lastError().contains(QStringLiteral("--limits"))) {
            QSKIP(qPrintable(cluster.lastError().trimmed()));
        }
        QFAIL(qPrintable(cluster.lastError()));
    }
    const ShellResult status = cluster.minicluster({QStringLiteral("status")});
    if (cpuset && status.out.contains(QStringLiteral("no cpuset"))) {
        QSKIP(qPrintable(QStringLiteral("no cpuset controller here: ") + status.out.trimmed()));
    }
    QVERIFY2(status.out.contains(cpuset ? QStringLiteral("each job's CPUs in its cpuset.cpus")
                                        : QStringLiteral("sched_setaffinity only")),
        qPrintable(status.out));

    // Two one-CPU jobs held together on one node, then a two-CPU job there.
    QCOMPARE(cluster.shell(QString::fromUtf8(kShowCpus)).exitCode, 0);
    const ShellResult submit = cluster.shell(
        QStringLiteral("sbatch -w cn01 -c1 -o a.out cpus.sh 60; sbatch -w cn01 -c1 -o b.out "
                       "cpus.sh 60"));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\n"));
    const QString a = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("a.out"));
    const QString b = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("b.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(a).contains(QStringLiteral("done"))
            && readFile(b).contains(QStringLiteral("done")),
        60000);
    const QString first = readFile(a);
    const QString second = readFile(b);
    // The node's CPU 0 and CPU 1 are the machine's first two usable CPUs.
    QVERIFY2(first.startsWith(QStringLiteral("Cpus_allowed_list:\t0\nnproc: 1 cpus_on_node: 1\n")),
        qPrintable(first));
    QVERIFY2(second.startsWith(QStringLiteral("Cpus_allowed_list:\t1\nnproc: 1 cpus_on_node: 1\n")),
        qPrintable(second));
    if (cpuset) {
        QVERIFY2(first.contains(QStringLiteral("cpuset.cpus: 0\n")), qPrintable(first));
        QVERIFY2(second.contains(QStringLiteral("cpuset.cpus: 1\n")), qPrintable(second));
        // The cgroup holds: asking for more CPUs gets the job's own only.
        QVERIFY2(first.contains(QStringLiteral("widened: 1\n")), qPrintable(first));
    } else {
        // Without a cpuset nothing stops a job from widening its affinity (said by status).
        QVERIFY2(first.contains(QStringLiteral("widened: 2\n")), qPrintable(first));
    }
    cluster.shell(QStringLiteral("scancel 1 2"));

    const ShellResult two
        = cluster.shell(QStringLiteral("sbatch --wait -w cn01 -c2 -o c.out cpus.sh"));
    QCOMPARE(two.exitCode, 0);
    const QString both
        = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("c.out")));
    QVERIFY2(both.startsWith(QStringLiteral("Cpus_allowed_list:\t0-1\nnproc: 2 cpus_on_node: 2\n")),
        qPrintable(both));
    if (cpuset) {
        QVERIFY2(both.contains(QStringLiteral("cpuset.cpus: 0-1\n")), qPrintable(both));
    }
}

QTEST_GUILESS_MAIN(CpuBindingTest)
#include "cpu_binding_test.moc"
