// Apptainer on a real cluster (issue #21): the shipped SIF images run on login1, in batch jobs
// and under srun, with Apptainer's defaults and options; `apptainer build` from a definition
// file offline; bad input in Apptainer's words; and the job's memory and time limits inside a
// container.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

namespace {

const QString kPython = QStringLiteral("/opt/minicluster/software/images/python-numpy.sif");
const QString kDebian = QStringLiteral("/opt/minicluster/software/images/debian-12.sif");
const QString kR = QStringLiteral("/opt/minicluster/software/images/r-base.sif");

// One command's output in a shell run that echoes "== name" headers, with its last newline.
QString part(const QString &out, const QString &name)
{
    return section(out, name) + QLatin1Char('\n');
}

} // namespace

class ContainersTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void execRunsInTheImageAsTheSameUserWithApptainersDefaults();
    void optionsChangeBindsEnvironmentAndWorkingDirectory();
    void runShellInspectAndTheSingularityName();
    void badInputIsRefusedInApptainersWords();
    void buildFromALocalimageDefinitionOffline();
    void networkBootstrapsSayTheyNeedTheNetwork();
    void aBatchJobRunsAContainerWithSlurmTmpdirAndSrun();
    void theRImageRunsRscriptInABatchJob();
    void theJobsLimitsApplyInsideTheContainer_data();
    void theJobsLimitsApplyInsideTheContainer();
    void nvPassesTheJobsGpusThrough();

private:
    // Submits `script` as ~/name and waits for its final state; returns sacct's State.
    QString runJob(const QString &name, const QString &script, const QString &options = {});
    QString home(const QString &name) const
    {
        return m_cluster->homeFile(QStringLiteral("alice"), name);
    }
    std::unique_ptr<ClusterFixture> m_cluster;
};

void ContainersTest::initTestCase()
{
    if (!bubblewrapWorks()) {
        QSKIP("containers need bubblewrap with user namespaces");
    }
    QVERIFY2(QFile::exists(QStringLiteral(MC_BIN_DIR "/../share/minicluster/software/images/"
                                                     "python-numpy.sif")),
        "the container images were not built: install squashfs-tools and python3-numpy and run "
        "cmake again");
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY(m_cluster->setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    // --time-scale 30: "-t 1" (one minute) runs out after two seconds.
    QVERIFY2(m_cluster->up({QStringLiteral("--time-scale"), QStringLiteral("30")}),
        qPrintable(m_cluster->lastError()));
}

void ContainersTest::cleanupTestCase()
{
    m_cluster.reset();
}

QString ContainersTest::runJob(const QString &name, const QString &script, const QString &options)
{
    if (!writeFile(home(name), script)) {
        return QStringLiteral("cannot write ") + name;
    }
    ShellResult submit = m_cluster->shell(
        QStringLiteral("sbatch --parsable ") + options + QLatin1Char(' ') + name);
    if (submit.exitCode != 0) {
        return QStringLiteral("sbatch failed: ") + submit.err;
    }
    const QString id = submit.out.trimmed();
    QString state;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 120000) {
        state = m_cluster->shell(QStringLiteral("sacct -n -X -P -o State -j ") + id).out.trimmed();
        if (!state.isEmpty() && state != QStringLiteral("PENDING")
            && state != QStringLiteral("RUNNING")) {
            return state;
        }
        QTest::qWait(300);
    }
    return QStringLiteral("still ") + state;
}

void ContainersTest::execRunsInTheImageAsTheSameUserWithApptainersDefaults()
{
    ShellResult r = m_cluster->shell(QStringLiteral(
        "exec 2>&1; mkdir -p ~/scratch/run && cd ~/scratch/run && echo data > in.txt; "
        "echo host > /tmp/host-file; "
        "echo '== who'; apptainer exec %1 sh -c 'id -un; hostname; pwd; cat in.txt; "
        "cat /tmp/host-file; echo HOME=$HOME; echo PATH=$PATH; grep PRETTY /etc/os-release'; "
        "echo '== numpy'; apptainer exec %1 python3 -c 'import numpy; "
        "print(numpy.arange(5).sum())'; "
        "echo '== rc'; apptainer exec %2 sh -c 'exit 3'; echo rc=$?; echo '== end'")
                                         .arg(kPython, kDebian));
    const QString who = part(r.out, QStringLiteral("who"));
    QVERIFY2(who.contains(QStringLiteral("\nalice\nlogin1\n")), qPrintable(r.out));
    // The working directory (in /scratch, outside $HOME) and /tmp are bound, as Apptainer does.
    QVERIFY2(who.contains(QRegularExpression(QStringLiteral("/scratch/alice/run\ndata\nhost\n"))),
        qPrintable(r.out));
    QVERIFY2(who.contains(QStringLiteral("HOME=/home/alice\n")), qPrintable(r.out));
    QVERIFY2(who.contains(QStringLiteral(
                 "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n")),
        qPrintable(r.out));
    QVERIFY2(who.contains(QStringLiteral("Debian GNU/Linux 12 (bookworm)")), qPrintable(r.out));
    QVERIFY2(
        part(r.out, QStringLiteral("numpy")).contains(QStringLiteral("\n10\n")), qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("rc")).contains(QStringLiteral("rc=3")), qPrintable(r.out));
}

