/* SPDX-License-Identifier: GPL-3.0-or-later */
/* General input/output utilities (src/common/io_impl.h): INI reading through inih with line numbers,
 * whole-file reading, XXH64, and numbers parsed and printed in the C locale, shared by the sweep,
 * fit, identify and codegen modules.
 *
 * The Debian build of inih has INI_HANDLER_LINENO off and a 200-character line buffer, so the
 * file is fed through ini_parse_stream with a reader of our own: it counts lines (the handler is
 * called right after the reader returned the line holding the key), refuses lines that would not
 * fit instead of letting inih split them, and remembers whether a line is an indented
 * continuation. */
#define _GNU_SOURCE /* strtod_l, newlocale, uselocale */
#include "io_impl.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common_impl.h"

#define IMPACTFIT__STR2(x) #x
#define IMPACTFIT__STR(x) IMPACTFIT__STR2(x)

typedef struct reader {
  const char *p, *end;
  int line;
  int continuation; /* the last line read starts with a blank and is not blank itself */
  int bad_line;     /* first line that was too long or held a NUL byte */
  const char *bad_reason;
  /* handler side */
  impactfit__ini_fn fn;
  void *user;
  int err_line;
  impactfit_error herr;
} reader;

static char *read_line(char *str, int num, void *stream) {
  reader *r = stream;
  if (r->p >= r->end)
    return NULL;
  const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
  const char *stop = nl ? nl + 1 : r->end;
  size_t len = (size_t)(stop - r->p);
  r->line++;
  if (len + 1 > (size_t)num || len > IMPACTFIT__INI_MAX_LINE) {
    if (!r->bad_line) {
      r->bad_line = r->line;
      r->bad_reason = "line too long (at most " IMPACTFIT__STR(IMPACTFIT__INI_MAX_LINE) " characters)";
    }
    len = 0; /* hand inih an empty line instead of a split one */
  } else if (memchr(r->p, '\0', len)) {
    if (!r->bad_line) {
      r->bad_line = r->line;
      r->bad_reason = "NUL byte in the line";
    }
    len = 0;
  }
  memcpy(str, r->p, len);
  str[len] = '\0';
  r->continuation = 0;
  if (len && (str[0] == ' ' || str[0] == '\t')) {
    for (size_t i = 0; i < len; i++)
      if (str[i] != ' ' && str[i] != '\t' && str[i] != '\r' && str[i] != '\n') {
        r->continuation = (str[i] != ';' && str[i] != '#');
        break;
      }
  }
  r->p = stop;
  return str;
}

static int handler(void *user, const char *section, const char *name, const char *value) {
  reader *r = user;
  if (r->err_line)
    return 1; /* keep the first error only */
  impactfit_error_clear(&r->herr);
  int st = r->fn(r->user, section, name, value, r->line, r->continuation, &r->herr);
  if (st) {
    if (!r->herr.status)
      r->herr.status = st;
    r->err_line = r->line;
    return 0;
  }
  return 1;
}

int impactfit__ini_parse(const char *text, size_t len, const char *name, impactfit__ini_fn fn, void *user,
                         impactfit_error *err) {
  reader r;
  memset(&r, 0, sizeof r);
  r.p = text;
  r.end = text + len;
  r.fn = fn;
  r.user = user;
  int rc = ini_parse_stream(read_line, &r, handler, &r);
  if (r.bad_line && (!r.err_line || r.bad_line <= r.err_line) && (rc <= 0 || r.bad_line <= rc))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:%d: %s", name, r.bad_line, r.bad_reason);
  if (r.err_line && (rc <= 0 || r.err_line <= rc))
    return IMPACTFIT__FAIL(err, r.herr.status, "%s:%d: %s", name, r.err_line, r.herr.message);
  if (rc == -2)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "%s: out of memory while parsing", name);
  if (rc != 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:%d: syntax error (expected [section], key = value or a comment)",
                           name, rc);
  return IMPACTFIT_OK;
}

int impactfit__read_file(const char *path, char **text, size_t *len, impactfit_error *err) {
  *text = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot read %s: %s", path, strerror(errno));
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) {
      fclose(f);
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory reading %s", path);
    }
    n += fread(buf + n, 1, cap - n - 1, f);
    if (n < cap - 1)
      break;
    cap *= 2;
    char *nb = realloc(buf, cap);
    if (!nb)
      free(buf);
    buf = nb;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot read %s: read error", path);
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return IMPACTFIT_OK;
}

void impactfit__hash_hex(const void *data, size_t len, char out[17]) {
  /* XXH64 from libxxhash (Debian): a stable, specified 64-bit content hash. Provenance only, not
   * security: it tells whether a definition file changed since a result was generated. */
  unsigned long long h = (unsigned long long)XXH64(data, len, 0);
  snprintf(out, 17, "%016llx", h);
}

