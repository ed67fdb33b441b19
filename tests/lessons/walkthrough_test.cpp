// Lessons walked through on a real cluster: `minicluster lesson start`, the student's commands
// typed in the login shell, `minicluster lesson check` failing with the right explanation
// after a wrong attempt and passing once every step is done. Lessons 3 to 13 are walked by
// bob (the lessons once assumed alice), each check also read in French: the same steps
// ticked, the same verdict, in French words.
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

// A cluster whose commands run as one student: `shell` without a user, `minicluster` without
// --user and `lesson` are that student's (the cluster's first user, alice, until setStudent).
class StudentCluster : public ClusterFixture {
public:
    void setStudent(const QString &user) { m_student = user; }

    ShellResult shell(const QString &command, const QString &user = QString(),
        int timeoutMs = kDefaultTimeoutMs) const
    {
        return ClusterFixture::shell(command, user.isEmpty() ? m_student : user, timeoutMs);
    }
    ShellResult minicluster(const QStringList &args, int timeoutMs = kDefaultTimeoutMs) const
    {
        if (m_student.isEmpty() || args.value(0) == QLatin1String("--user")) {
            return ClusterFixture::minicluster(args, timeoutMs);
        }
        return ClusterFixture::minicluster(
            QStringList{QStringLiteral("--user"), m_student} + args, timeoutMs);
    }

private:
    QString m_student;
};

ShellResult lesson(
    const StudentCluster &c, const QStringList &args, const QString &lang = QStringLiteral("en"))
{
    return c.minicluster(
        QStringList{QStringLiteral("lesson"), QStringLiteral("--lang"), lang} + args);
}

bool complete(const StudentCluster &c, const QString &id)
{
    return lesson(c, {QStringLiteral("check"), id}).exitCode == 0;
}

// The steps a check ticks and leaves, in order ("x x  "): the same in both languages.
QString ticks(const QString &out)
{
    static const QRegularExpression box(
        QStringLiteral("^  \\[([ x])\\] \\d+\\. "), QRegularExpression::MultilineOption);
    QString marks;
    for (auto it = box.globalMatch(out); it.hasNext();) {
        marks += it.next().captured(1);
    }
    return marks;
}

// The student's check again in French, next to the English one `en`: "" when both agree (same
// exit status, same steps ticked) and the French speaks French (Leçon, oui/non); else why not.
QString inFrench(const StudentCluster &c, const ShellResult &en)
{
    const ShellResult fr = lesson(c, {QStringLiteral("check")}, QStringLiteral("fr"));
    static const QRegularExpression english(
        QStringLiteral("^ +(ok|NO) |^Lesson |^Step \\d+ is not done"),
        QRegularExpression::MultilineOption);
    if (fr.exitCode != en.exitCode || ticks(fr.out) != ticks(en.out) || ticks(en.out).isEmpty()) {
        return QStringLiteral("the French check disagrees:\n") + fr.out + fr.err
            + QStringLiteral("\n--- English:\n") + en.out;
    }
    if (!fr.out.startsWith(QStringLiteral("Leçon ")) || english.match(fr.out).hasMatch()) {
        return QStringLiteral("English in the French check:\n") + fr.out;
    }
    return {};
}

#define START_CLUSTER(cluster)                                                                     \
    StudentCluster cluster;                                                                        \
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));                \
    /* a requeued job waits cred_expire + 1 s (BeginTime): 6 s here, not 121 */                    \
    QVERIFY(cluster.setSlurmConf(QStringLiteral("AuthInfo"), QStringLiteral("cred_expire=5")));    \
    QVERIFY2(cluster.up({QStringLiteral("--time-scale"), QStringLiteral("20")}),                   \
        qPrintable(cluster.lastError()))

const QString kBob = QStringLiteral("bob");

} // namespace

class WalkthroughTest : public QObject {
    Q_OBJECT

private slots:
    void lessonsAreListedAndNeedAStart()
    {
        START_CLUSTER(cluster);
        ShellResult list = lesson(cluster, {QStringLiteral("list")});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(
            list.out.contains(QStringLiteral("02  Your first batch job")), qPrintable(list.out));
        ShellResult early = lesson(cluster, {QStringLiteral("check"), QStringLiteral("2")});
        QCOMPARE(early.exitCode, 2);
        QVERIFY(early.err.contains(QStringLiteral("run `minicluster lesson start 02` first")));
        ShellResult fr = cluster.minicluster({QStringLiteral("lesson"), QStringLiteral("--lang"),
            QStringLiteral("fr"), QStringLiteral("list")});
        QVERIFY2(
            fr.out.contains(QStringLiteral("Votre première tâche en lot")), qPrintable(fr.out));
    }

    void lesson02FirstBatchJob()
    {
        START_CLUSTER(cluster);
        ShellResult start = lesson(cluster, {QStringLiteral("start"), QStringLiteral("2")});
        QVERIFY2(start.exitCode == 0, qPrintable(start.err));
        QVERIFY(start.out.contains(QStringLiteral("copied hello.sh")));
        QVERIFY(
            QFile::exists(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("hello.sh"))));

