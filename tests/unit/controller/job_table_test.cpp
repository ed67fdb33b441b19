// The controller's job table (job_table.h) on its own: every job has one row in id order, ids
// only grow, and a change is seen by the cache only once the job is touched, which problem()
// reports by the job's id until then.
#include "mc/ctl/job_table.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace mc;
using ctl::JobTable;
using sched::Job;
using sched::JobId;

namespace {

Job job(std::uint32_t id, const std::string &name, const std::string &user = "alice")
{
    Job j;
    j.id = JobId{id};
    j.spec.name = name;
    j.spec.user = user;
    j.spec.partition = "cpu";
    return j;
}

std::vector<std::uint32_t> rowIds(const JobTable &table)
{
    std::vector<std::uint32_t> ids;
    for (const auto &row : table.rows()) {
        ids.push_back(row.id.value);
    }
    return ids;
}

// The table's `rows` text for `fields`, every job kept, no scheduling state.
std::string rowsText(const JobTable &table, const std::vector<std::string> &fields)
{
    std::string text;
    table.jobRows(fields, 500, [](const JobTable::CachedRow &) { return true; }, {}, {})
        .dumpTo(text);
    return text;
}

} // namespace

class JobTableTest : public QObject {
    Q_OBJECT

private slots:
    void idsOnlyGrowAndTakingOneHandsOutTheNext();
    void everyJobHasOneRowInIdOrderWhateverTheOrderOfArrival();
    void erasedJobsTakeTheirRowsWithThem();
    void aJobAddedByIndexHasARowAtOnce();
    void aChangeIsSeenOnlyOnceTheJobIsTouched();
    void aJobPastTheLastIdIsReported();
    void rowsAreTheJobsMembersAsText();
};

void JobTableTest::idsOnlyGrowAndTakingOneHandsOutTheNext()
{
    JobTable table;
    QCOMPARE(table.lastId(), 0u);
    table.restoreLastId(41);
    QCOMPARE(table.nextId().value, 42u);
    QCOMPARE(table.nextId().value, 42u); // looking does not take it
    QCOMPARE(table.takeId().value, 42u);
    QCOMPARE(table.takeId().value, 43u);
    QCOMPARE(table.lastId(), 43u);
}

void JobTableTest::everyJobHasOneRowInIdOrderWhateverTheOrderOfArrival()
{
    JobTable table;
    table.restoreLastId(10);
    for (std::uint32_t id : {7u, 3u, 9u, 1u}) {
        QVERIFY(table.emplace(JobId{id}, job(id, "j" + std::to_string(id))).second);
    }
    QVERIFY(!table.emplace(JobId{3}, job(3, "again")).second); // the id is taken
    QCOMPARE(table.at(JobId{3}).spec.name, std::string("j3"));
    QCOMPARE(table.size(), 4u);
    QCOMPARE(rowIds(table), (std::vector<std::uint32_t>{1, 3, 7, 9}));
    for (const auto &row : table.rows()) {
        QCOMPARE(row.job, &table.at(row.id)); // the record itself, not a copy
        QCOMPARE(table.rowName(row.user), std::string("alice"));
        QCOMPARE(table.rowName(row.partition), std::string("cpu"));
    }
    QCOMPARE(table.problem(), std::nullopt);
}

void JobTableTest::erasedJobsTakeTheirRowsWithThem()
{
    JobTable table;
    table.restoreLastId(5);
    for (std::uint32_t id = 1; id <= 5; ++id) {
        table.emplace(JobId{id}, job(id, "j"));
    }
    const auto dropped
        = table.eraseIf([](const auto &entry) { return entry.first.value % 2 == 0; });
    QCOMPARE(dropped, 2u);
    QCOMPARE(rowIds(table), (std::vector<std::uint32_t>{1, 3, 5}));
    QCOMPARE(table.erase(JobId{3}), 1u);
    QCOMPARE(table.erase(JobId{3}), 0u);
    table.erase(table.find(JobId{1}));
    QCOMPARE(rowIds(table), (std::vector<std::uint32_t>{5}));
    QVERIFY(!table.contains(JobId{1}));
    QCOMPARE(table.count(JobId{5}), 1u);
    QCOMPARE(table.problem(), std::nullopt);
}

