// The software environment through real Lmod: module avail/spider/load/unload/list/swap/purge
// on the login node and inside a job, and the Python workflow of the course offline: a venv in
// $SLURM_TMPDIR and pip install --no-index from the cluster's wheelhouse.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

class StorageSoftwareTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void modulesWorkOnTheLoginNode();
    void aJobLoadsPythonAndInstallsFromTheWheelhouse();

private:
    std::unique_ptr<ClusterFixture> m_cluster;
};

void StorageSoftwareTest::initTestCase()
{
    if (!QFile::exists(QStringLiteral("/usr/share/lmod/lmod/init/bash"))) {
        QSKIP("Lmod is not installed (Debian package lmod; scripts/deps.sh installs it)");
    }
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
}

void StorageSoftwareTest::cleanupTestCase()
{
    m_cluster.reset();
}

void StorageSoftwareTest::modulesWorkOnTheLoginNode()
{
    ShellResult r = m_cluster->shell(QStringLiteral(
        "exec 2>&1; echo '== list'; module list; echo '== avail'; module avail; "
        "echo '== spider'; module spider python; echo '== load'; module load python cuda; "
        "module list; echo CUDA_HOME=$CUDA_HOME; echo '== unload'; module unload cuda; "
        "echo CUDA_HOME=$CUDA_HOME; echo '== swap'; module swap StdEnv/2023 StdEnv/2020; "
        "module -t list; echo STDENV=$MINICLUSTER_STDENV; "
        "echo '== purge'; module purge; module list; echo '== unknown'; module load nosuch; "
        "echo '== pager'; echo LMOD_PAGER=$LMOD_PAGER"));
    const QString out = r.out;
    auto section = [&](const QString &name) {
        return storage_test::section(out, name);
    };
    QVERIFY2(section(QStringLiteral("list")).contains(QStringLiteral("StdEnv/2023 (S)")),
        qPrintable(out));
    QVERIFY(section(QStringLiteral("avail")).contains(QStringLiteral("python/3.")));
    QVERIFY(section(QStringLiteral("avail")).contains(QStringLiteral("cuda/12.2")));
    QVERIFY(section(QStringLiteral("spider")).contains(QStringLiteral("module load python/3.")));
    QVERIFY(section(QStringLiteral("load")).contains(QStringLiteral("cuda/12.2")));
    QVERIFY(section(QStringLiteral("load")).contains(QStringLiteral("CUDA_HOME=/")));
    QVERIFY(section(QStringLiteral("unload")).contains(QStringLiteral("CUDA_HOME=")));
    QVERIFY(!section(QStringLiteral("unload")).contains(QStringLiteral("CUDA_HOME=/")));
    // The family swaps 2023 for 2020 (the slides' StdEnv), gcc and python stay loaded.
    QVERIFY2(section(QStringLiteral("swap")).contains(QStringLiteral("StdEnv/2023 => StdEnv/2020")),
        qPrintable(out));
    QVERIFY(section(QStringLiteral("swap")).contains(QStringLiteral("\nStdEnv/2020\n")));
    QVERIFY(section(QStringLiteral("swap")).contains(QStringLiteral("\npython/3.")));
    QVERIFY(section(QStringLiteral("swap")).contains(QStringLiteral("STDENV=2020")));
    QVERIFY(section(QStringLiteral("purge")).contains(QStringLiteral("were not unloaded")));
    QVERIFY(!section(QStringLiteral("purge")).contains(QStringLiteral("python/3.")));
    QVERIFY(section(QStringLiteral("unknown")).contains(QStringLiteral("unknown")));
    // Lmod's own pager (less -F), not Debian's /bin/more that pages even a two-line list.
    QVERIFY(section(QStringLiteral("pager")).contains(QStringLiteral("LMOD_PAGER=less\n")));
}

void StorageSoftwareTest::aJobLoadsPythonAndInstallsFromTheWheelhouse()
{
    QVERIFY(writeFile(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("py.sh")),
        QStringLiteral("#!/bin/bash\n"
                       "#SBATCH --time=00:10:00\n"
                       "#SBATCH --output=py-%j.out\n"
                       "module purge\n"
                       "module load python\n"
                       "module list 2>&1\n"
                       "virtualenv --no-download $SLURM_TMPDIR/env\n"
                       "source $SLURM_TMPDIR/env/bin/activate\n"
                       "pip install --no-index hpcdemo\n"
                       "python -m hpcdemo where\n"
                       "pip install --no-index tensorflow || echo NO-TF\n"
                       "deactivate\n"
                       "house=$PIP_FIND_LINKS; unset PIP_FIND_LINKS\n"
                       "python -m venv $SLURM_TMPDIR/env2\n"
                       "$SLURM_TMPDIR/env2/bin/pip install --no-index --find-links \"$house\" "
                       "hpcdemo\n"
                       "$SLURM_TMPDIR/env2/bin/hpcdemo where | sed 's/^/ENV2 /'\n"
                       "virtualenv -p python3.9 $SLURM_TMPDIR/env3 2>&1 || echo NO-PY39\n"
                       "echo END\n")));
    ShellResult submit = m_cluster->shell(QStringLiteral("sbatch --parsable py.sh"));
    QCOMPARE(submit.exitCode, 0);
    const QString out = m_cluster->homeFile(QStringLiteral("alice"),
        QStringLiteral("py-") + submit.out.trimmed() + QStringLiteral(".out"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(out).contains(QStringLiteral("\nEND\n")), 120000);
    const QString text = readFile(out);
    QVERIFY2(text.contains(QStringLiteral("python/3.")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("Successfully installed hpcdemo-1.0")));
    QVERIFY(text.contains(QRegularExpression(QStringLiteral("host: +cn01"))));
    QVERIFY(
        text.contains(QRegularExpression(QStringLiteral("prefix: +\\S*/alice\\.\\d+\\.0/env"))));
    // Offline: what the wheelhouse lacks is not found, as on a cluster without that wheel.
    QVERIFY(text.contains(QStringLiteral("No matching distribution found for tensorflow")));
    QVERIFY(text.contains(QStringLiteral("NO-TF")));
    // python -m venv, and pip's own --find-links without the module's PIP_FIND_LINKS.
    QVERIFY(text.contains(
        QRegularExpression(QStringLiteral("ENV2 prefix: +\\S*/alice\\.\\d+\\.0/env2"))));
    QCOMPARE(text.count(QStringLiteral("Successfully installed hpcdemo-1.0")), 2);
    // virtualenv -p: a Python the module does not have is refused, as real virtualenv does.
    QVERIFY(text.contains(QStringLiteral("-p python3.9 is not available")));
    QVERIFY(text.contains(QStringLiteral("NO-PY39")));
}

QTEST_GUILESS_MAIN(StorageSoftwareTest)
#include "storage_software_test.moc"