void ContainersTest::optionsChangeBindsEnvironmentAndWorkingDirectory()
{
    ShellResult r = m_cluster->shell(QStringLiteral(
        "exec 2>&1; mkdir -p ~/scratch/data ~/altHome && echo scratch-data > ~/scratch/data/f; "
        "cd ~; export MYVAR=outside APPTAINERENV_INNER=yes; "
        "echo '== bind'; apptainer exec -B /scratch/alice/data:/data:ro %1 sh -c 'cat /data/f; "
        "touch /data/g || echo read-only'; "
        "echo '== envbind'; APPTAINER_BIND=/scratch/alice/data:/mnt apptainer exec %1 cat /mnt/f; "
        "echo '== vars'; apptainer exec --env A=1 %1 sh -c 'echo $MYVAR $INNER $A'; "
        "echo '== clean'; apptainer exec --cleanenv %1 sh -c 'echo [$MYVAR] $INNER'; "
        "echo '== pwd'; apptainer exec --pwd /usr/share %1 pwd; "
        "echo '== home'; apptainer exec --home /home/alice/altHome:/home/me %1 sh -c 'echo $HOME; "
        "touch ~/made'; ls ~/altHome; "
        "echo '== contain'; apptainer exec --contain %1 sh -c 'ls /tmp | wc -l; ls -A $HOME | wc "
        "-l; pwd'; "
        "echo '== inserm'; APPTAINER_OPTION='-e --writable-tmpfs --sharens --nv'; "
        "apptainer -q exec $APPTAINER_OPTION %1 sh -c 'echo scratch > /notes && cat /notes; "
        "touch /usr/x || echo image-read-only'; "
        "echo '== end'")
                                         .arg(kDebian));
    QVERIFY2(part(r.out, QStringLiteral("bind")).contains(QStringLiteral("scratch-data\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("bind")).contains(QStringLiteral("read-only")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("envbind")).contains(QStringLiteral("scratch-data\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("vars")).contains(QStringLiteral("outside yes 1\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("clean")).contains(QStringLiteral("[] yes\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("pwd")).contains(QStringLiteral("\n/usr/share\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("home")).contains(QStringLiteral("/home/me\nmade\n")),
        qPrintable(r.out));
    QVERIFY2(
        part(r.out, QStringLiteral("contain")).contains(QStringLiteral("\n0\n0\n/home/alice\n")),
        qPrintable(r.out));
    // The Inserm guide's options: -e --writable-tmpfs --sharens --nv.
    QVERIFY2(part(r.out, QStringLiteral("inserm"))
                 .contains(QStringLiteral("== inserm\nscratch\ntouch: cannot touch '/usr/x': "
                                          "Read-only file system\nimage-read-only\n")),
        qPrintable(r.out));
}

void ContainersTest::runShellInspectAndTheSingularityName()
{
    QVERIFY(writeFile(home(QStringLiteral("hello.py")),
        QStringLiteral("import sys, numpy\nprint('hello', sys.argv[1], numpy.__name__)\n")));
    ShellResult r = m_cluster->shell(QStringLiteral(
        "exec 2>&1; echo '== run'; apptainer run %1 hello.py world; "
        "echo '== self'; cp %1 ~/py.sif && ./py.sif hello.py direct; "
        "echo '== shell'; echo 'echo \"in shell: $APPTAINER_NAME\"; exit 4' | apptainer shell %1; "
        "echo rc=$?; "
        "echo '== inspect'; apptainer inspect %1; "
        "echo '== runscript'; apptainer inspect --runscript %1; "
        "echo '== singularity'; singularity exec %1 sh -c 'echo \"$SINGULARITY_NAME $PS1|\"'; "
        "singularity --version; echo '== cache'; apptainer cache list; echo '== end'")
                                         .arg(kPython));
    QVERIFY2(part(r.out, QStringLiteral("run")).contains(QStringLiteral("hello world numpy\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("self")).contains(QStringLiteral("hello direct numpy\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("shell"))
                 .contains(QStringLiteral("in shell: python-numpy.sif\nrc=4")),
        qPrintable(r.out));
    const QString inspect = part(r.out, QStringLiteral("inspect"));
    QVERIFY2(inspect.contains(QStringLiteral("org.label-schema.build-arch: amd64\n")),
        qPrintable(r.out));
    QVERIFY2(inspect.contains(QStringLiteral("org.opencontainers.image.title: python-numpy\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("runscript")).contains(QStringLiteral("exec python3")),
        qPrintable(r.out));
    const QString singularity = part(r.out, QStringLiteral("singularity"));
    QVERIFY2(singularity.contains(QStringLiteral("python-numpy.sif Singularity> |\n")),
        qPrintable(r.out));
    QVERIFY2(singularity.contains(QStringLiteral("singularity version ")), qPrintable(r.out));
    // The SIF images unpacked so far, in the user's cache.
    QVERIFY2(part(r.out, QStringLiteral("cache"))
                 .contains(QRegularExpression(QStringLiteral(
                     "There are [1-9][0-9]* container file\\(s\\) using [0-9.]+ MiB"))),
        qPrintable(r.out));
}

void ContainersTest::badInputIsRefusedInApptainersWords()
{
    ShellResult r = m_cluster->shell(QStringLiteral(
        "exec 2>&1; cd ~; echo text > notes.txt; "
        "echo '== notsif'; apptainer exec notes.txt true; echo rc=$?; "
        "echo '== missing'; apptainer exec nope.sif true; echo rc=$?; "
        "echo '== bind'; apptainer exec -B /nonexistent:/data %1 true; echo rc=$?; "
        "echo '== cmd'; apptainer exec %1 no-such-program; echo rc=$?; "
        "echo '== unknown'; apptainer frob; echo rc=$?; "
        "echo '== pull'; apptainer pull docker://ubuntu:22.04; echo rc=$?; "
        "echo '== writable'; apptainer exec --writable %1 true; echo rc=$?; echo '== end'")
                                         .arg(kDebian));
    auto has = [&](const QString &name, const QString &text) {
        return part(r.out, name).contains(text);
    };
    QVERIFY2(has(QStringLiteral("notsif"),
                 QStringLiteral("FATAL:   could not open image /home/alice/notes.txt: image "
                                "format not recognized\nrc=255")),
        qPrintable(r.out));
    QVERIFY2(has(QStringLiteral("missing"),
                 QStringLiteral("FATAL:   could not open image /home/alice/nope.sif: failed to "
                                "retrieve path for nope.sif: lstat nope.sif: no such file or "
                                "directory\nrc=255")),
        qPrintable(r.out));
    QVERIFY2(has(QStringLiteral("bind"),
                 QStringLiteral("FATAL:   container creation failed: mount hook function "
                                "failure: mount /nonexistent->/data error: while mounting "
                                "/nonexistent: mount source /nonexistent doesn't exist\nrc=255")),
        qPrintable(r.out));
    QVERIFY2(has(QStringLiteral("cmd"),
                 QStringLiteral("FATAL:   \"no-such-program\": executable file not found in "
                                "$PATH\nrc=255")),
        qPrintable(r.out));
    QVERIFY2(has(QStringLiteral("unknown"),
                 QStringLiteral("Error: unknown command \"frob\" for \"apptainer\"")),
        qPrintable(r.out));
    QVERIFY2(has(QStringLiteral("pull"), QStringLiteral("needs the network")), qPrintable(r.out));
    QVERIFY2(has(QStringLiteral("writable"),
                 QStringLiteral("FATAL:   --writable is not supported by minicluster\nrc=255")),
        qPrintable(r.out));
}

void ContainersTest::buildFromALocalimageDefinitionOffline()
{
    QVERIFY(writeFile(home(QStringLiteral("analyse.py")),
        QStringLiteral("import numpy\nprint('mean', numpy.mean([1, 2, 3]))\n")));
    QVERIFY(writeFile(home(QStringLiteral("my.def")),
        QStringLiteral("Bootstrap: localimage\nFrom: %1\n\n"
                       "%files\n    analyse.py /opt/analyse.py\n\n"
                       "%post\n    echo built-in-post > /opt/post.txt\n\n"
                       "%environment\n    export GREETING=from-def\n\n"
                       "%runscript\n    echo \"$GREETING $(cat /opt/post.txt)\"\n"
                       "    exec python3 /opt/analyse.py\n\n"
                       "%labels\n    Author alice\n    Version 1.0\n")
            .arg(kPython)));
    ShellResult r = m_cluster->shell(
        QStringLiteral(
            "exec 2>&1; cd ~; echo '== build'; apptainer build my.sif my.def; echo rc=$?; "
            "echo '== run'; apptainer run my.sif; "
            "echo '== again'; apptainer build my.sif my.def; echo rc=$?; "
            "echo '== labels'; apptainer inspect my.sif; "
            "echo '== deffile'; apptainer inspect --deffile my.sif | head -2; "
            "echo '== sandbox'; apptainer build --sandbox mydir my.sif >/dev/null 2>&1; "
            "apptainer exec mydir cat /opt/post.txt; echo '== end'"),
        QString(), 240000);
    const QString build = part(r.out, QStringLiteral("build"));
    QVERIFY2(build.contains(QStringLiteral("INFO:    Starting build...")), qPrintable(r.out));
    QVERIFY2(
        build.contains(QStringLiteral("INFO:    Running post scriptlet\n+ echo built-in-post")),
        qPrintable(r.out));
    QVERIFY2(
        build.contains(QStringLiteral("INFO:    Build complete: my.sif\nrc=0")), qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("run"))
                 .contains(QStringLiteral("from-def built-in-post\nmean 2.0\n")),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("again"))
                 .contains(QStringLiteral("FATAL:   Build target 'my.sif' already exists. Use "
                                          "--force if you want to overwrite it\nrc=255")),
        qPrintable(r.out));
    const QString labels = part(r.out, QStringLiteral("labels"));
    QVERIFY2(labels.contains(QStringLiteral("\nAuthor: alice\n")), qPrintable(r.out));
    QVERIFY2(labels.contains(QStringLiteral("\nVersion: 1.0\n")), qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("deffile"))
                 .contains(QStringLiteral("Bootstrap: localimage\nFrom: ") + kPython),
        qPrintable(r.out));
    QVERIFY2(part(r.out, QStringLiteral("sandbox")).contains(QStringLiteral("built-in-post\n")),
        qPrintable(r.out));
}

void ContainersTest::networkBootstrapsSayTheyNeedTheNetwork()
{
    QVERIFY(writeFile(home(QStringLiteral("docker.def")),
        QStringLiteral("Bootstrap: docker\nFrom: ubuntu:22.04\n\n%post\n    apt-get update\n")));
    QVERIFY(writeFile(home(QStringLiteral("apt.def")),
        QStringLiteral("Bootstrap: localimage\nFrom: %1\n\n%post\n"
                       "    getent hosts deb.debian.org || exit 100\n")
            .arg(kDebian)));
    ShellResult r = m_cluster->shell(
        QStringLiteral(
            "exec 2>&1; cd ~; echo '== docker'; apptainer build d.sif docker.def; echo rc=$?; "
            "ls d.sif; echo '== post'; apptainer build a.sif apt.def; echo rc=$?; ls a.sif; "
            "ls /tmp | grep -c build-temp; echo '== end'"),
        QString(), 240000);
    const QString docker = part(r.out, QStringLiteral("docker"));
    QVERIFY2(docker.contains(QStringLiteral("FATAL:   Bootstrap: docker downloads its base image, "
                                            "which needs the network; minicluster's nodes have "
                                            "none.")),
        qPrintable(r.out));
    QVERIFY2(
        docker.contains(QStringLiteral("rc=255\nls: cannot access 'd.sif'")), qPrintable(r.out));
    // A %post that reaches for the network fails, and nothing half-built is left.
    const QString post = part(r.out, QStringLiteral("post"));
    QVERIFY2(post.contains(QStringLiteral("FATAL:   While performing build: while running engine: "
                                          "exit status 100\nrc=255\nls: cannot access 'a.sif'")),
        qPrintable(r.out));
    QVERIFY2(post.contains(QStringLiteral("\n0\n")), qPrintable(r.out));
}

void ContainersTest::aBatchJobRunsAContainerWithSlurmTmpdirAndSrun()
{
    const QString state = runJob(QStringLiteral("cjob.sh"),
        QStringLiteral("#!/bin/bash\n#SBATCH -n 2\n#SBATCH -o cjob.out\n"
                       "echo local > $SLURM_TMPDIR/in.txt\n"
                       "apptainer exec %1 sh -c 'cat $SLURM_TMPDIR/in.txt; hostname; "
                       "echo job=$SLURM_JOB_ID'\n"
                       "srun apptainer exec %1 python3 -c "
                       "'import os, numpy; print(\"step\", os.environ[\"SLURM_PROCID\"])' | sort\n")
            .arg(kPython));
    QCOMPARE(state, QStringLiteral("COMPLETED"));
    const QString out = readFile(home(QStringLiteral("cjob.out")));
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral("local\ncn0[1-4]\njob=[0-9]+\n"))),
        qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("step 0\nstep 1\n")), qPrintable(out));
}

