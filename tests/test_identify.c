/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The identify module (include/impactfit/identify.h) against exact and independently derived
 * results:
 *  - the CSV parser: every rejection with its file, line and reason; valid files in all the
 *    accepted spellings;
 *  - synthetic data: noise-free rows equal direct engine simulations; the noise has the requested
 *    spread (sample statistics) and is reproducible by seed;
 *  - exact round trips (simulate with known parameters → fit) for the three models, fixed
 *    parameters and another transition condition;
 *  - standard errors: (a) a one-parameter case against the analytic derivative of the exact
 *    Hunt–Crossley relation (derived at test_se_analytic); (b) a three-parameter case against
 *    s² (JᵀJ)⁻¹ computed here from a Jacobian of impactfit_identify_predict and a Cholesky solve
 *    (a second method for both the derivatives and the linear algebra); (c) repeated seeded noisy
 *    fits: the true parameters fall within two standard errors in most trials, and the spread of
 *    the estimates matches the standard errors;
 *  - identifiability: one velocity with e and dt leaves n, k, λ undetermined along a direction
 *    derived here from Δτ(ε, n) (test_unidentifiable); n has no effect on Hunt–Crossley e;
 *  - the per-row damping against the true damping and Zhang's Eq. 53 written out;
 *  - error paths. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_identify_workspace *ws;

/* ---- helpers --------------------------------------------------------------------------------- */

typedef struct dataset {
  impactfit_identify_data d;
  impactfit_identify_row rows[256];
} dataset;

/* nv velocities equally spaced on [v0, v1] (v0 only when nv = 1), each repeated rep times. */
static int make_data(dataset *s, const double value[4], double v0, double v1, int nv, int rep, double mass,
                     unsigned cols, double noise, unsigned long seed, const impactfit_transition *tr) {
  memset(s, 0, sizeof *s);
  s->d.row = s->rows;
  s->d.rows = (size_t)(nv * rep);
  s->d.columns = cols | IMPACTFIT_IDENTIFY_COL_MASS;
  snprintf(s->d.source, sizeof s->d.source, "synthetic");
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < rep; j++) {
      s->rows[i * rep + j].v = nv > 1 ? v0 + (v1 - v0) * i / (nv - 1) : v0;
      s->rows[i * rep + j].mass = mass;
    }
  impactfit_error err;
  int st = impactfit_identify_synth(ws, &s->d, value, tr, noise, seed, &err);
  if (st)
    fprintf(stderr, "  synth failed: %s\n", err.message);
  return st;
}

static double fit_coord(int slot, double v) { return slot >= 2 ? log(v) : v; }

/* ---- parser ---------------------------------------------------------------------------------- */

static void expect_reject(const char *text, size_t len, int line, const char *reason) {
  impactfit_identify_data *d = (impactfit_identify_data *)1;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_identify_data_parse(text, len, "f.csv", &d, &err);
  char where[32];
  snprintf(where, sizeof where, "f.csv:%d: ", line);
  CHECK(st == IMPACTFIT_EPARSE, "parse %.40s: status %d, want EPARSE", text, st);
  CHECK(d == NULL, "parse %.40s: out is NULL on failure", text);
  CHECK(strncmp(err.message, where, strlen(where)) == 0, "parse %.40s: message '%s' starts with '%s'", text,
        err.message, where);
  CHECK(strstr(err.message, reason) != NULL, "parse %.40s: message '%s' names '%s'", text, err.message, reason);
  if (st == 0)
    impactfit_identify_data_free(d);
}

static void rej(const char *text, int line, const char *reason) { expect_reject(text, strlen(text), line, reason); }

