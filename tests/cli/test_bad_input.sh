#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The cross-command bad-input contract: runs every case of tests/cli/bad_input.tsv (format in its
# header) and checks the exit status, the one "impactfit: error:" line and its text, an empty stdout
# for invalid input, and that no output path nor any temporary file is left behind.
# usage: test_bad_input.sh path/to/impactfit SOURCE_DIR
set -u
BIN=${1:?usage: test_bad_input.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?usage: test_bad_input.sh path/to/impactfit SOURCE_DIR}
TABLE=$SRC/tests/cli/bad_input.tsv
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR/f" "$DIR/work"
fail=0
pass=0
TAB=$'\t'

# The checks of a case run in bash itself, without a process per check: 174 cases used to start
# about 15 processes each (25 s of the test's 30 s on 2 cores, 45 s under ASan).
subst() { # subst TEXT: the table's placeholders replaced, in $SUBST (no subshell)
  local s=$1
  s=${s//@DIR@/$DIR/work}
  s=${s//@SRC@/$SRC}
  while [[ $s =~ @F/([^@]*)@ ]]; do
    s=${s//"${BASH_REMATCH[0]}"/$DIR/f/${BASH_REMATCH[1]}}
  done
  SUBST=$s
}
temporaries() { # the first temporary file left under $DIR/work, in $LEFT ("" for none)
  local f
  LEFT=""
  shopt -s globstar nullglob dotglob
  for f in "$DIR"/work/**/*.tmp.* "$DIR"/work/**/.impactfit-tmp.*; do
    LEFT=$f
    break
  done
  shopt -u globstar nullglob dotglob
}

lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  case $line in
    '#'* | '') continue ;;
  esac
  if [[ $line == file:* ]]; then
    name=${line%%"$TAB"*}
    name=${name#file:}
    content=${line#*"$TAB"}
    if [[ $content == '@repeat '* ]]; then
      read -r _ count text <<<"$content"
      for ((i = 0; i < count; i++)); do printf '%s' "$text"; done >"$DIR/f/$name"
    else
      printf '%b' "$content" >"$DIR/f/$name"
    fi
    continue
  fi
  if [[ $line == run:* ]]; then
    subst "${line#*"$TAB"}"
    eval "set -- $SUBST"
    if ! "$BIN" "$@" >"$DIR/out" 2>"$DIR/err"; then
      echo "FAIL: line $lineno: setup 'impactfit $*' failed:"; cat "$DIR/err"; fail=$((fail + 1))
    fi
    continue
  fi
  # split by hand: with IFS=<tab>, read would merge the empty first field (no arguments at all)
  args=${line%%"$TAB"*}
  rest=${line#*"$TAB"}
  want=${rest%%"$TAB"*}
  rest=${rest#*"$TAB"}
  regex=${rest%%"$TAB"*}
  paths=${rest#*"$TAB"}
  [ "$paths" = "$rest" ] && paths=""
  if [ -z "${want:-}" ] || [ -z "${regex:-}" ] || [ -z "${paths:-}" ]; then
    echo "FAIL: line $lineno: malformed case (ARGS, EXIT, REGEX, PATHS separated by tabs): $line"
    fail=$((fail + 1))
    continue
  fi
  subst "$args"
  args=$SUBST
  subst "$regex"
  regex=$SUBST
  eval "set -- $args"
  # a hang is a failure of its own case, not a stalled test
  timeout 60 "$BIN" "$@" >"$DIR/out" 2>"$DIR/err"
  got=$?
  [ "$got" = 124 ] && echo "FAIL: line $lineno: impactfit $args: no answer within 60 s" && fail=$((fail + 1)) && continue
  what="line $lineno: impactfit $args"
  # stderr: the error lines, and the lines that are neither an error, a note nor a progress line
  nerr=0
  other=0
  eline=""
  while IFS= read -r l || [ -n "$l" ]; do
    if [[ $l == "impactfit: error: "* ]]; then
      nerr=$((nerr + 1))
      eline=$l
    elif [[ $l != "impactfit: note: "* && ! $l =~ ^impactfit\ [a-z-]*:\  ]]; then
      other=$((other + 1))
    fi
  done <"$DIR/err"
  bad=""
  [ "$got" = "$want" ] || bad="exit $got, want $want"
  [ -z "$bad" ] && [ "$nerr" != 1 ] && bad="$nerr 'impactfit: error:' lines on stderr, want 1"
  [ -z "$bad" ] && [ "$other" != 0 ] && bad="stderr has lines other than the error and progress lines"
  # the error line names its context once ("impactfit: error: engine: engine: ..." repeated it)
  [ -z "$bad" ] && rep=$(sed -n 's/^impactfit: error: \([A-Za-z0-9_-]*\): \1: .*/\1/p' <<<"$eline") && [ -n "$rep" ] &&
    bad="the error line repeats '$rep:'"
  # (grep's regular expressions, as the table was written for them)
  [ -z "$bad" ] && ! grep -Eq -- "$regex" <<<"$eline" && bad="the error line does not match /$regex/"
  [ -z "$bad" ] && [ "$want" = 2 ] && [ -s "$DIR/out" ] && bad="printed on stdout despite invalid input"
  if [ -z "$bad" ] && [ "$paths" != - ]; then
    subst "$paths"
    for p in $SUBST; do
      [ -e "$p" ] && bad="left $p behind" && break
    done
  fi
  if [ -z "$bad" ]; then
    temporaries
    [ -n "$LEFT" ] && bad="left the temporary $LEFT behind" && rm -rf "$LEFT"
  fi
  if [ -n "$bad" ]; then
    echo "FAIL: $what: $bad"
    sed 's/^/    stderr: /' "$DIR/err" | head -5
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done <"$TABLE"

echo "test_bad_input: $pass cases passed, $fail failed"
[ "$pass" -ge 40 ] || { echo "FAIL: fewer than 40 cases ran"; exit 1; }
[ "$fail" = 0 ]
