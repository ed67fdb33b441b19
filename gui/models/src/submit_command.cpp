#include "mc/gui/submit_command.h"

#include "mc/sched/batch_script.h"

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

QStringList sbatchArguments(const SubmitChoices &c, const SubmitChoices &b)
{
    QStringList args;
    const auto text = [&args](const char *option, const QString &value, const QString &base) {
        if (!value.trimmed().isEmpty() && value.trimmed() != base.trimmed()) {
            args << QString::fromLatin1(option) + QLatin1Char('=') + value.trimmed();
        }
    };
    const auto number = [&args](const char *option, int value, int base) {
        if (value > 0 && value != base) {
            args << QString::fromLatin1(option) + QLatin1Char('=') + QString::number(value);
        }
    };
    text("--job-name", c.jobName, b.jobName);
    text("--account", c.account, b.account);
    text("--partition", c.partition, b.partition);
    text("--time", c.time, b.time);
    text("--mem", c.memory, b.memory);
    number("--ntasks", c.ntasks, b.ntasks);
    number("--cpus-per-task", c.cpusPerTask, b.cpusPerTask);
    number("--gpus-per-node", c.gpus, b.gpus);
    text("--array", c.array, b.array);
    text("--dependency", c.dependency, b.dependency);
    if (!c.script.trimmed().isEmpty()) {
        args << c.script.trimmed();
    }
    return args;
}

QString sbatchCommandLine(const SubmitChoices &choices, const SubmitChoices &baseline)
{
    QStringList words{QStringLiteral("sbatch")};
    for (const QString &arg : sbatchArguments(choices, baseline)) {
        words << shellQuote(arg);
    }
    return words.join(QLatin1Char(' '));
}

} // namespace mc::gui

namespace mc::gui {

SubmitChoices choicesFromDirectives(const QStringList &words)
{
    SubmitChoices c;
    const auto gpusOf = [](const QString &gres) {
        // gpu:N or gpu:type:N; a bare "gpu" is one GPU.
        const QStringList parts = gres.split(QLatin1Char(':'));
        if (parts.first() != QLatin1String("gpu")) {
            return 0;
        }
        return parts.size() == 1 ? 1 : parts.last().toInt();
    };
    for (int i = 0; i < words.size(); ++i) {
        QString option = words[i];
        QString value;
        const qsizetype equals = option.indexOf(QLatin1Char('='));
        if (option.startsWith(QLatin1String("--")) && equals > 0) {
            value = option.mid(equals + 1);
            option.truncate(equals);
        } else if (option.startsWith(QLatin1String("--"))) {
            // A long option's value may be the next word; flags (--exclusive) have none.
            static const QStringList kWithValue{QStringLiteral("--job-name"),
                QStringLiteral("--account"), QStringLiteral("--partition"),
                QStringLiteral("--time"), QStringLiteral("--mem"), QStringLiteral("--ntasks"),
                QStringLiteral("--cpus-per-task"), QStringLiteral("--gpus-per-node"),
                QStringLiteral("--gres"), QStringLiteral("--array"),
                QStringLiteral("--dependency")};
            if (kWithValue.contains(option) && i + 1 < words.size()) {
                value = words[++i];
            }
        } else if (option.size() >= 2 && option[0] == QLatin1Char('-')
            && QStringLiteral("JAptncad").contains(option[1])) {
            value = option.mid(2);
            option.truncate(2);
            if (value.isEmpty() && i + 1 < words.size()) {
                value = words[++i];
            }
        }
        if (option == QLatin1String("--job-name") || option == QLatin1String("-J")) {
            c.jobName = value;
        } else if (option == QLatin1String("--account") || option == QLatin1String("-A")) {
            c.account = value;
        } else if (option == QLatin1String("--partition") || option == QLatin1String("-p")) {
            c.partition = value;
        } else if (option == QLatin1String("--time") || option == QLatin1String("-t")) {
            c.time = value;
        } else if (option == QLatin1String("--mem")) {
            c.memory = value;
        } else if (option == QLatin1String("--ntasks") || option == QLatin1String("-n")) {
            c.ntasks = value.toInt();
        } else if (option == QLatin1String("--cpus-per-task") || option == QLatin1String("-c")) {
            c.cpusPerTask = value.toInt();
        } else if (option == QLatin1String("--gpus-per-node")) {
            c.gpus = value.toInt();
        } else if (option == QLatin1String("--gres")) {
            c.gpus = gpusOf(value);
        } else if (option == QLatin1String("--array") || option == QLatin1String("-a")) {
            c.array = value;
        } else if (option == QLatin1String("--dependency") || option == QLatin1String("-d")) {
            c.dependency = value;
        }
    }
    return c;
}

SubmitChoices choicesFromScript(const QByteArray &script)
{
    QStringList words;
    for (const std::string &word : mc::sched::parseDirectives(script.toStdString())) {
        words << QString::fromStdString(word);
    }
    return choicesFromDirectives(words);
}

} // namespace mc::gui
