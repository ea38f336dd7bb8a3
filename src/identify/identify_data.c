/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Measured impacts for identification: the CSV parser (kept separate and free of global state so
 * that it can be fuzzed on its own), checks, the effective mass option and synthetic data. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../common/common_impl.h"
#include "identify_impl.h"
#include "impactfit/identify.h"
#include "../common/io_impl.h"

/* Column names, in the order of the column indices below. */
enum { COL_V, COL_E, COL_DT, COL_FMAX, COL_MASS, NCOL };
static const char *const col_name[NCOL] = {"v", "e", "dt", "fmax", "mass"};

/* The validity rule of each column: NULL when x is acceptable, else the reason. */
static const char *value_rule(int col, double x) {
  switch (col) {
  case COL_V:
    return x > 0.0 ? NULL : "the approach velocity must be > 0";
  case COL_E:
    return (x > 0.0 && x <= 1.0) ? NULL : "the coefficient of restitution must be in (0, 1]";
  case COL_DT:
    return x > 0.0 ? NULL : "the contact duration must be > 0";
  case COL_FMAX:
    return x > 0.0 ? NULL : "the peak force must be > 0";
  case COL_MASS:
    return x > 0.0 ? NULL : "the effective mass must be > 0";
  default:
    return "unknown column";
  }
}

static double *row_field(impactfit_identify_row *r, int col) {
  switch (col) {
  case COL_V:
    return &r->v;
  case COL_E:
    return &r->e;
  case COL_DT:
    return &r->dt;
  case COL_FMAX:
    return &r->fmax;
  default:
    return &r->mass;
  }
}

/* Blanks around a field (space and tab). */
static void trim(const char **s, size_t *len) {
  while (*len && (**s == ' ' || **s == '\t'))
    (*s)++, (*len)--;
  while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
    (*len)--;
}

/* Splits line[0..len) at commas into at most `max` fields; returns the field count (which may be
 * larger than max: the extra fields are counted, not stored). */
static size_t split(const char *line, size_t len, const char **f, size_t *flen, size_t max) {
  size_t nf = 0, start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i == len || line[i] == ',') {
      if (nf < max) {
        f[nf] = line + start;
        flen[nf] = i - start;
        trim(&f[nf], &flen[nf]);
      }
      nf++;
      start = i + 1;
    }
  }
  return nf;
}

typedef struct parser {
  const char *src;
  impactfit_error *err;
} parser;

#define PFAIL(P, line, ...) parse_fail((P), IMPACTFIT_EPARSE, (line), __VA_ARGS__)

static int parse_fail(parser *P, int status, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int parse_fail(parser *P, int status, int line, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return IMPACTFIT__FAIL(P->err, status, "%s:%d: %s", P->src, line, msg);
}

/* Quotes at most 40 bytes of a field for a message, bytes other than printable ASCII shown as '?'
 * (a binary file's bytes would make the error line unreadable, or a terminal misbehave). */
static void quote(char *out, size_t cap, const char *s, size_t len) {
  char b[41];
  size_t n = len > 40 ? 40 : len;
  for (size_t i = 0; i < n; i++)
    b[i] = ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f) ? '?' : s[i];
  b[n] = '\0';
  snprintf(out, cap, "'%s%s'", b, len > 40 ? "..." : "");
}

static int parse_number(parser *P, int line, int col, const char *s, size_t len, double *out) {
  char buf[IMPACTFIT_IDENTIFY_MAX_LINE + 1], q[64];
  quote(q, sizeof q, s, len);
  if (len == 0)
    return PFAIL(P, line, "column %s: empty field", col_name[col]);
  memcpy(buf, s, len);
  buf[len] = '\0';
  char *end;
  errno = 0;
  double x = impactfit__strtod_c(buf, &end);
  if (end == buf || *end != '\0')
    return PFAIL(P, line, "column %s: %s is not a number", col_name[col], q);
  if (isnan(x) || isinf(x))
    return PFAIL(P, line, "column %s: %s is not a finite number", col_name[col], q);
  if (errno == ERANGE)
    return PFAIL(P, line, "column %s: %s is outside the range of double precision", col_name[col], q);
  const char *why = value_rule(col, x);
  if (why)
    return PFAIL(P, line, "column %s: %s, got %s", col_name[col], why, q);
  *out = x;
  return 0;
}

