#include "mc/sched/time_format.h"

#include <QtTest>

#include <ctime>

using mc::sched::kInfinite;
using mc::sched::Seconds;

namespace {

// qint64 (long long) as the data columns hold it; Seconds is std::int64_t (long).
constexpr qint64 kMinute = 60;
constexpr qint64 kHour = 3600;
constexpr qint64 kDay = 86400;
constexpr qint64 kUnlimited = kInfinite;

// Saturday 2026-11-21T11:09:33 UTC, when the reference squeue transcript was recorded.
constexpr Seconds kNow = 1795259373;

} // namespace

class TimeFormatTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void parsesEverySbatchTimeForm_data();
    void parsesEverySbatchTimeForm();
    void rejectsMalformedTimeLimits_data();
    void rejectsMalformedTimeLimits();
    void formatsElapsedLikeSqueue_data();
    void formatsElapsedLikeSqueue();
    void formatsHmsLikeScontrolAndSacct_data();
    void formatsHmsLikeScontrolAndSacct();
    void formatsTimestampsInLocalTime_data();
    void formatsTimestampsInLocalTime();
    void parsesBeginTimesRelativeToNow_data();
    void parsesBeginTimesRelativeToNow();
    void rejectsMalformedBeginTimes_data();
    void rejectsMalformedBeginTimes();
    void parsesSacctTimesLookingBack_data();
    void parsesSacctTimesLookingBack();
};

void TimeFormatTest::initTestCase()
{
    qputenv("TZ", "UTC");
    tzset();
}

void TimeFormatTest::parsesEverySbatchTimeForm_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("seconds");
    QTest::newRow("zero") << "0" << qint64{0};
    QTest::newRow("minutes") << "5" << 5 * kMinute;
    QTest::newRow("many minutes") << "90" << 90 * kMinute;
    QTest::newRow("minutes:seconds") << "5:00" << 5 * kMinute;
    QTest::newRow("seconds round up to a minute") << "1:30" << 2 * kMinute;
    QTest::newRow("a few seconds are a minute") << "0:01" << kMinute;
    QTest::newRow("zero minutes:seconds") << "0:00" << qint64{0};
    QTest::newRow("hours:minutes:seconds") << "00:05:00" << 5 * kMinute;
    QTest::newRow("hms rounds up") << "01:02:03" << kHour + 3 * kMinute;
    QTest::newRow("days-hours") << "2-0" << 2 * kDay;
    QTest::newRow("days-hours:minutes") << "1-2:30" << kDay + 2 * kHour + 30 * kMinute;
    QTest::newRow("days-hours:minutes:seconds") << "1-02:30:00" << kDay + 2 * kHour + 30 * kMinute;
    QTest::newRow("days alone with a dash") << "3-" << 3 * kDay;
    QTest::newRow("INFINITE") << "INFINITE" << kUnlimited;
    QTest::newRow("unlimited lower case") << "unlimited" << kUnlimited;
    QTest::newRow("minus one") << "-1" << kUnlimited;
}

void TimeFormatTest::parsesEverySbatchTimeForm()
{
    QFETCH(QString, text);
    QFETCH(qint64, seconds);
    const auto parsed = mc::sched::parseTimeLimit(text.toStdString());
    QVERIFY(parsed.has_value());
    QCOMPARE(*parsed, seconds);
}

void TimeFormatTest::rejectsMalformedTimeLimits_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("leading blank") << " 5";
    QTest::newRow("trailing blank") << "5 ";
    QTest::newRow("word") << "forever";
    QTest::newRow("unit letter") << "5m";
    QTest::newRow("fraction") << "1.5";
    QTest::newRow("plus sign") << "+5";
    QTest::newRow("negative days") << "-5";
    QTest::newRow("empty seconds") << "1:";
    QTest::newRow("empty minutes") << ":5";
    QTest::newRow("four fields") << "1:2:3:4";
    QTest::newRow("two dashes") << "1-2-3";
    QTest::newRow("dash after colon") << "1:2-3";
    QTest::newRow("empty hours after days") << "1-:5";
    QTest::newRow("overflow") << "99999999999";
}

void TimeFormatTest::rejectsMalformedTimeLimits()
{
    QFETCH(QString, text);
    QVERIFY(!mc::sched::parseTimeLimit(text.toStdString()).has_value());
}

