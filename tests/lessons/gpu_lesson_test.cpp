// Lesson 15 (GPUs) walked through on a real cluster: its checks fail, with the lesson's words,
// for a job that asked for no GPU and for a GPU job whose script lost its module line (it
// FAILED), and pass once the student has looked at the GPU nodes, run gpu_job.sh as handed
// out and read its TRES.
#include "cluster_fixture.h"
#include "lesson_command.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>

namespace {

// Submits `command` in ~/gpu with --wait: the job has ended when it returns.
int submitAndWait(const ClusterFixture &c, const QString &command)
{
    return c.shell(QStringLiteral("cd ~/gpu && ") + command, QString(), 240000).exitCode;
}

} // namespace

class GpuLessonTest : public QObject {
    Q_OBJECT

private slots:
    void lesson15GpusPassesOnlyWhenDoneRight()
    {
        ClusterFixture cluster;
        QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
        if (cluster.shell(QStringLiteral("type -t module")).out.trimmed()
            != QStringLiteral("function")) {
            QSKIP("lesson 15 needs `module` (Lmod) for pytorch");
        }
        ShellResult start = lesson(cluster, {QStringLiteral("start"), QStringLiteral("15")});
        QVERIFY2(start.exitCode == 0, qPrintable(start.err));
        QVERIFY(QFile::exists(
            cluster.homeFile(QStringLiteral("alice"), QStringLiteral("gpu/gpu_job.sh"))));

        // Not done: nothing looked at, and a job of the same name that asked for no GPU.
        QCOMPARE(submitAndWait(cluster,
                     QStringLiteral("sbatch --wait -J gpu_check -p gpu -o gpu_check-%j.out "
                                    "--wrap 'echo CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES'")),
            0);
        ShellResult early = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(early.exitCode, 1);
        QVERIFY2(early.out.contains(QStringLiteral("[ ] 1. Find the GPUs of the cluster")),
            qPrintable(early.out));
        cluster.shell(QStringLiteral("sinfo -o \"%P %N %G\""));
        ShellResult noGpu = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(noGpu.out.contains(QStringLiteral("[x] 1. Find the GPUs of the cluster")),
            qPrintable(noGpu.out));
        QVERIFY(noGpu.out.contains(
            QStringLiteral("[ ] 2. Ask for one GPU and see what the job is told")));
        QVERIFY2(noGpu.out.contains(QStringLiteral("Submit `gpu_job.sh` from `~/gpu`")),
            qPrintable(noGpu.out));

        // Wrong: the GPU job without its module line finds no python (exit 127).
        cluster.shell(QStringLiteral("cd ~/gpu && rm -f gpu_check-*.out && "
                                     "sed '/^module load/d' gpu_job.sh > broken.sh"));
        QCOMPARE(submitAndWait(cluster, QStringLiteral("sbatch --wait broken.sh")), 127);
        ShellResult broken = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(broken.out.contains(
                     QStringLiteral("[ ] 2. Ask for one GPU and see what the job is told")),
            qPrintable(broken.out));
        QVERIFY(broken.out.contains(QStringLiteral("its state is FAILED, not COMPLETED")));

        // Right: the script as handed out, then its TRES.
        cluster.shell(QStringLiteral("rm -f ~/gpu/gpu_check-*.out"));
        QCOMPARE(submitAndWait(cluster, QStringLiteral("sbatch --wait gpu_job.sh")), 0);
        const ShellResult out = cluster.shell(QStringLiteral("cat ~/gpu/gpu_check-*.out"));
        QVERIFY2(out.out.contains(QStringLiteral("device: cpu | GPUs torch sees: 0")),
            qPrintable(out.out));
        ShellResult almost = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(almost.exitCode, 1);
        QVERIFY(almost.out.contains(
            QStringLiteral("[x] 2. Ask for one GPU and see what the job is told")));
        QVERIFY(almost.out.contains(QStringLiteral("[x] 3. Let the code pick its device")));
        QVERIFY(almost.out.contains(QStringLiteral("[ ] 4. Read what the job was given")));
        const ShellResult tres = cluster.shell(
            QStringLiteral("sacct -X -n -o JobID,AllocTRES%60 --name gpu_check | tail -n 1"));
        QVERIFY2(tres.out.contains(QStringLiteral("gres/gpu=1")), qPrintable(tres.out));
        ShellResult done = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(done.exitCode == 0, qPrintable(done.out));
    }
};

QTEST_GUILESS_MAIN(GpuLessonTest)
#include "gpu_lesson_test.moc"
