#include "mc/gui/timeline_view.h"

#include "mc/gui/nodes_view.h"
#include "mc/gui/timeline_model.h"

#include <QAbstractScrollArea>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace mc::gui {

namespace {

constexpr int kMinRowHeight = 30;
constexpr int kMaxLabelledLanes = 6; // a row grows to label up to this many overlapping jobs
constexpr double kMinSecondsPerPixel = 0.25;
constexpr double kMaxSecondsPerPixel = 3600.0;
constexpr double kZoomStep = 1.5;
// Time around the blocks that can be scrolled to, in pixels.
constexpr int kMarginPixels = 400;

QString kindText(TimelineModel::Kind kind)
{
    switch (kind) {
    case TimelineModel::Kind::Past:
        return TimelineView::tr("finished");
    case TimelineModel::Kind::Running:
        return TimelineView::tr("running (block ends at its time limit)");
    case TimelineModel::Kind::Planned:
        return TimelineView::tr("planned by the scheduler");
    }
    return {};
}

QString clockText(qint64 epoch)
{
    return QDateTime::fromSecsSinceEpoch(epoch).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

// The drawing: rows of nodes under a time axis. Not a QObject of its own; the view wires it.
class TimelineCanvas : public QAbstractScrollArea {
public:
    TimelineCanvas(TimelineModel *model, std::function<qint64()> clock, TimelineView *owner)
        : QAbstractScrollArea(owner)
        , m_model(model)
        , m_clock(std::move(clock))
        , m_owner(owner)
        , m_repaint(new QTimer(this))
        , m_tick(new QTimer(this))
    {
        setObjectName(QStringLiteral("timelineCanvas"));
        viewport()->setMouseTracking(true);
        m_repaint->setSingleShot(true);
        m_repaint->setInterval(TimelineView::kRepaintInterval);
        QObject::connect(m_repaint, &QTimer::timeout, this, [this] { refresh(); });
        QObject::connect(model, &TimelineModel::changed, this, [this] {
            if (!m_repaint->isActive()) {
                m_repaint->start();
            }
        });
        m_tick->setInterval(1000);
        QObject::connect(m_tick, &QTimer::timeout, this, [this] {
            const bool first = m_model->now() <= 0;
            m_model->setNow(m_clock());
            if (first && m_model->now() > 0) {
                scrollToNow(); // the cluster's clock is known now: show it
            }
        });
        m_tick->start();
        QObject::connect(horizontalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
            m_left = m_rangeStart + static_cast<qint64>(value * m_secondsPerPixel);
            viewport()->update();
        });
        QObject::connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(),
            qOverload<>(&QWidget::update));
        m_model->setNow(m_clock());
        m_left = m_model->now() - static_cast<qint64>(600 * m_secondsPerPixel);
        updateScrollBars();
    }

    double secondsPerPixel() const { return m_secondsPerPixel; }
    qint64 left() const { return m_left; }
    // Sizes follow the font, so the projector zoom makes the whole timeline larger.
    int headerHeight() const { return fontMetrics().height() + 10; }
    int labelWidth() const
    {
        return std::max(90, fontMetrics().horizontalAdvance(QStringLiteral("gpu-node001 ")));
    }

    void setSecondsPerPixel(double seconds, int anchorX)
    {
        seconds = std::clamp(seconds, kMinSecondsPerPixel, kMaxSecondsPerPixel);
        const qint64 anchorTime = timeAtX(anchorX);
        m_secondsPerPixel = seconds;
        m_left = anchorTime - static_cast<qint64>((anchorX - labelWidth()) * seconds);
        updateScrollBars();
        viewport()->update();
    }

    void scrollToNow()
    {
        const int width = std::max(1, viewport()->width() - labelWidth());
        m_left = m_model->now() - static_cast<qint64>(width * 2 / 3 * m_secondsPerPixel);
        updateScrollBars();
        viewport()->update();
    }

    QStringList rows() const
    {
        QStringList rows = m_model->nodeNames();
        if (m_model->hasBlocksOn(TimelineModel::unplacedRow())) {
            rows << TimelineModel::unplacedRow();
        }
        return rows;
    }

