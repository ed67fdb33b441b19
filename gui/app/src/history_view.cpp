#include "mc/gui/history_view.h"

#include "mc/gui/accounting_model.h"
#include "mc/gui/request_client.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <array>

namespace mc::gui {

namespace {

// Wait-time bins: upper bounds in seconds (the last one is open).
constexpr std::array<qint64, 6> kWaitBounds{60, 300, 900, 3600, 4 * 3600, 0};
constexpr int kEfficiencyBins = 11; // 0-10 %, ..., 90-100 %, over 100 %

int waitBin(qint64 seconds)
{
    for (int i = 0; i + 1 < static_cast<int>(kWaitBounds.size()); ++i) {
        if (seconds < kWaitBounds[static_cast<std::size_t>(i)]) {
            return i;
        }
    }
    return static_cast<int>(kWaitBounds.size()) - 1;
}

int efficiencyBin(double percent)
{
    return percent > 100.0 ? kEfficiencyBins - 1
                           : std::min(9, std::max(0, static_cast<int>(percent / 10.0)));
}

QStringList waitLabels()
{
    return {HistoryView::tr("0–1m"), HistoryView::tr("1–5m"), HistoryView::tr("5–15m"),
        HistoryView::tr("15–60m"), HistoryView::tr("1–4h"), HistoryView::tr("4h+")};
}

QStringList efficiencyLabels()
{
    QStringList labels;
    // Each bin by its lower bound: "30" holds 30 % to 40 %.
    for (int i = 0; i < 10; ++i) {
        labels << QString::number(i * 10);
    }
    labels << QStringLiteral("100+");
    return labels;
}

} // namespace

HistoryView::HistoryView(RequestClient *requests, QString user, QWidget *parent)
    : QWidget(parent)
    , m_requests(requests)
    , m_user(std::move(user))
    , m_model(new AccountingModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_refresh(new QPushButton(this))
    , m_onlyMine(new QCheckBox(this))
    , m_status(new QLabel(this))
    , m_refreshTimer(new QTimer(this))
    , m_bins(3)
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(AccountingModel::SortRole);
    m_proxy->setFilterKeyColumn(AccountingModel::columnIndex(AccountingModel::Column::User));
    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_refresh->setObjectName(QStringLiteral("historyRefresh"));
    m_onlyMine->setObjectName(QStringLiteral("historyOnlyMine"));
    m_status->setObjectName(QStringLiteral("historyStatus"));
    m_status->setWordWrap(true);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(kRefreshDelay);
    connect(m_refreshTimer, &QTimer::timeout, this, &HistoryView::refresh);
    connect(m_refresh, &QPushButton::clicked, this, &HistoryView::refresh);
    connect(m_onlyMine, &QCheckBox::toggled, this, [this](bool mine) {
        m_proxy->setFilterFixedString(mine ? m_user : QString());
        rebuildCharts();
    });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &index) {
        Q_EMIT jobSelected(
            m_proxy->index(index.row(), 0).data(AccountingModel::ValueRole).toLongLong());
    });

    auto *charts = new QWidget(this);
    auto *chartsLayout = new QHBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < 3; ++i) {
        auto *view = new QChartView(charts);
        view->setObjectName(QStringLiteral("historyChart%1").arg(i));
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(200);
        chartsLayout->addWidget(view);
        m_charts << view;
    }
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(charts);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_refresh);
    bar->addWidget(m_onlyMine);
    bar->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);
    retranslateUi();
}

HistoryView::~HistoryView() = default;

QString HistoryView::statusText() const
{
    return m_status->text();
}

QList<int> HistoryView::binCounts(int chart) const
{
    return m_bins.value(chart);
}

void HistoryView::refresh()
{
    m_refreshTimer->stop();
    const auto request = mc::proto::Json::object().set("op", "acct");
    m_requests->send(request, this, [this, request](const mc::proto::Json &reply) {
        if (!reply["ok"].toBool()) {
            m_failed = true;
            m_status->setText(tr("The history is not available: %1")
                                  .arg(RequestClient::describeFailure(request, reply)));
        } else {
            m_failed = false;
            showReply(reply);
        }
        Q_EMIT refreshed();
    });
}

void HistoryView::noteJob(const mc::record::JobObject &job)
{
    if (job.endTime > 0 && !m_refreshTimer->isActive()) {
        m_refreshTimer->start();
    }
    m_now = std::max<qint64>(m_now, job.now);
}

