#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Adds an SPDX-License-Identifier line to every tracked source file that lacks one (C sources and
# headers, C include fragments *.def, configured *.in files, CMake, shell, Python), with the licence
# its path calls for (see LICENSE and docs/EMBEDDING.md):
#   include/impactfit/generated/*.h        0BSD (written by the generators themselves; never edited here)
#   src/codegen/writer.c, src/codegen/codegen.c, src/formulas/dem_header.c   0BSD (header templates)
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

# comment style of a source file (in $st): c, hash, or empty for a file that is not source code
style_of() {
  case "$1" in
    reports/* | .ci/* | tests/fuzz/corpus/* | build*/*) st="" ;;
    *.c | *.h | *.def | *.h.in) st=c ;;
    CMakeLists.txt | */CMakeLists.txt | *.cmake | *.cmake.in | *.pc.in | *.sh | *.py) st=hash ;;
    *) st="" ;;
  esac
}

licence_of() { # the licence of a path (in $lic)
  case "$1" in
    include/impactfit/generated/*.h | src/codegen/writer.c | src/codegen/codegen.c | src/formulas/dem_header.c) lic=0BSD ;;
    *) lic=GPL-3.0-or-later ;;
  esac
}

# the source files, each with its style; then one awk pass over their first 5 lines gives each file's
# SPDX identifier ("-" for none): a few processes in all, not a few per file (2000 files in a second)
sources=()
styles=()
while IFS= read -r f; do
  [ -f "$f" ] || continue
  style_of "$f"
  [ -n "$st" ] || continue
  sources+=("$f")
  styles+=("$st")
done < <(list_files)
declare -A have_of=()
if [ ${#sources[@]} -gt 0 ]; then
  while IFS=$'\t' read -r f id; do
    have_of[$f]=$id
  done < <(awk '
    FNR == 1 { if (name != "") print name "\t" (id == "" ? "-" : id); name = FILENAME; id = "" }
    FNR <= 5 && id == "" && match($0, /SPDX-License-Identifier: *[A-Za-z0-9.+-]+( OR [A-Za-z0-9.+-]+)*/) {
      id = substr($0, RSTART, RLENGTH); sub(/SPDX-License-Identifier: */, "", id)
    }
    FNR > 5 { nextfile }
    END { if (name != "") print name "\t" (id == "" ? "-" : id) }' "${sources[@]}")
fi

bad=0
for i in "${!sources[@]}"; do
  f=${sources[$i]}
  st=${styles[$i]}
  licence_of "$f"
  have=${have_of[$f]:--}
  [ "$have" != "-" ] || have=""
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
done
exit "$bad"
