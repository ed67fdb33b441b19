#include "mc/gui/submit_form.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace mc::gui {

SubmitForm::SubmitForm(QStringList sampleDirs, QString homeDir, QWidget *parent)
    : QWidget(parent)
    , m_sampleDirs(std::move(sampleDirs))
    , m_homeDir(std::move(homeDir))
    , m_form(new QFormLayout)
    , m_sample(new QComboBox(this))
    , m_script(new QLineEdit(this))
    , m_name(new QLineEdit(this))
    , m_account(new QLineEdit(this))
    , m_partition(new QComboBox(this))
    , m_time(new QLineEdit(this))
    , m_memory(new QLineEdit(this))
    , m_ntasks(new QSpinBox(this))
    , m_cpus(new QSpinBox(this))
    , m_gpus(new QSpinBox(this))
    , m_array(new QLineEdit(this))
    , m_dependency(new QLineEdit(this))
    , m_commandTitle(new QLabel(this))
    , m_command(new QLineEdit(this))
    , m_preview(new QPlainTextEdit(this))
    , m_run(new QPushButton(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("submitForm"));
    m_script->setObjectName(QStringLiteral("submitScript"));
    m_sample->setObjectName(QStringLiteral("submitSample"));
    m_partition->setObjectName(QStringLiteral("submitPartition"));
    m_time->setObjectName(QStringLiteral("submitTime"));
    m_memory->setObjectName(QStringLiteral("submitMemory"));
    m_cpus->setObjectName(QStringLiteral("submitCpus"));
    m_gpus->setObjectName(QStringLiteral("submitGpus"));
    m_array->setObjectName(QStringLiteral("submitArray"));
    m_dependency->setObjectName(QStringLiteral("submitDependency"));
    m_command->setObjectName(QStringLiteral("submitCommand"));
    m_run->setObjectName(QStringLiteral("submitRun"));
    m_status->setObjectName(QStringLiteral("submitStatus"));

    m_preview->setObjectName(QStringLiteral("submitPreview"));
    m_partition->setEditable(true);
    m_ntasks->setRange(0, 64);
    m_cpus->setRange(0, 64);
    m_gpus->setRange(0, 8);
    m_command->setReadOnly(true);
    // Monospace, the size left to the window's (projector zoom).
    QFont fixed;
    fixed.setFamilies(QFontDatabase::systemFont(QFontDatabase::FixedFont).families());
    fixed.setStyleHint(QFont::Monospace);
    m_command->setFont(fixed);
    // The script as sbatch will read it, in its own scroll area: a long script never makes
    // the form (or the window) taller.
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(fixed);
    m_preview->setMinimumHeight(8 * m_preview->fontMetrics().lineSpacing());
    m_preview->setVisible(false);
    m_status->setWordWrap(true);

    m_sample->addItem(QString());
    for (const QString &name : sampleJobs()) {
        m_sample->addItem(name, name);
    }

    // Everything scrolls inside the dock: the form asks for no height of the window.
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->addLayout(m_form);
    layout->addWidget(m_commandTitle);
    layout->addWidget(m_command);
    layout->addWidget(m_run, 0, Qt::AlignLeft);
    layout->addWidget(m_status);
    layout->addWidget(m_preview, 1);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("submitScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    for (QWidget *field : std::initializer_list<QWidget *>{m_sample, m_script, m_name, m_account,
             m_partition, m_time, m_memory, m_array, m_dependency, m_command}) {
        field->setMinimumWidth(0); // long sample names never widen the window
        field->setSizePolicy(QSizePolicy::Ignored, field->sizePolicy().verticalPolicy());
    }
    m_sample->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_sample->setMinimumContentsLength(12);
    m_partition->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_partition->setMinimumContentsLength(8);

    for (QLineEdit *edit : {m_name, m_account, m_time, m_memory, m_array, m_dependency}) {
        connect(edit, &QLineEdit::textChanged, this, &SubmitForm::updateCommand);
    }
    // Another script: the options it already gives change, not what the student typed.
    connect(m_script, &QLineEdit::textChanged, this, [this] { loadBaseline(false); });
    for (QSpinBox *spin : {m_ntasks, m_cpus, m_gpus}) {
        connect(spin, &QSpinBox::valueChanged, this, &SubmitForm::updateCommand);
    }
    connect(m_partition, &QComboBox::currentTextChanged, this, &SubmitForm::updateCommand);
    connect(m_sample, &QComboBox::currentIndexChanged, this, &SubmitForm::onSampleChosen);
    connect(m_run, &QPushButton::clicked, this, [this] {
        QString error;
        if (m_script->text().trimmed().isEmpty()) {
            m_status->setText(tr("Choose a script first: sbatch needs one."));
            return;
        }
        if (!prepareSample(&error)) {
            m_status->setText(error);
            return;
        }
        m_status->setText(tr("Typed in the terminal; sbatch's answer is there."));
        Q_EMIT runRequested(commandLine());
    });
    retranslateUi();
    updateCommand();
}