static int parse_header(parser *P, int line, const char *s, size_t len, int *cols, size_t *ncols, unsigned *mask) {
  const char *f[NCOL + 1];
  size_t fl[NCOL + 1];
  size_t nf = split(s, len, f, fl, NCOL + 1);
  int seen[NCOL] = {0};
  char q[64];
  if (nf > NCOL) {
    /* Report the first duplicate or unknown name if there is one among the stored fields. */
    for (size_t i = 0; i < NCOL + 1; i++) {
      int c = -1;
      for (int k = 0; k < NCOL; k++)
        if (fl[i] == strlen(col_name[k]) && memcmp(f[i], col_name[k], fl[i]) == 0)
          c = k;
      quote(q, sizeof q, f[i], fl[i]);
      if (c < 0)
        return PFAIL(P, line, "header: unknown column %s (the columns are v, e, dt, fmax, mass)", q);
      if (seen[c])
        return PFAIL(P, line, "header: duplicate column %s", q);
      seen[c] = 1;
    }
    return PFAIL(P, line, "header: %zu columns, at most %d (v, e, dt, fmax, mass)", nf, NCOL);
  }
  for (size_t i = 0; i < nf; i++) {
    if (fl[i] == 0)
      return PFAIL(P, line, "header: empty column name (field %zu)", i + 1);
    int c = -1;
    for (int k = 0; k < NCOL; k++)
      if (fl[i] == strlen(col_name[k]) && memcmp(f[i], col_name[k], fl[i]) == 0)
        c = k;
    quote(q, sizeof q, f[i], fl[i]);
    if (c < 0)
      return PFAIL(P, line, "header: unknown column %s (the columns are v, e, dt, fmax, mass)", q);
    if (seen[c])
      return PFAIL(P, line, "header: duplicate column %s", q);
    seen[c] = 1;
    cols[i] = c;
  }
  if (!seen[COL_V] || !seen[COL_E])
    return PFAIL(P, line, "header: missing column %s (the header names v, e and optionally dt, fmax, mass)",
                 !seen[COL_V] ? "v" : "e");
  *ncols = nf;
  *mask = (seen[COL_DT] ? IMPACTFIT_IDENTIFY_COL_DT : 0u) | (seen[COL_FMAX] ? IMPACTFIT_IDENTIFY_COL_FMAX : 0u) |
          (seen[COL_MASS] ? IMPACTFIT_IDENTIFY_COL_MASS : 0u);
  return 0;
}

int impactfit_identify_data_parse(const char *text, size_t len, const char *source, impactfit_identify_data **out,
                                  impactfit_error *err) {
  parser P = {source && source[0] ? source : "<data>", err};
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: data parse: out is NULL");
  *out = NULL;
  if (!text && len)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: data parse: text is NULL");
  impactfit_identify_data *d = calloc(1, sizeof *d);
  if (!d)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "%s: out of memory", P.src);
  snprintf(d->source, sizeof d->source, "%s", P.src);
  size_t cap = 0;
  int cols[NCOL];
  size_t ncols = 0;
  int have_header = 0, line = 0, header_line = 0, st = 0;
  size_t pos = 0;
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* a UTF-8 byte order mark (spreadsheets) */
    pos = 3;
  while (pos < len) {
    if (line == INT_MAX) {
      st = PFAIL(&P, line, "too many lines");
      break;
    }
    line++;
    const char *s = text + pos;
    const char *nl = memchr(s, '\n', len - pos);
    size_t ll = nl ? (size_t)(nl - s) : len - pos;
    pos += ll + (nl ? 1 : 0);
    if (memchr(s, '\0', ll)) {
      st = PFAIL(&P, line, "NUL byte in the line (not a text file?)");
      break;
    }
    if (ll && s[ll - 1] == '\r')
      ll--;
    if (ll > IMPACTFIT_IDENTIFY_MAX_LINE) {
      st = PFAIL(&P, line, "line longer than %d characters", IMPACTFIT_IDENTIFY_MAX_LINE);
      break;
    }
    const char *t = s;
    size_t tl = ll;
    trim(&t, &tl);
    if (tl == 0 || t[0] == '#')
      continue;
    if (!have_header) {
      if ((st = parse_header(&P, line, s, ll, cols, &ncols, &d->columns)))
        break;
      have_header = 1;
      header_line = line;
      continue;
    }
    const char *f[NCOL];
    size_t fl[NCOL];
    size_t nf = split(s, ll, f, fl, NCOL);
    if (nf != ncols) {
      st = PFAIL(&P, line, "%zu field%s, the header (line %d) has %zu columns", nf, nf == 1 ? "" : "s", header_line,
                 ncols);
      break;
    }
    if (d->rows == IMPACTFIT_IDENTIFY_MAX_ROWS) {
      st = PFAIL(&P, line, "more than %d data rows", IMPACTFIT_IDENTIFY_MAX_ROWS);
      break;
    }
    if (d->rows == cap) {
      size_t nc = cap ? 2 * cap : 64;
      impactfit_identify_row *nr = realloc(d->row, nc * sizeof *nr);
      if (!nr) {
        st = parse_fail(&P, IMPACTFIT_ENOMEM, line, "out of memory");
        break;
      }
      d->row = nr;
      cap = nc;
    }
    impactfit_identify_row *r = &d->row[d->rows];
    memset(r, 0, sizeof *r);
    r->line = line;
    for (size_t i = 0; i < nf && !st; i++)
      st = parse_number(&P, line, cols[i], f[i], fl[i], row_field(r, cols[i]));
    if (st)
      break;
    d->rows++;
  }
  if (!st && !have_header)
    st = PFAIL(&P, line > 0 ? line : 1,
               "empty file (expected a header line such as v,e,dt,fmax and one line per impact)");
  if (!st && d->rows == 0)
    st = PFAIL(&P, header_line, "no data rows after the header");
  if (st) {
    impactfit_identify_data_free(d);
    return st;
  }
  *out = d;
  return IMPACTFIT_OK;
}