void JobTableTest::aJobAddedByIndexHasARowAtOnce()
{
    JobTable table;
    const JobId id = table.takeId();
    Job &added = table[id] = job(id.value, "split");
    QCOMPARE(rowIds(table), (std::vector<std::uint32_t>{1}));
    // Assigned through the index without a touch: its row still has the empty record's names.
    QVERIFY(table.problem().has_value());
    table.touch(added);
    QCOMPARE(table.problem(), std::nullopt);
    QCOMPARE(&table[id], &added); // an existing id is only looked up
    QCOMPARE(table.size(), 1u);
}

void JobTableTest::aChangeIsSeenOnlyOnceTheJobIsTouched()
{
    JobTable table;
    table.restoreLastId(2);
    table.emplace(JobId{1}, job(1, "first"));
    table.emplace(JobId{2}, job(2, "second"));
    QCOMPARE(rowsText(table, {"job_id", "name"}), std::string(R"([[1,"first"],[2,"second"]])"));

    // A filter member (what `jobs` selects on) changed behind the cache's back.
    table.find(JobId{2})->second.state = sched::JobState::Running;
    QCOMPARE(table.problem(), std::optional<std::string>("job 2: filter members"));
    table.touch(table.at(JobId{2}));
    QCOMPARE(table.problem(), std::nullopt);

    // Another member, once the row holds its text: the cells are stale until the touch.
    QCOMPARE(rowsText(table, {"job_id", "name"}), std::string(R"([[1,"first"],[2,"second"]])"));
    table.at(JobId{1}).spec.name = "renamed";
    QCOMPARE(table.problem(), std::optional<std::string>("job 1: members"));
    table.touch(table.at(JobId{1}));
    QCOMPARE(table.problem(), std::nullopt);
    QCOMPARE(rowsText(table, {"job_id", "name"}), std::string(R"([[1,"renamed"],[2,"second"]])"));
}

void JobTableTest::aJobPastTheLastIdIsReported()
{
    JobTable table;
    table.restoreLastId(3);
    table.emplace(JobId{4}, job(4, "early"));
    QCOMPARE(
        table.problem(), std::optional<std::string>("job 4: an id past the last one handed out"));
    QCOMPARE(table.takeId().value, 4u);
    QCOMPARE(table.problem(), std::nullopt);
}

void JobTableTest::rowsAreTheJobsMembersAsText()
{
    JobTable table;
    table.restoreLastId(3);
    table.emplace(JobId{1}, job(1, "a", "alice"));
    table.emplace(JobId{2}, job(2, "b", "bob"));
    Job &third = table.emplace(JobId{3}, job(3, std::string(300, 'x'), "alice")).first->second;
    // Only the jobs `keep` accepts; `now` and unknown names as the controller writes them.
    std::string text;
    table
        .jobRows({"job_id", "user", "now", "no_such_member"}, 500,
            [&table](const JobTable::CachedRow &row) { return table.rowName(row.user) == "bob"; },
            {}, {})
        .dumpTo(text);
    QCOMPARE(text, std::string(R"([[2,"bob",500,null]])"));
    // A member too long for the cache: the row stays uncached and is written from the record.
    QCOMPARE(rowsText(table, {"name"}),
        std::string(R"([["a"],["b"],[")") + std::string(300, 'x') + "\"]]");
    QVERIFY(!table.freshRow(table.rows()[2]).fresh);
    QVERIFY(table.freshRow(table.rows()[0]).fresh);
    QCOMPARE(third.spec.user, std::string("alice"));
    QCOMPARE(table.problem(), std::nullopt);
}

QTEST_APPLESS_MAIN(JobTableTest)
#include "job_table_test.moc"
