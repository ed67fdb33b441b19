#pragma once
// The submit form, like the web portals many sites start their users on: pick a script (or a
// sample job of minicluster's sample_jobs/, copied into the home directory), a partition, time,
// memory, CPUs, GPUs, an array and a dependency. The form always shows the exact sbatch command
// line these choices make (sbatchCommandLine), so the form teaches the command; "Run in the
// terminal" types that line into the terminal tab, where the student sees sbatch answer.

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
    // The partitions offered (from the nodes the controller reports), the first as default.
    void setPartitions(const QStringList &partitions);
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

    QStringList m_sampleDirs;
    QString m_homeDir;
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
    QLabel *m_preview;
    QPushButton *m_run;
    QLabel *m_status;
};

} // namespace mc::gui
