// sprio, sshare and sacctmgr (read-only) against a fake controller and a fake site.
#include "command_harness.h"
#include "mc/cmd/sacctmgr.h"
#include "mc/cmd/sprio.h"
#include "mc/cmd/sshare.h"

#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::Sacctmgr;
using mc::cmd::Sprio;
using mc::cmd::Sshare;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual).split(u'\n'),                                          \
        QString::fromStdString(expected).split(u'\n'))

namespace {

Json pendingJob(std::int64_t id, const std::string &user, double age, double fairshare)
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("user", user);
    j.set("account", "def-prof");
    j.set("partition", "cpu");
    j.set("priority", std::int64_t{1500 + id});
    j.set("age", age);
    j.set("fairshare", fairshare);
    j.set("job_size", 0.25);
    j.set("partition_factor", 1.0);
    j.set("qos", 0.0);
    j.set("nice", 0);
    return j;
}

// Weights as the Alliance preset sets them: no QOS weight, so sprio shows no QOS column.
Json prioritiesReply()
{
    Json weights = Json::object();
    weights.set("age", 1000);
    weights.set("fairshare", 10000);
    weights.set("job_size", 100);
    weights.set("partition", 1000);
    weights.set("qos", 0);
    Json jobs = Json::array();
    jobs.push(pendingJob(12, "bob", 0.5, 0.25));
    jobs.push(pendingJob(7, "alice", 0.125, 1.0));
    Json reply = okReply();
    reply.set("priority_type", "priority/multifactor");
    reply.set("weights", std::move(weights));
    reply.set("jobs", std::move(jobs));
    return reply;
}

Json association(const std::string &account, const std::string &user, std::int64_t usage,
    double normUsage, double fairshare)
{
    Json a = Json::object();
    a.set("account", account);
    a.set("user", user);
    a.set("raw_shares", 1);
    a.set("norm_shares", user.empty() ? 1.0 : 0.5);
    a.set("raw_usage", usage);
    a.set("norm_usage", normUsage);
    a.set("effective_usage", normUsage);
    a.set("fairshare", fairshare);
    return a;
}

Json sharesReply()
{
    Json rows = Json::array();
    rows.push(association("def-prof", "", 300, 1.0, 0.5));
    rows.push(association("def-prof", "alice", 100, 1.0 / 3, 0.75));
    rows.push(association("def-prof", "bob", 200, 2.0 / 3, 0.25));
    Json reply = okReply();
    reply.set("associations", std::move(rows));
    return reply;
}

const std::string kSite = "User=alice UID=1001 DefaultAccount=def-prof Name=\"Alice\"\n"
                          "User=bob UID=1002 DefaultAccount=def-prof Accounts=def-prof,rrg-x\n";

Harness siteHarness()
{
    Harness h;
    h.ctx.readSlurmConf = [] {
        return std::optional<std::string>("ClusterName=teaching\n");
    };
    h.ctx.readSiteConf = [] {
        return std::optional<std::string>(kSite);
    };
    return h;
}

} // namespace

class AccountingViewsTest : public QObject {
    Q_OBJECT

private slots:
    void sprioShowsWeightedFactorsWithNonZeroWeights();
    void sprioNormalizedAndWeights();
    void sprioSendsFiltersAndSaysWhenNothingMatches();
    void sprioRefusesWithoutMultifactor();
    void sshareShowsTheTreeWithTheCallersRow();
    void sshareAllUsersParsable();
    void sshareUnknownFieldIsFatal();
    void sacctmgrListsUsersFromTheSite();
    void sacctmgrShowsAssociationsWithConditions();
    void sacctmgrIsReadOnly();
    void newCommandsAnswerVersionAndHelp();
};

void AccountingViewsTest::sprioShowsWeightedFactorsWithNonZeroWeights()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(prioritiesReply());
    };
    const Result r = h.run<Sprio>({});
    COMPARE_TEXT(r.out,
        "          JOBID PARTITION   PRIORITY        AGE  FAIRSHARE    JOBSIZE  PARTITION\n"
        "              7 cpu             1507        125      10000         25       1000\n"
        "             12 cpu             1512        500       2500         25       1000\n");
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(h.requests.back()["op"].toString(), "priorities");
}

void AccountingViewsTest::sprioNormalizedAndWeights()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(prioritiesReply());
    };
    Result r = h.run<Sprio>({"-n", "-j", "7", "-o", "%i %a %f"});
    COMPARE_TEXT(r.out,
        "JOBID AGE FAIRSHARE\n"
        "7 0.1250000 1.0000000\n"
        "12 0.5000000 0.2500000\n");
    r = h.run<Sprio>({"-w"});
    COMPARE_TEXT(r.out,
        "          JOBID PARTITION   PRIORITY        AGE  FAIRSHARE    JOBSIZE  PARTITION\n"
        "        Weights                            1000      10000        100       1000\n");
}

void AccountingViewsTest::sprioSendsFiltersAndSaysWhenNothingMatches()
{
    Harness h;
    h.reply = [](const Json &) {
        Json reply = prioritiesReply();
        reply.set("jobs", Json::array());
        return std::optional<Json>(reply);
    };
    const Result r = h.run<Sprio>({"-u", "carol", "-p", "gpu"});
    COMPARE_TEXT(r.out, "Unable to find jobs matching user/id(s) specified\n");
    QCOMPARE(h.requests.back()["users"].toStringList(), std::vector<std::string>{"carol"});
    QCOMPARE(h.requests.back()["partitions"].toStringList(), std::vector<std::string>{"gpu"});
}