static void test_parser(void) {
  /* valid: any column order, comments, blank lines, blanks around fields, CRLF, no final newline */
  const char *ok = "# drop test\n\n  fmax , v,e ,dt,mass\r\n100, 1.5 ,0.8,1e-4,0.05\r\n"
                   "# a comment between rows\n  \t\n200,3,0.75,9e-5,0.06";
  impactfit_identify_data *d = NULL;
  impactfit_error err;
  int st = impactfit_identify_data_parse(ok, strlen(ok), "ok.csv", &d, &err);
  CHECK(st == 0, "valid file parses (%s)", st ? err.message : "");
  if (!st) {
    CHECK(d->rows == 2, "two rows (got %zu)", d->rows);
    CHECK(d->columns == (IMPACTFIT_IDENTIFY_COL_DT | IMPACTFIT_IDENTIFY_COL_FMAX | IMPACTFIT_IDENTIFY_COL_MASS),
          "columns mask 0x%x", d->columns);
    CHECK(d->row[0].v == 1.5 && d->row[0].e == 0.8 && d->row[0].dt == 1e-4 && d->row[0].fmax == 100.0 &&
              d->row[0].mass == 0.05 && d->row[0].line == 4,
          "row 0 values and line");
    CHECK(d->row[1].v == 3.0 && d->row[1].e == 0.75 && d->row[1].line == 7, "row 1 values and line");
    CHECK(strcmp(d->source, "ok.csv") == 0, "source name kept");
    CHECK(impactfit_identify_data_set_mass(d, 1.0, &err) == IMPACTFIT_EINVAL, "mass twice refused");
    impactfit_identify_data_free(d);
  }
  const char bom[] = "\xEF\xBB\xBFv,e\n2,0.5\n";
  st = impactfit_identify_data_parse(bom, sizeof bom - 1, "bom.csv", &d, &err);
  CHECK(st == 0 && d->rows == 1 && d->row[0].v == 2.0, "UTF-8 byte order mark skipped");
  impactfit_identify_data_free(st ? NULL : d);
  st = impactfit_identify_data_parse("v,e\n1,1\n", 8, NULL, &d, &err);
  CHECK(st == 0 && d && d->rows == 1 && d->row[0].e == 1.0 && d->row[0].mass == 0.0 && strcmp(d->source, "<data>") == 0,
        "e = 1 accepted, no mass yet, default source name");
  if (!st) {
    CHECK(impactfit_identify_data_check(d, &err) == IMPACTFIT_EINVAL && strstr(err.message, "mass"),
          "check: no mass (%s)", err.message);
    CHECK(impactfit_identify_data_set_mass(d, -1.0, &err) == IMPACTFIT_EINVAL, "negative mass refused");
    CHECK(impactfit_identify_data_set_mass(d, NAN, &err) == IMPACTFIT_EINVAL, "NaN mass refused");
    CHECK(impactfit_identify_data_set_mass(d, 2.0, &err) == 0 && d->row[0].mass == 2.0, "mass set");
    CHECK(impactfit_identify_data_check(d, &err) == 0, "check passes with a mass");
    impactfit_identify_data_free(d);
  }
  impactfit_identify_data_free(NULL);

  /* every rejection: file, line, reason */
  rej("", 1, "empty file");
  rej("# only a comment\n\n", 2, "empty file");
  rej("v,e\n", 1, "no data rows");
  rej("v,e\n# nothing\n", 1, "no data rows");
  rej("v\n1\n", 1, "missing column e");
  rej("e,dt\n0.5,1\n", 1, "missing column v");
  rej("v,e,x\n1,0.5,1\n", 1, "unknown column 'x'");
  rej("v,e,V\n", 1, "unknown column 'V'");
  rej("v,e,v\n", 1, "duplicate column 'v'");
  rej("v,e,dt,fmax,mass,e\n", 1, "duplicate column 'e'");
  rej("v,e,dt,fmax,mass,zz\n", 1, "unknown column 'zz'");
  rej("v,,e\n", 1, "empty column name");
  rej("v,e\n1,0.5,3\n", 2, "3 fields");
  rej("v,e\n1\n", 2, "1 field,");
  rej("v,e\n1,0.5,\n", 2, "3 fields");
  rej("v,e\n1,\n", 2, "column e: empty field");
  rej("v,e\nabc,0.5\n", 2, "column v: 'abc' is not a number");
  rej("v,e\n1,0.5x\n", 2, "column e: '0.5x' is not a number");
  rej("v,e\n1,0.5 0.6\n", 2, "is not a number");
  rej("v,e\n\"1\",0.5\n", 2, "is not a number");
  rej("v,e\n1\x01,0.5\n", 2, "column v: '1?' is not a number"); /* control characters not echoed */
  rej("\xEF\xBB\xBFv,x\n", 1, "unknown column 'x'");
  rej("v,e\nnan,0.5\n", 2, "column v: 'nan' is not a finite number");
  rej("v,e\n1,NaN\n", 2, "not a finite number");
  rej("v,e\ninf,0.5\n", 2, "not a finite number");
  rej("v,e\n-Infinity,0.5\n", 2, "not a finite number");
  rej("v,e\n1e999,0.5\n", 2, "not a finite number");
  rej("v,e\n1e-320,0.5\n", 2, "outside the range");
  rej("v,e\n-1,0.5\n", 2, "column v: the approach velocity must be > 0, got '-1'");
  rej("v,e\n0,0.5\n", 2, "must be > 0");
  rej("v,e\n1,1.5\n", 2, "column e: the coefficient of restitution must be in (0, 1]");
  rej("v,e\n1,0\n", 2, "(0, 1]");
  rej("v,e\n1,-0.2\n", 2, "(0, 1]");
  rej("v,e\n1,1.0000001\n", 2, "(0, 1]");
  rej("v,e,dt\n1,0.5,0\n", 2, "column dt: the contact duration must be > 0");
  rej("v,e,fmax\n1,0.5,-3\n", 2, "column fmax: the peak force must be > 0");
  rej("v,e,mass\n1,0.5,0\n", 2, "column mass: the effective mass must be > 0");
  rej("# c\n\nv,e\n1,0.5\n# x\n1,2\n", 6, "(0, 1]"); /* lines count comments and blanks */
  rej("v,e\r\n1,0.5\r\n2,0.5,1\r\n", 3, "3 fields");
  {
    char text[1200 + 16];
    strcpy(text, "v,e\n1,0.5");
    size_t l = strlen(text);
    memset(text + l, ' ', 1100);
    strcpy(text + l + 1100, "\n");
    rej(text, 2, "longer than 1024");
  }
  {
    const char text[] = "v,e\n1,0.\0005\n";
    expect_reject(text, sizeof text - 1, 2, "NUL byte");
  }
  {
    /* IMPACTFIT_IDENTIFY_MAX_ROWS + 1 rows */
    size_t n = IMPACTFIT_IDENTIFY_MAX_ROWS + 1, cap = 8 + n * 8;
    char *text = malloc(cap), *p = text;
    if (text) {
      p += sprintf(p, "v,e\n");
      for (size_t i = 0; i < n; i++)
        p += sprintf(p, "1,0.5\n");
      expect_reject(text, (size_t)(p - text), (int)n + 1, "more than 100000 data rows");
      free(text);
    }
  }
  /* read: a missing file is an input error naming it */
  st = impactfit_identify_data_read("/nonexistent/drops.csv", &d, &err);
  CHECK(st == IMPACTFIT_EINVAL && strstr(err.message, "/nonexistent/drops.csv") && d == NULL,
        "missing file: EINVAL naming it (%s)", err.message);
}

/* ---- synthetic data -------------------------------------------------------------------------- */

static void test_synth(void) {
  const double val[4] = {1.4, 0.6, 3e8, 2e5};
  dataset s;
  CHECK(make_data(&s, val, 0.3, 2.0, 5, 1, 0.2, 3, 0.0, 1, NULL) == 0, "synth exact");
  /* noise-free rows are the engine's results (an independent call) */
  impactfit_impact_workspace *iw = impactfit_impact_alloc();
  for (size_t i = 0; i < s.d.rows; i++) {
    impactfit_impact_params ip = impactfit_impact_default_params();
    ip.n = val[0], ip.m = val[1], ip.k = val[2], ip.c = val[3], ip.mass = 0.2, ip.v = s.rows[i].v;
    impactfit_impact_result r;
    CHECK(impactfit_impact_solve(iw, &ip, &r, NULL) == 0, "engine row %zu", i);
    CHECK_REL(s.rows[i].e, r.e_out, 1e-15, "synth e row %zu", i);
    CHECK_REL(s.rows[i].dt, r.t_contact, 1e-15, "synth dt row %zu", i);
    CHECK_REL(s.rows[i].fmax, r.f_max, 1e-15, "synth fmax row %zu", i);
  }
  impactfit_impact_free(iw);
  /* noise: 250 rows at one velocity → 250 relative deviations per quantity with standard deviation
     0.02; the sample standard deviation of 250 normal values is within 0.02 (1 ± 0.2) with
     probability > 0.999 (its relative spread is 1/sqrt(2·249) = 4.5 %), the mean within 4σ/sqrt(250) */
  dataset a, b;
  make_data(&a, val, 1.0, 1.0, 1, 250, 0.2, 3, 0.0, 1, NULL);
  make_data(&b, val, 1.0, 1.0, 1, 250, 0.2, 3, 0.02, 99, NULL);
  double m[3] = {0}, q[3] = {0};
  for (int i = 0; i < 250; i++) {
    double x[3] = {b.rows[i].e / a.rows[i].e - 1.0, b.rows[i].dt / a.rows[i].dt - 1.0,
                   b.rows[i].fmax / a.rows[i].fmax - 1.0};
    for (int k = 0; k < 3; k++)
      m[k] += x[k], q[k] += x[k] * x[k];
  }
  for (int k = 0; k < 3; k++) {
    double mean = m[k] / 250.0, sd = sqrt((q[k] - 250.0 * mean * mean) / 249.0);
    CHECK_REL(sd, 0.02, 0.2, "noise sample sd of quantity %d", k);
    CHECK(fabs(mean) < 4.0 * 0.02 / sqrt(250.0), "noise mean of quantity %d: %g", k, mean);
  }
  /* reproducible by seed, different for another seed */
  dataset c;
  make_data(&c, val, 1.0, 1.0, 1, 250, 0.2, 3, 0.02, 99, NULL);
  CHECK(memcmp(b.rows, c.rows, 250 * sizeof b.rows[0]) == 0, "same seed, same data");
  make_data(&c, val, 1.0, 1.0, 1, 250, 0.2, 3, 0.02, 100, NULL);
  CHECK(c.rows[0].e != b.rows[0].e, "another seed, other data");
  /* e = 1 (no damping) with noise: every noisy e is still in (0, 1] (redrawn) */
  const double undamped[4] = {1.5, 0.0, 1e9, 0.0};
  make_data(&c, undamped, 1.0, 1.0, 1, 200, 0.2, 3, 0.05, 5, NULL);
  int inside = 1;
  for (int i = 0; i < 200; i++)
    inside &= c.rows[i].e > 0.0 && c.rows[i].e <= 1.0;
  CHECK(inside, "noisy e of an undamped impact stays in (0, 1]");
  impactfit_error err;
  CHECK(impactfit_identify_synth(ws, &c.d, val, NULL, 0.6, 1, &err) == IMPACTFIT_EINVAL, "noise > 0.5");
  CHECK(impactfit_identify_synth(ws, &c.d, val, NULL, -0.1, 1, &err) == IMPACTFIT_EINVAL, "noise < 0");
  c.rows[3].mass = 0.0;
  CHECK(impactfit_identify_synth(ws, &c.d, val, NULL, 0.0, 1, &err) == IMPACTFIT_EINVAL, "row without mass");
}

