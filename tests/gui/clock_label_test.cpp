// The instructor panel's clock label on a real cluster, in the whole app offscreen (issue #17):
// it ticks on the cluster clock with no request or event in between, and follows what an
// instructor does from a terminal, `minicluster clock --speed N` (the label's rate and time)
// and `minicluster clock --forward 61d` (the label jumps with the cluster).

#include "live_cluster.h"
#include "mc/gui/app_options.h"
#include "mc/gui/instructor_panel.h"
#include "mc/gui/main_window.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTest>

using mc::gui::MainWindow;

namespace {

constexpr int kTimeoutMs = 30000;

// The label's time (seconds since the epoch) and speed; time -1 when it shows no clock.
struct Shown {
    qint64 time = -1;
    double speed = 0;
};

Shown shown(const mc::gui::InstructorPanel &panel)
{
    static const QRegularExpression re(QStringLiteral(
        "^Cluster clock: (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d), running at ([0-9.]+)× "
        "real time\\.$"));
    const auto m = re.match(panel.clockText());
    if (!m.hasMatch()) {
        return {};
    }
    return {QDateTime::fromString(m.captured(1), QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                .toSecsSinceEpoch(),
        m.captured(2).toDouble()};
}

} // namespace

class ClockLabelTest : public QObject {
    Q_OBJECT

private:
    mc::gui::test::LiveCluster m_cluster{QStringLiteral("mc-gui-clock-XXXXXX")};

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_cluster.up(), "minicluster up failed"); }

    void labelTicksAndFollowsSpeedAndForwardFromATerminal()
    {
        mc::gui::AppOptions options = mc::gui::parseAppOptions(
            {QStringLiteral("minicluster-gui"), QStringLiteral("--dir"), m_cluster.dir()});
        options.shellProgram.clear(); // no terminal tab: the panel is what is tested
        MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const mc::gui::InstructorPanel &panel = *window.instructorPanel();
        QTRY_VERIFY_WITH_TIMEOUT(shown(panel).time > 0, kTimeoutMs);
        QCOMPARE(shown(panel).speed, 1.0);

        // It ticks by itself: nothing moves the clock, yet the label goes on.
        const qint64 first = shown(panel).time;
        QTRY_VERIFY_WITH_TIMEOUT(shown(panel).time >= first + 2, kTimeoutMs);

        // `minicluster clock --speed 60` in a terminal: the label says so and runs a minute
        // of the cluster's time per second.
        QVERIFY(m_cluster.run(
            {QStringLiteral("clock"), QStringLiteral("--speed"), QStringLiteral("60")}));
        QTRY_COMPARE_WITH_TIMEOUT(shown(panel).speed, 60.0, kTimeoutMs);
        const qint64 fast = shown(panel).time;
        QTRY_VERIFY_WITH_TIMEOUT(shown(panel).time >= fast + 180, kTimeoutMs);

        // `minicluster clock --forward 61d`: the label jumps 61 days with the cluster.
        const qint64 before = shown(panel).time;
        QVERIFY(m_cluster.run(
            {QStringLiteral("clock"), QStringLiteral("--forward"), QStringLiteral("61d")}));
        QTRY_VERIFY_WITH_TIMEOUT(shown(panel).time >= before + 61 * 86400, kTimeoutMs);
        QCOMPARE(shown(panel).speed, 60.0);
        // ... and its time is the controller's, which `minicluster clock` also shows.
        QVERIFY(shown(panel).time < QDateTime::currentSecsSinceEpoch() + 62 * 86400);
    }
};

QTEST_MAIN(ClockLabelTest)
#include "clock_label_test.moc"
