#!/usr/bin/env bash
# Installs what is missing (the app's needs only: scripts/test.sh adds the tests'), builds
# minicluster (release, without the tests), starts the default cluster and opens the app — or,
# without a display (or with --no-gui), a login shell on the cluster's login node.
# Arguments are passed to `minicluster` (e.g. --no-gui, --dir DIR, --user bob).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset app >/dev/null
cmake --build --preset app
exec build/app/bin/minicluster "$@"