/* ---- exact round trips ----------------------------------------------------------------------- */

static void round_trip(const char *what, const impactfit_identify_model *model, const double val[4], const int fixed[4],
                       unsigned cols, int nv, const impactfit_transition *tr, double tol) {
  dataset s;
  if (make_data(&s, val, 0.4, 2.5, nv, 1, 0.05, cols, 0.0, 1, tr)) {
    CHECK(0, "%s: synth", what);
    return;
  }
  impactfit_identify_params p = impactfit_identify_default_params();
  p.model = model;
  if (tr)
    p.transition = tr;
  for (int k = 0; k < 4; k++)
    if (fixed && fixed[k])
      p.fixed[k] = 1, p.value[k] = val[k];
  impactfit_identify_result r;
  impactfit_identify_row_fit rf[256];
  impactfit_error err;
  int st = impactfit_identify_fit(ws, &s.d, &p, &r, rf, &err);
  CHECK(st == 0, "%s: fit (%s)", what, st ? err.message : "");
  if (st)
    return;
  for (int k = 0; k < 4; k++)
    if (val[k] == 0.0)
      CHECK_ABS(r.value[k], 0.0, 0.0, "%s: %s", what, impactfit_identify_param_name(k));
    else
      CHECK_REL(r.value[k], val[k], tol, "%s: %s", what, impactfit_identify_param_name(k));
  CHECK(r.cost < 1e-20, "%s: cost %g at the exact parameters", what, r.cost);
  int all_id = 1;
  for (int k = 0; k < 4; k++)
    all_id &= r.identifiable[k] && !r.at_bound[k];
  CHECK(all_id && r.nwarn == 0, "%s: identifiable, inside the bounds, no warning (%s)", what,
        r.nwarn ? r.warning[0] : "");
  double maxr = 0.0;
  for (size_t i = 0; i < s.d.rows; i++)
    maxr = fmax(maxr, fmax(fabs(rf[i].r_e), fmax(fabs(rf[i].r_dt), fabs(rf[i].r_fmax))));
  CHECK(maxr < 1e-10, "%s: row residuals %g", what, maxr);
}

/* Data made in code (speeds × repeat), written as CSV and read back by the parser: 17 digits give
 * the same doubles, 10 digits the values to 5e-10; the spread of per-row damping is the sample
 * standard deviation over the mean, worked by hand. */
static void test_data_helpers(void) {
  const double v[2] = {0.5, 2.0};
  impactfit_identify_data *d = NULL, *back = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  CHECK(impactfit_identify_data_speeds(v, 2, 3, 0.2, &d, &err) == 0, "data_speeds: %s", err.message);
  if (!d)
    return;
  CHECK(d->rows == 6 && d->columns == IMPACTFIT_IDENTIFY_COL_MASS, "6 rows, mass column");
  CHECK(d->row[2].v == 0.5 && d->row[3].v == 2.0 && d->row[5].mass == 0.2, "v[0] x 3 then v[1] x 3");
  const double value[4] = {1.5, 1.5, 1e6, 3e5}; /* eps = lambda v / k = 0.15 and 0.6 */
  CHECK(impactfit_identify_synth(ws, d, value, NULL, 0.0, 1, &err) == 0, "synth: %s", err.message);
  const unsigned all = IMPACTFIT_IDENTIFY_COL_DT | IMPACTFIT_IDENTIFY_COL_FMAX | IMPACTFIT_IDENTIFY_COL_MASS;
  for (int digits = 10; digits <= 17; digits += 7) {
    char *text = NULL;
    size_t len = 0;
    CHECK(impactfit_identify_data_format(d, all, digits, &text, &len, &err) == 0, "format: %s", err.message);
    if (!text)
      continue;
    CHECK(strncmp(text, "v,e,dt,fmax,mass\n", 17) == 0 && strlen(text) == len, "header and length");
    CHECK(impactfit_identify_data_parse(text, len, "fmt", &back, &err) == 0, "parse back: %s", err.message);
    free(text);
    if (!back)
      continue;
    double tol = digits == 17 ? 0.0 : 5e-10;
    CHECK(back->rows == d->rows && back->columns == all, "rows and columns read back");
    for (size_t i = 0; i < d->rows && back->rows == d->rows; i++) {
      CHECK_REL(back->row[i].v, d->row[i].v, tol, "v row %zu, %d digits", i, digits);
      CHECK_REL(back->row[i].e, d->row[i].e, tol, "e row %zu, %d digits", i, digits);
      CHECK_REL(back->row[i].dt, d->row[i].dt, tol, "dt row %zu, %d digits", i, digits);
      CHECK_REL(back->row[i].fmax, d->row[i].fmax, tol, "fmax row %zu, %d digits", i, digits);
      CHECK_REL(back->row[i].mass, d->row[i].mass, tol, "mass row %zu, %d digits", i, digits);
    }
    impactfit_identify_data_free(back);
    back = NULL;
  }
  char *text = NULL;
  CHECK(impactfit_identify_data_format(d, IMPACTFIT_IDENTIFY_COL_DT, 3, &text, NULL, &err) == 0, "format dt");
  CHECK(text && strncmp(text, "v,e,dt\n0.5,0.", 13) == 0, "only the columns asked: %s", text ? text : "");
  free(text);
  CHECK(impactfit_identify_data_format(d, 0, 18, &text, NULL, NULL) == IMPACTFIT_EINVAL, "18 digits rejected");
  impactfit_identify_data_free(d);
  const double bad[2] = {1.0, -1.0};
  CHECK(impactfit_identify_data_speeds(bad, 2, 1, 1.0, &d, &err) == IMPACTFIT_EINVAL && !d &&
            strstr(err.message, "approach velocities must be > 0"),
        "negative speed: %s", err.message);
  CHECK(impactfit_identify_data_speeds(v, 2, IMPACTFIT_IDENTIFY_MAX_ROWS / 2 + 1, 1.0, &d, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "rows, at most"),
        "too many rows: %s", err.message);
  CHECK(impactfit_identify_data_speeds(v, 2, 1, 0.0, &d, NULL) == IMPACTFIT_EINVAL, "mass 0");
  /* spread: lambda_hc 1, 2, 3 (mean 2, s = 1), c_linear constant, lambda_m 1, 1, 4 (mean 2, s = sqrt 3);
   * a failed row (status set) is left out whatever its values */
  impactfit_identify_row_damping pr[4] = {{1.0, 2.0, 1.0, 0.0, 0},
                                          {2.0, 2.0, 1.0, 0.0, 0},
                                          {100.0, 100.0, 100.0, 0.0, IMPACTFIT_ENOCONV},
                                          {3.0, 2.0, 4.0, 0.0, 0}};
  double cv[3] = {-1, -1, -1};
  CHECK(impactfit_identify_per_row_spread(pr, 4, cv) == 3, "three rows solved");
  CHECK_REL(cv[0], 0.5, 1e-15, "cv lambda_hc = 1/2");
  CHECK_ABS(cv[1], 0.0, 1e-15, "cv of a constant = 0");
  CHECK_REL(cv[2], sqrt(3.0) / 2.0, 1e-15, "cv lambda_m = sqrt(3)/2");
  cv[0] = -1.0;
  CHECK(impactfit_identify_per_row_spread(pr, 1, cv) == 1 && cv[0] == -1.0, "one row: no spread computed");
}