QStringList SubmitForm::sampleJobs() const
{
    QStringList names;
    for (const QString &dir : m_sampleDirs) {
        for (const QString &name : QDir(dir).entryList(
                 {QStringLiteral("*.sh"), QStringLiteral("*.sbatch")}, QDir::Files, QDir::Name)) {
            if (!names.contains(name)) {
                names << name;
            }
        }
    }
    return names;
}

QString SubmitForm::samplePath(const QString &name) const
{
    for (const QString &dir : m_sampleDirs) {
        const QString path = QDir(dir).filePath(name);
        if (QFile::exists(path)) {
            return path;
        }
    }
    return {};
}

void SubmitForm::onSampleChosen(int index)
{
    const QString name = m_sample->itemData(index).toString();
    if (name.isEmpty()) {
        return;
    }
    {
        const QSignalBlocker block(m_script);
        m_script->setText(QStringLiteral("~/") + name);
    }
    loadBaseline(true);
}

QString SubmitForm::scriptFile() const
{
    QString path = m_script->text().trimmed();
    if (path.isEmpty()) {
        return {};
    }
    if (path.startsWith(QLatin1String("~/"))) {
        path = QDir(m_homeDir).filePath(path.mid(2));
    } else if (QDir::isRelativePath(path)) {
        path = QDir(m_homeDir).filePath(path); // the terminal starts in the home directory
    }
    if (QFile::exists(path)) {
        return path;
    }
    const QString name = m_sample->currentData().toString();
    if (!name.isEmpty() && m_script->text().trimmed() == QStringLiteral("~/") + name) {
        return samplePath(name); // copied into the home directory when it runs
    }
    return {};
}

void SubmitForm::loadBaseline(bool fill)
{
    QFile file(scriptFile());
    QByteArray script;
    if (!file.fileName().isEmpty() && file.open(QIODevice::ReadOnly)) {
        script = file.read(1 << 20);
    }
    m_baseline = choicesFromScript(script);
    m_preview->setPlainText(QString::fromUtf8(script));
    m_preview->setVisible(!script.isEmpty());
    if (fill) {
        SubmitChoices shown = m_baseline;
        shown.script = m_script->text();
        showChoices(shown);
    }
    if (m_baseline.partition.isEmpty()) {
        m_baseline.partition = m_defaultPartition;
    }
    updateCommand();
}

void SubmitForm::showChoices(const SubmitChoices &c)
{
    const QSignalBlocker blockName(m_name), blockAccount(m_account), blockTime(m_time),
        blockMemory(m_memory), blockArray(m_array), blockDependency(m_dependency),
        blockPartition(m_partition), blockTasks(m_ntasks), blockCpus(m_cpus), blockGpus(m_gpus);
    m_name->setText(c.jobName);
    m_account->setText(c.account);
    m_partition->setCurrentText(c.partition.isEmpty() ? m_defaultPartition : c.partition);
    m_time->setText(c.time);
    m_memory->setText(c.memory);
    m_ntasks->setValue(c.ntasks);
    m_cpus->setValue(c.cpusPerTask);
    m_gpus->setValue(c.gpus);
    m_array->setText(c.array);
    m_dependency->setText(c.dependency);
}

