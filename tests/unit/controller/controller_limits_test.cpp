// What the controller refuses in a submission whatever its client (issue #18): Slurm's string
// limits and max_script_size, and numbers out of range, each with slurmctld's words.
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace mc;
using proto::Json;
using namespace mc::test;

class ControllerLimitsTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void scriptOverMaxScriptSizeIsRefused();
    void jobNameAndPathsOverSlurmsLengthsAreRefused();
    void negativeTasksMemoryAndTimeAreRefused();
    void membersOfTheWrongTypeAreRefused();

private:
    Json submit(const Json &extra)
    {
        return m_ctl->handleRequest(submitRequest("alice", 1, extra), 100);
    }
    void refused(const Json &extra, const std::string &error)
    {
        Json reply = submit(extra);
        QVERIFY(!reply["ok"].toBool());
        QCOMPARE(reply["error"].toString(), error);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void ControllerLimitsTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
    QVERIFY2(error.empty(), error.c_str());
}

void ControllerLimitsTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void ControllerLimitsTest::scriptOverMaxScriptSizeIsRefused()
{
    const std::string head = "#!/bin/bash\n";
    std::string script = head + std::string((std::size_t{4} << 20) - head.size(), '#');
    QVERIFY(submit(fields({{"script", script}}))["ok"].toBool()); // 4 MB exactly: accepted
    script += '#';
    Json reply = submit(fields({{"script", script}}));
    QCOMPARE(reply["error"].toString(),
        std::string("Pathname of a file, directory or other parameter too long"));
    QCOMPARE(reply["errno"].toInt(), 2012);
}

void ControllerLimitsTest::jobNameAndPathsOverSlurmsLengthsAreRefused()
{
    QVERIFY(submit(fields({{"name", std::string(1024, 'n')}}))["ok"].toBool());
    const std::string words = "Pathname of a file, directory or other parameter too long";
    refused(fields({{"name", std::string(1025, 'n')}}), words);
    refused(fields({{"std_out", "/home/alice/" + std::string(4096, 'o')}}), words);
    refused(fields({{"work_dir", "/home/" + std::string(4096, 'w')}}), words);
    refused(fields({{"comment", std::string(1025, 'c')}}), words);
}

void ControllerLimitsTest::negativeTasksMemoryAndTimeAreRefused()
{
    refused(fields({{"ntasks", -5}}), "Task count specification invalid");
    refused(fields({{"cpus_per_task", 0}}), "Task count specification invalid");
    refused(fields({{"mem_per_node", -1}}), "Memory required by task is not available");
    refused(fields({{"mem_per_cpu", -1}}), "Memory required by task is not available");
    refused(fields({{"time_limit", -60}}),
        "Requested time limit is invalid (missing or exceeds some limit)");
    // Nothing refused was stored: the next job is job 1.
    QCOMPARE(submit(Json::object())["job_id"].toInt(), 1);
}

void ControllerLimitsTest::membersOfTheWrongTypeAreRefused()
{
    refused(fields({{"ntasks", "5"}}), "Invalid job specification: ntasks must be a number");
    refused(fields({{"mem_per_node", Json::array()}}),
        "Invalid job specification: mem_per_node must be a number");
    refused(fields({{"name", 7}}), "Invalid job specification: name must be text");
    Json env = Json::array();
    env.push(1);
    refused(fields({{"env", env}}), "Invalid job specification: env must be a list of text");
    refused(fields({{"hold", "yes"}}), "Invalid job specification: hold must be true or false");
    QCOMPARE(submit(fields({{"comment", Json()}}))["job_id"].toInt(), 1); // null: not given
}

QTEST_APPLESS_MAIN(ControllerLimitsTest)
#include "controller_limits_test.moc"