    // The block at a viewport position, or nullptr.
    std::optional<TimelineModel::Block> blockAt(const QPoint &pos) const
    {
        if (pos.y() < headerHeight() || pos.x() < labelWidth()) {
            return std::nullopt;
        }
        const int row = (pos.y() - headerHeight() + verticalScrollBar()->value()) / m_rowHeight;
        const QStringList names = rows();
        if (row < 0 || row >= names.size()) {
            return std::nullopt;
        }
        const qint64 t = timeAtX(pos.x());
        const auto blocks = m_model->blocksOn(names[row]);
        int laneCount = 1;
        const QList<int> lanes = TimelineModel::assignLanes(blocks, &laneCount);
        const int rowTop = headerHeight() - verticalScrollBar()->value() + row * m_rowHeight;
        const int lane = (pos.y() - rowTop - 2) * laneCount / (m_rowHeight - 4);
        for (qsizetype i = blocks.size() - 1; i >= 0; --i) {
            const auto &block = blocks[i];
            if (lanes[i] == lane && t >= block.begin
                && t <= std::max(block.end, block.begin + minimumSpan())) {
                return block;
            }
        }
        return std::nullopt;
    }

protected:
    void changeEvent(QEvent *event) override
    {
        QAbstractScrollArea::changeEvent(event);
        if (event->type() == QEvent::FontChange) {
            refresh(); // the projector zoom: taller rows, a wider name column
        }
    }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(viewport());
        const QPalette pal = palette();
        p.fillRect(viewport()->rect(), pal.color(QPalette::Base));
        const QStringList names = rows();
        const int width = viewport()->width();
        const int top = headerHeight() - verticalScrollBar()->value();

        // Rows: alternate shading and the node names.
        for (int i = 0; i < names.size(); ++i) {
            const int y = top + i * m_rowHeight;
            if (y + m_rowHeight < headerHeight() || y > viewport()->height()) {
                continue;
            }
            if (i % 2 == 1) {
                p.fillRect(QRect(0, y, width, m_rowHeight), pal.color(QPalette::AlternateBase));
            }
        }
        drawGrid(p, static_cast<int>(names.size()));
        for (int i = 0; i < names.size(); ++i) {
            const int y = top + i * m_rowHeight;
            if (y + m_rowHeight < headerHeight() || y > viewport()->height()) {
                continue;
            }
            p.setClipRect(QRect(labelWidth(), headerHeight(), width - labelWidth(),
                viewport()->height() - headerHeight()));
            const auto blocks = m_model->blocksOn(names[i]);
            int laneCount = 1;
            const QList<int> lanes = TimelineModel::assignLanes(blocks, &laneCount);
            const double laneHeight = (m_rowHeight - 4) / static_cast<double>(laneCount);
            for (qsizetype b = 0; b < blocks.size(); ++b) {
                const int laneTop = y + 2 + static_cast<int>(lanes[b] * laneHeight);
                const int laneBottom = y + 2 + static_cast<int>((lanes[b] + 1) * laneHeight);
                drawBlock(p, blocks[b], laneTop, std::max(2, laneBottom - laneTop - 1));
            }
            p.setClipping(false);
            p.setPen(pal.color(QPalette::Text));
            p.fillRect(QRect(0, y, labelWidth() - 2, m_rowHeight),
                i % 2 ? pal.color(QPalette::AlternateBase) : pal.color(QPalette::Base));
            const QString label = names[i] == TimelineModel::unplacedRow()
                ? TimelineView::tr("not placed")
                : names[i];
            p.drawText(QRect(4, y, labelWidth() - 8, m_rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                label);
        }
        // The now line.
        const int nowX = xOf(m_model->now());
        if (nowX >= labelWidth() && nowX <= width) {
            p.setPen(QPen(QColor(220, 30, 30), 2));
            p.drawLine(nowX, headerHeight() - 6, nowX, viewport()->height());
            p.drawText(nowLabelRect(p.fontMetrics()), Qt::AlignBottom | Qt::AlignLeft,
                TimelineView::tr("now"));
        }
        // The date of the axis' left end, above the node names: times alone are ambiguous.
        p.fillRect(QRect(0, 0, labelWidth() - 2, headerHeight() - 1), pal.color(QPalette::Base));
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(4, 0, labelWidth() - 8, headerHeight() - 4),
            Qt::AlignBottom | Qt::AlignLeft,
            QDateTime::fromSecsSinceEpoch(m_left).toString(QStringLiteral("yyyy-MM-dd")));
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(labelWidth() - 1, 0, labelWidth() - 1, viewport()->height());
        p.drawLine(0, headerHeight() - 1, width, headerHeight() - 1);
    }

    void resizeEvent(QResizeEvent *event) override
    {
        QAbstractScrollArea::resizeEvent(event);
        updateScrollBars();
    }

    void wheelEvent(QWheelEvent *event) override
    {
        if (event->modifiers() & Qt::ControlModifier) {
            const double factor = event->angleDelta().y() > 0 ? 1 / kZoomStep : kZoomStep;
            setSecondsPerPixel(m_secondsPerPixel * factor, static_cast<int>(event->position().x()));
            event->accept();
            return;
        }
        QAbstractScrollArea::wheelEvent(event);
    }

    void mousePressEvent(QMouseEvent *event) override
    {
        if (event->button() == Qt::LeftButton) {
            if (const auto block = blockAt(event->position().toPoint())) {
                Q_EMIT m_owner->jobClicked(block->jobId);
            }
        }
        QAbstractScrollArea::mousePressEvent(event);
    }

    bool viewportEvent(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            if (const auto block = blockAt(help->pos())) {
                QToolTip::showText(help->globalPos(),
                    TimelineView::tr("Job %1 (%2, %3): %4\n%5 → %6")
                        .arg(block->jobId)
                        .arg(block->name, block->user, kindText(block->kind),
                            clockText(block->begin), clockText(block->end)),
                    viewport());
            } else {
                QToolTip::hideText();
            }
            return true;
        }
        return QAbstractScrollArea::viewportEvent(event);
    }

