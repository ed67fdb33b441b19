#pragma once
// minicluster-stored, the storage node: keeps the usage snapshot fresh and applies the scratch
// purge policy, judging time by the CLUSTER clock. It subscribes to the controller's events
// (a `clock` event, an instructor's fast-forward, starts a pass at once), and runs a pass
// every StorageCheckInterval seconds of wall time. Each pass asks the controller for the
// cluster clock (`clock`, or `ping`'s `now` from a controller without it), records it in the
// clock journal (state/storage-clock), then calls runStoragePass(). It stops when the
// controller goes away (`minicluster down`); `minicluster up` starts it again.

#include "mc/emu/cluster_layout.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"
#include "mc/storage/clock_journal.h"

#include <memory>
#include <string>

namespace mc::storage {

class StorageDaemon {
public:
    StorageDaemon(proto::EventLoop &loop, emu::ClusterLayout layout, bool sandboxPaths);

    void start();

private:
    void connect();
    void onMessage(const proto::Json &message);
    void schedulePass(std::chrono::milliseconds delay);
    void pass();

    proto::EventLoop &m_loop;
    emu::ClusterLayout m_layout;
    bool m_sandboxPaths; // users see /home, /scratch (bubblewrap) rather than host paths
    std::unique_ptr<proto::Connection> m_conn;
    ClockJournal m_clock;
    proto::EventLoop::TimerId m_passTimer = 0;
    bool m_subscribed = false;
};

} // namespace mc::storage
