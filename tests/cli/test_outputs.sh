#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Output paths behave like Unix tools' (src/tools/tools.h, cli_out): '-' is standard output (and
# standard input for identify's data), an existing non-regular file (FIFO, /dev/null, a symlink to
# /dev/stdout) is written in place and never replaced, a regular file is replaced atomically, a
# symlink to a regular file is written through to its target. Run as root in CI, where replacing
# /dev/stdout is possible (and was the bug). As root the test writes to a character device and a
# symlink to /proc/self/fd/1 of its own (mknod, ln -s in its temporary folder), never to the
# machine's /dev/null and /dev/stdout: a regression (or a stale build) must fail this test, not
# replace the machine's devices; their state is still checked, and restored if it was damaged.
# usage: test_outputs.sh IMPACTFIT
set -u
BIN=${1:?usage: test_outputs.sh IMPACTFIT}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# the device and the standard-output link written to: our own as root, the machine's otherwise
# (where the machine's cannot be replaced anyway)
if [ "$(id -u)" = 0 ] && mknod "$TMP/null" c 1 3 2>/dev/null && ln -s /proc/self/fd/1 "$TMP/stdout"; then
  NUL=$TMP/null
  STDOUT=$TMP/stdout
  restore() {
    [ -c /dev/null ] || { echo "FAIL: /dev/null was damaged: restored"; rm -f /dev/null; mknod -m 666 /dev/null c 1 3; }
    [ -L /dev/stdout ] || { echo "FAIL: /dev/stdout was damaged: restored"; rm -f /dev/stdout; ln -s /proc/self/fd/1 /dev/stdout; }
  }
  trap 'restore; rm -rf "$TMP"' EXIT
else
  NUL=/dev/null
  STDOUT=/dev/stdout
fi
SIM=(simulate --n 1.5 --c 0.5 --trace-points 7)

# the reference trace: a regular file that does not exist yet
"$BIN" "${SIM[@]}" --trace ref.csv >ref.out 2>ref.err || bad "trace to a regular file"
[ "$(head -n 1 ref.csv)" = "t,delta,delta_dot,force,element,in_contact" ] && [ "$(wc -l <ref.csv)" = 8 ] && ok ||
  bad "reference trace: $(head -n 2 ref.csv)"
grep -q 'e_out' ref.out && ok || bad "the results on standard output"

# '-': the trace alone on standard output, the results on standard error, no file named '-'
"$BIN" "${SIM[@]}" --trace - >dash.out 2>dash.err || bad "--trace - failed"
cmp -s dash.out ref.csv && ok || bad "--trace -: standard output is not the trace alone"
grep -v "^impactfit: note:" dash.err | cmp -s - ref.out && ok || bad "--trace -: the results are not on standard error"
[ ! -e ./- ] && ok || bad "--trace - created a file named '-'"

# a character device (NUL: /dev/null's device): written in place, still the character device, exit 0
"$BIN" "${SIM[@]}" --trace "$NUL" >/dev/null 2>err || bad "--trace $NUL: $(cat err)"
[ -c "$NUL" ] && ok || bad "$NUL is no longer a character device"

# a symlink to /proc/self/fd/1 (as /dev/stdout): through a pipe and redirected to a regular file; the
# results then go to standard error, the trace alone to standard output
"$BIN" "${SIM[@]}" --trace "$STDOUT" 2>err | cat >pipe.out || bad "--trace $STDOUT | cat: $(cat err)"
[ -L "$STDOUT" ] && ok || bad "$STDOUT is no longer a symlink"
cmp -s pipe.out ref.csv && ok || bad "--trace $STDOUT through a pipe: not the trace"
"$BIN" "${SIM[@]}" --trace "$STDOUT" >redir.out 2>redir.err || bad "--trace $STDOUT >file"
cmp -s redir.out ref.csv && grep -v "^impactfit: note:" redir.err | cmp -s - ref.out && ok || bad "--trace $STDOUT >file: not the trace alone"
[ -L "$STDOUT" ] && ok || bad "$STDOUT is no longer a symlink"
# a symlink of ours to it
ln -s "$STDOUT" to-stdout
"$BIN" "${SIM[@]}" --trace to-stdout 2>/dev/null | cat >link.out
[ -L to-stdout ] && [ "$(readlink to-stdout)" = "$STDOUT" ] && ok || bad "the symlink to $STDOUT was replaced"
cmp -s link.out ref.csv && ok || bad "--trace LINK-TO-/dev/stdout: not the trace"

