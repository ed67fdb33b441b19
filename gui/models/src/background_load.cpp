#include "mc/gui/background_load.h"

#include "mc/gui/request_client.h"

#include <QDateTime>
#include <QTimer>

#include <algorithm>

namespace mc::gui {

std::vector<SwfJob> parseSwf(const QString &text, int *skipped)
{
    std::vector<SwfJob> jobs;
    int bad = 0;
    for (const QString &raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char(';'))) {
            continue;
        }
        const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() < 12) {
            ++bad;
            continue;
        }
        SwfJob job;
        job.submit = f[1].toLongLong();
        job.runTime = f[3].toLongLong();
        const int allocated = f[4].toInt();
        const int requested = f[7].toInt();
        job.processors = std::max(1, requested > 0 ? requested : allocated);
        job.requestedTime = f[8].toLongLong() > 0 ? f[8].toLongLong() : -1;
        job.memoryKbPerProcessor = f[9].toLongLong() > 0 ? f[9].toLongLong() : -1;
        job.userId = f[11].toInt();
        if (job.runTime < 0) {
            ++bad;
            continue;
        }
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

mc::proto::Json BackgroundLoad::submitRequest(
    const QString &user, const QString &name, int cpus, qint64 sleepSeconds, qint64 limit)
{
    auto spec = mc::proto::Json::object();
    spec.set("name", name.toStdString());
    spec.set("user", user.toStdString());
    spec.set("work_dir", "/");
    spec.set("script",
        "#!/bin/bash\n# background load from the instructor panel\nsleep "
            + std::to_string(sleepSeconds) + "\n");
    spec.set("std_out", "/dev/null");
    spec.set("time_limit", static_cast<std::int64_t>(limit));
    spec.set("ntasks", 1);
    spec.set("cpus_per_task", cpus);
    spec.set("cpus_per_task_given", true);
    spec.set("submit_host", "login1");
    return mc::proto::Json::object().set("op", "submit").set("job", std::move(spec));
}

void BackgroundLoad::submit(
    const QString &user, const QString &name, int cpus, qint64 sleepSeconds, qint64 limit)
{
    const auto request = submitRequest(user, name, cpus, sleepSeconds, limit);
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
    stop();
    if (users.isEmpty() || jobsPerMinute <= 0) {
        return;
    }
    m_users = users;
    m_jobsPerMinute = jobsPerMinute;
    m_maxCpus = std::max(1, maxCpus);
    m_random.seed(seed);
    disconnect(m_timer, nullptr, this, nullptr);
    connect(m_timer, &QTimer::timeout, this, &BackgroundLoad::generateOne);
    m_timer->setSingleShot(true);
    generateOne();
}

void BackgroundLoad::generateOne()
{
    std::uniform_int_distribution<int> user(0, static_cast<int>(m_users.size()) - 1);
    // Mostly small jobs, now and then a wide one, as on a real cluster.
    std::discrete_distribution<int> width({6, 3, 2, 1});
    const int cpus = std::min(m_maxCpus, 1 << width(m_random));
    std::uniform_int_distribution<int> minutes(1, 20);
    const qint64 sleep = minutes(m_random) * 60;
    const qint64 limit = ((sleep * 3 / 2) / 60 + 1) * 60;
    static const char *const kNames[] = {"train", "preprocess", "eval", "sweep", "analysis"};
    std::uniform_int_distribution<int> name(0, 4);
    submit(
        m_users[user(m_random)], QString::fromLatin1(kNames[name(m_random)]), cpus, sleep, limit);
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
        submit(user, QStringLiteral("swf-%1").arg(m_next), std::min(job.processors, m_maxCpus), run,
            ((limit + 59) / 60) * 60);
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

bool BackgroundLoad::isRunning() const
{
    return m_timer->isActive();
}

} // namespace mc::gui
