// The lesson engine on hand-made facts: the check language, job/file/history/node checks and
// their explanations in both languages, and lesson files.
#include "mc/lessons/evaluate.h"
#include "mc/lessons/lesson.h"
#include "mc/lessons/progress.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using mc::lessons::Check;
using mc::lessons::CheckKind;
using mc::lessons::Facts;
using mc::proto::Json;

namespace {

Check check(const char *line)
{
    auto parsed = mc::lessons::parseCheck(line);
    if (!parsed.check) {
        qFatal("cannot parse '%s': %s", line, parsed.error.c_str());
    }
    return *parsed.check;
}

// A job as the controller reports it (docs/protocol.md)...
Json jobJson(std::int64_t id, const char *name, const char *state, std::int64_t submit = 1000)
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("name", name);
    j.set("user", "alice");
    j.set("state", state);
    j.set("submit_time", submit);
    j.set("start_time", submit + 5);
    j.set("time_limit", 3600);
    j.set("min_memory", 1000);
    j.set("num_cpus", 1);
    j.set("num_nodes", 1);
    j.set("exit_code", 0);
    j.set("partition", "cpu");
    return j;
}

// ... and as the engine reads it: decoded once, as the collector decodes the controller's.
mc::record::JobObject decoded(const Json &job)
{
    return mc::record::jobObjectFromJson(job);
}

mc::record::JobObject job(
    std::int64_t id, const char *name, const char *state, std::int64_t submit = 1000)
{
    return decoded(jobJson(id, name, state, submit));
}

Facts facts()
{
    Facts f;
    f.user = "alice";
    f.now = 2000;
    f.since = 900;
    f.wallSince = 900;
    return f;
}

} // namespace

