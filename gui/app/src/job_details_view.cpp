#include "mc/gui/job_details_view.h"

#include "mc/gui/job_explanation.h"
#include "mc/gui/job_fields.h"
#include "mc/gui/language.h"

#include <QEvent>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace mc::gui {

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
    layout->addWidget(m_fields, 1);
    layout->addWidget(m_explanation);
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
    // The controller's own explanation in the app's language: why a pending job waits, for
    // what, until when; for a started job, its state's meaning and then how it started (in
    // priority order, or by backfill).
    const mc::proto::Json &explained = job["explanation"][currentLanguage().toStdString()];
    const QString fromController = QString::fromStdString(explained.toString());
    QString explanation = explainJobState(job);
    if (explained.isString() && job.contains("backfilled")) {
        explanation += QLatin1Char(' ') + fromController;
    } else if (explained.isString()) {
        explanation = fromController;
    }
    m_explanation->setText(QStringLiteral("<b>%1</b>").arg(explanation.toHtmlEscaped()));
    // scontrol show job's fields, one a line, as `Name=value`.
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    for (const JobField &field : jobFields(job, job["now"].toInt())) {
        html += QStringLiteral("<tr><td><tt>%1=</tt></td><td><tt>%2</tt></td></tr>")
                    .arg(field.first.toHtmlEscaped(), field.second.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    m_fields->setHtml(html);
}

} // namespace mc::gui