static void test_round_trips(void) {
  /* Measured recovery is ~1e-14 (Gauss–Newton after BOBYQA); 1e-8 leaves room for platforms and
     is far below the 1e-6 the issue asks for. */
  const double tol = 1e-8;
  const double hc[4] = {1.5, 1.5, 5e9, 2e9};
  round_trip("hc e,dt,fmax", impactfit_identify_hc, hc, NULL, 3, 5, NULL, tol);
  round_trip("hc e,dt", impactfit_identify_hc, hc, NULL, IMPACTFIT_IDENTIFY_COL_DT, 5, NULL, tol);
  round_trip("hc e,fmax", impactfit_identify_hc, hc, NULL, IMPACTFIT_IDENTIFY_COL_FMAX, 5, NULL, tol);
  const int fix_n[4] = {1, 0, 0, 0};
  const double hc1[4] = {1.0, 1.0, 2e6, 4e5};
  round_trip("hc n = 1 fixed", impactfit_identify_hc, hc1, fix_n, 3, 4, NULL, tol);
  const double lin[4] = {1.3, 0.0, 8e7, 150.0};
  round_trip("linear e,dt,fmax", impactfit_identify_linear, lin, NULL, 3, 5, NULL, tol);
  round_trip("linear condition A", impactfit_identify_linear, lin, NULL, 3, 5, impactfit_transition_A, tol);
  const int fix_k[4] = {0, 0, 1, 0};
  round_trip("linear e only, k fixed", impactfit_identify_linear, lin, fix_k, 0, 6, NULL, tol);
  const double zh[4] = {1.5, 0.8, 5e9, 1e7};
  round_trip("zhang e,dt,fmax", impactfit_identify_zhang, zh, NULL, 3, 6, NULL, tol);
  const int fix_m[4] = {0, 1, 0, 0};
  const double zh2[4] = {1.2, 0.25, 1e8, 3e4};
  round_trip("zhang m = 0.25 fixed", impactfit_identify_zhang, zh2, fix_m, 3, 5, NULL, tol);
  const int fix_nk[4] = {1, 1, 1, 0};
  round_trip("zhang only lambda free, e only", impactfit_identify_zhang, zh, fix_nk, 0, 3, NULL, tol);
}

/* ---- standard errors ------------------------------------------------------------------------- */

/* One free parameter, ln λ of a Hunt–Crossley contact with n, k fixed, e only. Residuals
 * r_i = (e(ε_i) − e_i)/e_i with ε_i = λ v_i / k, so ∂r_i/∂ln λ = ε_i e'(ε_i) / e_i, where e(ε)
 * solves F(e, ε) = ln(1 + ε) − ln(1 − eε) − ε(1 + e) = 0 (hc.h) and, by implicit
 * differentiation, e'(ε) = −F_ε/F_e with F_ε = 1/(1+ε) + e/(1−eε) − (1+e), F_e = ε/(1−eε) − ε.
 * Then SE(ln λ) = s / sqrt(Σ J_i²), s² = S/(N − 1), and at the optimum Σ r_i J_i = 0. */
static void test_se_analytic(void) {
  const double val[4] = {1.5, 1.5, 5e9, 2e9};
  dataset s;
  make_data(&s, val, 0.3, 3.0, 8, 2, 0.064, 0, 0.01, 11, NULL);
  impactfit_identify_params p = impactfit_identify_default_params();
  p.fixed[0] = p.fixed[2] = 1;
  p.value[0] = 1.5, p.value[2] = 5e9;
  impactfit_identify_result r;
  impactfit_error err;
  int st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  CHECK(st == 0 && r.nfree == 1, "one-parameter fit (%s)", st ? err.message : "");
  if (st)
    return;
  double lam = r.value[3], S = 0.0, JJ = 0.0, rJ = 0.0;
  for (size_t i = 0; i < s.d.rows; i++) {
    double eps = lam * s.rows[i].v / 5e9, e;
    impactfit_hc_e(eps, &e, NULL);
    double Fe = eps / (1.0 - e * eps) - eps;
    double Feps = 1.0 / (1.0 + eps) + e / (1.0 - e * eps) - (1.0 + e);
    double J = eps * (-Feps / Fe) / s.rows[i].e, res = (e - s.rows[i].e) / s.rows[i].e;
    S += res * res, JJ += J * J, rJ += res * J;
  }
  double se = sqrt(S / (double)(s.d.rows - 1)) / sqrt(JJ);
  CHECK_REL(r.cost, S, 1e-10, "cost = sum of squared relative residuals (exact e(eps))");
  CHECK(fabs(rJ) <= 1e-6 * sqrt(S * JJ), "optimality: sum r J = %g (scale %g)", rJ, sqrt(S * JJ));
  CHECK_REL(r.se_fit[3], se, 1e-5, "SE(ln lambda) against the analytic derivative");
  CHECK_REL(r.se[3], lam * se, 1e-5, "SE(lambda) = lambda SE(ln lambda)");
  CHECK_REL(r.sigma, sqrt(S / (double)(s.d.rows - 1)), 1e-10, "s");
  CHECK(r.dof == (int)s.d.rows - 1 && r.nres == (int)s.d.rows, "dof, residual count");
  CHECK(r.se_fit[0] == 0.0 && r.se_fit[2] == 0.0 && r.free[0] == 0 && r.free[2] == 0, "fixed slots");
}