int impactfit__parse_number(const char *what, const char *s, double *out, impactfit_error *err) {
  if (!s || !*s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: expected a number, got nothing", what);
  char *end;
  errno = 0;
  double v = impactfit__strtod_c(s, &end);
  /* strtod skips any leading white space (\r, \v, \f too): refused, the whole string must be the number */
  if (end == s || *end != '\0' || isspace((unsigned char)s[0]))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: expected a number, got '%s'", what, s);
  if (!isfinite(v))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: expected a finite number, got '%s'", what, s);
  if (errno == ERANGE && (v == 0.0 || fabs(v) == HUGE_VAL))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: '%s' is outside the range of double precision", what, s);
  *out = v;
  return IMPACTFIT_OK;
}

int impactfit__fmt_g17(char *buf, double v) {
  if (v == 0.0)
    v = 0.0; /* -0 prints as 0: the same row for the same value */
  return impactfit__snprintf_c(buf, 32, "%.17g", v);
}

/* The C locale object: created once (pthread_once), never changed or freed afterwards; the only
 * process-wide object of the library, immutable after its creation. NULL when newlocale failed
 * (out of memory): the functions then fall back to the host's locale, which is "C" in every
 * program that never called setlocale. */
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static void c_locale_init(void) { c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }
static locale_t get_c_locale(void) {
  pthread_once(&c_locale_once, c_locale_init);
  return c_locale;
}

double impactfit__strtod_c(const char *s, char **end) {
  locale_t c = get_c_locale();
  return c ? strtod_l(s, end, c) : strtod(s, end);
}

int impactfit__snprintf_c(char *buf, size_t size, const char *fmt, ...) {
  locale_t c = get_c_locale();
  locale_t old = c ? uselocale(c) : (locale_t)0; /* this thread only */
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  if (c)
    uselocale(old);
  return n;
}

int impactfit__identifier(const char *s) {
  /* ASCII only (isalpha depends on the locale) */
  if (!s || !s[0] || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
    return 0;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return 0;
  return 1;
}

void *impactfit__locale_push(void) {
  locale_t c = get_c_locale();
  return c ? (void *)uselocale(c) : NULL;
}

void impactfit__locale_pop(void *previous) {
  if (previous)
    uselocale((locale_t)previous);
}

/* ---- shortest round-trip numbers (common.h) ---- */

/* ASCII classes (ctype's depend on the locale) */
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* impactfit_format_shortest: src/common/shortest.c */

/* A number token at s (sign, digits, '.', digits, exponent): its length, and in *sig its
 * significant digits and in *marked whether it has a decimal point or an exponent; 0 if none. */
static size_t number_token(const char *s, int *sig, int *marked) {
  size_t i = 0;
  int digits = 0, leading = 1;
  *sig = 0;
  *marked = 0;
  if (s[i] == '-' || s[i] == '+')
    i++;
  for (; is_digit(s[i]) || (s[i] == '.' && !*marked); i++) {
    if (s[i] == '.') {
      *marked = 1;
      continue;
    }
    digits++;
    if (s[i] != '0')
      leading = 0;
    if (!leading)
      (*sig)++;
  }
  if (!digits)
    return 0;
  if ((s[i] == 'e' || s[i] == 'E') &&
      (is_digit(s[i + 1]) || ((s[i + 1] == '-' || s[i + 1] == '+') && is_digit(s[i + 2])))) {
    i += 2;
    while (is_digit(s[i]))
      i++;
    *marked = 1;
  }
  return i;
}

void impactfit_shorten_numbers(char *text) {
  if (!text)
    return;
  char *s = text;
  while (*s) {
    /* a token starts after a character that cannot be part of a word or number */
    int boundary = s == text || !(is_alnum(s[-1]) || s[-1] == '.' || s[-1] == '_');
    int sig, marked;
    size_t len = boundary && (is_digit(*s) || ((*s == '-' || *s == '+') && is_digit(s[1])))
                     ? number_token(s, &sig, &marked)
                     : 0;
    /* the token must end at a boundary too: "3.8.0", "1.5x" and "29Sep2021" are not numbers */
    if (len && (is_alnum(s[len]) || s[len] == '_' || (s[len] == '.' && is_digit(s[len + 1]))))
      len = 0;
    if (!len) {
      s++;
      continue;
    }
    if (marked && sig >= 16) {
      char tok[64], shortest[IMPACTFIT_SHORTEST_SIZE];
      if (len < sizeof tok) {
        memcpy(tok, s, len);
        tok[len] = '\0';
        impactfit_format_shortest(impactfit__strtod_c(tok, NULL), shortest);
        size_t n = strlen(shortest);
        if (tok[0] == '+' && shortest[0] != '-') { /* keep an explicit plus sign */
          memmove(shortest + 1, shortest, n + 1);
          shortest[0] = '+';
          n++;
        }
        if (n <= len) { /* never longer: the text shrinks in place */
          memcpy(s, shortest, n);
          memmove(s + n, s + len, strlen(s + len) + 1);
          len = n;
        }
      }
    }
    s += len;
  }
}

/* ---- paths in messages ---- */

int impactfit__path_join(char *buf, size_t size, const char *dir, const char *name) {
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/')
    dl--;
  return snprintf(buf, size, "%.*s%s%s", (int)dl, dir, dl == 1 && dir[0] == '/' ? "" : "/", name);
}

void impactfit__path_tidy(const char *path, char *buf, size_t size) {
  if (!size)
    return;
  const char *part[256];
  size_t plen[256], n = 0;
  int absolute = path[0] == '/';
  for (const char *p = path; *p && n < 256;) {
    while (*p == '/')
      p++;
    if (!*p)
      break;
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == 1 && p[0] == '.') {
      /* "./": nothing */
    } else if (len == 2 && p[0] == '.' && p[1] == '.' && n > 0 &&
               !(plen[n - 1] == 2 && !strncmp(part[n - 1], "..", 2))) {
      n--; /* "a/..": nothing */
    } else {
      part[n] = p;
      plen[n++] = len;
    }
    p += len;
  }
  size_t at = 0;
  buf[0] = '\0';
  if (absolute && at + 1 < size)
    buf[at++] = '/', buf[at] = '\0';
  for (size_t i = 0; i < n; i++)
    at += (size_t)snprintf(buf + (at < size ? at : size - 1), at < size ? size - at : 1, "%s%.*s", i ? "/" : "",
                           (int)plen[i], part[i]);
  if (!n && !absolute)
    snprintf(buf, size, ".");
}
