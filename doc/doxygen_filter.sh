#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Doxygen INPUT_FILTER for impactfit's public headers: their comments are plain C comments written
# as specifications (equation, units, accuracy); this turns them into Doxygen comments on the fly,
# leaving the headers as they are: the comment that opens the file documents the file, a comment
# before a declaration documents it, a comment after a member documents that member.
exec sed -E \
  -e '1s#^/\* ?(.*)$#/** \\file\n * \1#' \
  -e '2,$s#^([[:space:]]*)/\* #\1/** #' \
  -e 's#([;,{][[:space:]]*)/\* #\1/**< #' \
  -e 's#<([A-Za-z_][A-Za-z_ ]*)>#\\<\1\\>#g' \
  "$1"
