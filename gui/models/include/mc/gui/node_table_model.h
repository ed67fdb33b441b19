#pragma once
// The nodes as `sinfo -N` names them, with what fills them: one row per node (in the order the
// controller first reported them), columns NODELIST STATE CPUS(A/T) JOBS MEMORY(A/T) GPUS
// PARTITION, and per node the jobs that hold it and how many of its CPUs each one holds.
//
// Sources: node objects (snapshot and node events) give the node's size, allocation and state;
// job objects (snapshot and job events) say which jobs hold which nodes. A job holds its nodes
// while it is RUNNING, SUSPENDED or COMPLETING; its num_cpus are spread evenly over its nodes
// (the protocol does not report a per-node split); its memory per node is min_memory (times its
// CPUs on the node when the request was per CPU) and its GPUs per node the job's `gpus` (else
// the count in `gres`, "gpu:2"). Updates are incremental: dataChanged for the
// rows that changed only.

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QStringList>

#include <vector>

namespace mc::proto {
class Json;
}

namespace mc::record {
struct JobObject;
}

namespace mc::gui {

class NodeTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum class Column { Name, State, Cpus, Jobs, Memory, Gpus, Partitions };
    static constexpr int kColumnCount = 7;
    static constexpr int columnIndex(Column column) { return static_cast<int>(column); }

    enum Role : int {
        NameRole = Qt::UserRole + 1, // QString
        StateRole, // QString, sinfo's long state ("idle", "mixed", ...)
        SortRole, // numbers for the counts, the text elsewhere
        // QVariantList of qint64, one per CPU: the job holding it, 0 when free.
        CpuSlotsRole,
        JobIdsRole, // QVariantList of qint64: the jobs holding the node, by job id
        // QVariantList of qint64, one per GPU: the job holding it, 0 when free, -1 when the
        // node reports it allocated to a job not known here.
        GpuSlotsRole,
        // QVariantList of QVariantList{qint64 job id, qint64 MiB}: the memory each job holds
        // on the node (job id -1: allocated to jobs not known here); plus MemoryTotalRole.
        MemoryBlocksRole,
        MemoryTotalRole, // qint64 MiB
    };

    // One job on one node.
    struct Holder {
        qint64 jobId = 0;
        QString user;
        int cpus = 0;
        qint64 memoryMb = 0; // on this node
        int gpus = 0; // on this node
        friend bool operator==(const Holder &, const Holder &) = default;
    };

    explicit NodeTableModel(QObject *parent = nullptr);
    ~NodeTableModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Makes the table exactly these nodes and holders (a subscription snapshot).
    void reset(const QList<mc::proto::Json> &nodes, const QList<mc::record::JobObject> &jobs);
    // Inserts or updates one node from a node object; objects without a name are ignored.
    void updateNode(const mc::proto::Json &node);
    // Notes which nodes a job holds now (none once it is pending or finished).
    void updateJob(const mc::record::JobObject &job);
    void clear();

    int rowOfNode(const QString &name) const;
    QList<Holder> holdersAt(int row) const;

    // sinfo's compact state (%t) for a long one: "mixed" -> "mix", "allocated" -> "alloc";
    // unknown names are returned unchanged.
    static QString compactState(const QString &longState);

private:
    struct NodeRow {
        QString name;
        QStringList partitions;
        QString state;
        QString reason;
        qint64 cpus = 0;
        qint64 allocCpus = 0;
        qint64 memory = 0;
        qint64 allocMemory = 0;
        qint64 gpus = 0;
        qint64 allocGpus = 0;
        QList<Holder> holders; // by job id
    };

    void setHolders(const Holder &holder, const QStringList &nodes);
    void emitRowChanged(int row);
    QVariant display(const NodeRow &row, Column column) const;

    std::vector<NodeRow> m_rows;
    QHash<QString, int> m_rowOfNode;
    // Where each holding job is, so that a job leaving its nodes is removed from them.
    QHash<qint64, QStringList> m_nodesOfJob;
    // Holders reported before their node (jobs arrive first in a snapshot); applied on insert.
    QHash<QString, QList<Holder>> m_waiting;
};

} // namespace mc::gui