/* Three parameters (hc: n, ln k, ln λ), noisy e, dt, fmax with weights 1, 2, 0.5: the covariance
 * s² (JᵀJ)⁻¹, J computed here by central differences (step 1e-4) of impactfit_identify_predict's
 * residuals, the inverse by a Cholesky factorisation (GSL): a second route to the same numbers. */
static void test_se_second_method(void) {
  const double val[4] = {1.5, 1.5, 5e9, 2e9};
  const double w[3] = {1.0, 2.0, 0.5};
  dataset s;
  make_data(&s, val, 0.5, 3.0, 6, 2, 0.064, 3, 0.01, 21, NULL);
  impactfit_identify_params p = impactfit_identify_default_params();
  for (int q = 0; q < 3; q++)
    p.weight[q] = w[q];
  impactfit_identify_result r;
  impactfit_error err;
  int st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  CHECK(st == 0, "three-parameter fit (%s)", st ? err.message : "");
  if (st)
    return;
  size_t N = s.d.rows * 3;
  double *J = calloc(N * 3, sizeof *J), r0[256 * 3];
  impactfit_identify_row_fit rf[256];
  double u[3] = {r.value[0], log(r.value[2]), log(r.value[3])}, S = 0.0;
  for (int j = -1; j < 3; j++)
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      if (j < 0 && sgn > 0)
        continue;
      double uu[3] = {u[0], u[1], u[2]};
      if (j >= 0)
        uu[j] += sgn * 1e-4;
      double v[4] = {uu[0], uu[0], exp(uu[1]), exp(uu[2])};
      impactfit_identify_predict(ws, &s.d, v, NULL, w, rf, j < 0 ? &S : NULL, NULL);
      for (size_t i = 0; i < s.d.rows; i++) {
        double rr[3] = {w[0] * rf[i].r_e, w[1] * rf[i].r_dt, w[2] * rf[i].r_fmax};
        for (int q = 0; q < 3; q++) {
          if (j < 0)
            r0[i * 3 + (size_t)q] = rr[q];
          else
            J[(i * 3 + (size_t)q) * 3 + (size_t)j] += sgn * rr[q] / 2e-4;
        }
      }
    }
  (void)r0;
  CHECK_REL(r.cost, S, 1e-12, "cost from predict");
  gsl_matrix *A = gsl_matrix_calloc(3, 3);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      double x = 0.0;
      for (size_t i = 0; i < N; i++)
        x += J[i * 3 + (size_t)a] * J[i * 3 + (size_t)b];
      gsl_matrix_set(A, (size_t)a, (size_t)b, x);
    }
  gsl_linalg_cholesky_decomp1(A);
  gsl_linalg_cholesky_invert(A);
  double s2 = S / (double)(N - 3), cov[3][3];
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      cov[a][b] = s2 * gsl_matrix_get(A, (size_t)a, (size_t)b);
  gsl_matrix_free(A);
  free(J);
  const int slot[3] = {0, 2, 3};
  for (int a = 0; a < 3; a++) {
    CHECK_REL(r.se_fit[slot[a]], sqrt(cov[a][a]), 1e-4, "SE of %s against s2 (J'J)^-1",
              impactfit_identify_param_name(slot[a]));
    for (int b = 0; b < 3; b++)
      CHECK_ABS(r.corr[slot[a]][slot[b]], cov[a][b] / sqrt(cov[a][a] * cov[b][b]), 1e-5, "correlation %s-%s",
                impactfit_identify_param_name(slot[a]), impactfit_identify_param_name(slot[b]));
  }
  CHECK_REL(r.se[2], r.value[2] * r.se_fit[2], 1e-14, "SE of k in N/m^n");
}

/* Repeated seeded trials with 1 % noise on e, dt, fmax (4 velocities × 3 drops). Under the
 * linearised model each estimate is normal around the truth with the reported standard error, so
 * |estimate − truth| ≤ 2 SE in about 95 % of the trials; we require 80 % over trials × parameters
 * (with 60 draws, fewer than 80 % has probability ~1e-5 if the SEs are right, while SEs too small
 * by a factor 2 give ~68 %). The root-mean-square error over the T trials must match the
 * root-mean-square SE within exp(±3/sqrt(2T)): the log of the sample rms of T normal values has
 * a standard deviation of about 1/sqrt(2T), so this is three of them ([0.62, 1.6] for T = 20:
 * SEs wrong by a factor 2 fail). */
static void noisy_trials(const char *what, const impactfit_identify_model *model, const double val[4], int trials,
                         unsigned long seed0) {
  int inside = 0, total = 0;
  double se2[4] = {0}, err2[4] = {0};
  for (int t = 0; t < trials; t++) {
    dataset s;
    make_data(&s, val, 0.5, 2.0, 4, 3, 0.033, 3, 0.01, seed0 + (unsigned long)t, NULL);
    impactfit_identify_params p = impactfit_identify_default_params();
    p.model = model;
    p.seed = seed0 + (unsigned long)t;
    impactfit_identify_result r;
    impactfit_error err;
    if (impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err)) {
      CHECK(0, "%s trial %d: %s", what, t, err.message);
      continue;
    }
    for (int k = 0; k < 4; k++) {
      if (!r.free[k])
        continue;
      double d = fit_coord(k, r.value[k]) - fit_coord(k, val[k]);
      total++;
      inside += r.identifiable[k] && fabs(d) <= 2.0 * r.se_fit[k];
      se2[k] += r.se_fit[k] * r.se_fit[k];
      err2[k] += d * d;
    }
  }
  CHECK(inside >= 0.8 * total, "%s: truth within 2 SE in %d of %d", what, inside, total);
  for (int k = 0; k < 4; k++) {
    if (se2[k] == 0.0)
      continue;
    double ratio = sqrt(err2[k] / se2[k]), lim = exp(3.0 / sqrt(2.0 * trials));
    CHECK(ratio > 1.0 / lim && ratio < lim, "%s: %s rms error / rms SE = %.3f (limits %.2f, %.2f)", what,
          impactfit_identify_param_name(k), ratio, 1.0 / lim, lim);
  }
}

static void test_noisy(void) {
  const double hc[4] = {1.5, 1.5, 1e10, 3e9};
  noisy_trials("hc", impactfit_identify_hc, hc, 20, 1000);
  const double zh[4] = {1.5, 0.8, 1e10, 1e7};
  noisy_trials("zhang", impactfit_identify_zhang, zh, 10, 2000);
}

/* ---- identifiability ------------------------------------------------------------------------- */