void TimeFormatTest::formatsElapsedLikeSqueue_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << qint64{0} << "0:00";
    QTest::newRow("seconds") << qint64{3} << "0:03";
    QTest::newRow("minutes") << 9 * kMinute + 56 << "9:56";
    QTest::newRow("ten minutes") << 10 * kMinute << "10:00";
    QTest::newRow("hours") << kHour + 2 * kMinute + 3 << "1:02:03";
    QTest::newRow("ten hours") << 10 * kHour << "10:00:00";
    QTest::newRow("just under a day") << kDay - 1 << "23:59:59";
    QTest::newRow("two days") << 2 * kDay << "2-00:00:00";
    QTest::newRow("days and time") << 2 * kDay - 1 << "1-23:59:59";
    QTest::newRow("a year") << 365 * kDay << "365-00:00:00";
    QTest::newRow("past a year") << 365 * kDay + 1 << "INVALID";
    QTest::newRow("infinite") << kUnlimited << "UNLIMITED";
    QTest::newRow("negative") << qint64{-5} << "INVALID";
}

void TimeFormatTest::formatsElapsedLikeSqueue()
{
    QFETCH(qint64, seconds);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(mc::sched::formatElapsed(seconds)), text);
}

void TimeFormatTest::formatsHmsLikeScontrolAndSacct_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << qint64{0} << "00:00:00";
    QTest::newRow("seconds") << qint64{12} << "00:00:12";
    QTest::newRow("minutes") << 5 * kMinute << "00:05:00";
    QTest::newRow("hours") << kHour + 2 * kMinute + 3 << "01:02:03";
    QTest::newRow("just under a day") << kDay - 1 << "23:59:59";
    QTest::newRow("days") << 2 * kDay << "2-00:00:00";
    QTest::newRow("past a year") << 400 * kDay << "400-00:00:00";
    QTest::newRow("infinite") << kUnlimited << "UNLIMITED";
    QTest::newRow("negative") << qint64{-2} << "INVALID";
}

void TimeFormatTest::formatsHmsLikeScontrolAndSacct()
{
    QFETCH(qint64, seconds);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(mc::sched::formatHms(seconds)), text);
}

void TimeFormatTest::formatsTimestampsInLocalTime_data()
{
    QTest::addColumn<qint64>("epoch");
    QTest::addColumn<QString>("text");
    QTest::newRow("reference submit time") << qint64{1795259339} << "2026-11-21T11:08:59";
    QTest::newRow("first second") << qint64{1} << "1970-01-01T00:00:01";
    QTest::newRow("zero is unknown") << qint64{0} << "Unknown";
    QTest::newRow("negative is unknown") << qint64{-1} << "Unknown";
}

void TimeFormatTest::formatsTimestampsInLocalTime()
{
    QFETCH(qint64, epoch);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(mc::sched::formatTimestamp(epoch)), text);
}

void TimeFormatTest::parsesBeginTimesRelativeToNow_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("time"); // as formatTimestamp prints it, in UTC
    QTest::newRow("now") << "now"
                         << "2026-11-21T11:09:33";
    QTest::newRow("now plus seconds") << "now+60"
                                      << "2026-11-21T11:10:33";
    QTest::newRow("now plus minutes") << "now+5minutes"
                                      << "2026-11-21T11:14:33";
    QTest::newRow("now plus an hour") << "now+1hour"
                                      << "2026-11-21T12:09:33";
    QTest::newRow("now plus days") << "now+2days"
                                   << "2026-11-23T11:09:33";
    QTest::newRow("now plus a week") << "now+1week"
                                     << "2026-11-28T11:09:33";
    QTest::newRow("now minus seconds") << "now-60"
                                       << "2026-11-21T11:08:33";
    QTest::newRow("blanks around the count") << "now + 5 minutes"
                                             << "2026-11-21T11:14:33";
    QTest::newRow("upper case") << "NOW+1HOUR"
                                << "2026-11-21T12:09:33";
    QTest::newRow("today is midnight") << "today"
                                       << "2026-11-21T00:00:00";
    QTest::newRow("tomorrow") << "tomorrow"
                              << "2026-11-22T00:00:00";
    QTest::newRow("later today") << "16:00"
                                 << "2026-11-21T16:00:00";
    QTest::newRow("with seconds") << "16:00:30"
                                  << "2026-11-21T16:00:30";
    QTest::newRow("next minute today") << "11:10"
                                       << "2026-11-21T11:10:00";
    QTest::newRow("this minute is tomorrow") << "11:09"
                                             << "2026-11-22T11:09:00";
    QTest::newRow("earlier means tomorrow") << "10:00"
                                            << "2026-11-22T10:00:00";
    QTest::newRow("pm") << "4:00pm"
                        << "2026-11-21T16:00:00";
    QTest::newRow("twelve am") << "12:00 AM"
                               << "2026-11-22T00:00:00";
    QTest::newRow("noon") << "noon"
                          << "2026-11-21T12:00:00";
    QTest::newRow("fika") << "fika"
                          << "2026-11-21T15:00:00";
    QTest::newRow("teatime") << "teatime"
                             << "2026-11-21T16:00:00";
    QTest::newRow("midnight") << "midnight"
                              << "2026-11-22T00:00:00";
    QTest::newRow("tomorrow at a time") << "tomorrow 16:00"
                                        << "2026-11-22T16:00:00";
    QTest::newRow("iso date") << "2026-12-24"
                              << "2026-12-24T00:00:00";
    QTest::newRow("iso date and time") << "2026-12-24T18:30"
                                       << "2026-12-24T18:30:00";
    QTest::newRow("iso with seconds") << "2026-12-24T18:30:15"
                                      << "2026-12-24T18:30:15";
    QTest::newRow("month/day") << "12/24"
                               << "2026-12-24T00:00:00";
    QTest::newRow("month/day/year") << "12/24/27"
                                    << "2027-12-24T00:00:00";
    QTest::newRow("MMDD") << "1224"
                          << "2026-12-24T00:00:00";
    QTest::newRow("month.day") << "12.24"
                               << "2026-12-24T00:00:00";
    QTest::newRow("earlier date is next year") << "01/15"
                                               << "2027-01-15T00:00:00";
    QTest::newRow("today's date is next year") << "11/21"
                                               << "2027-11-21T00:00:00";
    QTest::newRow("month/day-time") << "12/24-18:00"
                                    << "2026-12-24T18:00:00";
    QTest::newRow("epoch") << "uts1800000000"
                           << "2027-01-15T08:00:00";
}

