/* INI reading through inih, with line numbers, and small parsing helpers shared by sweep and fit
 * definition files.
 *
 * The Debian build of inih has INI_HANDLER_LINENO off and a 200-character line buffer, so the
 * file is fed through ini_parse_stream with a reader of our own: it counts lines (the handler is
 * called right after the reader returned the line holding the key), refuses lines that would not
 * fit instead of letting inih split them, and remembers whether a line is an indented
 * continuation. */
#include "sweep_impl.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../common/common_impl.h"

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

int impactfit__ini_parse(const char *text, size_t len, const char *name, impactfit__ini_fn fn,
                         void *user, impactfit_error *err) {
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
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE,
                           "%s:%d: syntax error (expected [section], key = value or a comment)", name, rc);
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
  double v = strtod(s, &end);
  /* strtod skips any leading white space (\r, \v, \f too): refused, the whole string must be the number */
  if (end == s || *end != '\0' || isspace((unsigned char)s[0]))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: expected a number, got '%s'", what, s);
  if (!isfinite(v))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: expected a finite number, got '%s'", what, s);
  if (errno == ERANGE && (v == 0.0 || fabs(v) == HUGE_VAL))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: '%s' is outside the range of double precision",
                           what, s);
  *out = v;
  return IMPACTFIT_OK;
}

int impactfit__fmt_g17(char *buf, double v) {
  if (v == 0.0)
    v = 0.0; /* -0 prints as 0: the same row for the same value */
  return snprintf(buf, 32, "%.17g", v);
}
