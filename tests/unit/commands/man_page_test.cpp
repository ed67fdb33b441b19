#include "mc/cmd/man_page.h"

#include <QtTest>

using mc::cmd::ArgKind;
using mc::cmd::OptionDef;

namespace {

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class ManPageTest : public QObject {
    Q_OBJECT

private slots:
    void titleSectionsAndParagraphsBecomeRoff();
    void optionsListSaysImplementedOrNotSupportedWithHelpText();
    void everyCommandHasATableAndEveryOptionADescription();
    void srunAndSallocListTheirRowsOfTheSharedJobOptionTable();
};

void ManPageTest::titleSectionsAndParagraphsBecomeRoff()
{
    const std::string man = mc::cmd::markdownToMan(
        "# sinfo(1) -- view nodes\n\n## DESCRIPTION\n\nsinfo shows `-N` nodes.\n\n"
        "    sinfo -N\n\n- one\n",
        {});
    QVERIFY(contains(man, ".TH \"SINFO\" \"1\""));
    QVERIFY(contains(man, ".SH NAME\nsinfo \\- view nodes\n"));
    QVERIFY(contains(man, ".SH DESCRIPTION\n.PP\nsinfo shows \\fB\\-N\\fR nodes.\n"));
    QVERIFY(contains(man, ".nf\nsinfo \\-N\n.fi\n"));
    QVERIFY(contains(man, ".IP \\(bu 2\none\n"));
}

void ManPageTest::optionsListSaysImplementedOrNotSupportedWithHelpText()
{
    const OptionDef table[] = {
        {"time", 't', ArgKind::Required, 1, true},
        {"json", 0, ArgKind::None, 2, false},
    };
    const std::string man = mc::cmd::markdownToMan("## OPTIONS\n@OPTIONS@\n## OPTION NOTES\n"
                                                   "--time: Rounded up to minutes.\n",
        table, "Usage: x\n  -t, --time=minutes     time limit\n      --json   Produce JSON\n");
    QVERIFY(contains(man,
        ".TP\n\\fB\\-t\\fR, \\fB\\-\\-time\\fR=<value>\nTime limit.\n.br\n"
        "Implemented, with Slurm's meaning.\nRounded up to minutes.\n"));
    QVERIFY(
        contains(man, ".TP\n\\fB\\-\\-json\\fR\nProduce JSON.\n.br\nNot supported by minicluster"));
    QVERIFY(!contains(man, "OPTION NOTES"));
}

void ManPageTest::everyCommandHasATableAndEveryOptionADescription()
{
    for (const char *command : {"sbatch", "squeue", "scancel", "sacct", "sinfo", "scontrol"}) {
        const auto table = mc::cmd::commandOptionTable(command);
        QVERIFY2(!table.empty(), command);
        const auto descriptions = mc::cmd::helpDescriptions(mc::cmd::commandHelpText(command));
        QVERIFY2(descriptions.size() * 2 >= table.size(), command);
    }
    const auto sinfo = mc::cmd::helpDescriptions(mc::cmd::commandHelpText("sinfo"));
    QCOMPARE(QString::fromStdString(sinfo.at("--dead")),
        QStringLiteral("show only non-responding nodes"));
    QCOMPARE(QString::fromStdString(sinfo.at("--all")),
        QStringLiteral("show all partitions (including hidden and those not accessible)"));
}

namespace {

// `command`'s row for --`name`; null when the command does not take it.
const OptionDef *row(std::string_view command, std::string_view name)
{
    for (const auto &def : mc::cmd::commandOptionTable(command)) {
        if (def.longName == name) {
            return &def;
        }
    }
    return nullptr;
}

} // namespace

void ManPageTest::srunAndSallocListTheirRowsOfTheSharedJobOptionTable()
{
    // One table, filtered: an option is in a command's page when its man page has it, marked as
    // minicluster implements it there.
    QVERIFY(row("srun", "pty") && row("srun", "pty")->supported);
    QVERIFY(!row("salloc", "pty") && !row("sbatch", "pty"));
    QVERIFY(row("sbatch", "signal")->supported);
    QVERIFY(!row("srun", "signal")->supported && !row("salloc", "signal")->supported);
    QVERIFY(row("salloc", "no-shell") && !row("salloc", "no-shell")->supported);
    QVERIFY(!row("srun", "wrap") && !row("salloc", "array"));
    // -W is two options, as in Slurm: sbatch's --wait is a flag, srun's takes seconds.
    QCOMPARE(row("sbatch", "wait")->arg, ArgKind::None);
    QCOMPARE(row("srun", "wait")->arg, ArgKind::Required);
    QCOMPARE(row("sbatch", "wait")->shortName, 'W');
    QCOMPARE(row("srun", "wait")->shortName, 'W');
    // An alias shares its option's id: getopt does not call the prefix ambiguous.
    QCOMPARE(row("srun", "cpu_bind")->id, row("srun", "cpu-bind")->id);
    QCOMPARE(row("sbatch", "tasks-per-node")->id, row("sbatch", "ntasks-per-node")->id);
    const std::string man
        = mc::cmd::markdownToMan("## OPTIONS\n@OPTIONS@\n", mc::cmd::commandOptionTable("salloc"));
    QVERIFY(contains(man,
        ".TP\n\\fB\\-I\\fR, \\fB\\-\\-immediate\\fR[=<value>]\n"
        "Implemented, with Slurm's meaning.\n"));
    QVERIFY(contains(man, "\\fB\\-\\-no-shell\\fR\nNot supported by minicluster"));
}

QTEST_APPLESS_MAIN(ManPageTest)
#include "man_page_test.moc"
