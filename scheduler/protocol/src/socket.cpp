#include "mc/proto/socket.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace mc::proto {

namespace {

bool fillAddress(const std::string &path, sockaddr_un &addr, std::string &error)
{
    std::memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) {
        error = "socket path too long (" + std::to_string(path.size()) + " bytes, at most "
            + std::to_string(sizeof addr.sun_path - 1) + "): " + path;
        return false;
    }
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    return true;
}

} // namespace

int connectUnix(const std::string &path, std::string &error)
{
    sockaddr_un addr{};
    if (!fillAddress(path, addr, error)) {
        return -1;
    }
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = std::strerror(errno);
        return -1;
    }
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return -1;
    }
    return fd;
}

int listenUnix(const std::string &path, std::string &error, unsigned mode)
{
    sockaddr_un addr{};
    if (!fillAddress(path, addr, error)) {
        return -1;
    }
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        error = std::strerror(errno);
        return -1;
    }
    ::unlink(path.c_str());
    mode_t old = ::umask(0077);
    int rc = ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    ::umask(old);
    if (rc != 0 || ::listen(fd, 128) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return -1;
    }
    ::chmod(path.c_str(), static_cast<mode_t>(mode));
    return fd;
}

void makeNonBlocking(int fd)
{
    int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

bool writeAll(int fd, const std::string &data)
{
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace mc::proto
