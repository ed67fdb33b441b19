#include "mc/gui/job_explanation.h"

#include "mc/record/job_object.h"
#include "mc/sched/job_state.h"

#include <QCoreApplication>

namespace mc::gui {

namespace {

QString whyPending(const QString &reason)
{
    using mc::sched::Reason;
    const auto parsed = mc::sched::parseReason(reason.toStdString());
    if (!parsed) {
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "It waits; Slurm gives the reason “%1”.")
            .arg(reason);
    }
    switch (*parsed) {
    case Reason::None:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "It has just been submitted; the scheduler has not looked at it yet.");
    case Reason::Priority:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "It waits for jobs with a higher priority, which will start first.");
    case Reason::Resources:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "It is next in line and waits for enough CPUs or memory to become free.");
    case Reason::Dependency:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "It waits for the jobs it depends on (--dependency) to reach the required state.");
    case Reason::DependencyNeverSatisfied:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "It can never start: a job it depends on ended in a way the dependency does not "
            "accept. Cancel it with scancel.");
    case Reason::BeginTime:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "It waits for the start time it was given (--begin).");
    case Reason::JobHeldUser:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "It is held by its owner; release it with scontrol release.");
    case Reason::JobHeldAdmin:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "It is held by an administrator.");
    case Reason::PartitionTimeLimit:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "Its time limit is longer than the partition allows; it will not start as it is.");
    case Reason::PartitionNodeLimit:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "It asks for more nodes than the partition allows; it will not start as it is.");
    case Reason::PartitionDown:
    case Reason::PartitionInactive:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "Its partition does not accept jobs to run right now.");
    case Reason::JobArrayTaskLimit:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "Its array runs at most the number of tasks given with %; the others wait.");
    case Reason::ReqNodeNotAvail:
    case Reason::NodeDown:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "A node it needs is not available (down or drained).");
    case Reason::BadConstraints:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "No node can ever satisfy what it asks for; it will not start as it is.");
    case Reason::InvalidAccount:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "Its account is not valid for this user or partition.");
    case Reason::QOSMaxJobsPerUserLimit:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "Its owner already runs as many jobs as the QOS allows.");
    default:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "It waits; Slurm gives the reason “%1”.")
            .arg(reason);
    }
}

} // namespace

QString explainJobState(const mc::record::JobObject &job)
{
    using mc::sched::JobState;
    const QString stateName = QString::fromStdString(job.state);
    const QString reason
        = job.reason.empty() ? QStringLiteral("None") : QString::fromStdString(job.reason);
    const auto state = mc::sched::parseJobState(job.state);
    const qint64 exitCode = job.exitCode;
    const qint64 signal = job.exitSignal;
    if (!state) {
        return QCoreApplication::translate("mc::gui::JobExplanation", "Its state is %1.")
            .arg(stateName);
    }
    switch (*state) {
    case JobState::Pending:
        return QCoreApplication::translate("mc::gui::JobExplanation", "Pending: ")
            + whyPending(reason);
    case JobState::Running: {
        QString where = QString::fromStdString(job.batchHost.value_or(""));
        if (where.isEmpty()) {
            QStringList nodes;
            for (const auto &node : job.nodes) {
                nodes << QString::fromStdString(node);
            }
            where = nodes.join(QLatin1Char(','));
        }
        return QCoreApplication::translate("mc::gui::JobExplanation", "Running on %1.").arg(where);
    }
    case JobState::Suspended:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "Suspended: its processes are stopped and will continue later.");
    case JobState::Completing:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "Completing: it has ended and its nodes are being cleaned up.");
    case JobState::Completed:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "Completed: its script exited with status 0.");
    case JobState::Cancelled:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "Cancelled (scancel) before it finished.");
    case JobState::Failed:
        return signal != 0 ? QCoreApplication::translate("mc::gui::JobExplanation",
                   "Failed: its script was killed by signal %1. Read its error file.")
                                 .arg(signal)
                           : QCoreApplication::translate("mc::gui::JobExplanation",
                               "Failed: its script exited with status %1. Read its error file.")
                                 .arg(exitCode);
    case JobState::Timeout:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "Timed out: it ran longer than its time limit and was stopped. Ask for more "
            "time (--time) or make it faster.");
    case JobState::OutOfMemory:
        return QCoreApplication::translate("mc::gui::JobExplanation",
            "Out of memory: it used more memory than it asked for and was killed. Ask for "
            "more (--mem).");
    case JobState::NodeFail:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "Its node failed while it ran.");
    default:
        return QCoreApplication::translate(
            "mc::gui::JobExplanation", "Its state is %1 (reason %2).")
            .arg(stateName, reason);
    }
}

} // namespace mc::gui
