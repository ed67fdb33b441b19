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
};

QTEST_GUILESS_MAIN(ScenarioTest)
#include "scenario_test.moc"
