#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages minicluster needs to build, run and test, when missing.
# Uses sudo when not root. Safe to run again: it installs only what is not there.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build ccache pkg-config clang-format
  qt6-base-dev qt6-base-dev-tools libgl-dev libsqlite3-dev
  # the app: its terminal (libvterm) and its translations (Qt Linguist: lupdate, lrelease)
  libvterm-dev qt6-charts-dev qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  # run: the node sandbox, and the app's display in tests
  bubblewrap xvfb xauth
  # the software environment: Lmod (`module`), the host's Python with venv, and the wheels of
  # pip and setuptools for the offline wheelhouse (software/CMakeLists.txt)
  lmod python3-venv python3-pip python3-pip-whl python3-setuptools-whl python3-wheel
  # `man sbatch` on the login node
  man-db
  # the workstation (lesson 1): ssh, scp and rsync from the emulated laptop to login1's sshd
  openssh-client openssh-server rsync
  # tests and benchmarks
  python3 hyperfine
  # workflow managers that must run unmodified against the cluster (integration.workflow_clients)
  snakemake coop-computing-tools
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "minicluster: installing Debian packages: ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