/* One velocity v, mass, e and dt only, Hunt–Crossley (n, k, λ free). e depends on ε = λ v / k
 * only, so along the undetermined direction d ln λ = d ln k; dt = Δτ(ε, n)/ω_i with
 * ln ω_i = (K + (n − 1) ln v − ln mass)/(n + 1), K = ln k. At fixed ε,
 *     d ln dt = [∂ln Δτ/∂n − (2 ln v − K + ln mass)/(n + 1)²] dn − dK/(n + 1) = 0,
 * so dK/dn = (n + 1) ∂ln Δτ/∂n − (2 ln v − K + ln mass)/(n + 1), with ∂ln Δτ/∂n from
 * impactfit_hc_impact_time by central differences. */
static void test_unidentifiable(void) {
  const double val[4] = {1.5, 1.5, 5e9, 2e9};
  const double v = 1.2, mass = 0.064;
  dataset s;
  make_data(&s, val, v, v, 1, 4, mass, IMPACTFIT_IDENTIFY_COL_DT, 0.0, 1, NULL);
  impactfit_identify_params p = impactfit_identify_default_params();
  impactfit_identify_result r;
  impactfit_error err;
  int st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  CHECK(st == 0, "one velocity: the fit still returns 0 (%s)", st ? err.message : "");
  if (st)
    return;
  CHECK(r.n_null == 1, "one undetermined direction (got %d)", r.n_null);
  CHECK(!r.identifiable[0] && !r.identifiable[2] && !r.identifiable[3], "n, k, lambda flagged");
  CHECK(r.se_fit[0] == -1.0 && r.se[2] == -1.0, "no standard error for them");
  CHECK(r.nwarn >= 1 && strstr(r.warning[0], "not identifiable") && strstr(r.warning[0], "n, k, lambda") &&
            strstr(r.warning[0], "same velocity"),
        "warning names the parameters (%s)", r.nwarn ? r.warning[0] : "");
  CHECK(r.cost < 1e-20, "the data are still fitted exactly (cost %g)", r.cost);
  /* the direction, at the fitted point (any point of the valley fits) */
  double n = r.value[0], K = log(r.value[2]), eps = r.value[3] * v / r.value[2], dp, dm, h = 1e-4;
  impactfit_impact_workspace *iw = impactfit_impact_alloc();
  impactfit_hc_impact_time(iw, eps, n + h, &dp, NULL, NULL);
  impactfit_hc_impact_time(iw, eps, n - h, &dm, NULL, NULL);
  impactfit_impact_free(iw);
  double dKdn = (n + 1.0) * (log(dp) - log(dm)) / (2.0 * h) - (2.0 * log(v) - K + log(mass)) / (n + 1.0);
  CHECK_REL(r.null_dir[0][2] / r.null_dir[0][0], dKdn, 1e-5, "direction: d ln k / dn");
  CHECK_REL(r.null_dir[0][3] / r.null_dir[0][2], 1.0, 1e-6, "direction: d ln lambda = d ln k");
  CHECK_REL(hypot(r.null_dir[0][0], hypot(r.null_dir[0][2], r.null_dir[0][3])), 1.0, 1e-12, "unit vector");
  CHECK(r.sv[2] < 1e-6 && r.sv[1] > 1e-3, "singular values %g, %g", r.sv[1], r.sv[2]);

  /* the same kind of data at four velocities determine all three */
  make_data(&s, val, 0.5, 2.0, 4, 1, mass, IMPACTFIT_IDENTIFY_COL_DT, 0.0, 1, NULL);
  st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  CHECK(st == 0 && r.n_null == 0 && r.identifiable[0] && r.identifiable[2] && r.identifiable[3] && r.nwarn == 0,
        "four velocities: identifiable");
  CHECK_REL(r.value[0], 1.5, 1e-8, "four velocities: n recovered");

  /* Hunt–Crossley e does not depend on n at all (e = e(λ v / k)): with k fixed and e only, n has no
     effect while λ is determined exactly */
  make_data(&s, val, 0.5, 3.0, 6, 1, mass, 0, 0.0, 1, NULL);
  p.fixed[2] = 1, p.value[2] = 5e9;
  st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  CHECK(st == 0 && r.n_null == 1 && !r.identifiable[0] && r.identifiable[3], "n has no effect on e");
  CHECK(fabs(r.null_dir[0][0]) == 1.0 && r.null_dir[0][3] == 0.0, "direction is n alone");
  CHECK(r.nwarn >= 1 && strstr(r.warning[0], "n has no effect"), "warning (%s)", r.nwarn ? r.warning[0] : "");
  CHECK_REL(r.value[3], 2e9, 1e-9, "lambda still recovered");
  CHECK(r.se_fit[3] > 0.0 && r.se_fit[3] < 1e-6, "lambda standard error finite");
}

/* ---- warnings and the all-fixed case --------------------------------------------------------- */

static void test_warnings(void) {
  const double val[4] = {1.5, 1.5, 5e9, 2e9};
  dataset s;
  make_data(&s, val, 0.5, 3.0, 5, 1, 0.064, 3, 0.0, 1, NULL);
  impactfit_identify_params p = impactfit_identify_default_params();
  p.n_lo = 1.6, p.n_hi = 2.5;
  impactfit_identify_result r;
  impactfit_error err;
  int st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  CHECK(st == 0 && r.at_bound[0] && r.value[0] == 1.6, "n held at its lower bound (%g)", r.value[0]);
  int found = 0;
  for (int i = 0; i < r.nwarn; i++)
    found |= strstr(r.warning[i], "at its lower bound") != NULL;
  CHECK(found, "bound warning");
  /* the wrong damping law: a large misfit is reported */
  p = impactfit_identify_default_params();
  p.model = impactfit_identify_linear;
  st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  found = 0;
  for (int i = 0; i < r.nwarn; i++)
    found |= strstr(r.warning[i], "misfit is large") != NULL;
  CHECK(st == 0 && found && r.rms > 0.1, "linear law on Hunt-Crossley data: large misfit %g", r.rms);
  /* all parameters fixed: only the misfit, equal to predict's */
  p = impactfit_identify_default_params();
  p.fixed[0] = p.fixed[2] = p.fixed[3] = 1;
  p.value[0] = 1.5, p.value[2] = 6e9, p.value[3] = 2e9;
  impactfit_identify_row_fit rf[256];
  double S;
  st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  double v4[4] = {1.5, 1.5, 6e9, 2e9};
  impactfit_identify_predict(ws, &s.d, v4, NULL, NULL, rf, &S, NULL);
  CHECK(st == 0 && r.nfree == 0 && r.value[1] == 1.5, "all fixed: fit returns the given point");
  CHECK_REL(r.cost, S, 1e-14, "all fixed: cost equals predict");
  CHECK(S > 1e-4, "the shifted k does misfit (%g)", S);
  /* no redundancy: one row, e, dt, fmax, three parameters */
  make_data(&s, val, 1.0, 1.0, 1, 1, 0.064, 3, 0.0, 1, NULL);
  p = impactfit_identify_default_params();
  st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
  found = 0;
  for (int i = 0; i < r.nwarn; i++)
    found |= strstr(r.warning[i], "no redundancy") != NULL;
  CHECK(st == 0 && r.dof == 0 && r.sigma == 1.0 && found, "no-redundancy warning, s = 1");
  CHECK_REL(r.value[0], 1.5, 1e-7, "three numbers determine n, k, lambda of Hunt-Crossley");
}

