#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages minicluster needs, when missing, without recommends.
#   scripts/deps.sh           what building and running the app needs (scripts/run.sh)
#   scripts/deps.sh --test    that, plus what only the tests and benchmarks need (scripts/test.sh)
#   scripts/deps.sh --list run|test|runtime   prints the package names, one a line, installs nothing
# Uses sudo when not root. Safe to run again: it installs only what is not there.
# scripts/check-deps.py (CI) fails when the build or the run uses a file whose package is
# neither here nor pulled in by one of these without recommends.
set -euo pipefail

# Building the app.
build_packages=(
  # compiler, CMake with Ninja, ccache
  build-essential cmake ninja-build ccache pkg-config
  # Qt 6: Widgets, Charts (which needs Qt6OpenGL's CMake files), Test, Linguist; SQLite
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev libgl-dev libsqlite3-dev
  # the app's terminal (libvterm) and its translations (Qt Linguist: lupdate, lrelease)
  libvterm-dev qt6-charts-dev qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
)

# What the built app runs on the host; also the .deb's Depends: (besides its libraries, which
# dpkg-shlibdeps finds).
runtime_packages=(
  # the node sandbox; newuidmap and newgidmap, which give each emulated user a uid of its own
  # without root (emulator/launcher/include/mc/launch/user_namespace.h)
  bubblewrap uidmap
  # the software environment: Lmod (`module`), the host's Python with venv, and the wheels of
  # pip and setuptools for the offline wheelhouse (software/CMakeLists.txt)
  lmod python3 python3-venv python3-pip python3-pip-whl python3-setuptools-whl python3-wheel
  # the ML course's stack, offered as the modules scipy-stack and pytorch and as wheels built
  # from these packages at build time (software/python/debian_wheels.py); jupyter for notebooks
  python3-numpy python3-scipy python3-pandas python3-matplotlib python3-sklearn python3-torch
  python3-torchvision python3-notebook jupyter-notebook python3-packaging
  # MPI across nodes: Open MPI's mpirun (it starts its daemons with srun) and mpi4py
  openmpi-bin libopenmpi-dev python3-mpi4py
  # `man sbatch` on the login node
  man-db
  # the workstation (lesson 1): ssh, scp and rsync from the emulated laptop to login1's sshd
  openssh-client openssh-server rsync
  # containers (lesson 13): `apptainer` unpacks SIF images with unsquashfs; the build makes the
  # shipped images with mksquashfs (software/images)
  squashfs-tools
  # the shipped R image (r-base.sif, lesson 13), made from the host's R at build time
  r-base-core
)

# Only the tests and benchmarks.
test_packages=(
  # the formatting check, the app's tests under a virtual display
  clang-format xvfb xauth
  # benchmarks (bench/): Google Benchmark, hyperfine; debootstrap for bench/fresh_install.sh
  libbenchmark-dev hyperfine debootstrap
  # workflow managers that must run unmodified against the cluster (integration.workflow_clients)
  snakemake coop-computing-tools
)

packages=("${build_packages[@]}" "${runtime_packages[@]}")
case "${1:-}" in
  "") ;;
  --test) packages+=("${test_packages[@]}") ;;
  --list)
    case "${2:-}" in
      run) printf '%s\n' "${packages[@]}" ;;
      test) printf '%s\n' "${packages[@]}" "${test_packages[@]}" ;;
      runtime) printf '%s\n' "${runtime_packages[@]}" ;;
      *) echo "usage: scripts/deps.sh --list run|test|runtime" >&2; exit 2 ;;
    esac
    exit 0 ;;
  *) echo "usage: scripts/deps.sh [--test | --list run|test|runtime]" >&2; exit 2 ;;
esac

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
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