namespace {

// The row's `text` read at kNow, looking ahead or back, is the row's `time`.
void compareParsedTime(mc::sched::TimeSpecFill fill)
{
    QFETCH(QString, text);
    QFETCH(QString, time);
    const auto parsed = mc::sched::parseTimeSpec(text.toStdString(), kNow, fill);
    QVERIFY(parsed.has_value());
    QCOMPARE(QString::fromStdString(mc::sched::formatTimestamp(*parsed)), time);
}

} // namespace

void TimeFormatTest::parsesBeginTimesRelativeToNow()
{
    compareParsedTime(mc::sched::TimeSpecFill::Future);
}

void TimeFormatTest::rejectsMalformedBeginTimes_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("blanks") << "   ";
    QTest::newRow("word") << "soon";
    QTest::newRow("now plus nothing") << "now+";
    QTest::newRow("unknown unit") << "now+5m";
    QTest::newRow("text after now") << "nowish";
    QTest::newRow("hour 25") << "25:00";
    QTest::newRow("minute 60") << "12:60";
    QTest::newRow("one digit minutes") << "12:5";
    QTest::newRow("13 pm") << "13:00pm";
    QTest::newRow("month 13") << "2026-13-01";
    QTest::newRow("day 32") << "12/32";
    QTest::newRow("four digit year after month/day") << "12/24/2026";
    QTest::newRow("small epoch") << "uts5";
}

void TimeFormatTest::rejectsMalformedBeginTimes()
{
    QFETCH(QString, text);
    QVERIFY(!mc::sched::parseTimeSpec(text.toStdString(), kNow).has_value());
}

void TimeFormatTest::parsesSacctTimesLookingBack_data()
{
    // sacct -S/-E: Slurm's parse_time(text, 1). A clock time is today's, even when it is still
    // to come; a date without a year is this year's unless its month is still to come.
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("time"); // in UTC; now is 2026-11-21T11:09:33
    QTest::newRow("HH:MM earlier today") << "00:00"
                                         << "2026-11-21T00:00:00";
    QTest::newRow("HH:MM later today") << "20:00"
                                       << "2026-11-21T20:00:00";
    QTest::newRow("HH:MM:SS") << "11:05:30"
                              << "2026-11-21T11:05:30";
    QTest::newRow("midnight is this morning") << "midnight"
                                              << "2026-11-21T00:00:00";
    QTest::newRow("noon") << "noon"
                          << "2026-11-21T12:00:00";
    QTest::newRow("now-1hour") << "now-1hour"
                               << "2026-11-21T10:09:33";
    QTest::newRow("MMDD earlier this year") << "0115"
                                            << "2026-01-15T00:00:00";
    QTest::newRow("MMDD of today") << "1121"
                                   << "2026-11-21T00:00:00";
    QTest::newRow("MMDD of a month to come is last year") << "1224"
                                                          << "2025-12-24T00:00:00";
    QTest::newRow("MMDDYY") << "122425"
                            << "2025-12-24T00:00:00";
    QTest::newRow("iso date") << "2026-11-01"
                              << "2026-11-01T00:00:00";
    QTest::newRow("iso date and time") << "2026-11-21T08:30"
                                       << "2026-11-21T08:30:00";
    QTest::newRow("iso with seconds") << "2026-11-21T08:30:15"
                                      << "2026-11-21T08:30:15";
}

void TimeFormatTest::parsesSacctTimesLookingBack()
{
    compareParsedTime(mc::sched::TimeSpecFill::Past);
}

QTEST_APPLESS_MAIN(TimeFormatTest)
#include "time_format_test.moc"