/* ---- per-row damping ------------------------------------------------------------------------- */

static void test_per_row(void) {
  impactfit_identify_row_damping pr[256];
  impactfit_error err;
  dataset s;
  /* Hunt–Crossley data: every row's exact λ is the true λ */
  const double hc[4] = {1.5, 1.5, 5e9, 2e9};
  make_data(&s, hc, 0.5, 3.0, 5, 1, 0.064, 0, 0.0, 1, NULL);
  int st = impactfit_identify_per_row(ws, &s.d, 1.5, 5e9, 0.7, NULL, pr, &err);
  CHECK(st == 0, "per-row hc (%s)", st ? err.message : "");
  for (size_t i = 0; i < s.d.rows; i++)
    CHECK_REL(pr[i].lambda_hc, 2e9, 1e-9, "row %zu: lambda_hc = true lambda", i);
  /* linear data: c_linear is the true c, and the c_opt wrapper agrees */
  const double lin[4] = {1.3, 0.0, 8e7, 150.0};
  make_data(&s, lin, 0.5, 3.0, 5, 1, 0.05, 0, 0.0, 1, NULL);
  st = impactfit_identify_per_row(ws, &s.d, 1.3, 8e7, 0.0, NULL, pr, &err);
  CHECK(st == 0, "per-row linear");
  impactfit_inverse_workspace *iw = impactfit_inverse_alloc();
  for (size_t i = 0; i < s.d.rows; i++) {
    CHECK_REL(pr[i].c_linear, 150.0, 1e-9, "row %zu: c_linear = true c", i);
    CHECK_REL(pr[i].lambda_m, 150.0, 1e-9, "row %zu: m = 0 column is the linear damper", i);
    impactfit_inverse_params ip = impactfit_inverse_default_params();
    ip.n = 1.3;
    impactfit_copt_result cr;
    impactfit_copt_solve(iw, &ip, s.rows[i].e, 8e7, 0.05, s.rows[i].v, 0, &cr, NULL);
    CHECK_REL(pr[i].c_linear, cr.c_opt, 1e-9, "row %zu: c_opt", i);
  }
  impactfit_inverse_free(iw);
  /* Zhang data (m = 0.8): λ_m is the true λ, and α follows Zhang's Eq. 53 solved for α:
     α = 3 mass (m+1)(1−e) v / (4 λ) · [e mass (n+1) v² / (2k)]^(−(m+1)/(n+1)) */
  const double zh[4] = {1.5, 0.8, 5e9, 1e7};
  make_data(&s, zh, 0.5, 3.0, 5, 1, 0.064, 0, 0.0, 1, NULL);
  st = impactfit_identify_per_row(ws, &s.d, 1.5, 5e9, 0.8, NULL, pr, &err);
  CHECK(st == 0, "per-row zhang");
  for (size_t i = 0; i < s.d.rows; i++) {
    double e = s.rows[i].e, v = s.rows[i].v;
    double alpha = 3.0 * 0.064 * 1.8 * (1.0 - e) * v / (4.0 * 1e7) *
                   pow(e * 0.064 * 2.5 * v * v / (2.0 * 5e9), -1.8 / 2.5);
    CHECK_REL(pr[i].lambda_m, 1e7, 1e-9, "row %zu: lambda_m = true lambda", i);
    CHECK_REL(pr[i].alpha, alpha, 1e-9, "row %zu: alpha (Eq. 53)", i);
    CHECK(pr[i].status == 0, "row %zu status", i);
  }
  /* e = 1: no damping, alpha undefined (0) */
  const char *one = "v,e,mass\n1,1,0.1\n";
  impactfit_identify_data *d;
  impactfit_identify_data_parse(one, strlen(one), "one", &d, NULL);
  st = impactfit_identify_per_row(ws, d, 1.5, 1e9, 1.0, NULL, pr, &err);
  CHECK(st == 0 && pr[0].lambda_hc == 0.0 && pr[0].c_linear == 0.0 && pr[0].lambda_m == 0.0 && pr[0].alpha == 0.0,
        "e = 1: zero damping");
  impactfit_identify_data_free(d);
  CHECK(impactfit_identify_per_row(ws, &s.d, -1.0, 5e9, 0.8, NULL, pr, &err) == IMPACTFIT_EINVAL, "n < 0");
  CHECK(impactfit_identify_per_row(ws, &s.d, 1.5, 0.0, 0.8, NULL, pr, &err) == IMPACTFIT_EINVAL, "k = 0");
}

/* ---- invalid input --------------------------------------------------------------------------- */