private:
    // After the model changed (coalesced) or the font: the rows' height, the scroll range.
    void refresh()
    {
        updateRowHeight(rows());
        updateScrollBars();
        viewport()->update();
    }

    qint64 minimumSpan() const { return static_cast<qint64>(3 * m_secondsPerPixel); }

    qint64 timeAtX(int x) const
    {
        return m_left + static_cast<qint64>((x - labelWidth()) * m_secondsPerPixel);
    }

    int xOf(qint64 t) const
    {
        const double x = labelWidth() + static_cast<double>(t - m_left) / m_secondsPerPixel;
        return static_cast<int>(std::clamp(x, -1e6, 1e6));
    }

    void updateScrollBars()
    {
        const auto [first, last] = m_model->span();
        const auto margin = static_cast<qint64>(kMarginPixels * m_secondsPerPixel);
        const int width = std::max(1, viewport()->width() - labelWidth());
        const auto visible = static_cast<qint64>(width * m_secondsPerPixel);
        m_rangeStart = std::min(first - margin, m_left);
        const qint64 rangeEnd = std::max(last + margin, m_left + visible);
        QScrollBar *h = horizontalScrollBar();
        const QSignalBlocker block(h);
        h->setRange(0,
            static_cast<int>(std::max<qint64>(0,
                static_cast<qint64>(
                    static_cast<double>(rangeEnd - m_rangeStart - visible) / m_secondsPerPixel))));
        h->setPageStep(width);
        h->setSingleStep(20);
        h->setValue(
            static_cast<int>(static_cast<double>(m_left - m_rangeStart) / m_secondsPerPixel));
        QScrollBar *v = verticalScrollBar();
        const int content = static_cast<int>(rows().size()) * m_rowHeight;
        v->setRange(0, std::max(0, content - (viewport()->height() - headerHeight())));
        v->setPageStep(viewport()->height());
        v->setSingleStep(m_rowHeight);
    }

    void drawGrid(QPainter &p, int rowCount)
    {
        static constexpr std::array<qint64, 12> kSteps{60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600,
            12 * 3600, 86400, 2 * 86400, 7 * 86400, 30 * 86400};
        qint64 step = kSteps.back();
        for (const qint64 candidate : kSteps) {
            if (static_cast<double>(candidate) / m_secondsPerPixel >= 90) {
                step = candidate;
                break;
            }
        }
        const int width = viewport()->width();
        const int bottom = std::min(viewport()->height(),
            headerHeight() + rowCount * m_rowHeight - verticalScrollBar()->value());
        const qint64 offset = QDateTime::fromSecsSinceEpoch(m_left).offsetFromUtc();
        qint64 t = ((m_left + offset) / step + 1) * step - offset;
        const QString format = step >= 86400 ? QStringLiteral("MM-dd")
            : step >= 3600                   ? QStringLiteral("MM-dd HH:mm")
                                             : QStringLiteral("HH:mm");
        // A time under the now line's label is left out: the two overlapped ("04:30maintenant").
        const QRect nowLabel = nowLabelRect(p.fontMetrics());
        for (; xOf(t) < width; t += step) {
            const int x = xOf(t);
            p.setPen(palette().color(QPalette::Midlight));
            p.drawLine(x, headerHeight(), x, bottom);
            p.setPen(palette().color(QPalette::Text));
            const QString time = QDateTime::fromSecsSinceEpoch(t).toString(format);
            const int half = p.fontMetrics().horizontalAdvance(time) / 2 + 2;
            if (nowLabel.intersects(QRect(x - half, 0, 2 * half, headerHeight()))) {
                continue;
            }
            p.drawText(QRect(x - 50, 0, 100, headerHeight() - 4), Qt::AlignCenter, time);
        }
    }

    // Where the now line's label goes, right of the line in the header.
    QRect nowLabelRect(const QFontMetrics &metrics) const
    {
        const int nowX = xOf(m_model->now());
        return QRect(nowX + 3, 0, metrics.horizontalAdvance(TimelineView::tr("now")) + 2,
            headerHeight() - 4);
    }

    // Tall enough for a label in each lane of the busiest row (up to kMaxLabelledLanes).
    void updateRowHeight(const QStringList &names)
    {
        int lanesNeeded = 1;
        for (const QString &name : names) {
            if (lanesNeeded == kMaxLabelledLanes) {
                break; // as tall as a row gets
            }
            lanesNeeded = std::max(lanesNeeded, m_model->laneCountOn(name, kMaxLabelledLanes));
        }
        const int height = std::max(kMinRowHeight, lanesNeeded * (fontMetrics().height() + 2) + 4);
        if (height != m_rowHeight) {
            m_rowHeight = height;
            updateScrollBars();
        }
    }

    // `top` and `height`: the block's lane within its node's row.
    void drawBlock(QPainter &p, const TimelineModel::Block &block, int top, int height)
    {
        const int x1 = xOf(block.begin);
        const int x2 = std::max(xOf(block.end), x1 + 3);
        if (x2 < labelWidth() || x1 > viewport()->width()) {
            return;
        }
        const QRect box(x1, top, x2 - x1, height);
        QColor colour = NodesView::jobColor(block.jobId);
        switch (block.kind) {
        case TimelineModel::Kind::Past:
            colour.setAlpha(110);
            p.fillRect(box, colour);
            p.setPen(colour.darker(140));
            p.drawRect(box.adjusted(0, 0, -1, -1));
            break;
        case TimelineModel::Kind::Running: {
            p.fillRect(box, colour);
            p.setPen(colour.darker(170));
            p.drawRect(box.adjusted(0, 0, -1, -1));
            break;
        }
        case TimelineModel::Kind::Planned:
            p.fillRect(box, QBrush(colour, Qt::BDiagPattern));
            p.setPen(QPen(colour.darker(150), 1, Qt::DashLine));
            p.drawRect(box.adjusted(0, 0, -1, -1));
            break;
        }
        if (block.backfilled) {
            // Started by backfill: a dark bar on its left edge, and "bf" before its label.
            p.fillRect(QRect(x1, top, std::min(4, box.width()), height), colour.darker(250));
        }
        // The longest label that fits: id, name and user; id and name; the id alone. A lane too
        // low for a line of text gets none, and its candidates are not even measured: text
        // layout is most of a busy timeline's paint.
        const QFontMetrics metrics = p.fontMetrics();
        if (metrics.height() > box.height() + 4
            || metrics.horizontalAdvance(QLatin1Char('0')) + 6 >= box.width()) {
            return;
        }
        const QString id = block.backfilled ? QStringLiteral("bf %1").arg(block.jobId)
                                            : QString::number(block.jobId);
        QString label = id;
        for (const QString &candidate :
            {QStringLiteral("%1 %2 (%3)").arg(id, block.name, block.user),
                QStringLiteral("%1 %2").arg(id, block.name)}) {
            if (metrics.horizontalAdvance(candidate) + 6 < box.width()) {
                label = candidate;
                break;
            }
        }
        if (metrics.horizontalAdvance(label) + 6 < box.width()) {
            p.setPen(palette().color(QPalette::Text));
            const QRect text = box.intersected(
                QRect(labelWidth(), 0, viewport()->width() - labelWidth(), viewport()->height()));
            p.drawText(text.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
        }
    }

    TimelineModel *m_model;
    std::function<qint64()> m_clock;
    TimelineView *m_owner;
    QTimer *m_repaint;
    QTimer *m_tick;
    double m_secondsPerPixel = 5.0;
    int m_rowHeight = kMinRowHeight; // from the font and the busiest row, at each paint
    qint64 m_left = 0;
    qint64 m_rangeStart = 0;
};

