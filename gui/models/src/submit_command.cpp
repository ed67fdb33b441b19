#include "mc/gui/submit_command.h"

#include "mc/cmd/job_options_apply.h"
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
    std::vector<std::string> args;
    for (const QString &word : words) {
        args.push_back(word.toStdString());
    }
    // sbatch's own reading of #SBATCH words: its rows of the one job-option table (prefixes,
    // short forms, a value in the same or the next word), stopping where sbatch would.
    const cmd::ParseResult parsed = cmd::parseOptions(
        cmd::jobOptionTable(cmd::kSbatchCommand), args, "sbatch", cmd::Ordering::StopAtOperand);
    SubmitChoices c;
    cmd::JobOptionValues values; // the GPU requests, read by sbatch's apply
    for (const cmd::ParsedOption &option : parsed.options) {
        const QString value = QString::fromStdString(option.value.value_or(std::string()));
        switch (option.def->id) {
        case cmd::kJobName:
            c.jobName = value;
            break;
        case cmd::kAccount:
            c.account = value;
            break;
        case cmd::kPartition:
            c.partition = value;
            break;
        case cmd::kTime:
            c.time = value;
            break;
        case cmd::kMem:
            c.memory = value;
            break;
        case cmd::kNtasks:
            c.ntasks = value.toInt();
            break;
        case cmd::kCpusPerTask:
            c.cpusPerTask = value.toInt();
            break;
        case cmd::kGres:
        case cmd::kGpusPerNode:
            values.gpusPerNode.reset();
            cmd::applyJobOption(values, *option.def, option.value, 0);
            c.gpus = values.gpusPerNode.value_or(0);
            break;
        case cmd::kArray:
            c.array = value;
            break;
        case cmd::kDependency:
            c.dependency = value;
            break;
        default:
            break;
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