# a FIFO with a reader: written in place, still a FIFO, the reader gets the whole trace
mkfifo fifo
timeout 60 cat fifo >fifo.out & # a writer that never opens the FIFO must not hang the test
reader=$!
timeout 60 "$BIN" "${SIM[@]}" --trace fifo >/dev/null 2>err || bad "--trace FIFO: $(cat err)"
wait "$reader"
[ -p fifo ] && ok || bad "the FIFO was replaced"
cmp -s fifo.out ref.csv && ok || bad "the FIFO's reader did not get the trace"
# a symlink to a FIFO
ln -s fifo fifo-link
timeout 60 cat fifo >fifo2.out &
reader=$!
timeout 60 "$BIN" "${SIM[@]}" --trace fifo-link >/dev/null 2>err || bad "--trace LINK-TO-FIFO: $(cat err)"
wait "$reader"
[ -L fifo-link ] && [ -p fifo ] && ok || bad "the symlink to the FIFO or the FIFO was replaced"
cmp -s fifo2.out ref.csv && ok || bad "the FIFO's reader (through a symlink) did not get the trace"

# a regular file: replaced atomically (a new inode; a hard link to the old one keeps the old text)
echo old >regular.csv
ln regular.csv regular-hardlink
"$BIN" "${SIM[@]}" --trace regular.csv >/dev/null 2>&1 || bad "--trace REGULAR"
cmp -s regular.csv ref.csv && [ "$(cat regular-hardlink)" = old ] && ok || bad "the regular file was not replaced atomically"

# a symlink to a regular file: written through to the target, atomically; the link stays
mkdir -p target-dir
echo old >target-dir/real.csv
ln -s target-dir/real.csv reg-link
"$BIN" "${SIM[@]}" --trace reg-link >/dev/null 2>err || bad "--trace LINK-TO-REGULAR: $(cat err)"
[ -L reg-link ] && [ "$(readlink reg-link)" = target-dir/real.csv ] && ok || bad "the symlink to a regular file was replaced"
cmp -s target-dir/real.csv ref.csv && ok || bad "the symlink's target did not get the trace"
left=$(find . -name '*.tmp.*' | head -n 1)
[ -z "$left" ] && ok || bad "temporary file left behind: $left"

# an unwritable place: exit 2, one error line, nothing created
"$BIN" "${SIM[@]}" --trace no-such-dir/x.csv >/dev/null 2>err
rc=$?
[ "$rc" = 2 ] && grep -q '^impactfit: error: cannot write no-such-dir/x.csv' err && ok || bad "unwritable path: rc $rc, $(cat err)"

# the other writers share the helper: identify-synth --output -, dtau-surrogate --out -
"$BIN" identify-synth --model hc --params n=1.5,k=1e8,lambda=0.3 --v 0.5:2:8 --mass 0.1 --output synth.csv >/dev/null 2>err || bad "identify-synth --output FILE: $(cat err)"
"$BIN" identify-synth --model hc --params n=1.5,k=1e8,lambda=0.3 --v 0.5:2:8 --mass 0.1 --output - >synth-dash.csv 2>err || bad "identify-synth --output -: $(cat err)"
cmp -s synth.csv synth-dash.csv && ok || bad "identify-synth --output - differs from --output FILE"
"$BIN" dtau-surrogate --check-eps 5 --check-n 3 --out - >dtau.h 2>dtau.err ||
  bad "dtau-surrogate --out -: $(cat dtau.err)"
head -n 1 dtau.h | grep -q '^/\* SPDX-License-Identifier: 0BSD$' && grep -q '^#endif' dtau.h && ok ||
  bad "dtau-surrogate --out -: standard output is not the header"
grep -q 'held-out points' dtau.err && ok || bad "dtau-surrogate --out -: the report is not on standard error"

# identify's data from standard input ('-') gives what the file gives
"$BIN" identify synth.csv --model hc --mass 0.1 --json >id-file.out 2>/dev/null
rc1=$?
"$BIN" identify - --model hc --mass 0.1 --json <synth.csv >id-stdin.out 2>/dev/null
rc2=$?
# (the same, but for the data's name)
sed 's/"data":"synth.csv"/"data":"standard input"/' id-file.out >id-file-renamed.out
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && grep -q '"data":"standard input"' id-stdin.out &&
  cmp -s id-file-renamed.out id-stdin.out && ok ||
  bad "identify - (standard input) differs from identify FILE (rc $rc1 vs $rc2)"

echo "test_outputs.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
