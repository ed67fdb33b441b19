// The submit form's command line: sbatch's options in order, quoted for bash.

#include "mc/gui/submit_command.h"

#include <QTest>

using mc::gui::choicesFromScript;
using mc::gui::sbatchArguments;
using mc::gui::sbatchCommandLine;
using mc::gui::shellQuote;
using mc::gui::SubmitChoices;

class SubmitCommandTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyChoiceBecomesItsSbatchOption()
    {
        SubmitChoices c;
        c.script = QStringLiteral("~/train.sh");
        c.jobName = QStringLiteral("train");
        c.account = QStringLiteral("def-prof");
        c.partition = QStringLiteral("gpu");
        c.time = QStringLiteral("1:00:00");
        c.memory = QStringLiteral("4G");
        c.ntasks = 2;
        c.cpusPerTask = 4;
        c.gpus = 1;
        c.array = QStringLiteral("1-10%2");
        c.dependency = QStringLiteral("afterok:12");
        QCOMPARE(sbatchCommandLine(c),
            QStringLiteral("sbatch --job-name=train --account=def-prof --partition=gpu "
                           "--time=1:00:00 --mem=4G --ntasks=2 --cpus-per-task=4 "
                           "--gpus-per-node=1 --array=1-10%2 --dependency=afterok:12 "
                           "~/train.sh"));
    }

    void emptyChoicesAreLeftOut()
    {
        SubmitChoices c;
        c.script = QStringLiteral("job.sh");
        c.time = QStringLiteral("  ");
        QCOMPARE(sbatchArguments(c), QStringList{QStringLiteral("job.sh")});
        QCOMPARE(sbatchCommandLine(SubmitChoices{}), QStringLiteral("sbatch"));
    }

    void wordsWithSpacesOrQuotesAreQuotedForBash()
    {
        QCOMPARE(shellQuote(QStringLiteral("plain-name_1.sh")), QStringLiteral("plain-name_1.sh"));
        QCOMPARE(shellQuote(QStringLiteral("my job")), QStringLiteral("'my job'"));
        QCOMPARE(shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
        QCOMPARE(shellQuote(QStringLiteral("$HOME")), QStringLiteral("'$HOME'"));
        QCOMPARE(shellQuote(QString()), QStringLiteral("''"));
        SubmitChoices c;
        c.jobName = QStringLiteral("my run");
        c.script = QStringLiteral("a.sh");
        QCOMPARE(sbatchCommandLine(c), QStringLiteral("sbatch '--job-name=my run' a.sh"));
    }

    void aScriptsSbatchLinesAreReadAsSbatchReadsThem()
    {
        const SubmitChoices c = choicesFromScript("#!/bin/bash\n"
                                                  "# a comment\n"
                                                  "#SBATCH -J train --time 1:00:00\n"
                                                  "#SBATCH --mem=4G # four gigabytes\n"
                                                  "#SBATCH -c4 -p gpu --gres=gpu:2\n"
                                                  "#SBATCH --array=1-10%2 --exclusive\n"
                                                  "echo run\n"
                                                  "#SBATCH --account=ignored-after-a-command\n");
        QCOMPARE(c.jobName, QStringLiteral("train"));
        QCOMPARE(c.time, QStringLiteral("1:00:00"));
        QCOMPARE(c.memory, QStringLiteral("4G"));
        QCOMPARE(c.cpusPerTask, 4);
        QCOMPARE(c.partition, QStringLiteral("gpu"));
        QCOMPARE(c.gpus, 2);
        QCOMPARE(c.array, QStringLiteral("1-10%2"));
        QVERIFY(c.account.isEmpty());
    }

    void directiveWordsAreReadThroughSbatchsTable()
    {
        // A unique prefix and a typed GPU count, as sbatch reads them; a word sbatch refuses
        // ends the reading there, as it ends sbatch.
        SubmitChoices c = choicesFromScript("#!/bin/bash\n"
                                            "#SBATCH --job=train --gpus-per-node=a100:2 -n4\n"
                                            "#SBATCH --frobnicate -p gpu\n");
        QCOMPARE(c.jobName, QStringLiteral("train"));
        QCOMPARE(c.gpus, 2);
        QCOMPARE(c.ntasks, 4);
        QVERIFY(c.partition.isEmpty());
        c = choicesFromScript("#!/bin/bash\n#SBATCH --gres=gpu\n");
        QCOMPARE(c.gpus, 1);
    }

    void theLineAddsOnlyWhatDiffersFromTheScript()
    {
        SubmitChoices script;
        script.memory = QStringLiteral("100M");
        script.time = QStringLiteral("00:05:00");
        script.partition = QStringLiteral("cpu");
        SubmitChoices shown = script;
        shown.script = QStringLiteral("~/too_big.sh");
        QCOMPARE(sbatchCommandLine(shown, script), QStringLiteral("sbatch ~/too_big.sh"));
        shown.time = QStringLiteral("00:10:00");
        shown.cpusPerTask = 2;
        QCOMPARE(sbatchCommandLine(shown, script),
            QStringLiteral("sbatch --time=00:10:00 --cpus-per-task=2 ~/too_big.sh"));
    }
};

QTEST_GUILESS_MAIN(SubmitCommandTest)
#include "submit_command_test.moc"
