// The one apply of the job options sbatch, srun and salloc share (mc/cmd/job_options_apply.h):
// every common option of the table reaches the one job spec and its submit JSON (none is read
// and then dropped), and a bad value gets the same words and exit code from every caller.
#include "mc/cmd/job_options_apply.h"
#include "mc/record/job_codec.h"

#include <QtTest>

#include <map>

using namespace mc::cmd;

namespace {

// A valid value of each common option (nullopt: a flag).
const std::map<int, std::optional<std::string>> &samples()
{
    static const std::map<int, std::optional<std::string>> kSamples{
        {kAccount, "def-prof"},
        {kJobName, "train"},
        {kPartition, "gpu"},
        {kQos, "high"},
        {kComment, "a note"},
        {kConstraint, "a100"},
        {kArray, "1-3"},
        {kDependency, "afterok:1"},
        {kBegin, "now+60"},
        {kTime, "10"},
        {kTimeMin, "5"},
        {kMem, "2G"},
        {kMemPerCpu, "1G"},
        {kMemPerGpu, "4G"},
        {kNodes, "2"},
        {kNtasks, "4"},
        {kCpusPerTask, "2"},
        {kNtasksPerNode, "2"},
        {kGres, "gpu:a100:2"},
        {kGpus, "3"},
        {kGpusPerNode, "2"},
        {kGpusPerTask, "1"},
        {kCpusPerGpu, "2"},
        {kNodelist, "cn[01-02]"},
        {kExclude, "cn03"},
        {kExclusive, std::nullopt},
        {kHold, std::nullopt},
        {kNice, "10"},
        {kMailType, "end"},
        {kMailUser, "someone@example.org"},
    };
    return kSamples;
}

} // namespace

class JobOptionsApplyTest : public QObject {
    Q_OBJECT

private slots:
    void everyCommonOptionReachesTheSubmitRequest_data()
    {
        QTest::addColumn<int>("command");
        QTest::newRow("sbatch") << static_cast<int>(kSbatchCommand);
        QTest::newRow("srun") << static_cast<int>(kSrunCommand);
        QTest::newRow("salloc") << static_cast<int>(kSallocCommand);
    }

    void everyCommonOptionReachesTheSubmitRequest()
    {
        QFETCH(int, command);
        const mc::proto::Json none = mc::record::specToJson(mc::sched::JobSpec{});
        int applied = 0;
        for (const OptionDef &def : jobOptionTable(static_cast<JobCommand>(command))) {
            if (!def.supported || !isCommonJobOption(def.id)) {
                continue;
            }
            const auto sample = samples().find(def.id);
            QVERIFY2(sample != samples().end(),
                qPrintable(QString::fromStdString(optionName(def) + " has no sample value")));
            JobOptionValues values;
            QVERIFY2(!applyJobOption(values, def, sample->second, 1000),
                qPrintable(QString::fromStdString(optionName(def))));
            if (def.id == kBegin) { // resolved on the caller's clock (the cluster's, a scenario's)
                QCOMPARE(values.beginText, std::string("now+60"));
                continue;
            }
            mc::sched::JobSpec spec;
            fillJobSpec(values, spec);
            QVERIFY2(mc::record::specToJson(spec).dump() != none.dump(),
                qPrintable(QString::fromStdString(optionName(def) + " changed nothing")));
            ++applied;
        }
        QVERIFY(applied >= 20); // each command implements most of them
    }

    void aBadValueHasSlurmsWordsAndExitCode()
    {
        const auto error = [](JobOptionId id, const std::string &value) {
            for (const OptionDef &def : jobOptionTable(kSbatchCommand)) {
                if (def.id == id) {
                    JobOptionValues values;
                    return applyJobOption(values, def, value, 0);
                }
            }
            return std::optional<OptionError>();
        };
        auto bad = error(kMailType, "bogus");
        QVERIFY(bad);
        QCOMPARE(bad->message, std::string("Invalid --mail-type specification"));
        QCOMPARE(bad->exitCode, 255);
        bad = error(kNtasks, "0");
        QVERIFY(bad);
        QCOMPARE(bad->message, std::string("Invalid numeric value \"0\" for --ntasks."));
        QCOMPARE(bad->exitCode, 1); // parse_int()
        bad = error(kBegin, "whenever");
        QVERIFY(bad);
        QCOMPARE(bad->preamble, std::string("Invalid time specification (pos=0): whenever\n"));
    }

    void mailTypeIsSlurmsListInItsOrder()
    {
        JobOptionValues values;
        const OptionDef *mail = nullptr;
        for (const OptionDef &def : jobOptionTable(kSallocCommand)) {
            mail = def.id == kMailType ? &def : mail;
        }
        QVERIFY(mail && mail->supported);
        QVERIFY(!applyJobOption(values, *mail, std::string("fail,Begin,TIME_LIMIT_80"), 0));
        QCOMPARE(values.mailType, std::string("BEGIN,FAIL,TIME_LIMIT_80"));
        QVERIFY(!applyJobOption(values, *mail, std::string("ALL"), 0));
        QCOMPARE(values.mailType, std::string("INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT"));
        QVERIFY(!applyJobOption(values, *mail, std::string("END,NONE"), 0));
        QCOMPARE(values.mailType, std::string());
    }

    void fewerTasksThanNodesSetTheNodesToTheTasks()
    {
        JobOptionValues values;
        values.nodes = 3;
        values.ntasks = 2;
        const auto warning = fitNodesToTasks(values);
        QVERIFY(warning);
        QCOMPARE(*warning, std::string("can't run 2 processes on 3 nodes, setting nnodes to 2"));
        QCOMPARE(values.nodes, std::optional<int>(2));
        QVERIFY(!fitNodesToTasks(values)); // now they fit
        values.ntasks.reset(); // one task per node, without -n
        values.nodes = 4;
        QVERIFY(!fitNodesToTasks(values));
        QCOMPARE(values.nodes, std::optional<int>(4));
    }
};

QTEST_APPLESS_MAIN(JobOptionsApplyTest)
#include "job_options_apply_test.moc"
