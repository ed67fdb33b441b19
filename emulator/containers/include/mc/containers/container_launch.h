#pragma once
// How `apptainer exec|shell|run` starts a container: one bubblewrap call, nested in the node
// sandbox, so the job's cgroup, rlimits and signals reach the container's processes (they are
// the step's children, in the same process group). The user is the same inside (no uid
// change); the hostname, /proc and /dev are the node's (Apptainer's `mount dev = yes`).
// A SIF's root is the user's own unpacked copy: the bind points it lacks are made in it and
// its /etc files written into it, so the whole root is one read-only bind. A sandbox directory
// is left untouched: the new root is bubblewrap's tmpfs with the image's entries bound into it
// one by one (an "underlay", as Apptainer does without overlayfs), a folder rebuilt only where
// it lacks a bind point. Default binds are Apptainer's: $HOME, the working directory, /tmp,
// /var/tmp, /etc/hosts, /etc/localtime, plus $SLURM_TMPDIR when set; --contain drops them for
// empty ones.

#include "mc/containers/apptainer_options.h"
#include "mc/containers/container_root.h"

#include <map>
#include <string>
#include <vector>

namespace mc::containers {

struct HostContext {
    std::map<std::string, std::string> env; // the caller's environment
    std::string cwd;
    std::string home;
    std::string passwdLine; // the user's /etc/passwd entry, added to the container's
    std::string groupLine;
    std::string nvidiaSmi; // the node's nvidia-smi, when there is one (bound with --nv)
};

struct LaunchPlan {
    std::vector<std::string> argv; // bwrap ... -- /bin/sh -c ACTION ...
    std::vector<std::string> env; // KEY=VALUE for the bwrap process
    // Files bubblewrap reads from a descriptor (--ro-bind-data FD DEST): their contents, in the
    // order of the "@FD<n>@" placeholders in argv that the caller replaces with real fds.
    std::vector<std::string> dataFiles;
    std::vector<std::string> warnings; // printed as "WARNING: ..." unless quiet
};

// The plan for `call` (exec, shell, run or test) on `root`. False with `error` (Apptainer's
// words without "FATAL:") when a bind source does not exist or --pwd is not absolute.
bool planLaunch(const ApptainerCall &call, const ImageRoot &root, const HostContext &host,
    LaunchPlan &plan, std::string &error);

} // namespace mc::containers
