#include "mc/gui/background_load.h"

#include "mc/gui/request_client.h"
#include "mc/record/job_codec.h"
#include "mc/sim/swf.h"

#include <QDateTime>
#include <QTimer>

#include <algorithm>

namespace mc::gui {

std::vector<SwfJob> parseSwf(const QString &text, int *skipped)
{
    const mc::sim::SwfTrace trace = mc::sim::parseSwf(text.toStdString());
    std::vector<SwfJob> jobs;
    int bad = static_cast<int>(trace.problems.size());
    for (const mc::sim::SwfJob &line : trace.jobs) {
        if (line.runTime < 0) {
            ++bad; // nothing to replay
            continue;
        }
        SwfJob job;
        job.submit = line.submit;
        job.runTime = line.runTime;
        job.processors = std::max(1, line.procs());
        job.requestedTime = line.requestedTime > 0 ? line.requestedTime : -1;
        job.memoryKbPerProcessor = line.requestedMemoryKb > 0 ? line.requestedMemoryKb : -1;
        job.userId = line.user;
        jobs.push_back(job);
    }
    std::stable_sort(jobs.begin(), jobs.end(),
        [](const SwfJob &a, const SwfJob &b) { return a.submit < b.submit; });
    if (skipped) {
        *skipped = bad;
    }
    return jobs;
}

BackgroundLoad::BackgroundLoad(RequestClient *requests, QObject *parent)
    : QObject(parent)
    , m_requests(requests)
    , m_timer(new QTimer(this))
{ }

BackgroundLoad::~BackgroundLoad() = default;

std::vector<PartitionLimits> partitionLimits(const mc::proto::Json &reply)
{
    std::vector<PartitionLimits> result;
    for (const auto &partition : reply["partitions"].items()) {
        if (partition["state"].toString("up") != "up") {
            continue;
        }
        PartitionLimits limits;
        limits.name = QString::fromStdString(partition["name"].toString());
        limits.maxTime = partition["max_time"].toInt(-1);
        const auto members = partition["nodes"].toStringList();
        bool any = false;
        for (const auto &node : reply["nodes"].items()) {
            if (std::find(members.begin(), members.end(), node["name"].toString())
                == members.end()) {
                continue;
            }
            any = true;
            limits.cpus = std::max(limits.cpus, static_cast<int>(node["cpus"].toInt(1)));
            limits.memory = std::max<qint64>(limits.memory, node["memory"].toInt());
            limits.gpus = std::max(limits.gpus, static_cast<int>(node["gpus"].toInt()));
        }
        if (any && !limits.name.isEmpty()) {
            result.push_back(limits);
        }
    }
    return result;
}

mc::proto::Json BackgroundLoad::submitRequest(
    const QString &user, const QString &name, int cpus, qint64 sleepSeconds, qint64 limit)
{
    Shape shape;
    shape.cpus = cpus;
    shape.sleepSeconds = sleepSeconds;
    shape.limit = limit;
    return submitRequest(user, name, shape);
}

mc::proto::Json BackgroundLoad::submitRequest(
    const QString &user, const QString &name, const Shape &shape)
{
    sched::JobSpec spec;
    spec.name = name.toStdString();
    spec.user = user.toStdString();
    spec.partition = shape.partition.toStdString(); // empty: the default partition
    spec.workDir = "/";
    spec.script = "#!/bin/bash\n# background load from the instructor panel\nsleep "
        + std::to_string(shape.sleepSeconds) + "\n";
    spec.stdOut = "/dev/null";
    spec.timeLimit = shape.limit;
    spec.cpusPerTask = shape.cpus;
    spec.cpusPerTaskGiven = true;
    if (shape.memory > 0) {
        spec.memPerNode = shape.memory;
    }
    spec.gpusPerNode = std::max(0, shape.gpus);
    spec.submitHost = "login1";
    return mc::record::submitRequest(spec);
}

BackgroundLoad::Shape BackgroundLoad::drawShape(
    const PartitionLimits &partition, std::mt19937 &random)
{
    Shape shape;
    shape.partition = partition.name;
    // Mostly small jobs, now and then a wide one, as on a real cluster.
    std::discrete_distribution<int> width({6, 3, 2, 1});
    shape.cpus = std::clamp(1 << width(random), 1, std::max(1, partition.cpus));
    if (partition.memory > 0) {
        // 1 GiB a CPU, at most half the node: a realistic request that always fits.
        shape.memory
            = std::min<qint64>(1024 * shape.cpus, std::max<qint64>(1, partition.memory / 2));
    }
    if (partition.gpus > 0) {
        std::uniform_int_distribution<int> gpus(1, std::min(2, partition.gpus));
        shape.gpus = gpus(random);
    }
    // 1 to 20 minutes under a limit half as long again, both within the partition's MaxTime.
    int longest = 20;
    if (partition.maxTime > 0) {
        longest = static_cast<int>(std::clamp<qint64>(partition.maxTime * 2 / 3 / 60, 1, 20));
    }
    std::uniform_int_distribution<int> minutes(1, longest);
    shape.sleepSeconds = minutes(random) * 60;
    shape.limit = ((shape.sleepSeconds * 3 / 2) / 60 + 1) * 60;
    if (partition.maxTime > 0) {
        shape.limit = std::min(shape.limit, partition.maxTime);
        shape.sleepSeconds = std::min(shape.sleepSeconds, shape.limit);
    }
    return shape;
}

void BackgroundLoad::submit(const QString &user, const QString &name, const Shape &shape)
{
    const auto request = submitRequest(user, name, shape);
    m_requests->send(request, this, [this, request](const mc::proto::Json &reply) {
        if (reply["ok"].toBool()) {
            ++m_submitted;
        } else {
            ++m_refused;
            m_lastError = RequestClient::describeFailure(request, reply);
        }
        Q_EMIT progress();
    });
}

void BackgroundLoad::startGenerator(
    const QStringList &users, double jobsPerMinute, int maxCpus, quint32 seed)
{
    PartitionLimits any; // the default partition, its size only known as the largest node's
    any.cpus = std::max(1, maxCpus);
    startGenerator(users, jobsPerMinute, {any}, seed);
}

void BackgroundLoad::startGenerator(const QStringList &users, double jobsPerMinute,
    std::vector<PartitionLimits> partitions, quint32 seed)
{
    stop();
    if (users.isEmpty() || jobsPerMinute <= 0 || partitions.empty()) {
        return;
    }
    m_users = users;
    m_jobsPerMinute = jobsPerMinute;
    m_partitions = std::move(partitions);
    m_random.seed(seed);
    disconnect(m_timer, nullptr, this, nullptr);
    connect(m_timer, &QTimer::timeout, this, &BackgroundLoad::generateOne);
    m_timer->setSingleShot(true);
    generateOne();
}

void BackgroundLoad::generateOne()
{
    std::uniform_int_distribution<int> user(0, static_cast<int>(m_users.size()) - 1);
    std::uniform_int_distribution<int> partition(0, static_cast<int>(m_partitions.size()) - 1);
    const PartitionLimits &where = m_partitions[static_cast<std::size_t>(partition(m_random))];
    static const char *const kNames[] = {"train", "preprocess", "eval", "sweep", "analysis"};
    std::uniform_int_distribution<int> name(0, 4);
    const QString jobName = QString::fromLatin1(kNames[name(m_random)]);
    const QString who = m_users[user(m_random)];
    submit(who, jobName, drawShape(where, m_random));
    // Poisson arrivals: exponential gaps with the asked-for mean.
    std::exponential_distribution<double> gap(m_jobsPerMinute / 60.0);
    m_timer->start(static_cast<int>(std::clamp(gap(m_random) * 1000.0, 200.0, 600000.0)));
}

void BackgroundLoad::startReplay(
    const std::vector<SwfJob> &jobs, const QStringList &users, double speed, int maxCpus)
{
    stop();
    if (users.isEmpty() || jobs.empty() || speed <= 0) {
        return;
    }
    m_users = users;
    m_replay = jobs;
    m_next = 0;
    m_speed = speed;
    m_maxCpus = std::max(1, maxCpus);
    m_replayStartMs = QDateTime::currentMSecsSinceEpoch();
    disconnect(m_timer, nullptr, this, nullptr);
    connect(m_timer, &QTimer::timeout, this, &BackgroundLoad::replayDue);
    m_timer->setSingleShot(false);
    m_timer->start(200);
    replayDue();
}

void BackgroundLoad::replayDue()
{
    const double elapsed
        = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_replayStartMs) / 1000.0;
    const qint64 origin = m_replay.empty() ? 0 : m_replay.front().submit;
    while (m_next < m_replay.size()
        && static_cast<double>(m_replay[m_next].submit - origin) / m_speed <= elapsed) {
        const SwfJob &job = m_replay[m_next++];
        const QString user = m_users[std::abs(job.userId) % m_users.size()];
        const qint64 run = std::max<qint64>(1, job.runTime);
        const qint64 limit = job.requestedTime > 0 ? std::max(job.requestedTime, run)
                                                   : ((run * 3 / 2) / 60 + 1) * 60;
        Shape shape;
        shape.cpus = std::min(job.processors, m_maxCpus);
        shape.sleepSeconds = run;
        shape.limit = ((limit + 59) / 60) * 60;
        submit(user, QStringLiteral("swf-%1").arg(m_next), shape);
    }
    if (m_next >= m_replay.size()) {
        m_timer->stop();
    }
}

void BackgroundLoad::stop()
{
    m_timer->stop();
    m_replay.clear();
    m_next = 0;
}

void BackgroundLoad::resetCounts()
{
    m_submitted = 0;
    m_refused = 0;
    m_lastError.clear();
    Q_EMIT progress();
}

bool BackgroundLoad::isRunning() const
{
    return m_timer->isActive();
}

} // namespace mc::gui