int impactfit_identify_data_read(const char *path, impactfit_identify_data **out, impactfit_error *err) {
  if (out)
    *out = NULL;
  if (!path || !path[0])
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: no data file given");
  char *text = NULL;
  size_t len = 0;
  int st = impactfit__read_file(path, &text, &len, err);
  if (st) {
    if (st != IMPACTFIT_EIO)
      return st;
    /* a file that cannot be read is the caller's input error (exit 2 in the CLI) */
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err ? err->message : path);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s", msg);
  }
  st = impactfit_identify_data_parse(text, len, path, out, err);
  free(text);
  return st;
}

void impactfit_identify_data_free(impactfit_identify_data *d) {
  if (!d)
    return;
  free(d->row);
  free(d);
}

int impactfit_identify_data_set_mass(impactfit_identify_data *d, double mass, impactfit_error *err) {
  if (!d)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: data is NULL");
  if (d->columns & IMPACTFIT_IDENTIFY_COL_MASS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s: the data have a mass column: the mass cannot also be given separately", d->source);
  if (!(isfinite(mass) && mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the effective mass must be finite and > 0, got %.17g", mass);
  for (size_t i = 0; i < d->rows; i++)
    d->row[i].mass = mass;
  return IMPACTFIT_OK;
}

int impactfit_identify_data_check(const impactfit_identify_data *d, impactfit_error *err) {
  if (!d)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: data is NULL");
  const char *src = d->source[0] ? d->source : "<data>";
  if (d->rows == 0 || !d->row)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: no data rows", src);
  if (d->rows > IMPACTFIT_IDENTIFY_MAX_ROWS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: more than %d data rows", src, IMPACTFIT_IDENTIFY_MAX_ROWS);
  if (d->columns & ~(IMPACTFIT_IDENTIFY_COL_DT | IMPACTFIT_IDENTIFY_COL_FMAX | IMPACTFIT_IDENTIFY_COL_MASS))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: unknown column bits 0x%x", src, d->columns);
  for (size_t i = 0; i < d->rows; i++) {
    const impactfit_identify_row *r = &d->row[i];
    char where[64];
    if (r->line > 0)
      snprintf(where, sizeof where, "%d", r->line);
    else
      snprintf(where, sizeof where, "row %zu", i);
    for (int c = 0; c < NCOL; c++) {
      if ((c == COL_DT && !(d->columns & IMPACTFIT_IDENTIFY_COL_DT)) ||
          (c == COL_FMAX && !(d->columns & IMPACTFIT_IDENTIFY_COL_FMAX)))
        continue;
      double x = *row_field((impactfit_identify_row *)r, c);
      if (!isfinite(x))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s:%s: column %s: not a finite number", src, where, col_name[c]);
      const char *why = value_rule(c, x);
      if (why) {
        if (c == COL_MASS && !(d->columns & IMPACTFIT_IDENTIFY_COL_MASS))
          return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                                 "%s:%s: no effective mass (the data have no mass column: give one)", src, where);
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s:%s: column %s: %s, got %.17g", src, where, col_name[c], why,
                               x);
      }
    }
  }
  return IMPACTFIT_OK;
}

/* ---- synthetic data ---- */

int impactfit_identify_synth(impactfit_identify_workspace *ws, impactfit_identify_data *d,
                             const double value[IMPACTFIT_IDENTIFY_NPAR], const impactfit_transition *transition,
                             double noise, unsigned long seed, impactfit_error *err) {
  if (!ws || !d || !value)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify synth: NULL argument");
  if (!(noise >= 0.0 && noise <= 0.5))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify synth: noise must be in [0, 0.5], got %.17g", noise);
  if (!d->row || d->rows == 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify synth: no rows");
  for (size_t i = 0; i < d->rows; i++) {
    const impactfit_identify_row *r = &d->row[i];
    if (!(isfinite(r->v) && r->v > 0.0 && isfinite(r->mass) && r->mass > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify synth: row %zu: v and mass must be finite and > 0", i);
  }
  impactfit_identify_row_fit *rf = NULL;
  int st = impactfit__identify_rows(ws, d->rows, &rf, err);
  if (st)
    return st;
  st = impactfit_identify_predict(ws, d, value, transition, NULL, rf, NULL, err);
  if (st)
    return st;
  IMPACTFIT__GSL_SCOPE;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "identify synth: out of memory");
  gsl_rng_set(rng, seed);
  for (size_t i = 0; i < d->rows; i++) {
    impactfit_identify_row *r = &d->row[i];
    /* an undamped impact may return e = 1 + a rounding error: its e is 1 */
    double e, e0 = rf[i].e < 1.0 ? rf[i].e : 1.0;
    int tries = 0;
    do {
      e = e0 * (1.0 + noise * gsl_ran_gaussian(rng, 1.0));
    } while (!(e > 0.0 && e <= 1.0) && ++tries < 1000);
    if (!(e > 0.0 && e <= 1.0)) {
      gsl_rng_free(rng);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                             "identify synth: row %zu: no noisy e in (0, 1] in 1000 draws (e = %g)", i, rf[i].e);
    }
    r->e = e;
    r->dt = rf[i].dt * (1.0 + noise * gsl_ran_gaussian(rng, 1.0));
    r->fmax = rf[i].fmax * (1.0 + noise * gsl_ran_gaussian(rng, 1.0));
    /* Non-positive only for a draw g ≤ −1/noise (≤ −2σ at the largest noise): reported, not
       clipped. */
    if (!(r->dt > 0.0 && r->fmax > 0.0)) {
      gsl_rng_free(rng);
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify synth: row %zu: the noise made dt or fmax non-positive",
                             i);
    }
  }
  gsl_rng_free(rng);
  return IMPACTFIT_OK;
}

int impactfit_identify_data_speeds(const double *v, size_t nv, size_t repeat, double mass,
                                   impactfit_identify_data **out, impactfit_error *err) {
  *out = NULL;
  if (!v || nv == 0 || repeat == 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no speeds (or repeat 0)");
  if (!(isfinite(mass) && mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the effective mass must be finite and > 0, got %.17g", mass);
  for (size_t i = 0; i < nv; i++)
    if (!(isfinite(v[i]) && v[i] > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "approach velocities must be > 0, got %.17g", v[i]);
  if (repeat > IMPACTFIT_IDENTIFY_MAX_ROWS || nv > IMPACTFIT_IDENTIFY_MAX_ROWS / repeat)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%zu rows, at most %d", nv * repeat, IMPACTFIT_IDENTIFY_MAX_ROWS);
  impactfit_identify_data *d = calloc(1, sizeof *d);
  if (!d || !(d->row = calloc(nv * repeat, sizeof *d->row))) {
    free(d);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  d->rows = nv * repeat;
  d->columns = IMPACTFIT_IDENTIFY_COL_MASS;
  for (size_t i = 0; i < nv; i++)
    for (size_t r = 0; r < repeat; r++) {
      d->row[i * repeat + r].v = v[i];
      d->row[i * repeat + r].mass = mass;
    }
  *out = d;
  return IMPACTFIT_OK;
}

int impactfit_identify_data_format(const impactfit_identify_data *d, unsigned columns, int digits, char **text,
                                   size_t *len, impactfit_error *err) {
  *text = NULL;
  if (!d || (d->rows && !d->row))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "identify: data is NULL");
  if (digits < 1 || digits > 17)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "digits must be 1..17, got %d", digits);
  const int cdt = (columns & IMPACTFIT_IDENTIFY_COL_DT) != 0, cf = (columns & IMPACTFIT_IDENTIFY_COL_FMAX) != 0,
            cm = (columns & IMPACTFIT_IDENTIFY_COL_MASS) != 0;
  /* a value takes at most 24 characters with its comma ("-1.2345678901234567e-308,") */
  size_t cap = 32 + (d->rows + 1) * (size_t)(5 * 26 + 2), at = 0;
  char *buf = malloc(cap);
  if (!buf)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  at += (size_t)impactfit__snprintf_c(buf + at, cap - at, "v,e%s%s%s\n", cdt ? ",dt" : "", cf ? ",fmax" : "",
                                      cm ? ",mass" : "");
  for (size_t i = 0; i < d->rows; i++) {
    const impactfit_identify_row *r = &d->row[i];
    const double x[5] = {r->v, r->e, r->dt, r->fmax, r->mass};
    const int on[5] = {1, 1, cdt, cf, cm};
    for (int k = 0; k < 5; k++)
      if (on[k])
        at += (size_t)impactfit__snprintf_c(buf + at, cap - at, "%s%.*g", k ? "," : "", digits, x[k]);
    buf[at++] = '\n';
    buf[at] = '\0';
  }
  *text = buf;
  if (len)
    *len = at;
  return IMPACTFIT_OK;
}
