/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An INI parser that behaves as Debian 12's libinih 55 with its default configuration (inih/ini.h says
 * why the WebAssembly build has its own): lines of at most 200 bytes (the reader's buffer), a UTF-8
 * byte-order mark skipped on line 1, ';' and '#' start a comment line, ';' after a blank starts an
 * inline comment, "name = value" or "name : value" with blanks trimmed, "[section]" (section and
 * names kept to 49 bytes), an indented line continuing the previous name's value (a handler call
 * of its own, with what follows ';' kept), no value-less names, a line longer than the buffer read as
 * two, every line parsed after an error, the first error's line returned. tests/test_ini_compat.c checks it against the real libinih. */
#include <ctype.h>
#include <string.h>

#include "ini.h"

enum { LINE_MAX_BYTES = 200, NAME_BYTES = 50 };

static char *skip_blank(char *s) {
  while (*s && isspace((unsigned char)*s))
    s++;
  return s;
}

static void trim_end(char *s) {
  for (char *p = s + strlen(s); p > s && isspace((unsigned char)p[-1]);)
    *--p = '\0';
}

/* the first of `stops` in s, or an inline comment (';' after a blank), or the end */
static char *find_stop(char *s, const char *stops) {
  int blank = 0;
  for (; *s; s++) {
    if (stops && strchr(stops, *s))
      break;
    if (blank && *s == ';')
      break;
    blank = isspace((unsigned char)*s) != 0;
  }
  return s;
}

static void copy_short(char *dst, const char *src) {
  size_t n = 0;
  for (; n < NAME_BYTES - 1 && src[n]; n++)
    dst[n] = src[n];
  dst[n] = '\0';
}

int ini_parse_stream(ini_reader reader, void *stream, ini_handler handler, void *user) {
  char line[LINE_MAX_BYTES], section[NAME_BYTES] = "", last_name[NAME_BYTES] = "";
  int lineno = 0, error = 0;
  while (reader(line, LINE_MAX_BYTES, stream)) {
    lineno++; /* a line longer than the buffer: its rest is the next line */
    char *s = line;
    if (lineno == 1 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB && (unsigned char)s[2] == 0xBF)
      s += 3;
    s = skip_blank(s);
    trim_end(s);
    if (*s == '\0' || *s == ';' || *s == '#')
      continue;
    if (*last_name && s > line) { /* an indented line: more of the last value, inline comment included */
      if (!handler(user, section, last_name, s) && !error)
        error = lineno;
    } else if (*s == '[') {
      char *close = find_stop(s + 1, "]");
      if (*close == ']') {
        *close = '\0';
        copy_short(section, s + 1);
        *last_name = '\0';
      } else if (!error) {
        error = lineno;
      }
    } else {
      char *eq = find_stop(s, "=:");
      if (*eq != '=' && *eq != ':') {
        if (!error)
          error = lineno;
        continue;
      }
      *eq = '\0';
      trim_end(s);
      char *value = eq + 1;
      *find_stop(value, NULL) = '\0';
      value = skip_blank(value);
      trim_end(value);
      copy_short(last_name, s);
      if (!handler(user, section, s, value) && !error)
        error = lineno;
    }
  }
  return error;
}