void AccountingViewsTest::sprioRefusesWithoutMultifactor()
{
    Harness h;
    h.reply = [](const Json &) {
        Json reply = prioritiesReply();
        reply.set("priority_type", "priority/basic");
        return std::optional<Json>(reply);
    };
    const Result r = h.run<Sprio>({});
    COMPARE_TEXT(r.err,
        "You are not running a supported priority plugin\n(priority/basic).\n"
        "Only 'priority/multifactor' is supported.\n");
    QCOMPARE(r.exitCode, 1);
}

void AccountingViewsTest::sshareShowsTheTreeWithTheCallersRow()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(sharesReply());
    };
    const Result r = h.run<Sshare>({});
    COMPARE_TEXT(r.out,
        "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  "
        "FairShare \n"
        "-------------------- ---------- ---------- ----------- ----------- ------------- "
        "---------- \n"
        "root                                                           300      1.000000       "
        "     \n"
        " def-prof                                1    1.000000         300      1.000000       "
        "     \n"
        "  def-prof                alice          1    0.500000         100      0.333333   "
        "0.750000 \n");
    QCOMPARE(r.exitCode, 0);
}

void AccountingViewsTest::sshareAllUsersParsable()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(sharesReply());
    };
    const Result r = h.run<Sshare>({"-a", "-P", "-U", "-o", "Account,User,FairShare"});
    COMPARE_TEXT(r.out,
        "Account|User|FairShare\n"
        "def-prof|alice|0.750000\n"
        "def-prof|bob|0.250000\n");
}

void AccountingViewsTest::sshareUnknownFieldIsFatal()
{
    Harness h;
    const Result r = h.run<Sshare>({"-o", "Account,Bogus"});
    COMPARE_TEXT(r.err, "sshare: error: Invalid field requested: \"bogus\"\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
}

void AccountingViewsTest::sacctmgrListsUsersFromTheSite()
{
    Harness h = siteHarness();
    const Result r = h.run<Sacctmgr>({"list", "user"});
    COMPARE_TEXT(r.out,
        "      User   Def Acct     Admin \n"
        "---------- ---------- --------- \n"
        "     alice   def-prof      None \n"
        "       bob   def-prof      None \n"
        "      root       root Administ+ \n");
    QCOMPARE(r.exitCode, 0);
}

void AccountingViewsTest::sacctmgrShowsAssociationsWithConditions()
{
    Harness h = siteHarness();
    Result r = h.run<Sacctmgr>(
        {"-P", "show", "assoc", "where", "user=bob", "format=Cluster,Account,User,Share"});
    COMPARE_TEXT(r.out,
        "Cluster|Account|User|Share\n"
        "teaching|def-prof|bob|1\n"
        "teaching|rrg-x|bob|1\n");
    r = h.run<Sacctmgr>(
        {"-n", "-p", "show", "associations", "account=rrg-x", "format=account,user"});
    COMPARE_TEXT(r.out, "rrg-x||\nrrg-x|bob|\n");
}

void AccountingViewsTest::sacctmgrIsReadOnly()
{
    Harness h = siteHarness();
    Result r = h.run<Sacctmgr>({"add", "user", "dave", "account=def-prof"});
    COMPARE_TEXT(r.err,
        "sacctmgr: error: sacctmgr add (its accounts and users are read-only: they come from "
        "etc/minicluster.conf) is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Sacctmgr>({"show", "tres"});
    COMPARE_TEXT(r.err, "sacctmgr: error: sacctmgr show tres is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
    // The QOS table: the site's QOS= lines, or Slurm's one default QOS.
    r = h.run<Sacctmgr>({"-n", "-P", "show", "qos", "format=name,priority,usagefactor"});
    COMPARE_TEXT(r.out, "normal|0|1.000000\n");
    QCOMPARE(r.exitCode, 0);
}

void AccountingViewsTest::newCommandsAnswerVersionAndHelp()
{
    Harness h;
    COMPARE_TEXT(h.run<Sprio>({"--version"}).out, "slurm-wlm 22.05.8\n");
    COMPARE_TEXT(h.run<Sshare>({"-V"}).out, "slurm-wlm 22.05.8\n");
    COMPARE_TEXT(h.run<Sacctmgr>({"--version"}).out, "slurm-wlm 22.05.8\n");
    QVERIFY(h.run<Sprio>({"--help"}).out.starts_with("Usage: sprio [OPTIONS]\n"));
    QVERIFY(h.run<Sprio>({"--usage"}).out.starts_with("Usage: sprio [-j jid[s]]"));
    QVERIFY(h.run<Sshare>({"--usage"}).out.starts_with("Usage:  sshare [OPTION]"));
    QVERIFY(h.run<Sacctmgr>({"--help"}).out.starts_with("sacctmgr [<OPTION>] [<COMMAND>]"));
    const Result refused = h.run<Sprio>({"-M", "other"});
    COMPARE_TEXT(refused.err, "sprio: error: --cluster is not supported by minicluster\n");
    QCOMPARE(refused.exitCode, 1);
}

QTEST_APPLESS_MAIN(AccountingViewsTest)
#include "accounting_views_test.moc"
