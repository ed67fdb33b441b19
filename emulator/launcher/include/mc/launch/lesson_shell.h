#pragma once
// `minicluster lesson ...` typed in a login shell of the cluster (the app's terminal, `minicluster
// shell`), where the cluster directory itself is not visible: the lesson engine then reads the
// cluster through the shell's own view of it.

#include <optional>
#include <string>

namespace mc::launch {

// The cluster directory for the lesson engine, as this shell sees it; nullopt outside a cluster
// shell ($MINICLUSTER_SOCKET unset). Plain mode: the real directory (the socket's run/'s
// parent). Sandbox: a folder of links under /tmp (home, project, scratch, datasets, run, etc,
// state/lessons and the laptop home pointing at the sandbox's mounts), so that every path the
// engine derives from a cluster directory lands on what login1 shows (lessonMounts()).
// `error` says why it cannot be made.
std::optional<std::string> lessonDirInShell(const std::string &user, std::string &error);

} // namespace mc::launch
