#include "mc/sched/job_state.h"

#include <QtTest>

using mc::sched::JobState;
using mc::sched::Reason;

Q_DECLARE_METATYPE(JobState)
Q_DECLARE_METATYPE(Reason)

namespace {

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace

class JobStateTest : public QObject {
    Q_OBJECT

private slots:
    void namesAreSqueueCodesAndLongNames_data();
    void namesAreSqueueCodesAndLongNames();
    void parsesEitherNameInAnyCase_data();
    void parsesEitherNameInAnyCase();
    void rejectsUnknownStateNames_data();
    void rejectsUnknownStateNames();
    void onlyTerminalStatesAreFinished_data();
    void onlyTerminalStatesAreFinished();
    void reasonNamesAreSlurmsStrings_data();
    void reasonNamesAreSlurmsStrings();
    void parsesReasonNamesInAnyCase();
    void rejectsUnknownReasons_data();
    void rejectsUnknownReasons();
};

void JobStateTest::namesAreSqueueCodesAndLongNames_data()
{
    QTest::addColumn<JobState>("state");
    QTest::addColumn<QString>("shortName");
    QTest::addColumn<QString>("longName");
    QTest::newRow("pending") << JobState::Pending << "PD"
                             << "PENDING";
    QTest::newRow("running") << JobState::Running << "R"
                             << "RUNNING";
    QTest::newRow("suspended") << JobState::Suspended << "S"
                               << "SUSPENDED";
    QTest::newRow("completing") << JobState::Completing << "CG"
                                << "COMPLETING";
    QTest::newRow("completed") << JobState::Completed << "CD"
                               << "COMPLETED";
    QTest::newRow("cancelled") << JobState::Cancelled << "CA"
                               << "CANCELLED";
    QTest::newRow("failed") << JobState::Failed << "F"
                            << "FAILED";
    QTest::newRow("timeout") << JobState::Timeout << "TO"
                             << "TIMEOUT";
    QTest::newRow("node fail") << JobState::NodeFail << "NF"
                               << "NODE_FAIL";
    QTest::newRow("preempted") << JobState::Preempted << "PR"
                               << "PREEMPTED";
    QTest::newRow("boot fail") << JobState::BootFail << "BF"
                               << "BOOT_FAIL";
    QTest::newRow("deadline") << JobState::Deadline << "DL"
                              << "DEADLINE";
    QTest::newRow("out of memory") << JobState::OutOfMemory << "OOM"
                                   << "OUT_OF_MEMORY";
}

void JobStateTest::namesAreSqueueCodesAndLongNames()
{
    QFETCH(JobState, state);
    QFETCH(QString, shortName);
    QFETCH(QString, longName);
    QCOMPARE(toQString(mc::sched::shortName(state)), shortName);
    QCOMPARE(toQString(mc::sched::longName(state)), longName);
    QCOMPARE(mc::sched::parseJobState(shortName.toStdString()), state);
    QCOMPARE(mc::sched::parseJobState(longName.toStdString()), state);
}

void JobStateTest::parsesEitherNameInAnyCase_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<JobState>("state");
    QTest::newRow("lower short") << "pd" << JobState::Pending;
    QTest::newRow("mixed long") << "Running" << JobState::Running;
    QTest::newRow("lower cg") << "cg" << JobState::Completing;
    QTest::newRow("lower long with underscore") << "out_of_memory" << JobState::OutOfMemory;
    QTest::newRow("oom") << "Oom" << JobState::OutOfMemory;
}

void JobStateTest::parsesEitherNameInAnyCase()
{
    QFETCH(QString, text);
    QFETCH(JobState, state);
    QCOMPARE(mc::sched::parseJobState(text.toStdString()), state);
}

void JobStateTest::rejectsUnknownStateNames_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("prefix") << "PEND";
    QTest::newRow("trailing blank") << "R ";
    QTest::newRow("squeue -t all is not a state") << "all";
    QTest::newRow("flag not modelled") << "REQUEUED";
}

void JobStateTest::rejectsUnknownStateNames()
{
    QFETCH(QString, text);
    QCOMPARE(mc::sched::parseJobState(text.toStdString()), std::nullopt);
}