void HistoryView::showReply(const mc::proto::Json &reply)
{
    m_lastReply = reply;
    m_model->setReply(reply, m_now > 0 ? m_now : reply["now"].toInt());
    m_status->setText(jobCountText(m_model->rowCount()));
    rebuildCharts();
}

void HistoryView::rebuildCharts()
{
    QList<int> wait(static_cast<qsizetype>(kWaitBounds.size()), 0);
    QList<int> cpu(kEfficiencyBins, 0);
    QList<int> memory(kEfficiencyBins, 0);
    const bool mine = m_onlyMine->isChecked();
    for (const auto &record : m_model->records()) {
        if (mine && record.user != m_user) {
            continue;
        }
        if (record.waitSeconds >= 0) {
            ++wait[waitBin(record.waitSeconds)];
        }
        const bool ended = record.state != QLatin1String("RUNNING");
        if (ended && record.cpuEfficiency) {
            ++cpu[efficiencyBin(*record.cpuEfficiency)];
        }
        if (ended && record.memoryEfficiency) {
            ++memory[efficiencyBin(*record.memoryEfficiency)];
        }
    }
    m_bins = {wait, cpu, memory};
    const QStringList titles{
        tr("Time waited before starting"), tr("CPU efficiency (%)"), tr("Memory efficiency (%)")};
    const QList<QStringList> labels{waitLabels(), efficiencyLabels(), efficiencyLabels()};
    const std::array<QColor, 3> colours{
        QColor(70, 130, 180), QColor(60, 160, 90), QColor(200, 120, 40)};
    for (int i = 0; i < 3; ++i) {
        auto *set = new QBarSet(tr("Jobs"));
        set->setColor(colours[static_cast<std::size_t>(i)]);
        int highest = 1;
        for (int count : m_bins[i]) {
            *set << count;
            highest = std::max(highest, count);
        }
        auto *series = new QBarSeries;
        series->append(set);
        auto *chart = new QChart;
        chart->addSeries(series);
        chart->setTitle(titles[i]);
        chart->legend()->hide();
        // Readable in a narrow dock and on a projector: the bins' labels stand upright (never
        // cut to "…"), every text in the view's own font (the window's zoom).
        const QFont text = font();
        QFont title = text;
        title.setBold(true);
        chart->setTitleFont(title);
        auto *axisX = new QBarCategoryAxis;
        axisX->append(labels[i]);
        axisX->setLabelsAngle(-90);
        axisX->setLabelsFont(text);
        axisX->setTitleFont(text);
        if (i > 0) {
            axisX->setTitleText(tr("percent (bins of 10)"));
        }
        chart->addAxis(axisX, Qt::AlignBottom);
        series->attachAxis(axisX);
        // Whole-number ticks at an even step (1, 2, 5, 10, ...), at most six of them.
        int step = 1;
        for (const int candidate : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
            step = candidate;
            if (highest <= 5 * candidate) {
                break;
            }
        }
        const int top = (highest + step - 1) / step * step;
        auto *axisY = new QValueAxis;
        axisY->setRange(0, top);
        axisY->setLabelFormat(QStringLiteral("%d"));
        axisY->setTickCount(top / step + 1);
        axisY->setLabelsFont(text);
        axisY->setTitleFont(text);
        axisY->setTitleText(tr("jobs"));
        chart->addAxis(axisY, Qt::AlignLeft);
        series->attachAxis(axisY);
        chart->setMargins(QMargins(2, 2, 2, 2));
        QChart *old = m_charts[i]->chart();
        m_charts[i]->setChart(chart);
        delete old;
    }
}

void HistoryView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    } else if (event->type() == QEvent::FontChange) {
        rebuildCharts(); // the projector zoom reaches the charts' texts
    }
}

void HistoryView::retranslateUi()
{
    // The model's own column titles ("Wait", the efficiencies) follow the language too.
    Q_EMIT m_model->headerDataChanged(Qt::Horizontal, 0, AccountingModel::kColumnCount - 1);
    m_refresh->setText(tr("Refresh"));
    m_onlyMine->setText(tr("Only my jobs"));
    if (m_failed || m_lastReply.isNull()) {
        if (!m_failed) {
            m_status->setText(tr("Press Refresh to read the accounting database (what sacct "
                                 "reads)."));
        }
    } else {
        m_status->setText(jobCountText(m_model->rowCount()));
    }
    rebuildCharts();
}

QString HistoryView::jobCountText(int count)
{
    // Two sentences rather than "%n job(s)": English has no translation file to pick the form.
    return count == 1 ? tr("1 job in the accounting database.")
                      : tr("%1 jobs in the accounting database.").arg(count);
}

} // namespace mc::gui
