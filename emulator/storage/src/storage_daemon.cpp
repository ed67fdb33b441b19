#include "mc/storage/storage_daemon.h"

#include "mc/proto/client.h"
#include "mc/proto/socket.h"
#include "mc/storage/storage_pass.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>

namespace mc::storage {

using proto::Json;

namespace {

std::int64_t wallNow()
{
    using namespace std::chrono;
    return duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace

StorageDaemon::StorageDaemon(proto::EventLoop &loop, emu::ClusterLayout layout, bool sandboxPaths)
    : m_loop(loop)
    , m_layout(std::move(layout))
    , m_sandboxPaths(sandboxPaths)
{ }

void StorageDaemon::start()
{
    m_clock = ClockJournal::load(m_layout.state() + "/storage-clock");
    m_loop.watchSignals({SIGTERM, SIGINT, SIGHUP}, [this](int) { m_loop.quit(); });
    connect();
}

void StorageDaemon::connect()
{
    std::string error;
    int fd = proto::connectUnix(m_layout.socket(), error);
    if (fd < 0) {
        std::fprintf(stderr, "minicluster-stored: no controller at %s: %s\n",
            m_layout.socket().c_str(), error.c_str());
        m_loop.quit();
        return;
    }
    m_conn = std::make_unique<proto::Connection>(m_loop, fd);
    m_conn->onMessage = [this](const Json &message) {
        onMessage(message);
    };
    m_conn->onClosed = [this] {
        // The controller went away (`minicluster down` or a crash): so does the storage node.
        m_loop.quit();
    };
    Json subscribe = Json::object();
    subscribe.set("op", "subscribe");
    m_conn->send(subscribe);
    schedulePass(std::chrono::milliseconds(0));
}

void StorageDaemon::onMessage(const Json &message)
{
    if (message["event"].toString() == "clock") {
        // A fast-forward or a new speed: judge ages at once. A clock event that changes
        // nothing (the controller also sends one for a request that only reads the clock, as
        // each pass makes) starts no pass.
        const auto &segments = m_clock.segments();
        double speed = message["speed"].toDouble(1.0);
        bool changed = segments.empty() || std::fabs(segments.back().speed - speed) > 1e-9
            || std::llabs(m_clock.clusterTimeOf(wallNow()) - message["now"].toInt())
                > 2 + static_cast<std::int64_t>(std::ceil(speed));
        if (changed) {
            schedulePass(std::chrono::milliseconds(100));
        }
    } else if (!m_subscribed && message.contains("ok")) {
        m_subscribed = message["ok"].toBool();
    }
}

void StorageDaemon::schedulePass(std::chrono::milliseconds delay)
{
    if (m_passTimer) {
        m_loop.cancelTimer(m_passTimer);
    }
    m_passTimer = m_loop.addTimer(delay, [this] {
        m_passTimer = 0;
        pass();
    });
}

void StorageDaemon::pass()
{
    StorageConf conf = readStorageConf(m_layout.etc());
    // The cluster clock: the `clock` request (speed included), else `ping`'s `now`.
    proto::Client client;
    std::string error;
    std::int64_t now = 0;
    double speed = 1.0;
    if (client.connect(m_layout.socket(), error)) {
        Json request = Json::object();
        request.set("op", "clock");
        auto reply = client.call(request, error);
        if (reply && (*reply)["ok"].toBool() && (*reply)["now"].isNumber()) {
            now = (*reply)["now"].toInt();
            speed = (*reply)["speed"].toDouble(1.0);
        } else {
            Json ping = Json::object();
            ping.set("op", "ping");
            proto::Client again;
            if (again.connect(m_layout.socket(), error)) {
                auto pong = again.call(ping, error);
                if (pong && (*pong)["now"].isNumber()) {
                    now = (*pong)["now"].toInt();
                }
            }
        }
    }
    if (now > 0) {
        if (m_clock.observe(wallNow(), now, speed)) {
            m_clock.save(m_layout.state() + "/storage-clock");
        }
        StorageView host = hostView(m_layout.dir);
        StorageView seen = m_sandboxPaths ? viewFromEtc(emu::kSandboxEtc) : host;
        PassResult r = runStoragePass(conf, host, seen, readStorageUsers(m_layout.etc()), m_clock,
            now, m_layout.log() + "/purge.log");
        for (const auto &e : r.errors) {
            std::fprintf(stderr, "minicluster-stored: %s\n", e.c_str());
        }
        if (r.purged > 0) {
            std::fprintf(stderr, "minicluster-stored: %s: purged %d file(s) from scratch\n",
                isoTime(now).c_str(), r.purged);
        }
    }
#ifdef __GLIBC__
    // A pass over a large tree leaves a large heap; hand it back while the node idles.
    ::malloc_trim(0);
#endif
    schedulePass(std::chrono::seconds(conf.checkIntervalSeconds));
}

} // namespace mc::storage
