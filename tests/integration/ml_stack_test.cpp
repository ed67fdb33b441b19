// The ML course's software and node image on a real cluster (issue #15): Python's ML stack from
// Debian's packages as the modules scipy-stack and pytorch and as wheels that pip installs
// offline in a job; the node image is the cluster's (/bin/sh is bash, so `module` reaches
// `sbatch --wrap`; no host /usr/local, /etc/profile.d, /etc/slurm); a job sees only its CPUs.
#include "storage_support.h"

#include <QtTest>

#include <sched.h>

using namespace storage_test;

class MlStackTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void theMlModulesLiveInThePythonHierarchy();
    void aJobInstallsTheMlStackFromTheWheelhouse();
    void wrapScriptsRunInTheClustersNodeImage();
    void aJobSeesOnlyItsCpus();

private:
    // Submits `args` (sbatch options and script) and returns its output once `END` is there.
    QString runJob(const QString &args, const QString &outName, int timeoutMs = 180000);
    std::unique_ptr<ClusterFixture> m_cluster;
};

void MlStackTest::initTestCase()
{
    if (!QFile::exists(QStringLiteral("/usr/share/lmod/lmod/init/bash"))) {
        QSKIP("Lmod is not installed (Debian package lmod; scripts/deps.sh installs it)");
    }
    // No skip when the ML packages are missing: the build then has no scipy-stack, and these
    // tests fail saying which Debian packages the set-up must install.
    QVERIFY2(QFile::exists(QStringLiteral(
                 MC_BIN_DIR "/../share/minicluster/software/wheelhouse/debian-wheels.txt")),
        "the ML wheels were not built: install python3-numpy python3-scipy python3-pandas "
        "python3-matplotlib python3-sklearn python3-torch python3-torchvision python3-notebook "
        "and run cmake again");
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
}

void MlStackTest::cleanupTestCase()
{
    m_cluster.reset();
}

QString MlStackTest::runJob(const QString &args, const QString &outName, int timeoutMs)
{
    ShellResult submit = m_cluster->shell(QStringLiteral("sbatch --parsable ") + args);
    if (submit.exitCode != 0) {
        return QStringLiteral("sbatch failed: ") + submit.err;
    }
    const QString out = m_cluster->homeFile(QStringLiteral("alice"),
        QString(outName).replace(QStringLiteral("%j"), submit.out.trimmed()));
    QElapsedTimer timer;
    timer.start();
    while (!readFile(out).contains(QStringLiteral("\nEND\n")) && timer.elapsed() < timeoutMs) {
        QTest::qWait(200);
    }
    return readFile(out);
}

void MlStackTest::theMlModulesLiveInThePythonHierarchy()
{
    ShellResult r = m_cluster->shell(QStringLiteral(
        "exec 2>&1; echo '== spider'; module spider pytorch; "
        "echo '== before'; module load pytorch; "
        "echo '== bare'; module load python; python -c 'import numpy' 2>&1 | tail -n 1; "
        "echo '== loaded'; module load scipy-stack pytorch; module -t list; "
        "python -c 'import numpy, scipy, pandas, matplotlib, sklearn, torch, torchvision; "
        "print(\"IMPORTED\", torch.__file__, torch.cuda.is_available())'; "
        "command -v jupyter-notebook; "
        "echo '== missing'; module load python/3.11.5; module spider python/3.9.6; echo '== end'"));
    const QString text = r.out;
    auto section = [&](const QString &name) {
        return storage_test::section(text, name);
    };
    // Lmod's own words for a module of a hierarchy: load python first.
    QVERIFY2(section(QStringLiteral("spider"))
                 .contains(QRegularExpression(QStringLiteral(
                     "You will need to load all module\\(s\\) on any one of the lines below "
                     "before the \"pytorch/[0-9.]+\" module is available to load.\\s+"
                     "python/3\\.[0-9.]+"))),
        qPrintable(text));
    QVERIFY2(section(QStringLiteral("before")).contains(QStringLiteral("module spider pytorch")),
        qPrintable(text));
    // python alone is the cluster's: the host's Debian packages are not on its path.
    QVERIFY2(section(QStringLiteral("bare"))
                 .contains(QStringLiteral("ModuleNotFoundError: No module named 'numpy'")),
        qPrintable(text));
    const QString loaded = section(QStringLiteral("loaded"));
    QVERIFY2(loaded.contains(QStringLiteral("\nscipy-stack/2023a\n")), qPrintable(text));
    QVERIFY2(loaded.contains(QRegularExpression(QStringLiteral("\npytorch/[0-9.]+\n"))),
        qPrintable(text));
    QVERIFY2(loaded.contains(QRegularExpression(QStringLiteral(
                 "IMPORTED /opt/minicluster/software/python-stacks/pytorch/\\S+/torch/__init__.py "
                 "False"))),
        qPrintable(text));
    QVERIFY2(loaded.contains(QStringLiteral("/scipy-stack/2023a/bin/jupyter-notebook")),
        qPrintable(text));
    // Versions a document names that this cluster has not: Lmod's own answers.
    const QString missing = section(QStringLiteral("missing"));
    QVERIFY2(missing.contains(
                 QRegularExpression(QStringLiteral("are unknown:\\s+\"python/3\\.11\\.5\""))),
        qPrintable(text));
    QVERIFY2(
        missing.contains(QStringLiteral("Unable to find: \"python/3.9.6\"")), qPrintable(text));
}

