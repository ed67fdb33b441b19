#pragma once
// The history of jobs as the `acct` request returns it (sacct's data), one row per job, with
// the figures a student checks after a job ends: how long it waited, how long it ran, and its
// CPU and memory efficiency computed as `seff` computes them:
//
//   CPU efficiency    = TotalCPU of all steps / (Elapsed × allocated CPUs)
//   memory efficiency = the largest MaxRSS of a step / the memory the job asked for
//                       (per-node request × nodes, or per-CPU request × CPUs)
//
// Both are unknown (an invalid QVariant, "—" on screen) until the job has ended (seff warns
// that a running job's figures mislead), or when nothing was measured. setReply() replaces the
// whole table (a new `acct` reply).

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <vector>

namespace mc::proto {
class Json;
}

namespace mc::record {
struct JobObject;
}

namespace mc::gui {

class AccountingModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum class Column { JobId, Name, User, Partition, State, Wait, Elapsed, Cpus, CpuEff, MemEff };
    static constexpr int kColumnCount = 10;
    static constexpr int columnIndex(Column column) { return static_cast<int>(column); }
    enum Role : int {
        SortRole = Qt::UserRole + 1, // numbers for the figures, the text elsewhere
        ValueRole, // the number behind a figure (seconds, percent), invalid when unknown
    };

    struct Record {
        qint64 jobId = 0;
        QString name;
        QString user;
        QString partition;
        QString state;
        qint64 waitSeconds = -1; // start - submit; -1 when it never started
        qint64 elapsedSeconds = 0;
        qint64 cpus = 0;
        std::optional<double> cpuEfficiency; // percent
        std::optional<double> memoryEfficiency; // percent
        qint64 usedMemoryKb = 0; // the largest step MaxRSS
        qint64 requestedMemoryMb = 0;
        qint64 totalCpuMs = 0;
    };

    // seff's figures for one decoded job of an `acct` reply (with its `steps`); `now` is the
    // cluster clock for jobs still running.
    static Record recordOf(const mc::record::JobObject &job, qint64 now);

    explicit AccountingModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Replaces the rows with the `jobs` of an `acct` reply, each decoded once.
    void setReply(const mc::proto::Json &reply, qint64 now);
    const std::vector<Record> &records() const { return m_records; }

private:
    std::vector<Record> m_records;
};

} // namespace mc::gui
