#pragma once
// The submit form, like the web portals many sites start their users on: pick a script (or a
// sample job of minicluster's sample_jobs/, copied into the home directory), a partition, time,
// memory, CPUs, GPUs, an array and a dependency. The fields start from the script's own #SBATCH
// lines (the student's copy in the home directory when there is one, since that is what sbatch
// reads) and the cluster's default partition; the form shows the exact sbatch command line,
// which adds only what the student changed (sbatchCommandLine against that baseline), so the
// form teaches the command and never overrides the script. "Run in the terminal" types that
// line into the terminal tab, where the student sees sbatch answer. The whole form scrolls
// inside its dock, so choosing a sample never makes the window grow.

#include "mc/gui/submit_command.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace mc::gui {

class SubmitForm : public QWidget {
    Q_OBJECT

public:
    // `sampleDirs`: folders searched for sample jobs (*.sh, *.sbatch); `homeDir`: the shell
    // user's home in the cluster directory, where a chosen sample is copied.
    SubmitForm(QStringList sampleDirs, QString homeDir, QWidget *parent = nullptr);

    SubmitChoices choices() const;
    QString commandLine() const;
    // The partitions offered (the controller's `cluster` reply); `defaultPartition` (slurm.conf's
    // Default=YES; empty: the first) is preselected and is what sbatch uses without --partition.
    void setPartitions(const QStringList &partitions, const QString &defaultPartition = {});
    // What the script's #SBATCH lines and the default partition give: the options the command
    // line leaves out.
    SubmitChoices baseline() const { return m_baseline; }
    QStringList sampleJobs() const; // file names found
    // Copies the chosen sample (if any) into the home directory; false with `error` set.
    bool prepareSample(QString *error) const;

Q_SIGNALS:
    // The user asked to run the command line in the terminal.
    void runRequested(const QString &commandLine);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void updateCommand();
    void onSampleChosen(int index);
    QString samplePath(const QString &name) const;
    // The file sbatch will read for the script field: the home copy, else the chosen sample.
    QString scriptFile() const;
    // Reads the script's #SBATCH lines into m_baseline; with `fill`, the fields show them.
    void loadBaseline(bool fill);
    void showChoices(const SubmitChoices &choices);

    QStringList m_sampleDirs;
    QString m_homeDir;
    QString m_defaultPartition;
    SubmitChoices m_baseline;
    QFormLayout *m_form;
    QComboBox *m_sample;
    QLineEdit *m_script;
    QLineEdit *m_name;
    QLineEdit *m_account;
    QComboBox *m_partition;
    QLineEdit *m_time;
    QLineEdit *m_memory;
    QSpinBox *m_ntasks;
    QSpinBox *m_cpus;
    QSpinBox *m_gpus;
    QLineEdit *m_array;
    QLineEdit *m_dependency;
    QLabel *m_commandTitle;
    QLineEdit *m_command;
    QPlainTextEdit *m_preview;
    QPushButton *m_run;
    QLabel *m_status;
};

} // namespace mc::gui
