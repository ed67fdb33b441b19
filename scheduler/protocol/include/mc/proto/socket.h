#pragma once
// Unix-domain stream sockets for the controller protocol (no TCP listener anywhere).

#include <string>

namespace mc::proto {

// Connects to the socket at `path`; returns the fd, or -1 with `error` set ("No such file or
// directory", "path too long", ...).
int connectUnix(const std::string &path, std::string &error);

// Binds and listens at `path` (replacing a stale socket file) with `mode` (the owner's alone
// by default); fd or -1 with `error` set.
int listenUnix(const std::string &path, std::string &error, unsigned mode = 0600);

// Sets O_NONBLOCK and FD_CLOEXEC.
void makeNonBlocking(int fd);

// Writes all of `data` to a blocking fd; false on error.
bool writeAll(int fd, const std::string &data);

} // namespace mc::proto
