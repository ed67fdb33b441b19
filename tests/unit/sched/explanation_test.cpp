#include "mc/sched/explanation.h"

#include <QtTest>

using namespace mc::sched;

class ExplanationTest : public QObject {
    Q_OBJECT

private slots:
    void resourcesNamesTheJobsAndTheExpectedStartInBothLanguages()
    {
        WaitDecision w{JobId{5}, Reason::Resources, 400, {JobId{1}, JobId{2}}, {}, {}};
        QCOMPARE(explain(w, "en", 100),
            std::string("The job waits for resources now held by jobs 1 and 2. Expected start: "
                        "in 5:00."));
        QCOMPARE(explain(w, "fr", 100),
            std::string("La tâche attend des ressources occupées par les tâches 1 et 2. "
                        "Démarrage prévu : dans 5:00."));
    }

    void everyPendingReasonHasASentenceInEachLanguage()
    {
        for (Reason r : {Reason::Resources, Reason::Priority, Reason::Dependency,
                 Reason::DependencyNeverSatisfied, Reason::BeginTime, Reason::JobHeldUser,
                 Reason::JobHeldAdmin, Reason::PartitionTimeLimit, Reason::PartitionNodeLimit,
                 Reason::PartitionDown, Reason::PartitionInactive, Reason::JobArrayTaskLimit,
                 Reason::ReqNodeNotAvail, Reason::InvalidAccount, Reason::BadConstraints}) {
            WaitDecision w{JobId{1}, r, std::nullopt, {}, {"cn01"}, "afterok:2(failed)"};
            const std::string en = explain(w, "en", 0);
            const std::string fr = explain(w, "fr", 0);
            QVERIFY2(en != reasonName(r) && en.find('{') == std::string::npos, en.c_str());
            QVERIFY2(fr != en && fr.find('{') == std::string::npos, fr.c_str());
        }
    }

    void backfilledStartSaysSo()
    {
        StartDecision s{JobId{3}, {"cn01", "cn02"}, {}, std::nullopt, std::nullopt, true};
        QVERIFY(explain(s, "en").find("backfill") != std::string::npos);
        QVERIFY(explain(s, "en").find("cn[01-02]") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(ExplanationTest)
#include "explanation_test.moc"
