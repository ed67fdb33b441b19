// Replays each transcript of tests/transcripts/commands on a fresh cluster: every command runs
// in the login shell as the user named in its prompt, and its stdout, stderr and exit code must
// be the transcript's. Timestamps (2026-11-21T11:09:25) are compared as "<time>" on both sides.
// Format (as ../shared/reference): "[alice]$ command", "--- stdout ---", lines, "--- stderr ---",
// lines, "--- exit N ---"; lines starting with '#' between commands are comments.

#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

struct Step {
    int line = 0;
    QString user;
    QString command;
    QString out;
    QString err;
    int exitCode = 0;
};

QString normalized(QString text)
{
    static const QRegularExpression stamp(
        QStringLiteral("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"));
    return text.replace(stamp, QStringLiteral("<time>"));
}

std::optional<std::vector<Step>> parse(const QString &path, QString &error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot read ") + path;
        return std::nullopt;
    }
    static const QRegularExpression prompt(QStringLiteral("^\\[(\\w+)\\]\\$ (.*)$"));
    static const QRegularExpression exitLine(QStringLiteral("^--- exit (\\d+) ---$"));
    std::vector<Step> steps;
    enum class Part { None, Out, Err } part = Part::None;
    int number = 0;
    for (const QString &line : QString::fromUtf8(file.readAll()).split(u'\n')) {
        ++number;
        if (auto m = prompt.match(line); m.hasMatch() && part == Part::None) {
            steps.push_back({number, m.captured(1), m.captured(2), {}, {}, 0});
        } else if (line == QStringLiteral("--- stdout ---") && !steps.empty()) {
            part = Part::Out;
        } else if (line == QStringLiteral("--- stderr ---") && !steps.empty()) {
            part = Part::Err;
        } else if (auto e = exitLine.match(line); e.hasMatch() && !steps.empty()) {
            steps.back().exitCode = e.captured(1).toInt();
            part = Part::None;
        } else if (part == Part::Out) {
            steps.back().out += line + u'\n';
        } else if (part == Part::Err) {
            steps.back().err += line + u'\n';
        } else if (!line.isEmpty() && !line.startsWith(u'#')) {
            error = QStringLiteral("%1:%2: not a prompt, a section or a comment")
                        .arg(path)
                        .arg(number);
            return std::nullopt;
        }
    }
    return steps;
}

} // namespace

class CommandsTranscriptTest : public QObject {
    Q_OBJECT

private slots:
    void replaysTranscript_data();
    void replaysTranscript();
};

void CommandsTranscriptTest::replaysTranscript_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(QStringLiteral(MC_SOURCE_DIR "/tests/transcripts/commands"));
    for (const QString &name : dir.entryList({QStringLiteral("*.txt")}, QDir::Files, QDir::Name)) {
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }
}

void CommandsTranscriptTest::replaysTranscript()
{
    QFETCH(QString, path);
    QString error;
    auto steps = parse(path, error);
    QVERIFY2(steps.has_value(), qPrintable(error));
    QVERIFY2(!steps->empty(), qPrintable(path + QStringLiteral(": no commands")));
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    for (const Step &step : *steps) {
        const ShellResult r = cluster.shell(step.command, step.user);
        const QString where = QStringLiteral("%1:%2: [%3]$ %4")
                                  .arg(QFileInfo(path).fileName())
                                  .arg(step.line)
                                  .arg(step.user, step.command);
        QVERIFY2(normalized(r.out) == normalized(step.out),
            qPrintable(where + QStringLiteral("\n--- expected stdout ---\n") + step.out
                + QStringLiteral("--- actual stdout ---\n") + r.out
                + QStringLiteral("--- stderr ---\n") + r.err));
        QVERIFY2(normalized(r.err) == normalized(step.err),
            qPrintable(where + QStringLiteral("\n--- expected stderr ---\n") + step.err
                + QStringLiteral("--- actual stderr ---\n") + r.err));
        QVERIFY2(r.exitCode == step.exitCode,
            qPrintable(where
                + QStringLiteral("\nexit %1, expected %2").arg(r.exitCode).arg(step.exitCode)));
    }
}

QTEST_GUILESS_MAIN(CommandsTranscriptTest)
#include "commands_transcript_test.moc"