void JobStateTest::onlyTerminalStatesAreFinished_data()
{
    QTest::addColumn<JobState>("state");
    QTest::addColumn<bool>("finished");
    QTest::newRow("PD") << JobState::Pending << false;
    QTest::newRow("R") << JobState::Running << false;
    QTest::newRow("S") << JobState::Suspended << false;
    QTest::newRow("CG still holds its nodes") << JobState::Completing << false;
    QTest::newRow("CD") << JobState::Completed << true;
    QTest::newRow("CA") << JobState::Cancelled << true;
    QTest::newRow("F") << JobState::Failed << true;
    QTest::newRow("TO") << JobState::Timeout << true;
    QTest::newRow("NF") << JobState::NodeFail << true;
    QTest::newRow("PR") << JobState::Preempted << true;
    QTest::newRow("BF") << JobState::BootFail << true;
    QTest::newRow("DL") << JobState::Deadline << true;
    QTest::newRow("OOM") << JobState::OutOfMemory << true;
}

void JobStateTest::onlyTerminalStatesAreFinished()
{
    QFETCH(JobState, state);
    QFETCH(bool, finished);
    QCOMPARE(mc::sched::isFinished(state), finished);
}

void JobStateTest::reasonNamesAreSlurmsStrings_data()
{
    QTest::addColumn<Reason>("reason");
    QTest::addColumn<QString>("name");
    QTest::newRow("None") << Reason::None << "None";
    QTest::newRow("Priority") << Reason::Priority << "Priority";
    QTest::newRow("Resources") << Reason::Resources << "Resources";
    QTest::newRow("Dependency") << Reason::Dependency << "Dependency";
    QTest::newRow("DependencyNeverSatisfied")
        << Reason::DependencyNeverSatisfied << "DependencyNeverSatisfied";
    QTest::newRow("BeginTime") << Reason::BeginTime << "BeginTime";
    QTest::newRow("JobHeldUser") << Reason::JobHeldUser << "JobHeldUser";
    QTest::newRow("JobHeldAdmin") << Reason::JobHeldAdmin << "JobHeldAdmin";
    QTest::newRow("PartitionTimeLimit") << Reason::PartitionTimeLimit << "PartitionTimeLimit";
    QTest::newRow("PartitionNodeLimit") << Reason::PartitionNodeLimit << "PartitionNodeLimit";
    QTest::newRow("PartitionDown") << Reason::PartitionDown << "PartitionDown";
    QTest::newRow("PartitionInactive") << Reason::PartitionInactive << "PartitionInactive";
    QTest::newRow("JobArrayTaskLimit") << Reason::JobArrayTaskLimit << "JobArrayTaskLimit";
    QTest::newRow("ReqNodeNotAvail") << Reason::ReqNodeNotAvail << "ReqNodeNotAvail";
    QTest::newRow("NodeDown") << Reason::NodeDown << "NodeDown";
    QTest::newRow("BadConstraints") << Reason::BadConstraints << "BadConstraints";
    QTest::newRow("InvalidAccount") << Reason::InvalidAccount << "InvalidAccount";
    QTest::newRow("QOSMaxJobsPerUserLimit")
        << Reason::QOSMaxJobsPerUserLimit << "QOSMaxJobsPerUserLimit";
    QTest::newRow("TimeLimit") << Reason::TimeLimit << "TimeLimit";
    QTest::newRow("NonZeroExitCode") << Reason::NonZeroExitCode << "NonZeroExitCode";
    QTest::newRow("OutOfMemory") << Reason::OutOfMemory << "OutOfMemory";
    QTest::newRow("Prolog") << Reason::Prolog << "Prolog";
    QTest::newRow("JobLaunchFailure") << Reason::JobLaunchFailure << "JobLaunchFailure";
    QTest::newRow("InactiveLimit") << Reason::InactiveLimit << "InactiveLimit";
}

void JobStateTest::reasonNamesAreSlurmsStrings()
{
    QFETCH(Reason, reason);
    QFETCH(QString, name);
    QCOMPARE(toQString(mc::sched::reasonName(reason)), name);
    QCOMPARE(mc::sched::parseReason(name.toStdString()), reason);
}

void JobStateTest::parsesReasonNamesInAnyCase()
{
    QCOMPARE(mc::sched::parseReason("resources"), Reason::Resources);
    QCOMPARE(mc::sched::parseReason("qosmaxjobsperuserlimit"), Reason::QOSMaxJobsPerUserLimit);
    QCOMPARE(mc::sched::parseReason("NONE"), Reason::None);
}

void JobStateTest::rejectsUnknownReasons_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("singular") << "Resource";
    QTest::newRow("with parentheses as squeue prints it") << "(Resources)";
    QTest::newRow("Slurm reason not modelled") << "AssociationJobLimit";
}

void JobStateTest::rejectsUnknownReasons()
{
    QFETCH(QString, text);
    QCOMPARE(mc::sched::parseReason(text.toStdString()), std::nullopt);
}

QTEST_APPLESS_MAIN(JobStateTest)
#include "job_state_test.moc"
