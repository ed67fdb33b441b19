#include "mc/sched/batch_script.h"

#include <QtTest>

namespace {

QStringList toQStringList(const std::vector<std::string> &words)
{
    QStringList list;
    for (const auto &word : words) {
        list << QString::fromStdString(word);
    }
    return list;
}

} // namespace

class BatchScriptTest : public QObject {
    Q_OBJECT

private slots:
    void recognisesShebangOnlyAtTheStart_data();
    void recognisesShebangOnlyAtTheStart();
    void readsDirectivesAsSbatchDoes_data();
    void readsDirectivesAsSbatchDoes();
    void readsAnotherPrefixWhenAsked();
};

void BatchScriptTest::recognisesShebangOnlyAtTheStart_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<bool>("hasShebang");
    QTest::newRow("bash") << "#!/bin/bash\necho hi\n" << true;
    QTest::newRow("bare shebang") << "#!" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("indented") << " #!/bin/bash\n" << false;
    QTest::newRow("on the second line") << "echo hi\n#!/bin/bash\n" << false;
    QTest::newRow("comment only") << "#/bin/bash\n" << false;
}

void BatchScriptTest::recognisesShebangOnlyAtTheStart()
{
    QFETCH(QString, script);
    QFETCH(bool, hasShebang);
    QCOMPARE(mc::sched::hasShebang(script.toStdString()), hasShebang);
}

void BatchScriptTest::readsDirectivesAsSbatchDoes_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("trailing comment") << "#!/bin/bash\n#SBATCH --time=5 # five minutes\necho hi\n"
                                      << QStringList{"--time=5"};
    QTest::newRow("several lines and words")
        << "#!/bin/bash\n#SBATCH -N 2 --mem=200M\n#SBATCH -J test\nsrun hostname\n"
        << QStringList{"-N", "2", "--mem=200M", "-J", "test"};
    QTest::newRow("stops at the first command")
        << "#!/bin/bash\n#SBATCH -n 1\necho hi\n#SBATCH -n 2\n"
        << QStringList{"-n", "1"};
    QTest::newRow("blank lines and comments do not stop")
        << "#!/bin/bash\n\n# a comment\n   \n   # indented comment\n#SBATCH -n 1\n"
        << QStringList{"-n", "1"};
    QTest::newRow("quotes group words") << "#SBATCH --job-name=\"my job\" --comment='a b'\n"
                                        << QStringList{"--job-name=my job", "--comment=a b"};
    QTest::newRow("quoted hash is kept") << "#SBATCH --job-name='a#b'\n"
                                         << QStringList{"--job-name=a#b"};
    QTest::newRow("escaped hash is kept") << "#SBATCH --job-name=a\\#b\n"
                                          << QStringList{"--job-name=a#b"};
    QTest::newRow("escaped quote inside quotes") << "#SBATCH --comment=\"x\\\"y\"\n"
                                                 << QStringList{"--comment=x\"y"};
    QTest::newRow("hash inside a word ends the line") << "#SBATCH --job-name=a#b -n 2\n"
                                                      << QStringList{"--job-name=a"};
    QTest::newRow("empty quotes end the line") << "#SBATCH -J \"\" -n 2\n" << QStringList{"-J"};
    QTest::newRow("indented directive is a comment") << "  #SBATCH -n 4\n" << QStringList{};
    QTest::newRow("prefix is case-sensitive") << "#sbatch -n 4\n" << QStringList{};
    QTest::newRow("commented-out directive") << "##SBATCH -n 4\n" << QStringList{};
    QTest::newRow("old #SLURM prefix") << "#SLURM -n 3\n" << QStringList{"-n", "3"};
    QTest::newRow("hetjob separator ends the first component")
        << "#SBATCH -n 1\n#SBATCH hetjob\n#SBATCH -n 2\n"
        << QStringList{"-n", "1"};
    QTest::newRow("no final newline") << "#SBATCH -n 1" << QStringList{"-n", "1"};
    QTest::newRow("no directives") << "#!/bin/sh\nhostname\n" << QStringList{};
    QTest::newRow("empty script") << "" << QStringList{};
}

void BatchScriptTest::readsDirectivesAsSbatchDoes()
{
    QFETCH(QString, script);
    QFETCH(QStringList, words);
    QCOMPARE(toQStringList(mc::sched::parseDirectives(script.toStdString())), words);
}

void BatchScriptTest::readsAnotherPrefixWhenAsked()
{
    const std::string script = "#!/bin/bash\n#SALLOC -n 2\n#SBATCH -n 3\n#SLURM -n 4\n";
    QCOMPARE(
        toQStringList(mc::sched::parseDirectives(script, "#SALLOC")), (QStringList{"-n", "2"}));
}

QTEST_APPLESS_MAIN(BatchScriptTest)
#include "batch_script_test.moc"
