#include "mc/gui/job_details_view.h"

#include "mc/gui/job_explanation.h"

#include <QDateTime>
#include <QEvent>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace mc::gui {

namespace {

// Fields in the order scontrol show job prints them, with its names.
struct Field {
    const char *key;
    const char *label;
    enum Kind { Text, Number, Time, Duration, List } kind;
};

constexpr Field kFields[] = {
    {"job_id", "JobId", Field::Number},
    {"name", "JobName", Field::Text},
    {"user", "UserId", Field::Text},
    {"account", "Account", Field::Text},
    {"qos", "QOS", Field::Text},
    {"priority", "Priority", Field::Number},
    {"state", "JobState", Field::Text},
    {"reason", "Reason", Field::Text},
    {"exit_code", "ExitCode", Field::Number},
    {"time_limit", "TimeLimit", Field::Duration},
    {"submit_time", "SubmitTime", Field::Time},
    {"eligible_time", "EligibleTime", Field::Time},
    {"start_time", "StartTime", Field::Time},
    {"end_time", "EndTime", Field::Time},
    {"partition", "Partition", Field::Text},
    {"nodes", "NodeList", Field::List},
    {"batch_host", "BatchHost", Field::Text},
    {"num_nodes", "NumNodes", Field::Number},
    {"num_cpus", "NumCPUs", Field::Number},
    {"num_tasks", "NumTasks", Field::Number},
    {"cpus_per_task", "CPUs/Task", Field::Number},
    {"min_memory", "MinMemory (MiB)", Field::Number},
    {"command", "Command", Field::Text},
    {"work_dir", "WorkDir", Field::Text},
    {"std_err", "StdErr", Field::Text},
    {"std_in", "StdIn", Field::Text},
    {"std_out", "StdOut", Field::Text},
};

QString valueText(const mc::proto::Json &value, Field::Kind kind)
{
    switch (kind) {
    case Field::Number:
        return QString::number(value.toInt());
    case Field::Time: {
        const qint64 t = value.toInt();
        return t == 0
            ? QStringLiteral("Unknown")
            : QDateTime::fromSecsSinceEpoch(t).toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    }
    case Field::Duration: {
        const qint64 s = value.toInt(-1);
        if (s < 0) {
            return QStringLiteral("UNLIMITED");
        }
        const qint64 days = s / 86400;
        const QString hms = QStringLiteral("%1:%2:%3")
                                .arg((s % 86400) / 3600, 2, 10, QLatin1Char('0'))
                                .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'))
                                .arg(s % 60, 2, 10, QLatin1Char('0'));
        return days > 0 ? QStringLiteral("%1-%2").arg(days).arg(hms) : hms;
    }
    case Field::List: {
        QStringList items;
        for (const auto &s : value.toStringList()) {
            items << QString::fromStdString(s);
        }
        return items.isEmpty() ? QStringLiteral("(null)") : items.join(QLatin1Char(','));
    }
    case Field::Text:
        break;
    }
    const QString text = QString::fromStdString(value.toString());
    return text.isEmpty() ? QStringLiteral("(null)") : text;
}

} // namespace

JobDetailsView::JobDetailsView(QWidget *parent)
    : QWidget(parent)
    , m_explanation(new QLabel(this))
    , m_fields(new QTextBrowser(this))
{
    m_explanation->setObjectName(QStringLiteral("jobExplanation"));
    m_explanation->setWordWrap(true);
    m_explanation->setMargin(4);
    m_fields->setObjectName(QStringLiteral("jobFields"));
    m_fields->setOpenLinks(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_explanation);
    layout->addWidget(m_fields, 1);
    refresh();
}

void JobDetailsView::resetJobs(const QList<mc::proto::Json> &jobs)
{
    m_jobs.clear();
    for (const auto &job : jobs) {
        m_jobs.insert(job["job_id"].toInt(), job);
    }
    refresh();
}

void JobDetailsView::updateJob(const mc::proto::Json &job)
{
    const qint64 id = job["job_id"].toInt();
    m_jobs.insert(id, job);
    if (id == m_shown) {
        refresh();
    }
}

void JobDetailsView::clear()
{
    m_jobs.clear();
    refresh();
}

void JobDetailsView::showJob(qint64 jobId)
{
    m_shown = jobId;
    refresh();
}

void JobDetailsView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        refresh();
    }
}

QString JobDetailsView::explanationText() const
{
    return m_explanation->text();
}

QString JobDetailsView::fieldsText() const
{
    return m_fields->toPlainText();
}

void JobDetailsView::refresh()
{
    const auto it = m_jobs.constFind(m_shown);
    if (m_shown == 0 || it == m_jobs.constEnd()) {
        m_explanation->setText(tr("Select a job in the queue to see everything about it."));
        m_fields->clear();
        return;
    }
    const mc::proto::Json &job = *it;
    m_explanation->setText(QStringLiteral("<b>%1</b>").arg(explainJobState(job).toHtmlEscaped()));
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=2>");
    for (const Field &field : kFields) {
        if (!job.contains(field.key)) {
            continue;
        }
        QString value = valueText(job[field.key], field.kind);
        if (QLatin1String(field.key) == QLatin1String("exit_code")) {
            value += QStringLiteral(":%1").arg(job["exit_signal"].toInt());
        }
        html += QStringLiteral("<tr><td><b>%1</b></td><td><tt>%2</tt></td></tr>")
                    .arg(QString::fromLatin1(field.label), value.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    m_fields->setHtml(html);
}

} // namespace mc::gui
