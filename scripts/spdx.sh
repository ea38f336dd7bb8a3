#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Adds an SPDX-License-Identifier line to every tracked source file that lacks one (C sources and
# headers, C include fragments *.def, configured *.in files, CMake, shell, Python), with the licence
# its path calls for (see LICENSE and docs/EMBEDDING.md):
#   include/impactfit/generated/*.h        0BSD (written by the generators themselves; never edited here)
#   src/codegen/writer.c, src/codegen/codegen.c, src/dem/dem_header.c   0BSD (header templates)
#   everything else                         GPL-3.0-or-later
# Idempotent: a file that already has an SPDX line in its first 5 lines is left as it is.
# usage: scripts/spdx.sh [--check] [REPO_DIR]
#   --check  change nothing; list the files without an SPDX line (or with the wrong licence) and
#            exit 1 if there is one (the ctest test spdx_lines)
set -eu
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
cd "${1:-$(dirname "$0")/..}"

# Tracked files when this is a git checkout, else every file (a source tarball).
list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files
  else
    find . -type f -not -path './.git/*' | sed 's|^\./||'
  fi
}

# comment style of a source file: c, hash, or empty for a file that is not source code
style_of() {
  case "$1" in
    reports/* | .ci/* | tests/fuzz/corpus/* | build*/*) echo "" ;;
    *.c | *.h | *.def | *.h.in) echo c ;;
    CMakeLists.txt | */CMakeLists.txt | *.cmake | *.cmake.in | *.pc.in | *.sh | *.py) echo hash ;;
    *) echo "" ;;
  esac
}

licence_of() {
  case "$1" in
    include/impactfit/generated/*.h | src/codegen/writer.c | src/codegen/codegen.c | src/dem/dem_header.c) echo 0BSD ;;
    *) echo GPL-3.0-or-later ;;
  esac
}

bad=0
while IFS= read -r f; do
  [ -f "$f" ] || continue
  st=$(style_of "$f")
  [ -n "$st" ] || continue
  lic=$(licence_of "$f")
  have=$(head -n 5 "$f" | sed -n 's/.*SPDX-License-Identifier: *\([A-Za-z0-9.+-]*\( OR [A-Za-z0-9.+-]*\)*\).*/\1/p' | head -n 1)
  if [ -n "$have" ]; then
    if [ "$have" != "$lic" ]; then
      echo "spdx: $f: SPDX-License-Identifier: $have, expected $lic" >&2
      bad=1
    fi
    continue
  fi
  if [ "$check" = 1 ]; then
    echo "spdx: $f: no SPDX-License-Identifier line (run scripts/spdx.sh)" >&2
    bad=1
    continue
  fi
  case "$f" in
    include/impactfit/generated/*)
      echo "spdx: $f: a generated header without its licence lines: regenerate it" >&2
      bad=1
      continue
      ;;
  esac
  if [ "$st" = c ]; then
    line="/* SPDX-License-Identifier: $lic */"
  else
    line="# SPDX-License-Identifier: $lic"
  fi
  tmp="$f.spdx.$$"
  if [ "$(head -c 2 "$f")" = "#!" ]; then # after the shebang line
    { head -n 1 "$f"; printf '%s\n' "$line"; tail -n +2 "$f"; } >"$tmp"
  else
    { printf '%s\n' "$line"; cat "$f"; } >"$tmp"
  fi
  chmod --reference="$f" "$tmp"
  mv "$tmp" "$f"
  echo "spdx: $f: $lic"
done < <(list_files)
exit "$bad"
