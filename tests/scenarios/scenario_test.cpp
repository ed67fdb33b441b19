// Replays every tests/scenarios/<case>/ (slurm.conf + jobs.txt) through the simulator and the
// real scheduling core, and compares the transcript with expected.txt line by line.
// MC_UPDATE_GOLDEN=1 writes the transcripts instead (review every change before keeping it).

#include "mc/sim/scenario.h"

#include <QDir>
#include <QFile>
#include <QtTest>

namespace {

QString scenariosDir()
{
    return QStringLiteral(MC_SOURCE_DIR "/tests/scenarios");
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll();
}

} // namespace

class ScenarioTest : public QObject {
    Q_OBJECT

private slots:
    void everyCaseHasItsFilesAndEnoughCasesExist()
    {
        const QStringList cases = QDir(scenariosDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QVERIFY2(cases.size() >= 30, qPrintable(QString::number(cases.size())));
        for (const QString &c : cases) {
            for (const char *file : {"slurm.conf", "jobs.txt", "expected.txt", "README.md"}) {
                const QString path = scenariosDir() + '/' + c + '/' + QLatin1String(file);
                QVERIFY2(QFile::exists(path), qPrintable(path));
            }
        }
    }

    void transcriptMatchesExpected_data()
    {
        QTest::addColumn<QString>("dir");
        const QStringList cases = QDir(scenariosDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString &c : cases) {
            QTest::newRow(qPrintable(c)) << scenariosDir() + '/' + c;
        }
    }

    void transcriptMatchesExpected()
    {
        QFETCH(QString, dir);
        const QByteArray conf = readAll(dir + QStringLiteral("/slurm.conf"));
        const QByteArray jobs = readAll(dir + QStringLiteral("/jobs.txt"));
        QVERIFY(!conf.isEmpty());
        QVERIFY(!jobs.isEmpty());
        const auto result = mc::sim::runScenario(conf.toStdString(), jobs.toStdString());
        for (const auto &error : result.errors) {
            qWarning("%s", error.c_str());
        }
        QVERIFY(result.errors.empty());
        const QString actual = QString::fromStdString(result.transcript);
        if (qEnvironmentVariableIsSet("MC_UPDATE_GOLDEN")) {
            QFile out(dir + QStringLiteral("/expected.txt"));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(actual.toUtf8());
            return;
        }
        const QString expected = QString::fromUtf8(readAll(dir + QStringLiteral("/expected.txt")));
        const QStringList a = actual.split('\n');
        const QStringList e = expected.split('\n');
        for (qsizetype i = 0; i < std::max(a.size(), e.size()); ++i) {
            const QString got = i < a.size() ? a[i] : QStringLiteral("<end>");
            const QString want = i < e.size() ? e[i] : QStringLiteral("<end>");
            QVERIFY2(got == want,
                qPrintable(QStringLiteral("line %1\n  actual:   %2\n  expected: %3")
                               .arg(i + 1)
                               .arg(got, want)));
        }
    }

    void submitLinesReadSbatchsOptionsThroughItsTable()
    {
        // The forms sbatch takes (prefixes, -n2, -n 2, --mem 2G) and the scenario's "-n=2".
        mc::sched::JobSpec spec;
        std::vector<std::string> rest;
        std::string error;
        QVERIFY(mc::sim::applySubmitOptions(spec,
            {"--ntasks-per-node=2", "-N2", "-c", "3", "--mem", "2G", "-t=5", "--mail-t=end",
                "--user=bob", "--begin=now+60", "run=30"},
            1000, rest, error));
        QCOMPARE(spec.ntasksPerNode, 2);
        QCOMPARE(spec.ntasks, 4); // sbatch's count: --ntasks-per-node on each of the -N nodes
        QCOMPARE(spec.cpusPerTask, 3);
        QCOMPARE(spec.memPerNode, std::optional<mc::sched::MiB>(2048));
        QCOMPARE(spec.timeLimit, std::optional<mc::sched::Seconds>(300));
        QCOMPARE(spec.mailType, std::string("END"));
        QCOMPARE(spec.user, std::string("bob"));
        QCOMPARE(spec.begin, std::optional<mc::sched::Seconds>(1060));
        QCOMPARE(rest, std::vector<std::string>{"run=30"});
        // A bad value is refused with sbatch's words, an unknown option with glibc's.
        QVERIFY(!mc::sim::applySubmitOptions(spec, {"--mem=lots"}, 0, rest, error));
        QCOMPARE(error, std::string("Invalid --mem specification"));
        QVERIFY(!mc::sim::applySubmitOptions(spec, {"--frobnicate"}, 0, rest, error));
        QCOMPARE(error, std::string("sbatch: unrecognized option '--frobnicate'"));
        const auto result = mc::sim::runScenario(
            "NodeName=cn01 CPUs=4\nPartitionName=cpu Nodes=cn01 Default=YES\n",
            "0 submit -n 1 --gres=disk:1\nend 10\n");
        QCOMPARE(result.errors,
            std::vector<std::string>{"jobs.txt:1: Invalid generic resource (gres) specification"});
    }
};

QTEST_GUILESS_MAIN(ScenarioTest)
#include "scenario_test.moc"
