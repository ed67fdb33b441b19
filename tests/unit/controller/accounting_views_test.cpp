// The accounting views (accounting_views.h) through the controller: `job_scripts` shows what
// AccountingStoreFlags keeps to the job's owner and operators only, and the sweep takes
// finished jobs' scripts out of the store past MinJobAge, also what an earlier run left.
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace mc;
using proto::Json;
using namespace mc::test;

namespace {

constexpr const char *kScript = "#!/bin/bash\ntrue\n"; // submitRequest()'s

std::string withFlags(const char *lines)
{
    return std::string(kTwoNodeConf) + "MinJobAge=60\n" + lines;
}

} // namespace

class AccountingViewsTest : public QObject {
    Q_OBJECT

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void cleanup();
    void keptScriptIsShownToItsOwnerAndOperatorsOnly();
    void queuedScriptIsShownLiveOnlyWithoutTheFlag();
    void sweepDropsScriptsPastMinJobAgeUnlessKept();
    void restartedControllerSweepsWhatTheEarlierRunLeft();

private:
    void start(const std::string &conf)
    {
        m_ctl.reset();
        std::string error;
        m_ctl = openController(*m_dir, m_store, m_gateway, conf.c_str(), kTwoUsers, error);
        QVERIFY2(error.empty(), error.c_str());
        Json hello = request("node_register");
        for (const char *node : {"cn01", "cn02"}) {
            hello.set("node", node);
            m_ctl->nodeRegistered(node, hello, 100);
        }
    }
    // Job 1 of alice, run and ended at 110.
    void runFirstJob()
    {
        QCOMPARE(m_ctl->handleRequest(submitRequest("alice", 1), 100)["job_id"].toInt(), 1);
        m_ctl->schedule(101);
        m_ctl->nodeReport("cn01", jobEnded(1, 110), 110);
    }
    Json scripts(const std::string &user, bool live = false)
    {
        const Json reply = m_ctl->handleRequest(
            request("job_scripts", fields({{"user", user}, {"job_ids", ids({1})}, {"live", live}})),
            120);
        return reply["scripts"];
    }
    bool scriptStored()
    {
        sched::JobSpec spec;
        return m_store->loadScript(sched::JobId{1}, spec);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void AccountingViewsTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void AccountingViewsTest::keptScriptIsShownToItsOwnerAndOperatorsOnly()
{
    start(withFlags("AccountingStoreFlags=job_script\n"));
    runFirstJob();
    const Json own = scripts("alice");
    QCOMPARE(own.size(), 1u);
    QCOMPARE(own.items().at(0)["job_id"].toInt(), 1);
    QCOMPARE(own.items().at(0)["script"].toString(), std::string(kScript));
    QVERIFY(own.items().at(0)["env"].isNull()); // no job_env flag
    QCOMPARE(scripts("root").items().at(0)["script"].toString(), std::string(kScript));
    const Json other = scripts("bob").items().at(0);
    QVERIFY(other["script"].isNull());
    QCOMPARE(other["user"].toString(), std::string("alice")); // why it is missing
    // Once the job has left memory, from the store's finished records.
    m_ctl->purgeOldJobs(200);
    QCOMPARE(m_ctl->handleRequest(request("jobs"), 200)["jobs"].size(), 0u);
    QCOMPARE(scripts("alice").items().at(0)["script"].toString(), std::string(kScript));
}

void AccountingViewsTest::queuedScriptIsShownLiveOnlyWithoutTheFlag()
{
    start(withFlags(""));
    Json held = Json::object();
    held.set("hold", true);
    QCOMPARE(m_ctl->handleRequest(submitRequest("alice", 1, held), 100)["job_id"].toInt(), 1);
    QVERIFY(scripts("alice").items().at(0)["script"].isNull()); // sacct -B: not accounted
    // scontrol write batch_script asks slurmctld, which keeps a queued job's script.
    QCOMPARE(scripts("alice", true).items().at(0)["script"].toString(), std::string(kScript));
}

void AccountingViewsTest::sweepDropsScriptsPastMinJobAgeUnlessKept()
{
    start(withFlags(""));
    runFirstJob();
    m_ctl->purgeOldJobs(150); // ended 40 s ago: kept with its job
    QVERIFY(scriptStored());
    m_ctl->purgeOldJobs(200); // past MinJobAge: the job leaves memory, its script the store
    QVERIFY(!scriptStored());

    cleanup();
    m_dir = std::make_unique<QTemporaryDir>();
    start(withFlags("AccountingStoreFlags=job_script\n"));
    runFirstJob();
    m_ctl->purgeOldJobs(200);
    QVERIFY(scriptStored()); // the flag keeps it
}

void AccountingViewsTest::restartedControllerSweepsWhatTheEarlierRunLeft()
{
    start(withFlags(""));
    runFirstJob();
    QVERIFY(scriptStored());
    start(withFlags("")); // a restart before any purge: the finished job is not reloaded
    QCOMPARE(m_ctl->handleRequest(request("jobs"), 200)["jobs"].size(), 0u);
    m_ctl->purgeOldJobs(200); // forgets no job, but sweeps once after the start
    QVERIFY(!scriptStored());
}

QTEST_APPLESS_MAIN(AccountingViewsTest)
#include "accounting_views_test.moc"