static void test_errors(void) {
  const double val[4] = {1.5, 1.5, 5e9, 2e9};
  dataset s;
  make_data(&s, val, 0.5, 3.0, 4, 1, 0.064, 3, 0.0, 1, NULL);
  impactfit_identify_result r;
  impactfit_error err;
  impactfit_identify_params p = impactfit_identify_default_params();
#define BAD(stmt, what)                                                                                  \
  do {                                                                                                   \
    p = impactfit_identify_default_params();                                                             \
    stmt;                                                                                                \
    int st_ = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);                                      \
    CHECK(st_ == IMPACTFIT_EINVAL && err.message[0], "%s: EINVAL (got %d: %s)", what, st_, err.message); \
  } while (0)
  BAD(p.model = NULL, "no model");
  BAD(p.transition = NULL, "no transition");
  BAD(p.global = NULL, "no global method");
  BAD(p.n_lo = 0.0, "n_lo = 0");
  BAD((p.n_lo = 2.0, p.n_hi = 1.0), "n_lo > n_hi");
  BAD(p.m_lo = -1.0, "m_lo < 0");
  BAD(p.weight[1] = -1.0, "negative weight");
  BAD(p.weight[0] = NAN, "NaN weight");
  BAD((p.weight[0] = p.weight[1] = p.weight[2] = 0.0), "every weight 0");
  BAD(p.box_factor = 1.0, "box factor 1");
  BAD(p.xtol = 0.0, "xtol 0");
  BAD(p.ident_tol = 1.0, "ident_tol 1");
  BAD(p.local_maxeval = 0, "local_maxeval 0");
  BAD((p.fixed[1] = 1, p.value[1] = 1.0), "m fixed in hc");
  BAD((p.fixed[0] = 1, p.value[0] = -1.0), "fixed n < 0");
  BAD((p.fixed[2] = 1, p.value[2] = 0.0), "fixed k = 0");
  BAD((p.fixed[3] = 1, p.value[3] = INFINITY), "fixed lambda inf");
  /* k free without dt or fmax */
  BAD((p.weight[1] = 0.0, p.weight[2] = 0.0), "k free, dt and fmax weighted 0");
  CHECK(strstr(err.message, "k cannot be identified from e alone") != NULL, "message: %s", err.message);
  s.d.columns = IMPACTFIT_IDENTIFY_COL_MASS;
  BAD((void)0, "k free without dt or fmax");
  s.d.columns = 3 | IMPACTFIT_IDENTIFY_COL_MASS;
  /* invalid rows */
  s.rows[2].e = 1.5;
  BAD((void)0, "e > 1 in a row made in code");
  CHECK(strstr(err.message, "row 2") && strstr(err.message, "(0, 1]"), "names the row: %s", err.message);
  s.rows[2].e = 0.5;
  s.rows[1].mass = 0.0;
  BAD((void)0, "a row without mass");
  s.rows[1].mass = 0.064;
  s.d.rows = 0;
  BAD((void)0, "no rows");
  s.d.rows = 4;
  CHECK(impactfit_identify_fit(ws, NULL, &p, &r, NULL, &err) == IMPACTFIT_EINVAL, "NULL data");
  CHECK(impactfit_identify_fit(NULL, &s.d, &p, &r, NULL, &err) == IMPACTFIT_EINVAL, "NULL workspace");
  impactfit_identify_row_fit rf[8];
  double bad[4] = {1.5, -1.0, 1e9, 1e3};
  CHECK(impactfit_identify_predict(ws, &s.d, bad, NULL, NULL, rf, NULL, &err) == IMPACTFIT_EINVAL, "m < 0");
  /* names and lookups */
  CHECK(impactfit_identify_model_from_name("zhang") == impactfit_identify_zhang &&
            impactfit_identify_model_from_name("HC") == NULL && impactfit_identify_model_from_name(NULL) == NULL,
        "model lookup");
  CHECK(impactfit_identify_global_from_name("direct") == impactfit_identify_global_direct &&
            impactfit_identify_global_from_name("x") == NULL,
        "global lookup");
  CHECK(strcmp(impactfit_identify_param_name(3), "c") == 0 && strcmp(impactfit_identify_param_name(9), "?") == 0 &&
            strcmp(impactfit_identify_quantity_name(2), "fmax") == 0,
        "names");
  impactfit_identify_free(NULL);
}

/* The deterministic global method and the polish alone reach the same optimum as CRS. */
static void test_global_methods(void) {
  const double val[4] = {1.5, 0.8, 5e9, 1e7};
  dataset s;
  make_data(&s, val, 0.5, 2.0, 4, 2, 0.064, 3, 0.01, 77, NULL);
  double ref[4] = {0}, refcost = 0.0;
  const impactfit_identify_global *g[3] = {impactfit_identify_global_crs, impactfit_identify_global_direct,
                                           impactfit_identify_global_none};
  for (int k = 0; k < 3; k++) {
    impactfit_identify_params p = impactfit_identify_default_params();
    p.model = impactfit_identify_zhang;
    p.global = g[k];
    impactfit_identify_result r;
    impactfit_error err;
    int st = impactfit_identify_fit(ws, &s.d, &p, &r, NULL, &err);
    CHECK(st == 0, "global %s (%s)", g[k]->name, st ? err.message : "");
    if (k == 0) {
      memcpy(ref, r.value, sizeof ref);
      refcost = r.cost;
      CHECK(r.evals_global > 0, "crs evaluated");
      continue;
    }
    CHECK_REL(r.cost, refcost, 1e-9, "global %s: same minimum", g[k]->name);
    for (int j = 0; j < 4; j++)
      CHECK_REL(r.value[j], ref[j], 1e-6, "global %s: %s", g[k]->name, impactfit_identify_param_name(j));
    CHECK((k == 2) == (r.evals_global == 0), "global %s: evaluation count %ld", g[k]->name, r.evals_global);
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define RUN(f)                                     \
  do {                                             \
    double t0_ = now();                            \
    f();                                           \
    if (getenv("IDENTIFY_TEST_TIMES"))             \
      printf("  %-24s %.2f s\n", #f, now() - t0_); \
  } while (0)

/* A model's parameter set completed by its m rule and checked against the module's domain. */
static void test_model_values(void) {
  impactfit_error err;
  double v[4] = {1.5, 0.7, 5e9, 2e9};
  CHECK(impactfit_identify_model_values(impactfit_identify_hc, v, &err) == 0 && v[1] == 1.5, "hc: m = n");
  v[1] = 0.7;
  CHECK(impactfit_identify_model_values(impactfit_identify_linear, v, &err) == 0 && v[1] == 0.0, "linear: m = 0");
  v[1] = 0.7;
  CHECK(impactfit_identify_model_values(impactfit_identify_zhang, v, &err) == 0 && v[1] == 0.7, "zhang keeps m");
  double edge[4] = {10.0, 10.0, 1e-300, 0.0}; /* every bound that is allowed */
  CHECK(impactfit_identify_model_values(impactfit_identify_zhang, edge, &err) == 0, "n = m = 10, c = 0 allowed");
  static const double bad[][4] = {{0.0, 0, 1, 1},    {10.5, 0, 1, 1},       {1.5, -0.1, 1, 1},
                                  {1.5, 10.5, 1, 1}, {1.5, 0, 0, 1},        {1.5, 0, 1, -1e-300},
                                  {NAN, 0, 1, 1},    {1.5, 0, INFINITY, 1}, {1.5, 0, 1, NAN}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    double w[4];
    memcpy(w, bad[i], sizeof w);
    impactfit_error_clear(&err);
    CHECK(impactfit_identify_model_values(impactfit_identify_zhang, w, &err) == IMPACTFIT_EINVAL &&
              strcmp(err.message, "need 0 < n <= 10, 0 <= m <= 10, k > 0, lambda >= 0") == 0,
          "invalid set %zu rejected naming lambda (%s)", i, err.message);
  }
  double lin[4] = {1.5, 0, 1, -1};
  CHECK(impactfit_identify_model_values(impactfit_identify_linear, lin, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "c >= 0") != NULL,
        "linear names its damping c");
  double hm[4] = {12.0, 0.5, 1, 1}; /* hc: m = n = 12 is out of range too, whatever m was given */
  CHECK(impactfit_identify_model_values(impactfit_identify_hc, hm, &err) == IMPACTFIT_EINVAL, "hc: n = 12 rejected");
}

int main(void) {
  ws = impactfit_identify_alloc();
  if (!ws) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  RUN(test_parser);
  RUN(test_synth);
  RUN(test_round_trips);
  RUN(test_data_helpers);
  RUN(test_se_analytic);
  RUN(test_se_second_method);
  RUN(test_unidentifiable);
  RUN(test_warnings);
  RUN(test_per_row);
  RUN(test_errors);
  RUN(test_global_methods);
  RUN(test_noisy);
  RUN(test_model_values);
  impactfit_identify_free(ws);
  return tu_report("test_identify");
}
