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

void JobDetailsView::resetJobs(const QList<mc::record::JobObject> &jobs)
{
    m_jobs.clear();
    for (const auto &job : jobs) {
        m_jobs.insert(job.jobId, job);
    }
    refresh();
}

void JobDetailsView::updateJob(const mc::record::JobObject &job)
{
    const qint64 id = job.jobId;
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
    const mc::record::JobObject &job = *it;
    // The controller's own explanation in the app's language: why a pending job waits, for
    // what, until when; for a started job, its state's meaning and then how it started (in
    // priority order, or by backfill).
    const auto explained = job.explanation.find(currentLanguage().toStdString());
    QString explanation = explainJobState(job);
    if (explained != job.explanation.end()) {
        const QString fromController = QString::fromStdString(explained->second);
        explanation = job.backfilled.has_value() ? explanation + QLatin1Char(' ') + fromController
                                                 : fromController;
    }
    m_explanation->setText(QStringLiteral("<b>%1</b>").arg(explanation.toHtmlEscaped()));
    // scontrol show job's fields, one a line, as `Name=value`.
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    for (const JobField &field : jobFields(job, job.now)) {
        html += QStringLiteral("<tr><td><tt>%1=</tt></td><td><tt>%2</tt></td></tr>")
                    .arg(field.first.toHtmlEscaped(), field.second.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    m_fields->setHtml(html);
}

} // namespace mc::gui