void ContainersTest::theRImageRunsRscriptInABatchJob()
{
    if (!QFile::exists(QStringLiteral(MC_BIN_DIR "/../share/minicluster/software/images/"
                                                 "r-base.sif"))) {
        QSKIP("no r-base image: r-base-core was not installed when the images were built");
    }
    const QString state = runJob(QStringLiteral("rjob.sh"),
        QStringLiteral("#!/bin/bash\n#SBATCH -o rjob.out -e rjob.err\n"
                       "apptainer exec %1 Rscript -e 'sum(1:10)'\n"
                       "apptainer run %1 -e 'cat(R.version$major, \"\\n\")'\n")
            .arg(kR));
    QCOMPARE(state, QStringLiteral("COMPLETED"));
    const QString out = readFile(home(QStringLiteral("rjob.out")));
    QCOMPARE(out, QStringLiteral("[1] 55\n4 \n"));
    // R found its own configuration and packages: no startup warning.
    const QString err = readFile(home(QStringLiteral("rjob.err")));
    QVERIFY2(!err.contains(QStringLiteral("Warning")) && !err.contains(QStringLiteral("cannot")),
        qPrintable(err));
}

void ContainersTest::theJobsLimitsApplyInsideTheContainer_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("state");
    QTest::newRow("memory") << QStringLiteral("--mem=200M")
                            << QStringLiteral("%1 python3 -c 'b = bytearray(600 * 1024 * 1024); "
                                              "print(\"finished\")'")
                                   .arg(kPython)
                            << QStringLiteral("OUT_OF_MEMORY");
    QTest::newRow("time") << QStringLiteral("-t 1")
                          << QStringLiteral("%1 sh -c 'sleep 300; echo finished'").arg(kDebian)
                          << QStringLiteral("TIMEOUT");
}

