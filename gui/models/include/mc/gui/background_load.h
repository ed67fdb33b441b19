#pragma once
// Background users for the instructor: classmates who submit realistic load while the class
// watches. Two sources:
//  - a generator: every few seconds a random classmate submits a job of random size and length
//    (a `sleep` of 1 to 20 minutes under a time limit a little above it), `jobsPerMinute` on
//    average, reproducible from `seed`, to a random partition, sized from that partition's own
//    limits (its largest node's CPUs, memory and GPUs, its MaxTime), so every job is one the
//    controller accepts; a GPU partition's jobs ask for GPUs;
//  - a workload file in the Standard Workload Format (SWF, the Parallel Workloads Archive's
//    format): each line's submit time, run time, processors, requested time and user are
//    replayed, submit times divided by `speed`.
// Jobs are submitted with the `submit` request as the classmates (the controller checks their
// accounts), their output discarded (/dev/null). Pure parsing is in parseSwf().

#include "mc/proto/json.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <random>
#include <vector>

class QTimer;

namespace mc::gui {

class RequestClient;

// What a valid job of one partition may ask for (from the controller's `cluster` reply).
struct PartitionLimits {
    QString name; // empty: the default partition (no --partition)
    int cpus = 1; // its largest node's CPUs
    qint64 memory = 0; // MiB of that node, 0: not known (no --mem)
    int gpus = 0; // GPUs per node
    qint64 maxTime = -1; // seconds, -1: UNLIMITED
};

// The partitions that accept jobs (state up) and their limits, from a `cluster` reply.
std::vector<PartitionLimits> partitionLimits(const mc::proto::Json &clusterReply);

struct SwfJob {
    qint64 submit = 0; // seconds from the start of the log
    qint64 runTime = 0; // seconds
    int processors = 1;
    qint64 requestedTime = -1; // seconds, -1 unknown
    qint64 memoryKbPerProcessor = -1; // -1 unknown
    int userId = 0;
};

// Reads SWF text with the simulator's reader (mc/sim/swf.h): ';' starts a comment line; each
// job line has 18 integer fields separated by blanks or tabs. Other lines and jobs with a
// negative (unknown) run time are skipped and counted in `skipped`.
std::vector<SwfJob> parseSwf(const QString &text, int *skipped = nullptr);

class BackgroundLoad : public QObject {
    Q_OBJECT

public:
    BackgroundLoad(RequestClient *requests, QObject *parent = nullptr);
    ~BackgroundLoad() override;

    // `users`: the classmates who submit (round robin by SWF user id, random for the
    // generator); `maxCpus`: the largest job (CPUs) the cluster can run.
    void startGenerator(const QStringList &users, double jobsPerMinute, int maxCpus, quint32 seed);
    // The same on these partitions, each job sized from its partition's limits.
    void startGenerator(const QStringList &users, double jobsPerMinute,
        std::vector<PartitionLimits> partitions, quint32 seed);
    void startReplay(
        const std::vector<SwfJob> &jobs, const QStringList &users, double speed, int maxCpus);
    void stop();
    bool isRunning() const;
    // Forgets the counts and the last refusal (a cluster reset).
    void resetCounts();

    int submitted() const { return m_submitted; }
    int refused() const { return m_refused; }
    QString lastError() const { return m_lastError; }

    // One job of the generator or the replay: where, how big, how long.
    struct Shape {
        QString partition; // empty: the default one
        int cpus = 1;
        qint64 memory = 0; // MiB per node, 0: not given
        int gpus = 0; // per node
        qint64 sleepSeconds = 60;
        qint64 limit = 120; // seconds
    };
    // The submit request for one job as `user` (exposed for tests).
    static mc::proto::Json submitRequest(
        const QString &user, const QString &name, int cpus, qint64 sleepSeconds, qint64 limit);
    static mc::proto::Json submitRequest(
        const QString &user, const QString &name, const Shape &shape);
    // The next generated job's shape on `partition`, drawn from `random`.
    static Shape drawShape(const PartitionLimits &partition, std::mt19937 &random);

Q_SIGNALS:
    void progress();

private:
    void submit(const QString &user, const QString &name, const Shape &shape);
    void generateOne();
    void replayDue();

    RequestClient *m_requests;
    QTimer *m_timer;
    QStringList m_users;
    std::mt19937 m_random;
    double m_jobsPerMinute = 0;
    int m_maxCpus = 1;
    std::vector<PartitionLimits> m_partitions;
    std::vector<SwfJob> m_replay;
    std::size_t m_next = 0;
    double m_speed = 1;
    qint64 m_replayStartMs = 0;
    int m_submitted = 0;
    int m_refused = 0;
    QString m_lastError;
};

} // namespace mc::gui
