#include "mc/cmd/option_parser.h"

#include <QtTest>

#include <array>

using mc::cmd::ArgKind;
using mc::cmd::OptionDef;
using mc::cmd::Ordering;
using mc::cmd::parseOptions;
using mc::cmd::ParseResult;

namespace {

enum Id { kTime = 1, kTest, kHold, kJob, kUser, kNice, kVerbose, kMem, kMemPerCpu };

constexpr std::array kTable{
    OptionDef{"time", 't', ArgKind::Required, kTime},
    OptionDef{"test-only", 0, ArgKind::None, kTest},
    OptionDef{"hold", 'H', ArgKind::None, kHold},
    OptionDef{"jobs", 'j', ArgKind::Optional, kJob},
    OptionDef{"user", 'u', ArgKind::Required, kUser},
    OptionDef{"users", 0, ArgKind::Required, kUser},
    OptionDef{"nice", 0, ArgKind::Optional, kNice},
    OptionDef{"verbose", 'v', ArgKind::None, kVerbose},
    OptionDef{"mem", 0, ArgKind::Required, kMem},
    OptionDef{"mem-per-cpu", 0, ArgKind::Required, kMemPerCpu, false},
};

ParseResult parse(std::vector<std::string> args, Ordering ordering = Ordering::Permute)
{
    return parseOptions(kTable, args, "sbatch", ordering);
}

QString describe(const ParseResult &r)
{
    QStringList parts;
    for (const auto &o : r.options) {
        QString part = QString::fromStdString(mc::cmd::optionName(*o.def));
        if (o.value) {
            part += QLatin1Char('=') + QString::fromStdString(*o.value);
        }
        parts << part;
    }
    for (const auto &operand : r.operands) {
        parts << QStringLiteral("[%1]").arg(QString::fromStdString(operand));
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace

class OptionParserTest : public QObject {
    Q_OBJECT

private slots:
    void longOptionTakesItsArgumentAfterEqualsOrAsNextWord();
    void shortOptionTakesAttachedOrNextWordArgument();
    void shortFlagsMayBeClusteredBeforeAnArgumentOption();
    void optionalArgumentsAreOnlyTakenWhenAttached();
    void uniqueAbbreviationSelectsTheLongOption();
    void exactNameWinsOverLongerNamesWithThatPrefix();
    void abbreviationOfSynonymsIsNotAmbiguous();
    void ambiguousAbbreviationListsThePossibilitiesLikeGlibc();
    void unknownLongOptionIsReportedWithItsValue();
    void unknownShortOptionIsReportedAsInvalid();
    void missingArgumentIsReportedForLongAndShortForms();
    void flagGivenAnArgumentIsRefused();
    void parsingStopsAtTheFirstError();
    void operandsArePermutedByDefault();
    void firstOperandEndsOptionsWhenAsked();
    void doubleDashEndsOptionsAndSingleDashIsAnOperand();
    void unsupportedOptionsAreParsedForTheCommandToRefuse();
};

void OptionParserTest::longOptionTakesItsArgumentAfterEqualsOrAsNextWord()
{
    QCOMPARE(describe(parse({"--time=5", "--time", "10"})), "--time=5 --time=10");
    QCOMPARE(describe(parse({"--time="})), "--time=");
}

void OptionParserTest::shortOptionTakesAttachedOrNextWordArgument()
{
    QCOMPARE(describe(parse({"-t5", "-t", "10"})), "--time=5 --time=10");
}

void OptionParserTest::shortFlagsMayBeClusteredBeforeAnArgumentOption()
{
    QCOMPARE(describe(parse({"-vHt", "7"})), "--verbose --hold --time=7");
    QCOMPARE(describe(parse({"-Ht7v"})), "--hold --time=7v");
}

void OptionParserTest::optionalArgumentsAreOnlyTakenWhenAttached()
{
    QCOMPARE(describe(parse({"-j", "14", "-j15", "--nice", "--nice=5"})),
        "--jobs --jobs=15 --nice --nice=5 [14]");
}

void OptionParserTest::uniqueAbbreviationSelectsTheLongOption()
{
    QCOMPARE(describe(parse({"--ti=5", "--ho"})), "--time=5 --hold");
}

void OptionParserTest::exactNameWinsOverLongerNamesWithThatPrefix()
{
    QCOMPARE(describe(parse({"--mem=5"})), "--mem=5");
}

void OptionParserTest::abbreviationOfSynonymsIsNotAmbiguous()
{
    QCOMPARE(describe(parse({"--us", "bob"})), "--user=bob");
}

void OptionParserTest::ambiguousAbbreviationListsThePossibilitiesLikeGlibc()
{
    const auto r = parse({"--t=5"});
    QCOMPARE(
        r.error, "sbatch: option '--t=5' is ambiguous; possibilities: '--time' '--test-only'\n");
}

void OptionParserTest::unknownLongOptionIsReportedWithItsValue()
{
    QCOMPARE(parse({"--foo"}).error, "sbatch: unrecognized option '--foo'\n");
    QCOMPARE(parse({"--foo=bar"}).error, "sbatch: unrecognized option '--foo=bar'\n");
}

void OptionParserTest::unknownShortOptionIsReportedAsInvalid()
{
    QCOMPARE(parse({"-Z"}).error, "sbatch: invalid option -- 'Z'\n");
}

void OptionParserTest::missingArgumentIsReportedForLongAndShortForms()
{
    QCOMPARE(parse({"--time"}).error, "sbatch: option '--time' requires an argument\n");
    QCOMPARE(parse({"--ti"}).error, "sbatch: option '--time' requires an argument\n");
    QCOMPARE(parse({"-t"}).error, "sbatch: option requires an argument -- 't'\n");
}

void OptionParserTest::flagGivenAnArgumentIsRefused()
{
    QCOMPARE(parse({"--hold=yes"}).error, "sbatch: option '--hold' doesn't allow an argument\n");
}

void OptionParserTest::parsingStopsAtTheFirstError()
{
    const auto r = parse({"-H", "--bogus", "-v", "script.sh"});
    QCOMPARE(describe(r), "--hold");
    QVERIFY(!r.ok());
}

void OptionParserTest::operandsArePermutedByDefault()
{
    QCOMPARE(describe(parse({"14", "-H", "15"})), "--hold [14] [15]");
}

void OptionParserTest::firstOperandEndsOptionsWhenAsked()
{
    QCOMPARE(describe(parse({"-H", "job.sh", "-t", "5"}, Ordering::StopAtOperand)),
        "--hold [job.sh] [-t] [5]");
}

void OptionParserTest::doubleDashEndsOptionsAndSingleDashIsAnOperand()
{
    QCOMPARE(describe(parse({"-", "--", "-H"})), "[-] [-H]");
}

void OptionParserTest::unsupportedOptionsAreParsedForTheCommandToRefuse()
{
    const auto r = parse({"--mem-per-cpu=5"});
    QVERIFY(r.ok());
    QCOMPARE(r.options.size(), std::size_t{1});
    QVERIFY(!r.options.front().def->supported);
}

QTEST_APPLESS_MAIN(OptionParserTest)
#include "option_parser_test.moc"
