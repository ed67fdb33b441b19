#pragma once
// `apptainer build TARGET SOURCE`, offline: SOURCE is a definition file (Bootstrap: localimage
// from a SIF or a sandbox directory, or scratch), a SIF or a sandbox directory; TARGET is a SIF
// or, with --sandbox, a directory. The root is assembled in a private staging directory, %post
// runs in bubblewrap as root of a user namespace (Apptainer's unprivileged "fakeroot" build),
// and the SIF is written whole then renamed: a failed build leaves nothing behind.
// Network bootstraps (docker, library, oras, shub, yum, debootstrap, ...) are refused plainly.

#include "mc/containers/apptainer_options.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mc::containers {

using BuildLog = std::function<void(const std::string &level, const std::string &text)>;

// Runs the build; messages go through `log` ("INFO", "WARNING", "FATAL"). Returns the exit
// status (0, or 255 after a FATAL).
int buildImage(const ApptainerCall &call, const BuildLog &log);

// Apptainer's labels.json (a flat object of strings) read and written.
std::string labelsJson(const std::vector<std::pair<std::string, std::string>> &labels);
std::vector<std::pair<std::string, std::string>> parseLabelsJson(const std::string &json);

} // namespace mc::containers
