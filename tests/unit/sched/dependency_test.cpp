#include "mc/sched/dependency.h"

#include <QtTest>

#include <map>

using namespace mc::sched;

namespace {

Job jobWith(std::uint32_t id, JobState state, std::string dependency = {})
{
    Job j;
    j.id = JobId{id};
    j.state = state;
    j.spec.dependency = std::move(dependency);
    return j;
}

} // namespace

class DependencyTest : public QObject {
    Q_OBJECT

    std::map<std::uint32_t, Job> m_jobs;
    JobLookup lookup()
    {
        JobLookup l;
        l.find = [this](JobId id) -> const Job * {
            auto it = m_jobs.find(id.value);
            return it == m_jobs.end() ? nullptr : &it->second;
        };
        return l;
    }

private slots:
    void parsesEveryFormAndRejectsMixedSeparators()
    {
        QVERIFY(parseDependency("afterok:1:2,afterany:3"));
        QCOMPARE(parseDependency("afterok:1:2,afterany:3")->items.size(), std::size_t(2));
        QVERIFY(parseDependency("afterok:1?afternotok:2")->anyOf);
        QCOMPARE(parseDependency("after:5+10")->items[0].targets[0].delay, 600);
        QVERIFY(parseDependency("singleton"));
        QVERIFY(parseDependency("aftercorr:7"));
        QVERIFY(!parseDependency("afterok:1,afterok:2?afterok:3"));
        QVERIFY(!parseDependency("afterok"));
        QVERIFY(!parseDependency("afterok:x"));
        QVERIFY(!parseDependency("before:1"));
        QVERIFY(!parseDependency("afterok:1+5")); // +time belongs to after only
    }

    void afterokWaitsThenIsSatisfiedOrNeverSatisfied()
    {
        m_jobs.clear();
        m_jobs[1] = jobWith(1, JobState::Running);
        const Job self = jobWith(2, JobState::Pending, "afterok:1");
        auto result = evaluateDependency(self, lookup(), 0);
        QCOMPARE(result.status, DependencyStatus::Waiting);
        QCOMPARE(result.display, std::string("afterok:1(unfulfilled)"));
        QCOMPARE(result.waitingFor.size(), std::size_t(1));
        m_jobs[1].state = JobState::Completed;
        QCOMPARE(evaluateDependency(self, lookup(), 0).status, DependencyStatus::Satisfied);
        m_jobs[1].state = JobState::Failed;
        result = evaluateDependency(self, lookup(), 0);
        QCOMPARE(result.status, DependencyStatus::Never);
        QCOMPARE(result.display, std::string("afterok:1(failed)"));
    }

    void afternotokIsTheMirrorOfAfterok()
    {
        m_jobs.clear();
        m_jobs[1] = jobWith(1, JobState::Timeout);
        QCOMPARE(
            evaluateDependency(jobWith(2, JobState::Pending, "afternotok:1"), lookup(), 0).status,
            DependencyStatus::Satisfied);
        m_jobs[1].state = JobState::Completed;
        QCOMPARE(
            evaluateDependency(jobWith(2, JobState::Pending, "afternotok:1"), lookup(), 0).status,
            DependencyStatus::Never);
    }

    void questionMarkNeedsOnlyOneItem()
    {
        m_jobs.clear();
        m_jobs[1] = jobWith(1, JobState::Failed);
        m_jobs[2] = jobWith(2, JobState::Running);
        const Job self = jobWith(3, JobState::Pending, "afterok:1?afterany:2");
        QCOMPARE(evaluateDependency(self, lookup(), 0).status, DependencyStatus::Waiting);
        m_jobs[2].state = JobState::Completed;
        QCOMPARE(evaluateDependency(self, lookup(), 0).status, DependencyStatus::Satisfied);
        const Job both = jobWith(4, JobState::Pending, "afterok:1?afterok:5");
        m_jobs[5] = jobWith(5, JobState::Failed);
        QCOMPARE(evaluateDependency(both, lookup(), 0).status, DependencyStatus::Never);
    }

    void afterWithDelayCountsFromTheTargetStart()
    {
        m_jobs.clear();
        m_jobs[1] = jobWith(1, JobState::Running);
        m_jobs[1].startTime = 100;
        const Job self = jobWith(2, JobState::Pending, "after:1+2");
        auto result = evaluateDependency(self, lookup(), 150);
        QCOMPARE(result.status, DependencyStatus::Waiting);
        QCOMPARE(result.readyAt, std::optional<Seconds>(220));
        QCOMPARE(evaluateDependency(self, lookup(), 220).status, DependencyStatus::Satisfied);
    }

    void unknownTargetsCountAsFinished()
    {
        m_jobs.clear();
        QCOMPARE(
            evaluateDependency(jobWith(2, JobState::Pending, "afterok:99"), lookup(), 0).status,
            DependencyStatus::Satisfied);
    }
};

QTEST_APPLESS_MAIN(DependencyTest)
#include "dependency_test.moc"