        // Wrong attempt: running the script on the login node is not submitting it.
        QCOMPARE(cluster.shell(QStringLiteral("bash hello.sh")).exitCode, 0);
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.out.contains(
                     QStringLiteral("You have not submitted any job since this lesson started.")),
            qPrintable(wrong.out));
        QVERIFY(wrong.out.contains(QStringLiteral("[ ] 1. Read the script and submit it")));

        QCOMPARE(cluster.shell(QStringLiteral("sbatch hello.sh")).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("squeue -u $USER")).exitCode, 0);
        // Waiting with the lesson's own check: a sacct typed here would count for step 4.
        QTRY_VERIFY_WITH_TIMEOUT(lesson(cluster, {QStringLiteral("check")})
                                     .out.contains(QStringLiteral("[x] 3. Read its output")),
            30000);
        ShellResult missingSacct = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(missingSacct.exitCode, 1);
        QVERIFY2(missingSacct.out.contains(QStringLiteral(
                     "No command like `sacct*` was typed since this lesson started.")),
            qPrintable(missingSacct.out));
        QCOMPARE(cluster.shell(QStringLiteral("sacct -j 1")).exitCode, 0);
        ShellResult done = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(done.exitCode == 0, qPrintable(done.out + done.err));
        QVERIFY(done.out.contains(QStringLiteral("Lesson complete.")));
        QVERIFY(lesson(cluster, {QStringLiteral("list")}).out.contains(QStringLiteral("done")));
    }

    // The lesson commands inside the login shell (the app's terminal runs `minicluster shell`),
    // as carol, in French: the same progress as from outside.
    void lessonCommandsWorkInsideTheLoginShell()
    {
        START_CLUSTER(cluster);
        const QString carol = QStringLiteral("carol");
        ShellResult start
            = cluster.shell(QStringLiteral("minicluster lesson --lang fr start 2"), carol);
        QVERIFY2(start.exitCode == 0, qPrintable(start.out + start.err));
        QVERIFY2(start.out.contains(QStringLiteral("copié hello.sh")), qPrintable(start.out));
        QVERIFY(QFile::exists(cluster.homeFile(carol, QStringLiteral("hello.sh"))));
        QCOMPARE(cluster.shell(QStringLiteral("sbatch hello.sh"), carol).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("squeue -u $USER"), carol).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            cluster.shell(QStringLiteral("minicluster lesson --lang fr check"), carol)
                .out.contains(QStringLiteral("[x] 3.")),
            30000);
        QCOMPARE(cluster.shell(QStringLiteral("sacct"), carol).exitCode, 0);
        ShellResult done
            = cluster.shell(QStringLiteral("minicluster lesson --lang fr check"), carol);
        QVERIFY2(done.exitCode == 0, qPrintable(done.out + done.err));
        QVERIFY2(done.out.contains(QStringLiteral("Leçon terminée")), qPrintable(done.out));
        // Outside, the same progress.
        ShellResult outside
            = cluster.minicluster({QStringLiteral("--user"), carol, QStringLiteral("lesson"),
                QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("list")});
        QVERIFY2(outside.out.contains(QStringLiteral("done")), qPrintable(outside.out));
    }

    void lesson04Resources()
    {
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("4")}).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("sbatch too_long.sh")).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("sbatch too_big.sh")).exitCode, 0);
        // Wrong attempt: far more memory than the job uses.
        QCOMPARE(cluster.shell(QStringLiteral("sbatch --mem=2G right_size.sh")).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            lesson(cluster, {QStringLiteral("check")})
                .out.contains(QStringLiteral("[x] 1. Run out of time\n  [x] 2. Run out of memory")),
            60000);
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.out.contains(QStringLiteral("its memory request is 2G, not at most 1G")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        QCOMPARE(cluster.shell(QStringLiteral("sbatch --mem=400M right_size.sh")).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("sacct -j 3")).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("4")), 60000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    void lesson05MissingLogDirectory()
    {
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("5")}).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("rm -rf /scratch/$USER/logs; sbatch logdir_job.sh"))
                     .exitCode,
            0);
        QTRY_VERIFY_WITH_TIMEOUT(lesson(cluster, {QStringLiteral("check")})
                                     .out.contains(QStringLiteral("[x] 1. A job without a trace")),
            30000);
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.out.contains(QStringLiteral("There is no directory /scratch/bob/logs.")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        QCOMPARE(cluster
                     .shell(QStringLiteral("mkdir -p /scratch/$USER/logs && sbatch "
                                           "logdir_job.sh && sbatch tmpdir_job.sh"))
                     .exitCode,
            0);
        QTRY_VERIFY_WITH_TIMEOUT(lesson(cluster, {QStringLiteral("check")})
                                     .out.contains(QStringLiteral("[x] 3. Work in $SLURM_TMPDIR")),
            30000);
        // The last step asks for diskusage_report; typed on the login node, it counts whether
        // or not this cluster has it yet.
        cluster.shell(QStringLiteral("diskusage_report"));
        QVERIFY(complete(cluster, QStringLiteral("5")));
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    void lesson07ArraysAndPipeline()
    {
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("7")}).exitCode, 0);
        ShellResult array = cluster.shell(QStringLiteral("sbatch array_job.sh"));
        QVERIFY2(array.exitCode == 0, qPrintable(array.err));
        // Wrong attempt: the pipeline's steps submitted at once without dependencies; compute
        // starts before prepare wrote its numbers and fails.
        QCOMPARE(cluster.shell(QStringLiteral("sbatch prepare.sh; sbatch compute.sh")).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            lesson(cluster, {QStringLiteral("check")})
                .out.contains(QStringLiteral("[x] 1. An array with a throttle")),
            60000);
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(
            wrong.out.contains(QStringLiteral("(compute): it did not wait for afterok:prepare")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        ShellResult pipe = cluster.shell(QStringLiteral("rm -rf pipeline; bash pipeline.sh"));
        QVERIFY2(pipe.exitCode == 0, qPrintable(pipe.err));
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("7")), 90000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    void lesson08CourseWorkflow()
    {
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("8")}).exitCode, 0);
        auto laptop = [&](const QString &cmd) {
            return cluster.minicluster({QStringLiteral("workstation"), QStringLiteral("-c"), cmd});
        };
        ShellResult copy = laptop(QStringLiteral(
            "ssh minicluster mkdir -p /scratch/bob/code-snapshots && rsync -a myproject/ "
            "minicluster:/scratch/bob/code-snapshots/myproject/"));
        if (copy.err.contains(QStringLiteral("plain mode"))) {
            QSKIP(qPrintable(copy.err.trimmed()));
        }
        QVERIFY2(copy.exitCode == 0, qPrintable(copy.err));
        // Wrong attempt: submitted before the log folder exists, the job leaves no trace.
        QCOMPARE(cluster.shell(QStringLiteral("sbatch train_job.sh")).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("sacct -X -n -o State -j 1"))
                                     .out.contains(QStringLiteral("FAILED")),
            30000);
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(wrong.out.contains(QStringLiteral("There is no directory /scratch/bob/logs.")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        QCOMPARE(
            cluster.shell(QStringLiteral("mkdir -p /scratch/$USER/logs && sbatch train_job.sh"))
                .exitCode,
            0);
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("8")), 60000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    void lesson10InsermSite()
    {
        StudentCluster cluster;
        cluster.setStudent(kBob);
        QVERIFY2(cluster.up({QStringLiteral("--preset"), QStringLiteral("inserm"),
                     QStringLiteral("--time-scale"), QStringLiteral("20")}),
            qPrintable(cluster.lastError()));
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("10")}).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("sinfo")).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("sbatch -p CPU-4 exclusive_job.sh")).exitCode, 0);
        // Over the site's 30 hours: accepted, but waits with PartitionTimeLimit for ever.
        QCOMPARE(cluster.shell(QStringLiteral("sbatch -p CPU-4 --time=31:00:00 exclusive_job.sh"))
                     .exitCode,
            0);
        QTRY_COMPARE_WITH_TIMEOUT(
            cluster.shell(QStringLiteral("squeue -h -j 2 -o %r")).out.trimmed(),
            QStringLiteral("PartitionTimeLimit"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            lesson(cluster, {QStringLiteral("check")})
                .out.contains(QStringLiteral("[x] 2. A whole node for one job")),
            20000);
        ShellResult early = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(early.exitCode, 1);
        QVERIFY2(early.out.contains(QStringLiteral(
                     "Then submit with the limit itself: sbatch -p CPU-4 --time=30:00:00")),
            qPrintable(early.out));
        const QString earlyFr = inFrench(cluster, early);
        QVERIFY2(earlyFr.isEmpty(), qPrintable(earlyFr));
        QCOMPARE(cluster.shell(QStringLiteral("scancel 2")).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("sbatch -p CPU-4 --time=30:00:00 exclusive_job.sh"))
                     .exitCode,
            0);
        // Over its memory: the site's policy (MemoryOverrun=reboot-node) restarts the node; the
        // job ends CANCELLED and, once the node is back, its Comment says why.
        QCOMPARE(cluster.shell(QStringLiteral("sbatch -p CPU-4 too_big.sh")).exitCode, 0);
        QTRY_COMPARE_WITH_TIMEOUT(
            cluster.shell(QStringLiteral("sacct -n -X -j 4 -o State%20")).out.trimmed(),
            QStringLiteral("CANCELLED by 0"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(
            cluster.shell(QStringLiteral("sacct -n -X -P -j 4 -o Comment"))
                .out.startsWith(QStringLiteral("Memory overrun: job exceeded its 100M memory")),
            30000);
        ShellResult comment
            = cluster.shell(QStringLiteral("sacct -X -j 4 -o JobID,JobName,State,Comment%80"));
        QCOMPARE(comment.exitCode, 0);
        QVERIFY2(comment.out.contains(QStringLiteral(" rebooted")), qPrintable(comment.out));
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("10")), 60000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
        ShellResult out = cluster.shell(QStringLiteral("cat whole-node-1.out"));
        QCOMPARE(out.out, QStringLiteral("on c4n01 with 4 CPUs\n"));
    }

    void lesson09BackfillAndACheckpointThatSurvivesARequeue()
    {
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("9")}).exitCode, 0);
        ShellResult early = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(early.out.contains(QStringLiteral(
                     "No command like `squeue*` was typed since this lesson started.")),
            qPrintable(early.out));
        const QString earlyFr = inFrench(cluster, early);
        QVERIFY2(earlyFr.isEmpty(), qPrintable(earlyFr));
        cluster.shell(QStringLiteral("squeue"));
        // The default preset has priority/multifactor. Nothing waits yet: sprio prints its
        // header only, as the step's hint says (the contest comes at the end of this test).
        ShellResult sprio = cluster.shell(QStringLiteral("sprio"));
        QCOMPARE(sprio.exitCode, 0);
        QCOMPARE(outputLines(sprio.out),
            QStringList{QStringLiteral("          JOBID PARTITION   PRIORITY        AGE  FAIRSHARE "
                                       "   JOBSIZE  PARTITION")});
        QCOMPARE(cluster.shell(QStringLiteral("sshare -a")).exitCode, 0);

        // Backfill. The lesson's queue: one node held, the whole partition asked for.
        QCOMPARE(cluster
                     .shell(QStringLiteral(
                         "sbatch -J long -N1 --exclusive -t 30 --wrap 'sleep 600' && sbatch -J "
                         "wide -N4 --exclusive -t 5 --wrap 'sleep 30'"))
                     .exitCode,
            0);
        ShellResult start = cluster.shell(QStringLiteral("squeue --start"));
        QVERIFY2(start.out.contains(QStringLiteral("wide")), qPrintable(start.out));
        // Wrong attempt: a one-node job whose --time reaches past wide's planned start waits.
        QCOMPARE(
            cluster.shell(QStringLiteral("sbatch -J short -t 60 --wrap 'sleep 30'")).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            cluster.shell(QStringLiteral("squeue -h -n short -o %r")).out.trimmed()
                == QStringLiteral("Priority"),
            10000);
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        // The first check that finds step 2 current prints its text.
        QVERIFY2(wrong.out.contains(
                     QStringLiteral("== Step 2 of 3: Backfill: a short job takes the gap ==")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        QVERIFY2(wrong.out.contains(QStringLiteral("[x] 1. Look at the queue and the priorities"))
                && wrong.out.contains(
                    QStringLiteral("(The closest is job 3 (short): it did not start while wide was "
                                   "waiting (backfill starts a job early only if its --time ends "
                                   "before the waiting job's planned start).)")),
            qPrintable(wrong.out));
        // Right: a short --time fits in the gap; a long one still waits.
        QCOMPARE(cluster
                     .shell(QStringLiteral("sbatch -J short -t 2 --wrap 'sleep 30'; sbatch -J "
                                           "toolong -t 60 --wrap 'sleep 30'"))
                     .exitCode,
            0);
        QTRY_VERIFY_WITH_TIMEOUT(lesson(cluster, {QStringLiteral("check")})
                                     .out.contains(QStringLiteral("[x] 2. Backfill")),
            10000);
        ShellResult queue = cluster.shell(QStringLiteral("squeue -h -o '%j %t' -n wide,toolong"));
        QVERIFY2(queue.out.contains(QStringLiteral("wide PD"))
                && queue.out.contains(QStringLiteral("toolong PD")),
            qPrintable(queue.out));
        QCOMPARE(cluster.shell(QStringLiteral("scancel -u $USER")).exitCode, 0);

        // The checkpoint survives a requeue.
        ShellResult submit = cluster.shell(QStringLiteral("sbatch --parsable checkpoint_job.sh"));
        QCOMPARE(submit.exitCode, 0);
        QString state = cluster.homeFile(kBob, QStringLiteral("checkpoint.txt"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(state) && QFileInfo(state).size() > 0, 20000);
        ShellResult requeue
            = cluster.shell(QStringLiteral("scontrol requeue ") + submit.out.trimmed());
        QVERIFY2(requeue.exitCode == 0, qPrintable(requeue.err));
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("9")), 60000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    // Lesson 9's first step, the contest between two classmates: Bob's warm-up jobs give him
    // usage (they end at their 5-minute limit, 15 s at this time scale), then Carol, who used
    // nothing, submits at 30 s. Watched by alice, a third student.
    void lesson09FairshareContestRanksTheLighterUserFirst()
    {
        START_CLUSTER(cluster);
        ShellResult load = cluster.minicluster({QStringLiteral("scenario"), QStringLiteral("load"),
            QStringLiteral("fairshare-contest")});
        QVERIFY2(load.exitCode == 0, qPrintable(load.err));
        QVERIFY2(load.out.contains(QStringLiteral("16 submissions and 0 node changes")),
            qPrintable(load.out));
        // While both wait, sprio ranks every job of Carol's above every one of Bob's: fairshare.
        auto carolAboveBob = [&cluster]() {
            const ShellResult r = cluster.shell(QStringLiteral("sprio -h -o '%u %F'"));
            double carolLow = 1e9;
            double bobHigh = -1;
            for (const QString &line : outputLines(r.out)) {
                const QStringList f = line.split(u' ', Qt::SkipEmptyParts);
                if (f.size() == 2 && f[0] == QStringLiteral("carol")) {
                    carolLow = std::min(carolLow, f[1].toDouble());
                } else if (f.size() == 2 && f[0] == QStringLiteral("bob")) {
                    bobHigh = std::max(bobHigh, f[1].toDouble());
                }
            }
            return carolLow == 10000 && bobHigh >= 0 && bobHigh < carolLow;
        };
        QTRY_VERIFY_WITH_TIMEOUT(carolAboveBob(), 60000);
        ShellResult shares = cluster.shell(QStringLiteral("sshare -a -P -o User,FairShare"));
        QVERIFY2(shares.out.contains(QStringLiteral("carol|1.000000"))
                && !shares.out.contains(QStringLiteral("bob|1.000000")),
            qPrintable(shares.out));
        // Carol's jobs start while Bob's, submitted half a minute earlier, still wait (one
        // look at both, so that the two counts are of the same moment).
        auto carolRunsWhileBobWaits = [&cluster]() {
            const QStringList n
                = cluster
                      .shell(QStringLiteral("echo $(squeue -h -t R -u carol | wc -l) "
                                            "$(squeue -h -t PD -u bob | wc -l)"))
                      .out.split(u' ', Qt::SkipEmptyParts);
            return n.size() == 2 && n[0].toInt() > 0 && n[1].toInt() > 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(carolRunsWhileBobWaits(), 60000);
        QCOMPARE(
            cluster.minicluster({QStringLiteral("scenario"), QStringLiteral("stop")}).exitCode, 0);
    }

    void lesson09PreemptionOnTheMilaPresetRequeuesTheCheckpointJob()
    {
        StudentCluster cluster;
        cluster.setStudent(kBob);
        QVERIFY2(cluster.up({QStringLiteral("--preset"), QStringLiteral("mila"),
                     QStringLiteral("--time-scale"), QStringLiteral("20")}),
            qPrintable(cluster.lastError()));
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("9")}).exitCode, 0);
        // The lesson's aside: a job of the preemptible `long` partition, then a `main` job that
        // needs every node; the scheduler requeues the first (grace time 60 s, 3 s here).
        QCOMPARE(cluster.shell(QStringLiteral("sbatch -p long checkpoint_job.sh")).exitCode, 0);
        QString state = cluster.homeFile(kBob, QStringLiteral("checkpoint.txt"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(state) && QFileInfo(state).size() > 0, 20000);
        QCOMPARE(cluster.shell(QStringLiteral("sbatch -p main -N6 --exclusive --wrap 'sleep 2'"))
                     .exitCode,
            0);
        QTRY_VERIFY_WITH_TIMEOUT(
            lesson(cluster, {QStringLiteral("check")})
                .out.contains(QStringLiteral("[x] 3. A job that survives being stopped")),
            200000); // COMPLETED with restarts>=1: the requeue delay (121 s), then 30 1-s steps
    }

    void lesson06ModulesAndAVirtualEnvironment()
    {
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        if (cluster.shell(QStringLiteral("type -t module")).out.trimmed()
            != QStringLiteral("function")) {
            QSKIP("lesson 6 needs `module` (Lmod) on the login node");
        }
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("6")}).exitCode, 0);
        // Wrong attempt: loading without looking for what exists first.
        cluster.shell(QStringLiteral("module load python"));
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(wrong.out.contains(
                     QStringLiteral("No command like `module avail*|module spider*` was typed")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        cluster.shell(QStringLiteral("module avail"));
        QCOMPARE(cluster.shell(QStringLiteral("sbatch venv_job.sh")).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("6")), 120000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    // The course project, as bob: a check before any work names the first step; one after the
    // first training names the seff still missing; then the resumed training, the sweep and
    // the gather after it finish the lesson.
    void lesson11MlProjectAsBob()
    {
        if (!QFile::exists(QStringLiteral(
                MC_BIN_DIR "/../share/minicluster/software/python-stacks/pytorch"))) {
            QSKIP("lesson 11 needs the pytorch module (python3-torch and the ML stack at build)");
        }
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("11")}).exitCode, 0);
        QVERIFY(QFile::exists(cluster.homeFile(kBob, QStringLiteral("cnn_digits/train.sh"))));
        const ShellResult early = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(early.exitCode, 1);
        QVERIFY2(early.out.contains(QStringLiteral("Submit train.sh from ~/cnn_digits")),
            qPrintable(early.out));
        const QString earlyFr = inFrench(cluster, early);
        QVERIFY2(earlyFr.isEmpty(), qPrintable(earlyFr));

        auto submit = [&](const QString &args) {
            const ShellResult r
                = cluster.shell(QStringLiteral("cd cnn_digits && sbatch --parsable ") + args);
            return r.exitCode == 0 ? r.out.trimmed().section(QLatin1Char(';'), 0, 0) : QString();
        };
        auto state = [&](const QString &id) {
            return cluster.shell(QStringLiteral("sacct -X -n -P -o State -j ") + id)
                .out.section(QLatin1Char('\n'), 0, 0)
                .trimmed();
        };
        const QString first = submit(QStringLiteral("train.sh 2"));
        QVERIFY(!first.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(state(first), QStringLiteral("COMPLETED"), 300000);
        // Trained, but its efficiency not looked at yet.
        const ShellResult noSeff = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(noSeff.exitCode, 1);
        QVERIFY2(noSeff.out.contains(QStringLiteral("[ ] 1. "))
                && noSeff.out.contains(QStringLiteral("No command like `seff*` was typed")),
            qPrintable(noSeff.out));
        const QString noSeffFr = inFrench(cluster, noSeff);
        QVERIFY2(noSeffFr.isEmpty(), qPrintable(noSeffFr));
        QCOMPARE(cluster.shell(QStringLiteral("seff ") + first).exitCode, 0);

        const QString second = submit(QStringLiteral("train.sh 3"));
        QVERIFY(!second.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(state(second), QStringLiteral("COMPLETED"), 300000);
        const ShellResult resumed = lesson(cluster, {QStringLiteral("check")});
        QVERIFY2(resumed.out.contains(QStringLiteral("[x] 1. "))
                && resumed.out.contains(QStringLiteral("[x] 2. "))
                && resumed.out.contains(QStringLiteral("[ ] 3. ")),
            qPrintable(resumed.out));

        const QString sweep = submit(QStringLiteral("sweep.sh 1"));
        QVERIFY(!sweep.isEmpty());
        QVERIFY(
            !submit(QStringLiteral("--dependency=afterok:") + sweep + QStringLiteral(" gather.sh"))
                 .isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("11")), 480000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(done.exitCode, 0);
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    void lesson03InteractiveWork()
    {
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("3")}).exitCode, 0);
        // Wrong attempt: the test script run where the shell is, without an allocation.
        QCOMPARE(cluster.shell(QStringLiteral("python3 interactive_test.py")).exitCode, 0);
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(
            wrong.out.contains(QStringLiteral("Type salloc --time=1:00:00 --mem=2G on login1."))
                && wrong.out.contains(QStringLiteral("No command like `salloc*` was typed on a "
                                                     "login node since this lesson started.")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        // The student's keyboard: script(1) gives salloc a terminal, and the shell it opens
        // (on the compute node: LaunchParameters=use_interactive_step) reads the typed lines
        // from the pipe, one at a time; after exit, the login shell reads the rest.
        auto typed
            = [&](const QString &salloc, const QStringList &inside, const QStringList &after = {}) {
                  QString feed = QStringLiteral("(sleep 1");
                  for (const QString &l : inside) {
                      feed += QStringLiteral("; echo '") + l + QStringLiteral("'; sleep 1.5");
                  }
                  ShellResult r = cluster.shell(feed + QStringLiteral(") | script -qfec '") + salloc
                      + QStringLiteral("' /dev/null"));
                  for (const QString &l : after) {
                      r.out += cluster.shell(l).out; // noted as typed on login1, as -c commands are
                  }
                  return r;
              };
        // Second wrong attempt: salloc with a command runs it on login1, and gives the
        // allocation back at once: no shell on the node.
        ShellResult local
            = cluster.shell(QStringLiteral("salloc --time=1:00:00 --mem=2G hostname"));
        QCOMPARE(local.out, QStringLiteral("login1\n"));
        ShellResult withCommand = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(withCommand.exitCode, 1);
        QVERIFY2(withCommand.out.contains(QStringLiteral("[x] 1. Ask for an allocation"))
                && withCommand.out.contains(QStringLiteral(
                    "its prompt names the compute node, not login1. (No command like `hostname*` "
                    "was typed on a compute node since this lesson started.)")),
            qPrintable(withCommand.out));
        const QString withCommandFr = inFrench(cluster, withCommand);
        QVERIFY2(withCommandFr.isEmpty(), qPrintable(withCommandFr));
        // Third: the shell on the node, but srun typed only after exit, back on login1.
        ShellResult first = typed(QStringLiteral("salloc --time=1:00:00 --mem=2G"),
            {QStringLiteral("hostname"), QStringLiteral("exit")},
            {QStringLiteral("srun python3 interactive_test.py")});
        QVERIFY2(first.out.contains(QStringLiteral("salloc: Granted job allocation 2")),
            qPrintable(first.out + first.err));
        QVERIFY2(first.out.contains(QStringLiteral("[bob@cn01 ~]$ ")), qPrintable(first.out));
        QVERIFY2(first.out.contains(QStringLiteral("running on cn0")), qPrintable(first.out));
        ShellResult onLogin = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(onLogin.exitCode, 1);
        QVERIFY2(onLogin.out.contains(QStringLiteral("[x] 2. Look where you are"))
                && onLogin.out.contains(QStringLiteral("[ ] 3. Run a step with srun"))
                && onLogin.out.contains(
                    QStringLiteral("No command like `srun*` was typed on a compute node")),
            qPrintable(onLogin.out));
        const QString onLoginFr = inFrench(cluster, onLogin);
        QVERIFY2(onLoginFr.isEmpty(), qPrintable(onLoginFr));
        // Right: srun in the shell on the node, the lesson checked there (salloc, still running,
        // is already noted), exit, and hostname on login1 again.
        ShellResult right = typed(QStringLiteral("salloc --time=1:00:00 --mem=2G"),
            {QStringLiteral("srun python3 interactive_test.py"),
                QStringLiteral("minicluster lesson check"), QStringLiteral("exit")},
            {QStringLiteral("hostname")});
        QVERIFY2(right.out.contains(QStringLiteral("salloc: Relinquishing job allocation 4")),
            qPrintable(right.out + right.err));
        QVERIFY2(right.out.contains(QStringLiteral("[x] 1. Ask for an allocation"))
                && right.out.contains(QStringLiteral("[x] 3. Run a step with srun"))
                && right.out.contains(QStringLiteral("[ ] 4. Give it back")),
            qPrintable(right.out));
        QVERIFY2(right.out.endsWith(QStringLiteral("login1\n")), qPrintable(right.out));
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("3")), 20000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    void busyClusterScenarioSubmitsAsClassmates()
    {
        // Priority set back to priority/basic, so that the fairshare contest's `requires:` line
        // refuses to load (below).
        ClusterFixture cluster;
        QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
        QVERIFY(
            cluster.setSlurmConf(QStringLiteral("PriorityType"), QStringLiteral("priority/basic")));
        QVERIFY2(cluster.up({QStringLiteral("--time-scale"), QStringLiteral("20")}),
            qPrintable(cluster.lastError()));
        ShellResult list
            = cluster.minicluster({QStringLiteral("scenario"), QStringLiteral("list")});
        QVERIFY(list.out.contains(QStringLiteral("node-failure")));
        ShellResult load = cluster.minicluster({QStringLiteral("scenario"), QStringLiteral("load"),
            QStringLiteral("busy-cluster"), QStringLiteral("--speed"), QStringLiteral("100")});
        QVERIFY2(load.exitCode == 0, qPrintable(load.err));
        QVERIFY2(load.out.contains(QStringLiteral("25 submissions and 0 node changes")),
            qPrintable(load.out));
        QTRY_VERIFY_WITH_TIMEOUT(
            cluster.shell(QStringLiteral("squeue -h -u carol | wc -l")).out.trimmed().toInt() > 0
                && cluster.shell(QStringLiteral("squeue -h -n wide -u bob"))
                       .out.contains(QStringLiteral("wide")),
            20000);
        ShellResult contest = cluster.minicluster({QStringLiteral("scenario"),
            QStringLiteral("load"), QStringLiteral("fairshare-contest")});
        QCOMPARE(contest.exitCode, 1);
        QVERIFY(contest.err.contains(QStringLiteral("needs PriorityType=priority/multifactor")));
        QCOMPARE(
            cluster.minicluster({QStringLiteral("scenario"), QStringLiteral("stop")}).exitCode, 0);
    }

    void lesson01ConnectingFromTheLaptopAsBob()
    {
        START_CLUSTER(cluster);
        const QString bob = QStringLiteral("bob");
        auto as = [&](const QStringList &args) {
            return cluster.minicluster(QStringList{QStringLiteral("--user"), bob} + args);
        };
        ShellResult ws
            = as({QStringLiteral("workstation"), QStringLiteral("-c"), QStringLiteral("hostname")});
        QCOMPARE(ws.out, QStringLiteral("laptop\n"));
        QCOMPARE(
            as({QStringLiteral("lesson"), QStringLiteral("start"), QStringLiteral("1")}).exitCode,
            0);
        ShellResult text = as({QStringLiteral("lesson"), QStringLiteral("show")});
        QVERIFY2(text.out.contains(QStringLiteral("User bob")), qPrintable(text.out));
        auto laptop = [&](const QString &cmd) {
            return as({QStringLiteral("workstation"), QStringLiteral("-c"), cmd});
        };
        ShellResult ssh = laptop(QStringLiteral("ssh minicluster whoami"));
        if (ssh.err.contains(QStringLiteral("plain mode"))) {
            QSKIP(qPrintable(ssh.err.trimmed()));
        }
        QVERIFY2(ssh.out.trimmed() == bob, qPrintable(ssh.out + ssh.err));
        QCOMPARE(laptop(QStringLiteral("mkdir -p ~/.ssh && printf 'Host mc\\n  HostName "
                                       "minicluster\\n  User bob\\n' >> ~/.ssh/config"))
                     .exitCode,
            0);
        ShellResult rsync = laptop(QStringLiteral("rsync --archive myproject/ mc:myproject/"));
        QVERIFY2(rsync.exitCode == 0, qPrintable(rsync.err));
        // Wrong attempt: training on the login node.
        cluster.shell(QStringLiteral("cd myproject && python3 train.py /tmp"), bob);
        cluster.shell(QStringLiteral("sinfo"), bob);
        ShellResult wrong = as({QStringLiteral("lesson"), QStringLiteral("--lang"),
            QStringLiteral("en"), QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.out.contains(QStringLiteral("Training on the login node slows everyone")),
            qPrintable(wrong.out));
        QVERIFY2(wrong.out.contains(QStringLiteral("minicluster lesson reset-step")),
            qPrintable(wrong.out));
        // The way out: the step starts again; the earlier steps stay done.
        ShellResult again = as({QStringLiteral("lesson"), QStringLiteral("--lang"),
            QStringLiteral("en"), QStringLiteral("reset-step")});
        QVERIFY2(again.out.contains(QStringLiteral("Step 4 starts again")), qPrintable(again.out));
        laptop(QStringLiteral("ssh mc true"));
        cluster.shell(QStringLiteral("sinfo"), bob);
        ShellResult done = as({QStringLiteral("lesson"), QStringLiteral("--lang"),
            QStringLiteral("en"), QStringLiteral("check")});
        QVERIFY2(done.exitCode == 0, qPrintable(done.out));
    }

    void lesson13Containers()
    {
        if (!QFile::exists(QStringLiteral(
                MC_BIN_DIR "/../share/minicluster/software/images/python-numpy.sif"))) {
            QSKIP("no container images (squashfs-tools and python3-numpy build them)");
        }
        START_CLUSTER(cluster);
        cluster.setStudent(kBob);
        QCOMPARE(lesson(cluster, {QStringLiteral("start"), QStringLiteral("13")}).exitCode, 0);
        const QString image = QStringLiteral("/opt/minicluster/software/images/python-numpy.sif");
        // Wrong attempt: NumPy on the login node's own python3, no container.
        cluster.shell(QStringLiteral("python3 -c 'import numpy'"));
        ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.out.contains(QStringLiteral("Run a command in the image with `apptainer "
                                                   "exec")),
            qPrintable(wrong.out));
        const QString wrongFr = inFrench(cluster, wrong);
        QVERIFY2(wrongFr.isEmpty(), qPrintable(wrongFr));
        QCOMPARE(
            cluster.shell(QStringLiteral("apptainer exec %1 python3 -c 'import numpy'").arg(image))
                .exitCode,
            0);
        QCOMPARE(
            cluster.shell(QStringLiteral("echo exit | apptainer shell %1").arg(image)).exitCode, 0);
        QCOMPARE(cluster.shell(QStringLiteral("sbatch container_job.sh")).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(lesson(cluster, {QStringLiteral("check")})
                                     .out.contains(QStringLiteral(
                                         "[x] 3. A containerised job that cannot see its data")),
            60000);
        ShellResult unbound = lesson(cluster, {QStringLiteral("check")});
        QCOMPARE(unbound.exitCode, 1);
        QVERIFY2(unbound.out.contains(QStringLiteral("Add `--bind /scratch` before the image")),
            qPrintable(unbound.out));
        const QString unboundFr = inFrench(cluster, unbound);
        QVERIFY2(unboundFr.isEmpty(), qPrintable(unboundFr));
        QVERIFY2(cluster.shell(QStringLiteral("cat container-*.out"))
                     .out.contains(QStringLiteral("FileNotFoundError")),
            "the first attempt fails for want of /scratch in the container");
        QCOMPARE(cluster
                     .shell(QStringLiteral("sed -i 's|apptainer exec \"$IMAGE\"|apptainer exec "
                                           "--bind /scratch \"$IMAGE\"|' container_job.sh && "
                                           "sbatch container_job.sh && sbatch "
                                           "gpu_container_job.sh"))
                     .exitCode,
            0);
        QTRY_VERIFY_WITH_TIMEOUT(complete(cluster, QStringLiteral("13")), 90000);
        const ShellResult done = lesson(cluster, {QStringLiteral("check")});
        const QString doneFr = inFrench(cluster, done);
        QVERIFY2(doneFr.isEmpty(), qPrintable(doneFr));
    }

    void eachLaptopUserHasOwnSshSettingsAndAPasswordLetsANewKeyIn()
    {
        START_CLUSTER(cluster);
        auto laptop = [&](const QString &user, const QString &cmd) {
            return cluster.minicluster({QStringLiteral("--user"), user,
                QStringLiteral("workstation"), QStringLiteral("-c"), cmd});
        };
        const QString mc = QStringLiteral(
            "mkdir -p ~/.ssh && printf 'Host mc\\n  HostName minicluster\\n' > ~/.ssh/config");
        QCOMPARE(laptop(QStringLiteral("carol"), mc).exitCode, 0);
        ShellResult carol = laptop(QStringLiteral("carol"), QStringLiteral("ssh mc whoami"));
        if (carol.err.contains(QStringLiteral("plain mode"))) {
            QSKIP(qPrintable(carol.err.trimmed()));
        }
        QCOMPARE(carol.out.trimmed(), QStringLiteral("carol"));
        QCOMPARE(laptop(QStringLiteral("alice"), mc).exitCode, 0);
        QCOMPARE(laptop(QStringLiteral("alice"), QStringLiteral("ssh mc whoami")).out.trimmed(),
            QStringLiteral("alice"));
        QCOMPARE(laptop(QStringLiteral("carol"), QStringLiteral("ssh mc whoami")).out.trimmed(),
            QStringLiteral("carol"));
        // Carol opens her laptop while alice's shell is open: alice stays alice.
        const QString carolOpens
            = QStringLiteral("'" MC_BIN_DIR "/minicluster' --dir '%1' --user carol workstation -c "
                             "true && ssh mc whoami")
                  .arg(cluster.dir());
        QCOMPARE(
            laptop(QStringLiteral("alice"), carolOpens).out.trimmed(), QStringLiteral("alice"));

        // A new default key: not on the cluster yet, so key authentication alone fails...
        const QString alice = QStringLiteral("alice");
        QCOMPARE(laptop(alice,
                     QStringLiteral("rm -f ~/.ssh/id_ed25519* && ssh-keygen -q -t ed25519 -N '' "
                                    "</dev/null && ls ~/.ssh/id_ed25519.pub"))
                     .exitCode,
            0);
        ShellResult locked = laptop(alice, QStringLiteral("ssh -o BatchMode=yes mc whoami"));
        QVERIFY2(locked.exitCode != 0, qPrintable(locked.out));
        QVERIFY2(locked.err.contains(QStringLiteral("password")), qPrintable(locked.err));
        // ... ssh-copy-id says so, and installs it with the password the lesson gives.
        QTemporaryDir tmp;
        const QString askpass = tmp.filePath(QStringLiteral("askpass"));
        QFile f(askpass);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho learn-slurm\n");
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::ExeOwner);
        const QString withPassword = QStringLiteral(
            "SSH_ASKPASS=%1 SSH_ASKPASS_REQUIRE=force DISPLAY=:0 ssh-copy-id mc </dev/null")
                                         .arg(askpass);
        ShellResult copied = laptop(alice, withPassword);
        QVERIFY2(copied.err.contains(QStringLiteral("Number of key(s) added: 1"))
                || copied.out.contains(QStringLiteral("Number of key(s) added: 1")),
            qPrintable(copied.out + copied.err));
        QCOMPARE(
            laptop(alice, QStringLiteral("ssh -o BatchMode=yes mc whoami")).out.trimmed(), alice);
        // The lesson commands work in an ssh session on login1 too.
        ShellResult list
            = laptop(alice, QStringLiteral("ssh mc minicluster lesson --lang en list"));
        QVERIFY2(list.exitCode == 0 && list.out.contains(QStringLiteral("Your first batch job")),
            qPrintable(list.out + list.err));
        ShellResult twice = laptop(alice, withPassword);
        QVERIFY2(twice.err.contains(QStringLiteral("already exist")), qPrintable(twice.err));
    }
};

QTEST_GUILESS_MAIN(WalkthroughTest)
#include "walkthrough_test.moc"
