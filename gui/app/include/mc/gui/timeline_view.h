#pragma once
// The timeline: one row per node, time from left to right, each job a block in its colour
// (the same as in the nodes view): finished jobs faded, running jobs solid up to their time
// limit, planned jobs (the scheduler's backfill plan) hatched where they are planned to start.
// A red line marks the cluster's "now". Zoom with the buttons or Ctrl+wheel, scroll with the
// scroll bars or the wheel; "Now" brings the now line back into view. Hovering a block tells
// the job; clicking it selects the job (jobClicked).
//
// Repaints are coalesced (at most kRepaintInterval apart), so a burst of events costs one paint.

#include <QWidget>

#include <chrono>
#include <functional>

class QAbstractScrollArea;
class QLabel;
class QToolButton;

namespace mc::gui {

class TimelineCanvas;
class TimelineModel;

class TimelineView : public QWidget {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kRepaintInterval{250};

    // `model` must outlive the view; `clock` gives the cluster's now (epoch seconds), read once
    // a second to move the now line.
    TimelineView(TimelineModel *model, std::function<qint64()> clock, QWidget *parent = nullptr);
    ~TimelineView() override;

    // Seconds one pixel stands for.
    double secondsPerPixel() const;
    void setSecondsPerPixel(double seconds);
    void zoomIn();
    void zoomOut();
    // Scrolls so that now is in view, a third from the right edge.
    void scrollToNow();
    // The epoch second at the left edge of the drawing area.
    qint64 leftTime() const;
    // The job drawn at `pos` (viewport coordinates of the scroll area), 0 when none.
    qint64 jobAt(const QPoint &pos) const;
    QAbstractScrollArea *canvas() const;

Q_SIGNALS:
    void jobClicked(qint64 jobId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();

    TimelineModel *m_model;
    TimelineCanvas *m_canvas;
    QToolButton *m_zoomIn;
    QToolButton *m_zoomOut;
    QToolButton *m_now;
    QLabel *m_legend;
};

} // namespace mc::gui