TimelineView::TimelineView(TimelineModel *model, std::function<qint64()> clock, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_canvas(new TimelineCanvas(model, std::move(clock), this))
    , m_zoomIn(new QToolButton(this))
    , m_zoomOut(new QToolButton(this))
    , m_now(new QToolButton(this))
    , m_legend(new QLabel(this))
{
    m_zoomIn->setObjectName(QStringLiteral("timelineZoomIn"));
    m_zoomOut->setObjectName(QStringLiteral("timelineZoomOut"));
    m_now->setObjectName(QStringLiteral("timelineNow"));
    m_legend->setWordWrap(true);
    connect(m_zoomIn, &QToolButton::clicked, this, &TimelineView::zoomIn);
    connect(m_zoomOut, &QToolButton::clicked, this, &TimelineView::zoomOut);
    connect(m_now, &QToolButton::clicked, this, &TimelineView::scrollToNow);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_zoomIn);
    bar->addWidget(m_zoomOut);
    bar->addWidget(m_now);
    bar->addWidget(m_legend, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_canvas, 1);
    retranslateUi();
}

TimelineView::~TimelineView() = default;

double TimelineView::secondsPerPixel() const
{
    return m_canvas->secondsPerPixel();
}

void TimelineView::setSecondsPerPixel(double seconds)
{
    m_canvas->setSecondsPerPixel(seconds, m_canvas->labelWidth());
}