void MlStackTest::aJobInstallsTheMlStackFromTheWheelhouse()
{
    QVERIFY(
        writeFile(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("requirements.txt")),
            QStringLiteral("numpy\npandas>=1.5\nscikit-learn\ntorchvision\n")));
    QVERIFY(writeFile(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("ml.sh")),
        QStringLiteral("#!/bin/bash\n"
                       "#SBATCH --time=00:20:00\n"
                       "#SBATCH --mem=4000M\n"
                       "#SBATCH --output=ml-%j.out\n"
                       "module load python\n"
                       "avail_wheels torch numpy scikit-learn\n"
                       "virtualenv --no-download $SLURM_TMPDIR/env\n"
                       "source $SLURM_TMPDIR/env/bin/activate\n"
                       "pip install --no-index numpy torch scikit-learn pandas 2>&1 | tail -n 1\n"
                       "python -c 'import torch, sklearn, pandas, numpy; "
                       "from sklearn.datasets import load_digits; "
                       "print(\"VENV\", torch.__file__, load_digits().data.shape)'\n"
                       "pip install --no-index -r requirements.txt 2>&1 | tail -n 1\n"
                       "pip check\n"
                       "pip install --no-index tensorflow 2>&1; echo \"PIP-EXIT $?\"\n"
                       "echo END\n")));
    const QString text = runJob(QStringLiteral("ml.sh"), QStringLiteral("ml-%j.out"), 300000);
    QVERIFY2(text.contains(QStringLiteral("\nEND\n")), qPrintable(text));
    // avail_wheels: name and version of each wheel.
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\ntorch +1\\.13\\S* +cp3\\d+ "))),
        qPrintable(text));
    QVERIFY2(
        text.contains(QRegularExpression(QStringLiteral("\nscikit_learn +1\\.\\S+ +cp3\\d+ "))),
        qPrintable(text));
    QVERIFY2(text.contains(QRegularExpression(
                 QStringLiteral("Successfully installed .*numpy-1\\.\\S+ .*torch-1\\.13"))),
        qPrintable(text));
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral(
                 "VENV /localscratch/alice\\.\\d+\\.0/env/lib/python3\\.\\d+/site-packages/torch/"
                 "__init__\\.py \\(1797, 64\\)"))),
        qPrintable(text));
    QVERIFY2(
        text.contains(QRegularExpression(QStringLiteral("Successfully installed .*torchvision"))),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("No broken requirements found.")), qPrintable(text));
    // A wheel the wheelhouse has not: pip's own words and exit code.
    QVERIFY2(text.contains(QStringLiteral(
                 "ERROR: Could not find a version that satisfies the requirement tensorflow")),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("ERROR: No matching distribution found for tensorflow")),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("PIP-EXIT 1")), qPrintable(text));
}

void MlStackTest::wrapScriptsRunInTheClustersNodeImage()
{
    if (!bubblewrapWorks()) {
        QSKIP("the node image needs bubblewrap with user namespaces (plain mode runs on the host)");
    }
    const QString text
        = runJob(QStringLiteral("--output=wrap-%j.out --wrap '"
                                "module load python; python -c \"print(40 + 2)\"; "
                                "echo SH=$BASH_VERSION; "
                                "ls -A /etc/profile.d | wc -l | sed s/^/PROFILED=/; "
                                "for p in /etc/slurm /usr/local/cuda /usr/local/bin/docker; do "
                                "[ -e $p ] && echo HOST-HAS $p; done; "
                                "command -v docker || echo NO-DOCKER; echo END'"),
            QStringLiteral("wrap-%j.out"));
    QVERIFY2(text.contains(QStringLiteral("\nEND\n")), qPrintable(text));
    // /bin/sh is bash, as on RHEL: `module`, an exported function, works in --wrap.
    QVERIFY2(text.startsWith(QStringLiteral("42\n")), qPrintable(text));
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("SH=\\d+\\.\\d+"))), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("PROFILED=0\n")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("HOST-HAS")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("NO-DOCKER")), qPrintable(text));
}

void MlStackTest::aJobSeesOnlyItsCpus()
{
    cpu_set_t mine;
    CPU_ZERO(&mine);
    QCOMPARE(::sched_getaffinity(0, sizeof mine, &mine), 0);
    const int hostCpus = CPU_COUNT(&mine);
    const QString probe = QStringLiteral(
        "echo NPROC=$(nproc) ON_NODE=$SLURM_CPUS_ON_NODE; "
        "python3 -c \"import os; print(\\\"AFFINITY=%d\\\" % len(os.sched_getaffinity(0)))\"; "
        "srun nproc | sed s/^/STEP=/; echo END");
    const QString one
        = runJob(QStringLiteral("-c1 --output=cpu1-%j.out --wrap '") + probe + QStringLiteral("'"),
            QStringLiteral("cpu1-%j.out"));
    QVERIFY2(
        one.contains(QStringLiteral("NPROC=1 ON_NODE=1\nAFFINITY=1\nSTEP=1\n")), qPrintable(one));
    if (hostCpus < 2) {
        return;
    }
    const QString two
        = runJob(QStringLiteral("-c2 --output=cpu2-%j.out --wrap '") + probe + QStringLiteral("'"),
            QStringLiteral("cpu2-%j.out"));
    QVERIFY2(
        two.contains(QStringLiteral("NPROC=2 ON_NODE=2\nAFFINITY=2\nSTEP=2\n")), qPrintable(two));
}

QTEST_GUILESS_MAIN(MlStackTest)
#include "ml_stack_test.moc"
