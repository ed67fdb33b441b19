#pragma once
// The sbatch command line the submit form shows and runs: the form's choices as sbatch's own
// options, in a fixed order, quoted for bash, so that a student can read it, copy it and type
// it on any Slurm cluster. Pure functions.

#include <QString>
#include <QStringList>

namespace mc::gui {

struct SubmitChoices {
    QString script; // path of the batch script, as the login shell sees it
    QString jobName; // --job-name, empty: not given
    QString account; // --account
    QString partition; // --partition
    QString time; // --time, as sbatch takes it ("1:00:00", "30")
    QString memory; // --mem, with its unit ("2G", "500M")
    int ntasks = 0; // --ntasks, 0: not given
    int cpusPerTask = 0; // --cpus-per-task, 0: not given
    int gpus = 0; // --gpus-per-node, 0: none
    QString array; // --array ("1-10%2")
    QString dependency; // --dependency ("afterok:12")
};

// The arguments after `sbatch`, e.g. {"--partition=cpu", "--time=1:00:00", "job.sh"}: every
// choice that is given and differs from `baseline` (what the script's own #SBATCH lines and the
// cluster's default partition already give, so the line adds only what the student changed).
// The script of `baseline` is ignored.
QStringList sbatchArguments(const SubmitChoices &choices, const SubmitChoices &baseline = {});
// The whole line: "sbatch --partition=cpu --time=1:00:00 job.sh", each argument quoted for bash
// when it needs it.
QString sbatchCommandLine(const SubmitChoices &choices, const SubmitChoices &baseline = {});
// The choices a script's #SBATCH option words make (mc::sched::parseDirectives), read through
// sbatch's rows of the one job-option table as sbatch reads them (a word sbatch refuses ends
// the reading there, as it ends sbatch); --gres=gpu:N and --gpus-per-node=N set `gpus` by
// sbatch's apply. Other options are left out (the script keeps them; sbatch reads them there).
SubmitChoices choicesFromDirectives(const QStringList &words);
// The same for a whole batch script's text: its #SBATCH lines as sbatch reads them.
SubmitChoices choicesFromScript(const QByteArray &script);
// One word quoted for bash: unchanged when safe, else in single quotes.
QString shellQuote(const QString &word);

} // namespace mc::gui
