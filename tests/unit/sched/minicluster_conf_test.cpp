#include "mc/sched/minicluster_conf.h"
#include "mc/sched/site_conf.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using mc::sched::readSiteConf;
using mc::sched::SiteKey;

namespace {

QStringList problemsOf(std::string_view text)
{
    QStringList out;
    for (const auto &p : readSiteConf(text).problems) {
        out << QString::fromStdString(p);
    }
    return out;
}

} // namespace

class MiniclusterConfTest : public QObject {
    Q_OBJECT

private slots:
    void everyShippedPresetReadsWithoutAProblem_data()
    {
        QTest::addColumn<QString>("preset");
        for (const char *p : {"default", "inserm", "mila"}) {
            QTest::newRow(p) << QString::fromLatin1(p);
        }
    }

    void everyShippedPresetReadsWithoutAProblem()
    {
        QFETCH(QString, preset);
        std::ifstream in(std::string(MC_SOURCE_DIR) + "/emulator/presets/" + preset.toStdString()
            + "/minicluster.conf");
        QVERIFY(in);
        std::ostringstream text;
        text << in.rdbuf();
        const auto conf = readSiteConf(text.str());
        QCOMPARE(problemsOf(text.str()), QStringList{});
        QVERIFY(!conf.linesOf(SiteKey::User).empty());
    }

    void linesAreSortedByKindWithTheirNumbers()
    {
        const auto conf = readSiteConf("# users\n"
                                       "User=alice UID=1001 DefaultAccount=def-prof\n"
                                       "\n"
                                       "filesystem=home quota=50G   # keys in any case\n"
                                       "QOS=normal Priority=10\n"
                                       "StorageCheckInterval=5\n"
                                       "SharedFsLatency=1ms\n"
                                       "LoginPolicy=off\n"
                                       "MemoryOverrun=reboot-node RebootTime=3\n");
        QCOMPARE(conf.problems, std::vector<std::string>{});
        QCOMPARE(conf.lines.size(), std::size_t(7));
        const auto fs = conf.linesOf(SiteKey::Filesystem);
        QCOMPARE(fs.size(), std::size_t(1));
        QCOMPARE(fs[0].line.number, 4);
        QCOMPARE(fs[0].words, (std::vector<std::string>{"filesystem=home", "quota=50G"}));
        QCOMPARE(conf.linesOf(SiteKey::MemoryOverrun).front().line.number, 9);
        QCOMPARE(conf.linesOf(SiteKey::Qos).size(), std::size_t(1));
    }

    void aMisspeltKeyIsReportedWithTheFileAndLine()
    {
        QCOMPARE(problemsOf("User=alice UID=1001\nSharedFsLatncy=2ms\n"),
            QStringList{"minicluster.conf:2: unknown key \"SharedFsLatncy\""});
        QCOMPARE(problemsOf("User=bob UID=1002 DefaultAcount=x\n"),
            QStringList{"minicluster.conf:1: unknown key \"DefaultAcount\" on a User= line"});
        QCOMPARE(problemsOf("Filesystem=home Quota=1G\n  LoginPolicy=kill Windw=5\n"),
            QStringList{"minicluster.conf:2: unknown key \"Windw\" on a LoginPolicy= line"});
        QCOMPARE(problemsOf("Filesystem=home Quota=1G Files\nthrottle\n"),
            (QStringList{"minicluster.conf:1: 'Files' is not Key=Value",
                "minicluster.conf:2: 'throttle' is not Key=Value"}));
        // A key of another kind of line is not taken on this one.
        QCOMPARE(problemsOf("MemoryOverrun=kill-job Quota=1G\n"),
            QStringList{"minicluster.conf:1: unknown key \"Quota\" on a MemoryOverrun= line"});
    }

    void aLineOfAnUnknownKindIsNotGivenToAnyReader()
    {
        const auto conf = readSiteConf("Usr=alice UID=1001\n");
        QVERIFY(conf.lines.empty());
        QVERIFY(mc::sched::parseSiteUsers("Usr=alice UID=1001\n").users.empty());
    }

    void badValuesAreTheKindsReadersToReportInTheSameForm()
    {
        std::vector<std::string> problems;
        mc::sched::parseSiteQos("\nQOS=x Priority=high\n", problems);
        QCOMPARE(problems,
            std::vector<std::string>{
                "minicluster.conf:2: QOS= needs a name and at most Priority=N"});
        QCOMPARE(mc::sched::parseSiteUsers("User=alice\n").problems,
            std::vector<std::string>{"minicluster.conf:1: User= needs UID="});
    }

    void everyKindNamesItsKeys()
    {
        QCOMPARE(mc::sched::siteKeysOf(SiteKey::MemoryOverrun),
            (std::vector<std::string_view>{"MemoryOverrun", "RebootTime"}));
        QCOMPARE(mc::sched::siteKeysOf(SiteKey::SharedFsLatency).size(), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(MiniclusterConfTest)
#include "minicluster_conf_test.moc"
