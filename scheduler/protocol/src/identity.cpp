#include "mc/proto/identity.h"

#include <sys/socket.h>
#include <unistd.h>

namespace mc::proto {

namespace {
// Ids past this are not ours (an emulated uid is at most this, see site_conf.h's UID=).
constexpr std::uint32_t kIsolatedIdRange = 1000000;
} // namespace

std::optional<std::uint32_t> emulatedUid(uid_t uid)
{
    if (uid < kIsolatedIdBase || uid >= kIsolatedIdBase + kIsolatedIdRange) {
        return std::nullopt;
    }
    return static_cast<std::uint32_t>(uid - kIsolatedIdBase);
}

bool usersIsolated()
{
    return ::geteuid() == 0;
}

std::string isolationDetail()
{
    if (usersIsolated()) {
        return "isolated (each user is a real uid of its own, " + std::to_string(kIsolatedIdBase)
            + " + the emulated uid)";
    }
    return "not isolated (every user runs as your own uid: classmates can read and kill each "
           "other's work; run minicluster as root to isolate them)";
}

std::optional<uid_t> peerUid(int fd)
{
    ucred cred{};
    socklen_t size = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0) {
        return std::nullopt;
    }
    return cred.uid;
}

} // namespace mc::proto
