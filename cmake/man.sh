#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes the man pages of impactfit into OUTDIR with help2man, from the program's own --help (the
# same text, so the pages never drift from it): impactfit.1 and impactfit-COMMAND.1 per command.
# usage: man.sh IMPACTFIT OUTDIR VERSION COMMAND...
set -eu
BIN=$1
OUT=$2
VER=$3
shift 3
mkdir -p "$OUT/wrap"
all=""
for cmd in "$@"; do all="$all${all:+, }\\fBimpactfit-$cmd\\fR(1)"; done
printf '[SEE ALSO]\n%s\n.PP\nThe documentation in the source tree: README.md and docs/ (docs/MODEL.md states every problem).\n' "$all" >"$OUT/wrap/top.h2m"
printf '[SEE ALSO]\n\\fBimpactfit\\fR(1) lists every command.\n' >"$OUT/wrap/cmd.h2m"
help2man --no-info --version-string="$VER" --section=1 --manual="impactfit manual" --source="impactfit $VER" \
  --name="exact damping constants from a coefficient of restitution" \
  --include="$OUT/wrap/top.h2m" --output="$OUT/impactfit.1" "$BIN"
# The wrapper help2man runs: the command's --help with its usage block (the lines up to the first blank
# one, each form wrapped over indented lines) as help2man reads a synopsis: "Usage: FORM" and "  or: FORM",
# one line each (help2man made the wrapped lines a paragraph of indented text).
cat >"$OUT/wrap/usage.awk" <<'AWK'
BEGIN { block = 1 }
block && /^$/ { if (form != "") print (n++ ? "  or: " : "Usage: ") form; block = 0; print; next }
block && /^usage: / { form = substr($0, 8); next }
block && /^       impactfit / { print (n++ ? "  or: " : "Usage: ") form; sub(/^ +/, ""); form = $0; next }
block && /^ +/ { sub(/^ +/, ""); form = form " " $0; next }
{ print }
AWK
for cmd in "$@"; do
  w="$OUT/wrap/impactfit-$cmd"
  printf '#!/bin/sh\nif [ "$1" = --help ]; then "%s" %s --help | awk -f "%s"; exit; fi\nexec "%s" %s "$@"\n' \
    "$BIN" "$cmd" "$OUT/wrap/usage.awk" "$BIN" "$cmd" >"$w"
  chmod +x "$w"
  # NAME line: the command's summary from the top-level help
  summary=$("$BIN" --help | sed -n "s/^  $cmd  *//p" | head -1)
  help2man --no-info --version-string="$VER" --section=1 --manual="impactfit manual" --source="impactfit $VER" \
    --name="${summary:-impactfit $cmd}" --include="$OUT/wrap/cmd.h2m" --output="$OUT/impactfit-$cmd.1" "$w"
done
rm -rf "$OUT/wrap"
