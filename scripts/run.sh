#!/usr/bin/env bash
# Installs what is missing, builds minicluster (release), starts the default cluster and opens
# the app — or, without a display (or with --no-gui), a login shell on the cluster's login node.
# Arguments are passed to `minicluster` (e.g. --no-gui, --dir DIR, --user bob).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/release/bin/minicluster "$@"