bool SubmitForm::prepareSample(QString *error) const
{
    const QString name = m_sample->currentData().toString();
    if (name.isEmpty() || m_script->text().trimmed() != QStringLiteral("~/") + name) {
        return true;
    }
    const QString target = QDir(m_homeDir).filePath(name);
    if (QFile::exists(target)) {
        return true; // the student's copy, maybe edited: never overwritten
    }
    if (!QDir().mkpath(m_homeDir) || !QFile::copy(samplePath(name), target)) {
        *error = tr("Could not copy the sample job to %1.").arg(target);
        return false;
    }
    return true;
}

SubmitChoices SubmitForm::choices() const
{
    SubmitChoices c;
    c.script = m_script->text();
    c.jobName = m_name->text();
    c.account = m_account->text();
    c.partition = m_partition->currentText();
    c.time = m_time->text();
    c.memory = m_memory->text();
    c.ntasks = m_ntasks->value();
    c.cpusPerTask = m_cpus->value();
    c.gpus = m_gpus->value();
    c.array = m_array->text();
    c.dependency = m_dependency->text();
    return c;
}

QString SubmitForm::commandLine() const
{
    return sbatchCommandLine(choices(), m_baseline);
}

void SubmitForm::setPartitions(const QStringList &partitions, const QString &defaultPartition)
{
    const QString current = m_partition->currentText();
    QStringList items = partitions;
    items.removeDuplicates();
    const QString previousDefault = m_defaultPartition;
    m_defaultPartition
        = defaultPartition.isEmpty() && !items.isEmpty() ? items.first() : defaultPartition;
    if (m_baseline.partition.isEmpty() || m_baseline.partition == previousDefault) {
        m_baseline.partition = m_defaultPartition;
    }
    const QSignalBlocker block(m_partition);
    m_partition->clear();
    m_partition->addItems(items);
    // The student's own choice stays; otherwise the default partition, as sbatch would use.
    m_partition->setCurrentText(
        current.isEmpty() || current == previousDefault ? m_defaultPartition : current);
    updateCommand();
}

void SubmitForm::updateCommand()
{
    m_command->setText(commandLine());
}

void SubmitForm::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
}

void SubmitForm::retranslateUi()
{
    const auto row = [this](const QString &label, QWidget *field, const QString &tip) {
        field->setToolTip(tip);
        auto *title = qobject_cast<QLabel *>(m_form->labelForField(field));
        if (!title) {
            title = new QLabel(this);
            m_form->addRow(title, field);
        }
        title->setText(label);
    };
    m_sample->setItemText(0,
        m_sample->count() > 1 ? tr("(your own script)")
                              : tr("(no sample jobs installed: give your own script)"));
    row(tr("Sample job"), m_sample, tr("A sample job of minicluster, copied into your home"));
    row(tr("Script"), m_script, tr("The batch script, as your shell sees its path"));
    m_script->setPlaceholderText(tr("job.sh"));
    row(tr("Job name"), m_name, QStringLiteral("--job-name"));
    row(tr("Account"), m_account, tr("--account (empty: your default account)"));
    row(tr("Partition"), m_partition, QStringLiteral("--partition"));
    row(tr("Time limit"), m_time, tr("--time: minutes, or [days-]hours:minutes:seconds"));
    row(tr("Memory per node"), m_memory, tr("--mem, with a unit: 500M, 2G"));
    row(tr("Tasks"), m_ntasks, tr("--ntasks (0: not given)"));
    row(tr("CPUs per task"), m_cpus, tr("--cpus-per-task (0: not given)"));
    row(tr("GPUs per node"), m_gpus, QStringLiteral("--gpus-per-node"));
    row(tr("Array"), m_array, tr("--array, e.g. 1-10%2"));
    m_array->setPlaceholderText(QStringLiteral("1-10%2"));
    row(tr("Dependency"), m_dependency, tr("--dependency, e.g. afterok:123"));
    m_dependency->setPlaceholderText(QStringLiteral("afterok:123"));
    m_commandTitle->setText(tr("The command this form runs (type it yourself next time):"));
    m_run->setText(tr("Run in the terminal"));
}

} // namespace mc::gui
