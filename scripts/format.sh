#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Formats the project's C and C++ sources with clang-format and the top-level .clang-format: src/,
# include/, tests/, examples/ and bench/, except the generated headers (include/impactfit/generated/,
# written by their generators).
# usage: scripts/format.sh [--check] [REPO_DIR]
#   (default)  reformat the files in place
#   --check    change nothing; list the files whose formatting differs and exit 1 if there is one
#              (the ctest `format`; -DIMPACTFIT_FORMAT_CHECK=OFF turns that test off)
# Exit 77 when clang-format is not installed (the ctest shows SKIP); CLANG_FORMAT names another binary.
# The options are tuned for clang-format 14 (Debian 12); another major version may format differently.
set -eu
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
cd "${1:-$(dirname "$0")/..}"
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
  echo "format.sh: $cf is not installed (Debian: apt-get install clang-format, or scripts/deps.sh test): skipped" >&2
  exit 77
fi
[ -f .clang-format ] || { echo "format.sh: no .clang-format in $(pwd)" >&2; exit 2; }

# Tracked files when this is a git checkout, else every file (a source tarball).
list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -- src include tests examples bench
  else
    find src include tests examples bench -type f 2>/dev/null
  fi
}
files=()
while IFS= read -r f; do
  case "$f" in
    include/impactfit/generated/*) continue ;;
    *.c | *.h | *.cpp | *.hpp) [ -f "$f" ] && files+=("$f") ;;
  esac
done < <(list_files | sort)

if [ "$check" = 0 ]; then
  [ ${#files[@]} -eq 0 ] || "$cf" -i --style=file "${files[@]}"
  exit 0
fi
# one clang-format process for every file (--dry-run -Werror: a warning per line that would change,
# "FILE:LINE:COL: error: code should be clang-formatted"); the files named are the ones that differ
out=$("$cf" --style=file --dry-run -Werror "${files[@]}" 2>&1) && rc=0 || rc=$?
differ=$(printf '%s\n' "$out" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$differ" ]; then
  printf '%s\n' "$differ" | sed 's/.*/format.sh: & is not formatted (scripts\/format.sh reformats it)/'
  echo "format.sh: $(printf '%s\n' "$differ" | grep -c .) of ${#files[@]} files differ from clang-format's output ($("$cf" --version))"
  exit 1
fi
if [ "$rc" != 0 ]; then
  printf '%s\n' "$out" | tail -n 20
  echo "format.sh: $cf failed (exit $rc)"
  exit 1
fi
echo "format.sh: ${#files[@]} files formatted"
