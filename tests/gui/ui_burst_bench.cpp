// Benchmark (label bench, no timed assertion): how long the UI thread stays away from its event
// loop while the main window, showing a cluster of 10,000 jobs on 200 nodes, takes a burst of
// 1,000 submissions (job events), a scheduling pass's plan for them (a plan event, drawn by the
// timeline) and the starts of 60 (job + node events).
//
// A "frame" here is the time between two ticks of a 1 ms timer on the GUI thread: every model
// update, layout and repaint happens inside one. The test prints the median, 99th percentile
// and longest gap during the burst (wall clock), the longest gap in CPU time of the GUI thread
// (what the app itself spent; on a loaded machine the wall-clock gap also holds the time the
// thread waited for a CPU), and the time the initial snapshot took. It also prints the time
// from constructing the main window to its first painted frame (the app's own share of its
// start; the process start before it is printed apart). Run: ctest --test-dir BUILD -R
// gui.ui_burst_bench -V

#include "fake_controller.h"
#include "mc/gui/first_frame_probe.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/main_window.h"
#include "test_jobs.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

using mc::gui::MainWindow;
using mc::gui::test::FakeController;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;

namespace {

constexpr int kNodes = 200;
constexpr int kJobs = 10000;
constexpr int kBurst = 1000;

std::string nodeName(int i)
{
    char name[16];
    std::snprintf(name, sizeof name, "cn%03d", i + 1);
    return name;
}

Json node(int i, int allocCpus)
{
    return Json::object()
        .set("name", nodeName(i))
        .set("state", allocCpus == 0 ? "idle" : (allocCpus >= 32 ? "allocated" : "mixed"))
        .set("cpus", 32)
        .set("alloc_cpus", allocCpus)
        .set("memory", 128000)
        .set("alloc_memory", allocCpus * 1000)
        .set("gpus", 0)
        .set("partitions", Json::array().push("cpu"));
}

// Measures how long the GUI thread stays away from its event loop: a 1 ms precise timer ticks
// whenever the loop is free, so the gap between two ticks is the longest piece of work (model
// updates, layout, painting) that ran in between. Gaps are recorded in milliseconds.
class FrameMeter {
public:
    FrameMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            m_spans.push_back(static_cast<double>(m_clock.nsecsElapsed()) / 1e6);
            m_clock.restart();
            const double cpu = threadCpuMs();
            m_cpuSpans.push_back(cpu - m_lastCpu);
            m_lastCpu = cpu;
        });
    }

    void start()
    {
        m_spans.clear();
        m_cpuSpans.clear();
        m_lastCpu = threadCpuMs();
        m_clock.start();
        m_timer.start();
    }
    std::vector<double> stop()
    {
        m_timer.stop();
        std::sort(m_spans.begin(), m_spans.end());
        std::sort(m_cpuSpans.begin(), m_cpuSpans.end());
        return m_spans;
    }
    // The CPU time the GUI thread used in each gap, sorted (after stop()).
    const std::vector<double> &cpuSpans() const { return m_cpuSpans; }

private:
    static double threadCpuMs()
    {
        timespec now{};
        ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    std::vector<double> m_spans;
    std::vector<double> m_cpuSpans;
    double m_lastCpu = 0;
};

double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty()) {
        return 0;
    }
    const auto at = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1));
    return sorted[at];
}

// Runs the event loop until `done` holds (checked every millisecond) or `timeoutMs` passed;
// returns `done()`.
bool runEventLoopUntil(const std::function<bool()> &done, int timeoutMs)
{
    QEventLoop loop;
    QTimer check;
    check.setTimerType(Qt::PreciseTimer);
    check.setInterval(1);
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.quit();
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    check.start();
    if (!done()) {
        loop.exec();
    }
    return done();
}

} // namespace

