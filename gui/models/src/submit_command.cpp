#include "mc/gui/submit_command.h"

namespace mc::gui {

QString shellQuote(const QString &word)
{
    if (word.isEmpty()) {
        return QStringLiteral("''");
    }
    static const QString kSafe = QStringLiteral("@%+=:,./-_~");
    bool safe = true;
    for (const QChar c : word) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && !kSafe.contains(c)) {
            safe = false;
            break;
        }
    }
    if (safe) {
        return word;
    }
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QStringList sbatchArguments(const SubmitChoices &c)
{
    QStringList args;
    const auto text = [&args](const char *option, const QString &value) {
        if (!value.trimmed().isEmpty()) {
            args << QString::fromLatin1(option) + QLatin1Char('=') + value.trimmed();
        }
    };
    const auto number = [&args](const char *option, int value) {
        if (value > 0) {
            args << QString::fromLatin1(option) + QLatin1Char('=') + QString::number(value);
        }
    };
    text("--job-name", c.jobName);
    text("--account", c.account);
    text("--partition", c.partition);
    text("--time", c.time);
    text("--mem", c.memory);
    number("--ntasks", c.ntasks);
    number("--cpus-per-task", c.cpusPerTask);
    number("--gpus-per-node", c.gpus);
    text("--array", c.array);
    text("--dependency", c.dependency);
    if (!c.script.trimmed().isEmpty()) {
        args << c.script.trimmed();
    }
    return args;
}

QString sbatchCommandLine(const SubmitChoices &choices)
{
    QStringList words{QStringLiteral("sbatch")};
    for (const QString &arg : sbatchArguments(choices)) {
        words << shellQuote(arg);
    }
    return words.join(QLatin1Char(' '));
}

} // namespace mc::gui
