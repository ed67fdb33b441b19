#pragma once
// `apptainer` / `singularity` / `run-singularity`: the command's whole run, from argv to the
// exec of bubblewrap (actions) or an exit status (inspect, build, errors).

namespace mc::containers {

// Never returns for a container that starts (the process becomes bwrap); otherwise the exit
// status: 0, or 255 after a FATAL as Apptainer, 1 on a usage error.
int apptainerMain(int argc, char **argv);

} // namespace mc::containers
