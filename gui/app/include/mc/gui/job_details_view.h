#pragma once
// The job details page: the selected job's fields as `scontrol show job` prints them (jobFields:
// expanded output paths, planned StartTime, EligibleTime, Dependency, TRES), then the
// controller's explanation of why it waits in the app's language (the same text for the app
// and the commands), or, for a job that does not wait, its state's meaning. It keeps the last
// job object of every job it heard of (decoded), so selecting a job needs no request.

#include "mc/record/job_object.h"

#include <QHash>
#include <QWidget>

class QLabel;
class QTextBrowser;

namespace mc::gui {

class JobDetailsView : public QWidget {
    Q_OBJECT

public:
    explicit JobDetailsView(QWidget *parent = nullptr);

    void resetJobs(const QList<mc::record::JobObject> &jobs);
    void updateJob(const mc::record::JobObject &job);
    void clear();
    // Shows this job (0: none).
    void showJob(qint64 jobId);
    qint64 shownJob() const { return m_shown; }

    QString explanationText() const;
    QString fieldsText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();

    QHash<qint64, mc::record::JobObject> m_jobs;
    qint64 m_shown = 0;
    QLabel *m_explanation;
    QTextBrowser *m_fields;
};

} // namespace mc::gui