class EngineTest : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryKindOfCheck()
    {
        Check j = check("jobs 6 name=squares state=COMPLETED mem<=1G");
        QCOMPARE(j.kind, CheckKind::Job);
        QCOMPARE(j.atLeast, 6);
        QCOMPARE(j.conditions.size(), std::size_t{3});
        QCOMPARE(j.conditions[2].op, mc::lessons::Op::Le);
        QCOMPARE(j.conditions[2].value, std::string("1G"));
        Check f = check("file ~/hello-*.out contains \"Hello from\"");
        QCOMPARE(f.kind, CheckKind::File);
        QCOMPARE(f.fileArg, std::string("Hello from"));
        Check r = check("not ran \"python*\" on login1");
        QCOMPARE(r.kind, CheckKind::Ran);
        QVERIFY(r.none);
        QCOMPARE(r.host, std::string("login1"));
        Check n = check("node cn02 state=drain*");
        QCOMPARE(n.target, std::string("cn02"));
    }

    void rejectsMalformedChecksWithAReason()
    {
        QVERIFY(
            mc::lessons::parseCheck("jbo name=x").error.find("unknown check") != std::string::npos);
        QVERIFY(mc::lessons::parseCheck("ran \"sbatch").error.find("quote") != std::string::npos);
        QVERIFY(mc::lessons::parseCheck("file ~/x older_than soon").error.find("duration")
            != std::string::npos);
    }

    void readsDurationsAndMemory()
    {
        QCOMPARE(mc::lessons::parseDuration("00:10:00").value(), 600LL);
        QCOMPARE(mc::lessons::parseDuration("1-00:00:00").value(), 86400LL);
        QCOMPARE(mc::lessons::parseDuration("60d").value(), 60LL * 86400);
        QCOMPARE(mc::lessons::parseMemoryMiB("2G").value(), 2048LL);
        QCOMPARE(mc::lessons::parseMemoryMiB("500M").value(), 500LL);
    }

    void jobCheckPassesOnAMatchingJob()
    {
        Facts f = facts();
        f.jobs.push_back(job(3, "hello", "COMPLETED"));
        auto r = evaluate(check("job name=hello state=COMPLETED exit=0 time<=01:00:00"), f, "en");
        QVERIFY2(r.passed, r.explanation.c_str());
        QCOMPARE(r.jobIds, std::vector<std::int64_t>{3});
    }

    void jobCheckExplainsTheClosestJob()
    {
        Facts f = facts();
        f.jobs.push_back(job(3, "hello", "RUNNING"));
        auto r = evaluate(check("job name=hello state=COMPLETED"), f, "en");
        QVERIFY(!r.passed);
        QCOMPARE(r.explanation,
            std::string("The closest is job 3 (hello): its state is RUNNING, not COMPLETED. It has "
                        "not finished yet: wait a little and check again."));
        auto fr = evaluate(check("job name=hello state=COMPLETED"), f, "fr");
        QVERIFY(fr.explanation.find("La plus proche est la tâche 3 (hello) : son état est RUNNING")
            == 0);
    }

    void jobsBeforeTheLessonStartedDoNotCount()
    {
        Facts f = facts();
        f.jobs.push_back(job(1, "hello", "COMPLETED", 100));
        auto r = evaluate(check("job name=hello"), f, "en");
        QVERIFY(!r.passed);
        QCOMPARE(r.explanation,
            std::string("You have not submitted any job since this lesson started."));
    }

    void comparesRequestsWithUnits()
    {
        Facts f = facts();
        Json j = jobJson(4, "right-size", "COMPLETED");
        j.set("min_memory", 2048);
        f.jobs.push_back(decoded(j));
        auto r = evaluate(check("job name=right-size mem<=1G"), f, "en");
        QVERIFY(!r.passed);
        QVERIFY2(
            r.explanation.find("its memory request is 2G, not at most 1G") != std::string::npos,
            r.explanation.c_str());
        QVERIFY(evaluate(check("job mem>=2G time=60"), f, "en").passed);
    }

    void countsArrayTasksAndFollowsDependenciesByName()
    {
        Facts f = facts();
        for (int t = 1; t <= 6; ++t) {
            Json j = jobJson(10 + t, "squares", t < 6 ? "COMPLETED" : "RUNNING");
            j.set("array_job_id", 11);
            j.set("array_task_id", t);
            f.jobs.push_back(decoded(j));
        }
        auto partial = evaluate(check("jobs 6 name=squares state=COMPLETED"), f, "en");
        QVERIFY(!partial.passed);
        QCOMPARE(partial.explanation, std::string("5 of your jobs match; this step needs 6."));

        // While compute waits, the controller reports its dependency.
        Json prep = jobJson(20, "prepare", "RUNNING");
        Json comp = jobJson(21, "compute", "PENDING", 1002);
        comp.set("dependency", "afterok:20(unfulfilled)");
        f.jobs.push_back(decoded(prep));
        f.jobs.push_back(decoded(comp));
        QVERIFY(evaluate(check("job name=compute after=afterok:prepare"), f, "en").passed);
        QVERIFY(evaluate(check("job name=compute after=afterok:20"), f, "en").passed);
        QVERIFY(!evaluate(check("job name=compute after=afterany:prepare"), f, "en").passed);

        // Once it ran, it reports none: compute was submitted while prepare ran and started
        // once prepare had ended, so it waited for prepare's success (or its end).
        prep.set("state", "COMPLETED").set("end_time", 1010);
        comp.set("state", "COMPLETED").set("dependency", "").set("start_time", 1010);
        f.jobs.resize(6);
        f.jobs.push_back(decoded(prep));
        f.jobs.push_back(decoded(comp));
        QVERIFY(evaluate(check("job name=compute after=afterok:prepare"), f, "en").passed);
        QVERIFY(evaluate(check("job name=compute after=afterany:prepare"), f, "en").passed);
        QVERIFY(!evaluate(check("job name=compute after=afternotok:prepare"), f, "en").passed);
        // Submitted once prepare had ended: it waited for nothing.
        f.jobs.back().submitTime = 1011;
        f.jobs.back().startTime = 1016;
        QVERIFY(!evaluate(check("job name=compute after=afterok:prepare"), f, "en").passed);
    }

    void overtookSeesAJobThatBackfillStartedEarly()
    {
        Facts f = facts();
        Json wide = jobJson(30, "wide", "PENDING", 1000);
        wide.set("start_time", 1600); // a pending job's start_time is its planned start
        Json shortJob = jobJson(31, "short", "RUNNING", 1010);
        Json later = jobJson(32, "toolong", "PENDING", 1020);
        later.set("start_time", 2200);
        f.jobs = {decoded(wide), decoded(shortJob), decoded(later)};
        QVERIFY(evaluate(check("job name=short overtook=wide"), f, "en").passed);
        QVERIFY(evaluate(check("no job name=toolong overtook=wide"), f, "en").passed);
        // Cancelled while pending in the second short started (Slurm then sets its start
        // time to the cancel time): it was still waiting, so short overtook it.
        f.jobs[0].state = "CANCELLED";
        f.jobs[0].startTime = 1015; // short started at 1015 (submit + 5)
        f.jobs[0].endTime = 1015;
        QVERIFY(evaluate(check("job name=short overtook=wide"), f, "en").passed);
        // Once wide started first, nothing overtook it.
        f.jobs[0].state = "RUNNING";
        f.jobs[0].startTime = 1002;
        auto r = evaluate(check("job name=short overtook=wide"), f, "en");
        QVERIFY(!r.passed);
        QVERIFY2(r.explanation.find("it did not start while wide was waiting") != std::string::npos,
            r.explanation.c_str());
        // A job in another partition is not overtaken.
        f.jobs[0].state = "PENDING";
        f.jobs[0].partition = "gpu";
        QVERIFY(!evaluate(check("job name=short overtook=wide"), f, "en").passed);
    }

    void noJobCheckNamesTheOffendingJob()
    {
        Facts f = facts();
        f.jobs.push_back(job(7, "train", "FAILED"));
        auto r = evaluate(check("no job state=FAILED"), f, "en");
        QVERIFY(!r.passed);
        QCOMPARE(r.explanation,
            std::string("Found job 7 (train) (FAILED), and this step expects no job like it."));
    }

    void historyChecksSeeHostsAndTimes()
    {
        Facts f = facts();
        f.history = mc::lessons::parseHistory("800\tlogin1\t/home/alice\tsbatch old.sh\n"
                                              "950\tlogin1\t/home/alice\tpython train.py\n"
                                              "960\tcn01\t/home/alice\thostname\n");
        QVERIFY(!evaluate(check("ran \"sbatch*\""), f, "en").passed); // before the start
        QVERIFY(evaluate(check("ran \"hostname\" on compute"), f, "en").passed);
        QVERIFY(!evaluate(check("ran \"hostname\" on login"), f, "en").passed);
        auto r = evaluate(check("not ran \"python*train.py*\" on login1"), f, "en");
        QVERIFY(!r.passed);
        QVERIFY2(r.explanation.rfind("You ran `python train.py` on login1 at ", 0) == 0,
            r.explanation.c_str());
        QVERIFY(evaluate(check("ran \"sacct*|python*\""), f, "en").passed);
        f.history.push_back({970, "login1", "/home/alice", "cd jobs && sbatch 'a;b.sh' | tee x"});
        QVERIFY(evaluate(check("ran \"sbatch 'a;b.sh'\""), f, "en").passed);
        QVERIFY(evaluate(check("ran \"tee x\" on login1"), f, "en").passed);
    }

    void fileChecksMapTheUsersPathsOntoTheCluster()
    {
        QTemporaryDir tmp;
        mc::emu::ClusterLayout layout{tmp.path().toStdString()};
        QDir().mkpath(tmp.path() + QStringLiteral("/home/alice"));
        QDir().mkpath(tmp.path() + QStringLiteral("/scratch/alice/logs"));
        QFile out(tmp.path() + QStringLiteral("/home/alice/hello-3.out"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("Hello from cn01\n");
        out.close();
        // ~/scratch is a link to /scratch/alice, as the path is seen on the cluster.
        QVERIFY(QFile::link(
            QStringLiteral("/scratch/alice"), tmp.path() + QStringLiteral("/home/alice/scratch")));
        mc::lessons::FileView view(layout, "alice", "def-prof");
        Facts f = facts();
        f.now = QDateTime::currentSecsSinceEpoch();
        f.files = &view;
        QVERIFY(evaluate(check("file ~/hello-*.out contains \"Hello from\""), f, "en").passed);
        auto wrong = evaluate(check("file ~/hello-*.out contains \"Goodbye\""), f, "en");
        QCOMPARE(wrong.explanation,
            std::string("/home/alice/hello-3.out exists but does not contain \"Goodbye\"."));
        QVERIFY(evaluate(check("dir $SCRATCH/logs"), f, "en").passed);
        QVERIFY(evaluate(check("dir ~/scratch/logs exists"), f, "en").passed);
        auto missing = evaluate(check("file /scratch/alice/logs/x.out"), f, "fr");
        QCOMPARE(
            missing.explanation, std::string("Il n'y a pas de fichier /scratch/alice/logs/x.out."));
        QVERIFY(evaluate(check("file ~/hello-3.out newer_than 1h"), f, "en").passed);
        QVERIFY(!evaluate(check("file ~/hello-3.out older_than 60d"), f, "en").passed);
    }

    void nodeChecksReadTheClusterReply()
    {
        Facts f = facts();
        Json n = Json::object();
        n.set("name", "cn02");
        n.set("state", "drained");
        n.set("alloc_cpus", 0);
        f.nodes.push_back(n);
        QVERIFY(evaluate(check("node cn02 state=drain*"), f, "en").passed);
        QVERIFY(!evaluate(check("node cn02 state=idle"), f, "en").passed);
        QVERIFY(evaluate(check("no node state=down"), f, "en").passed);
    }

    void lessonFilesSplitIntoStepsChecksAndHints()
    {
        const char *text = "---\ntitle: T\nfiles: a.sh b.sh\n---\nIntro.\n\n## One\nDo it.\n"
                           "```check\njob name=a\nexplain: Submit a.\n```\n```hint\nType it.\n```\n"
                           "## Two\n```check\nfile ~/x\n```\n";
        auto parsed = mc::lessons::parseLesson(text, "03-x", "en");
        QVERIFY(parsed.problems.empty());
        const auto &l = parsed.lesson;
        QCOMPARE(l.title, std::string("T"));
        QCOMPARE(l.number, std::string("03"));
        QCOMPARE(l.files.size(), std::size_t{2});
        QCOMPARE(l.steps.size(), std::size_t{2});
        QCOMPARE(l.steps[0].text, std::string("Do it."));
        QCOMPARE(l.steps[0].checks[0].explain, std::string("Submit a."));
        QCOMPARE(l.steps[0].hints[0], std::string("Type it."));
        Facts f = facts();
        auto status = mc::lessons::evaluateLesson(l, f);
        QCOMPARE(status.currentStep, std::size_t{0});
        QVERIFY(!status.complete);
        QCOMPARE(status.steps[0].results[0].explanation,
            std::string("Submit a. (You have not submitted any job since this lesson started.)"));
    }

    void lessonFileProblemsAreReported()
    {
        auto parsed
            = mc::lessons::parseLesson("# T\n## S\n```check\njob nmae=x\n```\n", "01-x", "en");
        QCOMPARE(parsed.problems.size(), std::size_t{1});
        QVERIFY(parsed.problems[0].find("unknown field 'nmae'") != std::string::npos);
    }

    void progressSurvivesASaveAndLoad()
    {
        QTemporaryDir tmp;
        mc::emu::ClusterLayout layout{tmp.path().toStdString()};
        mc::lessons::ProgressStore store(layout, "alice");
        store.current = "02-first-job";
        store.lessons["02-first-job"].started = 42;
        store.lessons["02-first-job"].complete = true;
        store.lessons["02-first-job"].shownStep = 2;
        QVERIFY(store.save());
        mc::lessons::ProgressStore again(layout, "alice");
        QVERIFY(again.load());
        QCOMPARE(again.current, std::string("02-first-job"));
        QCOMPARE(again.lessons["02-first-job"].started, 42LL);
        QVERIFY(again.lessons["02-first-job"].complete);
        QCOMPARE(again.lessons["02-first-job"].shownStep, std::size_t{2});
    }
};

QTEST_GUILESS_MAIN(EngineTest)
#include "engine_test.moc"