class UiBurstBench : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startToFirstFrame()
    {
        const double before = mc::gui::FirstFrameProbe::processAgeMs();
        QTemporaryDir dir;
        mc::gui::AppOptions options;
        options.socketPath = dir.filePath(QStringLiteral("none.sock"));
        QElapsedTimer clock;
        clock.start();
        MainWindow window(options);
        qint64 firstFrameMs = -1;
        mc::gui::FirstFrameProbe probe; // as minicluster-gui with MC_GUI_FIRST_FRAME set
        connect(&probe, &mc::gui::FirstFrameProbe::firstFrame, this,
            [&](qint64) { firstFrameMs = clock.elapsed(); });
        window.show();
        QVERIFY(runEventLoopUntil([&] { return firstFrameMs >= 0; }, 30000));
        qInfo("ui_burst_bench: main window constructed to first frame: %lld ms (the process had "
              "run %.0f ms before, loading Qt and the test)",
            firstFrameMs, before);
    }

    void burstOfSubmissionsOnABusyCluster()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("run")));
        const QString socket = dir.filePath(QStringLiteral("run/ctld.sock"));
        FakeController controller(socket.toStdString());
        QVERIFY(controller.listen());
        mc::gui::AppOptions options;
        options.socketPath = socket;
        MainWindow window(options);
        window.resize(1600, 1000);
        // The timeline is in view (it is raised by default): the heaviest view to repaint.
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(controller.accept());
        QVERIFY(controller.readLine());

        // The busy cluster: 6,000 running jobs (30 per node), 4,000 pending.
        Json jobs = Json::array();
        Json nodes = Json::array();
        for (int n = 0; n < kNodes; ++n) {
            nodes.push(node(n, 30));
        }
        for (int j = 1; j <= kJobs; ++j) {
            if (j <= 6000) {
                jobs.push(runningJob(j, {nodeName((j - 1) % kNodes)}).set("num_cpus", 1));
            } else {
                jobs.push(pendingJob(j, j % 3 == 0 ? "Resources" : "Priority"));
            }
        }
        FrameMeter meter;
        QElapsedTimer snapshotClock;
        snapshotClock.start();
        QVERIFY(
            controller.send(Json::object().set("ok", true).set("jobs", jobs).set("nodes", nodes)));
        QTRY_COMPARE_WITH_TIMEOUT(window.jobModel()->rowCount(), kJobs, 120000);
        const qint64 snapshotMs = snapshotClock.elapsed();
        // What the snapshot set off (the nodes' column fit, the timeline's coalesced refresh)
        // happens before the burst, not inside it.
        runEventLoopUntil([] { return false; }, 500);

        // The burst: 1,000 submissions, the plan for them, then 60 of them start on nodes with
        // room.
        std::string burst;
        Json plan = Json::array();
        for (int j = kJobs + 1; j <= kJobs + kBurst; ++j) {
            burst += Json::object()
                         .set("event", "job")
                         .set("job", pendingJob(j).set("time_limit", 3600))
                         .dump()
                + "\n";
            plan.push(Json::object()
                          .set("job_id", j)
                          .set("planned_start", mc::gui::test::kNow + 60 * (j % 120))
                          .set("nodes", Json::array().push(nodeName(j % kNodes))));
        }
        burst += Json::object().set("event", "plan").set("plan", plan).dump() + "\n";
        for (int j = kJobs + 1; j <= kJobs + 60; ++j) {
            const int n = j % kNodes;
            burst += Json::object()
                         .set("event", "job")
                         .set("job", runningJob(j, {nodeName(n)}).set("num_cpus", 1))
                         .dump()
                + "\n";
            burst += Json::object().set("event", "node").set("node", node(n, 31)).dump() + "\n";
        }
        meter.start();
        QVERIFY(controller.sendRaw(burst));
        // The app's own event loop runs the burst, as it does in the app: QTRY_* and qWait
        // would sleep 10 ms between their passes, and each gap would hold that sleep.
        const auto *model = window.jobModel();
        QVERIFY(runEventLoopUntil(
            [model] {
                return model->rowCount() == kJobs + kBurst && model->runningCount() == 6060;
            },
            60000));
        // Let the repaints that follow the burst (the timeline's are coalesced to 4 a second)
        // happen inside the measurement.
        runEventLoopUntil([] { return false; }, 600);
        const std::vector<double> spans = meter.stop();

        qInfo("ui_burst_bench: snapshot of %d jobs / %d nodes applied in %lld ms", kJobs, kNodes,
            snapshotMs);
        qInfo("ui_burst_bench: burst of %d submissions + 60 starts: %zu timer gaps, "
              "median %.2f ms, p99 %.2f ms, longest %.2f ms",
            kBurst, spans.size(), percentile(spans, 0.5), percentile(spans, 0.99),
            spans.empty() ? 0.0 : spans.back());
        const auto &cpu = meter.cpuSpans();
        qInfo("ui_burst_bench: GUI thread CPU time per gap: median %.2f ms, p99 %.2f ms, "
              "longest %.2f ms",
            percentile(cpu, 0.5), percentile(cpu, 0.99), cpu.empty() ? 0.0 : cpu.back());
        QVERIFY(!spans.empty());
    }
};

QTEST_MAIN(UiBurstBench)
#include "ui_burst_bench.moc"
