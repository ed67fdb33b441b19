#pragma once
// The app's start, measured from outside: with MC_GUI_FIRST_FRAME=1 in its environment,
// minicluster-gui prints on stderr when its first frame was painted, then quits
// (bench/app_start.sh reads it). Without the variable nothing is installed and the app is as
// always.
//
// "First frame": the first paint of any of the app's widgets, and the rest of that same pass
// (firstFrame() comes from the event loop right after it).

#include <QObject>

namespace mc::gui {

class FirstFrameProbe : public QObject {
    Q_OBJECT

public:
    static constexpr const char *kVariable = "MC_GUI_FIRST_FRAME";

    // Watches every widget's events (an application-wide filter) until the first frame.
    explicit FirstFrameProbe(QObject *parent = nullptr);
    ~FirstFrameProbe() override;

    // When MC_GUI_FIRST_FRAME is set: a probe that prints, at the first frame, the wall clock
    // (CLOCK_REALTIME, nanoseconds: a script compares it with when it started the program) and
    // the milliseconds since the process started (from /proc, to 10 ms), then quits the app.
    static void installFromEnvironment();
    // Milliseconds since this process started (field 22 of /proc/self/stat against
    // /proc/uptime, both in clock ticks of 10 ms); -1 when /proc cannot say.
    static double processAgeMs();

Q_SIGNALS:
    // `realtimeNs`: CLOCK_REALTIME when the first frame's paint pass ended.
    void firstFrame(qint64 realtimeNs);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool m_seen = false;
};

} // namespace mc::gui
