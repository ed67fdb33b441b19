#!/usr/bin/env bash
# Fails when a C++ file is not formatted with the repository's .clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.cpp' '*.h' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
if ! clang-format --dry-run -Werror "${files[@]}" 2>/tmp/mc-format.log; then
  head -n 40 /tmp/mc-format.log
  echo "format check failed: run clang-format -i on the files above" >&2
  exit 1
fi
echo "format check: ${#files[@]} files formatted"