void TimelineView::zoomIn()
{
    const int nowX = m_canvas->labelWidth()
        + static_cast<int>(
            static_cast<double>(m_model->now() - m_canvas->left()) / m_canvas->secondsPerPixel());
    m_canvas->setSecondsPerPixel(m_canvas->secondsPerPixel() / kZoomStep,
        std::clamp(nowX, m_canvas->labelWidth(), m_canvas->viewport()->width()));
}

void TimelineView::zoomOut()
{
    const int nowX = m_canvas->labelWidth()
        + static_cast<int>(
            static_cast<double>(m_model->now() - m_canvas->left()) / m_canvas->secondsPerPixel());
    m_canvas->setSecondsPerPixel(m_canvas->secondsPerPixel() * kZoomStep,
        std::clamp(nowX, m_canvas->labelWidth(), m_canvas->viewport()->width()));
}

void TimelineView::scrollToNow()
{
    m_canvas->scrollToNow();
}

qint64 TimelineView::leftTime() const
{
    return m_canvas->left();
}

qint64 TimelineView::jobAt(const QPoint &pos) const
{
    const auto block = m_canvas->blockAt(pos);
    return block ? block->jobId : 0;
}

QAbstractScrollArea *TimelineView::canvas() const
{
    return m_canvas;
}

void TimelineView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
}

void TimelineView::retranslateUi()
{
    m_zoomIn->setText(tr("Zoom in"));
    m_zoomOut->setText(tr("Zoom out"));
    m_now->setText(tr("Now"));
    m_legend->setText(tr("Faded: finished · solid: running, up to its time limit · hatched: "
                         "planned start (backfill plan) · dark left edge, bf: started by "
                         "backfill · red line: now. Ctrl+wheel zooms."));
}

} // namespace mc::gui
