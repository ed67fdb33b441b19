#pragma once
// Background users for the instructor: classmates who submit realistic load while the class
// watches. Two sources:
//  - a generator: every few seconds a random classmate submits a job of random size and length
//    (a `sleep` of 1 to 20 minutes under a time limit a little above it), `jobsPerMinute` on
//    average, reproducible from `seed`;
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

struct SwfJob {
    qint64 submit = 0; // seconds from the start of the log
    qint64 runTime = 0; // seconds
    int processors = 1;
    qint64 requestedTime = -1; // seconds, -1 unknown
    qint64 memoryKbPerProcessor = -1; // -1 unknown
    int userId = 0;
};

// Reads SWF text: ';' starts a comment line; each job line has 18 whitespace-separated fields.
// Lines with too few fields or a negative run time are skipped and counted in `skipped`.
std::vector<SwfJob> parseSwf(const QString &text, int *skipped = nullptr);

class BackgroundLoad : public QObject {
    Q_OBJECT

public:
    BackgroundLoad(RequestClient *requests, QObject *parent = nullptr);
    ~BackgroundLoad() override;

    // `users`: the classmates who submit (round robin by SWF user id, random for the
    // generator); `maxCpus`: the largest job (CPUs) the cluster can run.
    void startGenerator(const QStringList &users, double jobsPerMinute, int maxCpus, quint32 seed);
    void startReplay(
        const std::vector<SwfJob> &jobs, const QStringList &users, double speed, int maxCpus);
    void stop();
    bool isRunning() const;

    int submitted() const { return m_submitted; }
    int refused() const { return m_refused; }
    QString lastError() const { return m_lastError; }

    // The submit request for one job as `user` (exposed for tests).
    static mc::proto::Json submitRequest(
        const QString &user, const QString &name, int cpus, qint64 sleepSeconds, qint64 limit);

Q_SIGNALS:
    void progress();

private:
    void submit(
        const QString &user, const QString &name, int cpus, qint64 sleepSeconds, qint64 limit);
    void generateOne();
    void replayDue();

    RequestClient *m_requests;
    QTimer *m_timer;
    QStringList m_users;
    std::mt19937 m_random;
    double m_jobsPerMinute = 0;
    int m_maxCpus = 1;
    std::vector<SwfJob> m_replay;
    std::size_t m_next = 0;
    double m_speed = 1;
    qint64 m_replayStartMs = 0;
    int m_submitted = 0;
    int m_refused = 0;
    QString m_lastError;
};

} // namespace mc::gui
