#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The man pages: `cmake --install` puts impactfit(1) and impactfit-COMMAND(1) for every command into
# PREFIX/share/man/man1, `man impactfit-copt` finds it through MANPATH, and each page carries its
# command's --help (every option the help lists appears in the page).
set -u
BUILD=${1:?usage: test_man.sh BUILD_DIR}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
cmake --install "$BUILD" --prefix "$TMP/prefix" >/dev/null || { echo "FAIL: install"; exit 1; }
BIN="$TMP/prefix/bin/impactfit"
man1="$TMP/prefix/share/man/man1"
[ -s "$man1/impactfit.1" ] || { echo "FAIL: no impactfit.1 (is help2man installed?)"; exit 1; }
cmds=$("$BIN" --help | sed -n '/^commands:/,/^$/p' | awk 'NF && !/^commands:/ { print $1 }')
n=0
for c in $cmds; do
  n=$((n + 1))
  [ -s "$man1/impactfit-$c.1" ] || { echo "FAIL: no man page for $c"; fail=$((fail + 1)); continue; }
  page=$(MANPATH="$TMP/prefix/share/man" MANWIDTH=200 man impactfit-$c 2>/dev/null | col -b)
  echo "$page" | grep -q "impactfit-$c" || { echo "FAIL: man impactfit-$c does not show the page"; fail=$((fail + 1)); }
  # the usage lines make a SYNOPSIS, each form one entry (not a paragraph of wrapped, indented text)
  forms=$("$BIN" "$c" --help | sed '/^$/q' | grep -cE '^(usage: |       impactfit )')
  syn=$(echo "$page" | sed -n '/^SYNOPSIS/,/^[A-Z]/p' | grep -cE "^ *impactfit +$c( |$)")
  { [ "$syn" = "$forms" ] && ! echo "$page" | grep -q '^ *usage: '; } ||
    { echo "FAIL: man impactfit-$c: $syn of $forms usage forms in its SYNOPSIS"; fail=$((fail + 1)); }
  for opt in $("$BIN" "$c" --help | grep -oE '^ +--[a-z][a-z0-9-]*' | tr -d ' ' | sort -u); do
    echo "$page" | grep -q -- "$opt" || { echo "FAIL: man impactfit-$c lacks $opt"; fail=$((fail + 1)); }
  done
done
[ "$n" -ge 15 ] || { echo "FAIL: only $n commands found in --help"; fail=$((fail + 1)); }
MANPATH="$TMP/prefix/share/man" MANWIDTH=120 man impactfit-copt 2>/dev/null | col -b | grep -q 'optimal damping c_opt' ||
  { echo "FAIL: man impactfit-copt: NAME line"; fail=$((fail + 1)); }
MANPATH="$TMP/prefix/share/man" MANWIDTH=120 man impactfit 2>/dev/null | col -b | grep -q 'impactfit-copt(1)' ||
  { echo "FAIL: man impactfit: SEE ALSO"; fail=$((fail + 1)); }
echo "test_man.sh: $n commands, $fail failures"
[ "$fail" = 0 ]
