#!/usr/bin/env bash
# Issue #14 figures (the controller in parts): how many member functions class Controller
# declares in controller.h (as universal-ctags sees them: prototypes and inline bodies, those
# of its nested structs not counted) and the lines of controller.cpp and controller.h, at REV
# (default: the working tree).
# Usage: bench/controller_size.sh [REV]     e.g. bench/controller_size.sh 4f7fdec
set -euo pipefail
cd "$(dirname "$0")/.."
header=scheduler/controller/include/mc/ctl/controller.h
source=scheduler/controller/src/controller.cpp
show() { if [ -n "${REV:-}" ]; then git show "$REV:$1"; else cat "$1"; fi; }
REV=${1:-}
copy=$(mktemp --suffix=.h)
trap 'rm -f "$copy"' EXIT
show "$header" >"$copy"
members=$(ctags -f - --language-force=c++ --c++-kinds=+p --fields=+sKZ "$copy" \
    | awk -F'\t' '($4 == "prototype" || $4 == "function") {
        for (i = 5; i <= NF; i++) if ($i == "scope:class:mc::ctl::Controller") print $1 }')
echo "member functions of Controller: $(grep -c . <<<"$members")" \
    "(of which deleted copies: $(grep -c '= delete;' "$copy" || true))"
echo "controller.cpp lines: $(show "$source" | wc -l)"
echo "controller.h lines: $(show "$header" | wc -l)"