void ContainersTest::theJobsLimitsApplyInsideTheContainer()
{
    QFETCH(QString, options);
    QFETCH(QString, command);
    QFETCH(QString, state);
    const QString name
        = QStringLiteral("limit-%1").arg(QString::fromLatin1(QTest::currentDataTag()));
    QCOMPARE(runJob(name + QStringLiteral(".sh"),
                 QStringLiteral("#!/bin/bash\n#SBATCH -o %1.out\napptainer exec %2\n")
                     .arg(name, command),
                 options),
        state);
    QVERIFY(!readFile(home(name + QStringLiteral(".out"))).contains(QStringLiteral("finished")));
}

void ContainersTest::nvPassesTheJobsGpusThrough()
{
    const QString state = runJob(QStringLiteral("cgpu.sh"),
        QStringLiteral("#!/bin/bash\n#SBATCH -p gpu\n#SBATCH --gres=gpu:1\n#SBATCH -o cgpu.out\n"
                       "echo outside=$CUDA_VISIBLE_DEVICES\n"
                       "apptainer exec --nv --cleanenv %1 sh -c 'echo inside=$CUDA_VISIBLE_DEVICES "
                       "job=$SLURM_JOB_ID; command -v nvidia-smi || echo no-nvidia-smi' 2>&1\n"
                       "command -v nvidia-smi || echo host-has-none\n")
            .arg(kDebian));
    QCOMPARE(state, QStringLiteral("COMPLETED"));
    const QString out = readFile(home(QStringLiteral("cgpu.out")));
    QRegularExpressionMatch m = QRegularExpression(QStringLiteral("outside=(\\S*)\n")).match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out));
    // --cleanenv drops the job's variables, --nv keeps its GPUs'.
    QVERIFY2(out.contains(QStringLiteral("inside=") + m.captured(1) + QStringLiteral(" job=\n")),
        qPrintable(out));
    // The node's nvidia-smi is bound in when there is one; otherwise Apptainer's warning.
    if (out.contains(QStringLiteral("host-has-none"))) {
        QVERIFY2(out.contains(QStringLiteral("WARNING: Could not find any nv files on this host!")),
            qPrintable(out));
    } else {
        QVERIFY2(out.contains(QStringLiteral("/usr/bin/nvidia-smi\n")), qPrintable(out));
    }
}

QTEST_GUILESS_MAIN(ContainersTest)
#include "containers_test.moc"
