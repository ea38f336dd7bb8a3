/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sweep module: definition files, grid enumeration, the block-ordered runner.
 *
 * References:
 *  - enumeration: an independent nested loop over the axes written here (last axis fastest), with
 *    the values computed from the definitions: linear a + (b − a) i/(n − 1), log 10^(...), and
 *    exactly representable cases (1, 1.25, ..., 2; 0.01, 0.1, 1, 10 to one rounding);
 *  - physics through the runner: for n = 1, m = 0 (Kelvin–Voigt, condition C) every row's e_out
 *    must equal exp(−2ξ acos ξ/√(1−ξ²)), ξ = c/(2√(k mass)) (derivation in test_impact.c), which
 *    fails if the runner hands a parameter to the wrong slot or a row to the wrong index;
 *  - determinism: the CSV text for 1 and 2 threads and for several block sizes is compared byte
 *    for byte, and a sub-range run must reproduce the corresponding rows of the full run;
 *  - a test problem (below) with solve_run checks that runs are neighbours along the innermost
 *    axis, start after reset(), never cross blocks, and that failures and non-finite outputs
 *    become rows with a status and empty outputs;
 *  - shards: the units are recomputed here by walking the grid and cutting at every multiple of
 *    the run length L and of the block B; every row of shard i must lie in group floor(x/min(L,B))
 *    ≡ i (mod N) with its whole unit, the shards together must hold each index once, differ by at
 *    most min(L, B) points, and their rows merged by index must equal the unsharded run byte for
 *    byte (the test problem's run position column would show a split unit), for block sizes that
 *    cut runs and that do not; the call ranges must tile the range;
 *  - stop and resume: a poll hook that stops the run after a given number of points must leave a
 *    prefix of the rows ending where the last call's range ends, and a second run from there must
 *    complete the CSV byte-identically (for runs cut at any point, 1 and 2 threads, sharded too);
 *    every callback must run on the calling thread. */
#define _POSIX_C_SOURCE 200809L
#include <malloc.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "impactfit/impactfit.h"
#include "sweep/sweep_internal.h"
#include "testutil.h"

typedef struct buf {
  char *p;
  size_t len, cap;
  size_t calls, last_end;
  int order_ok;
  size_t fail_idx[64];
  int fail_status[64];
  size_t nfail;
} buf;

static int on_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  buf *b = ctx;
  if (b->calls && first != b->last_end)
    b->order_ok = 0;
  b->last_end = first + count;
  b->calls++;
  if (b->len + len + 1 > b->cap) {
    b->cap = 2 * (b->len + len + 1);
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->len, rows, len);
  b->len += len;
  b->p[b->len] = '\0';
  return 0;
}

static void on_fail(void *ctx, size_t index, int status, const char *message) {
  buf *b = ctx;
  (void)message;
  if (b->nfail < 64) {
    b->fail_idx[b->nfail] = index;
    b->fail_status[b->nfail] = status;
  }
  b->nfail++;
}

static impactfit_sweep *parse(const char *text, impactfit_error *err) {
  impactfit_sweep *s = NULL;
  impactfit_error_clear(err);
  int st = impactfit_sweep_parse(text, strlen(text), "t.ini", &s, err);
  if (st)
    fprintf(stderr, "  parse failed: %s\n", err->message);
  return s;
}

static int run(const impactfit_sweep *s, int threads, size_t block, size_t first, size_t count, buf *b,
               impactfit_sweep_summary *sum) {
  memset(b, 0, sizeof *b);
  b->order_ok = 1;
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = threads;
  rp.block = block;
  rp.work = block; /* blocks of exactly B points when given (the default groups more) */
  rp.first = first;
  rp.count = count;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_sweep_run(s, &rp, on_rows, on_fail, b, sum, &err);
  if (st)
    fprintf(stderr, "  run failed: %s\n", err.message);
  return st;
}

/* ---- enumeration ---- */
static void test_enumeration(void) {
  impactfit_error err;
  impactfit_sweep *s = parse("[sweep]\nproblem = simulate\n[fixed]\nm = 0.5\ntransition = A\n[axes]\n"
                             "n = linear 1, 2, 5\nc = log 0.01, 10, 4\nv = list 3, 1,\n  2.5\n",
                             &err);
  CHECK(s != NULL, "definition with list, linear and log axes parses");
  if (!s)
    return;
  CHECK(impactfit_sweep_point_count(s) == 5 * 4 * 3, "point count %zu", impactfit_sweep_point_count(s));
  CHECK(impactfit_sweep_axis_count(s) == 3, "three axes");
  const double nv[5] = {1, 1.25, 1.5, 1.75, 2}, cv[4] = {0.01, 0.1, 1, 10}, vv[3] = {3, 1, 2.5};
  double in[16];
  size_t idx = 0;
  int exact_lin = 1, bad = 0;
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 3; k++, idx++) {
        impactfit_sweep_point(s, idx, in);
        exact_lin &= (in[0] == nv[i]);
        CHECK_REL(in[3], cv[j], 2e-16, "log axis value %d at point %zu", j, idx);
        bad |= (in[5] != vv[k]) || (in[1] != 0.5) || (in[2] != 1.0) || (in[4] != 1.0) || (in[9] != 1e-13);
      }
  CHECK(exact_lin, "linear axis values exact (1, 1.25, ..., 2)");
  CHECK(!bad, "list axis (with a continuation line), fixed values and defaults in the right slots");
  CHECK(impactfit_sweep_point(s, idx, in) == IMPACTFIT_EINVAL, "index past the grid is EINVAL");
  CHECK(strcmp(impactfit_sweep_option_value(s, 0), "A") == 0, "option fixed");
  CHECK(strcmp(impactfit_sweep_csv_header(s), "index,n,m,k,c,mass,v,accel,contacts,t_max,rtol,e_out,t_contact,f_max,t_"
                                              "fmax,f_min,delta_max,"
                                              "t_delta_max,delta_start,delta_sep,f_start,f_end,damping_work,energy_"
                                              "error,zeta,delta_m0,"
                                              "n_contacts,status,rhs_evals\n") == 0,
        "CSV header: index, all parameters, all outputs, status, rhs_evals");
  impactfit_sweep_free(s);

  /* a log range of 7 points over 3 decades: 10^(-1 + i/2), and a negative geometric range */
  s = parse("[sweep]\nproblem = simulate\n[axes]\nk = log 0.1, 100, 7\naccel = linear 0, 1, 3\n", &err);
  if (s) {
    for (size_t i = 0; i < 7; i++) {
      impactfit_sweep_point(s, i * 3 + 1, in);
      CHECK_REL(in[2], pow(10.0, -1.0 + 0.5 * (double)i), 4e-16, "log axis point %zu", i);
      CHECK(in[6] == 0.5, "linear 0..1 middle value");
    }
    impactfit_sweep_free(s);
  }
}

/* A range axis is kept as its ends (values NULL); its value i, through impactfit_sweep_axis_value and
 * in every point, is the documented formula, written out here on its own: start + (stop − start)·t
 * or sign·10^(log10|start| + (log10|stop| − log10|start|)·t), t = i/(count − 1), ends exact. */
static double range_formula(impactfit_sweep_axis_kind kind, double a, double b, size_t n, size_t i) {
  if (i == 0 || i == n - 1)
    return i == 0 ? a : b;
  double t = (double)i / (double)(n - 1);
  if (kind == IMPACTFIT_AXIS_LINEAR)
    return a + (b - a) * t;
  return (a < 0 ? -1.0 : 1.0) * pow(10.0, log10(fabs(a)) + (log10(fabs(b)) - log10(fabs(a))) * t);
}

static void test_range_value(void) {
  impactfit_error err;
  impactfit_sweep *s = parse("[sweep]\nproblem = simulate\n[axes]\nn = linear 0.3, 2.9, 977\n"
                             "k = log 0.07, 3e5, 101\nc = log 1e-3, 7, 13\n",
                             &err);
  CHECK(s != NULL, "definition with three ranges parses");
  if (!s)
    return;
  int same = 1, stored = 0;
  for (size_t a = 0; a < impactfit_sweep_axis_count(s); a++) {
    const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(s, a);
    stored += ax->values != NULL;
    for (size_t i = 0; i < ax->count; i++) {
      double f = range_formula(ax->kind, ax->start, ax->stop, ax->count, i);
      same &= impactfit_sweep_axis_value(ax, i) == f;
      same &= impactfit_sweep_range_value(ax->kind, ax->start, ax->stop, ax->count, i) == f;
    }
  }
  CHECK(same, "range values bit-identical to the formula (linear, two log)");
  CHECK(stored == 0, "range axes store no values (%d do)", stored);
  /* the points: n outermost, c innermost (point 13·101·500 + 13·40 + 7) */
  double in[16];
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  size_t idx = 13 * 101 * 500 + 13 * 40 + 7;
  int pn = -1, pk = -1, pc = -1;
  for (size_t i = 0; i < pr->n_params; i++) {
    if (!strcmp(pr->params[i].name, "n"))
      pn = (int)i;
    if (!strcmp(pr->params[i].name, "k"))
      pk = (int)i;
    if (!strcmp(pr->params[i].name, "c"))
      pc = (int)i;
  }
  CHECK(pr->n_params <= 16 && pn >= 0 && pk >= 0 && pc >= 0 && impactfit_sweep_point(s, idx, in) == 0, "point of the "
                                                                                                       "three ranges");
  if (pr->n_params <= 16 && pn >= 0 && pk >= 0 && pc >= 0) {
    CHECK(in[pn] == range_formula(IMPACTFIT_AXIS_LINEAR, 0.3, 2.9, 977, 500), "point: n value 500");
    CHECK(in[pk] == range_formula(IMPACTFIT_AXIS_LOG, 0.07, 3e5, 101, 40), "point: k value 40");
    CHECK(in[pc] == range_formula(IMPACTFIT_AXIS_LOG, 1e-3, 7, 13, 7), "point: c value 7");
  }
  impactfit_sweep_free(s);
  CHECK(impactfit_sweep_range_value(IMPACTFIT_AXIS_LINEAR, 1.0, 2.0, 5, 3) == 1.75, "linear 1..2, 5 values: 1.75");
  CHECK(impactfit_sweep_range_value(IMPACTFIT_AXIS_LINEAR, 0.1, 0.7, 4, 3) == 0.7, "last value exact");
  CHECK(impactfit_sweep_range_value(IMPACTFIT_AXIS_LINEAR, 4.0, 4.0, 1, 0) == 4.0, "count 1");
  CHECK_REL(impactfit_sweep_range_value(IMPACTFIT_AXIS_LOG, 0.1, 1000.0, 5, 2), 10.0, 4e-16, "log 0.1..1000: 10");
  CHECK_REL(impactfit_sweep_range_value(IMPACTFIT_AXIS_LOG, -1.0, -100.0, 3, 1), -10.0, 4e-16, "negative log: -10");
}

/* A range axis of 2e7 values costs no memory while the sweep lives (it cost 160 MB when every value
 * was stored); its values are still checked (a value outside the parameter's range is refused) and
 * its last point is the stop exactly. Heap in use from glibc's mallinfo2 (blocks and mmaps). */
static void test_range_memory(void) {
  impactfit_error err;
  struct mallinfo2 m0 = mallinfo2();
  impactfit_sweep *s = parse("[sweep]\nproblem = hc-eps\n[axes]\ne = linear 0.01, 0.99, 20000000\n", &err);
  CHECK(s != NULL, "a 2e7-value range parses: %s", s ? "" : err.message);
  if (!s)
    return;
  struct mallinfo2 m1 = mallinfo2();
  double grown = ((double)m1.uordblks + (double)m1.hblkhd) - ((double)m0.uordblks + (double)m0.hblkhd);
  CHECK(grown < 16e6, "a 2e7-value range axis holds %.3g bytes (< 16 MB; its values would be 160 MB)", grown);
  double in[8];
  CHECK(impactfit_sweep_point(s, 19999999, in) == 0 && in[0] == 0.99, "last point: e = stop exactly");
  CHECK(impactfit_sweep_point(s, 20000000, in) == IMPACTFIT_EINVAL, "point past the end refused");
  impactfit_sweep_free(s);
  s = parse("[sweep]\nproblem = hc-eps\n[axes]\ne = linear 0.01, 1.5, 1000\n", &err);
  CHECK(s == NULL && strstr(err.message, "out of range") != NULL, "a range past e = 1 refused: %s", err.message);
  impactfit_sweep_free(s);
}

/* ---- bad definitions: status and "t.ini:LINE:" ---- */
static void test_bad_definitions(void) {
  static const struct {
    const char *text;
    const char *where; /* expected prefix of the message */
    const char *why;   /* a word the reason must contain */
  } cases[] = {
      {"[sweep]\nproblem = nosuch\n[axes]\nn = list 1\n", "t.ini:2:", "unknown problem"},
      {"[axes]\nn = list 1\n", "t.ini:", "no problem"},
      {"[sweep]\nproblem = simulate\n", "t.ini:", "no axes"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1\nbogus = list 2\n", "t.ini:5:", "unknown parameter"},
      {"[sweep]\nproblem = simulate\n[fixed]\nfoo = 1\n[axes]\nn = list 1\n", "t.ini:4:", "unknown parameter"},
      {"[sweep]\nproblem = simulate\ncolour = red\n[axes]\nn = list 1\n", "t.ini:3:", "unknown key"},
      {"[sweep]\nproblem = simulate\n[axis]\nn = list 1\n", "t.ini:4:", "unknown section"}, /* first key */
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1\nn = list 2\n", "t.ini:5:", "duplicate axis"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = linear 1, 2, 0\n", "t.ini:4:", "count"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = linear 1, 2, 2.5\n", "t.ini:4:", "count"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = linear 1, 2\n", "t.ini:4:", "3 numbers"},
      {"[sweep]\nproblem = simulate\n[axes]\nc = log 0, 1, 5\n", "t.ini:4:", "log range"},
      {"[sweep]\nproblem = simulate\n[axes]\nc = log -1, 1, 5\n", "t.ini:4:", "log range"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1, abc\n", "t.ini:4:", "expected a number"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1, nan\n", "t.ini:4:", "finite"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1,,2\n", "t.ini:4:", "empty"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1, 1\n", "t.ini:4:", "twice"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = grid 1, 2\n", "t.ini:4:", "expected"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1, -1\n", "t.ini:4:", "out of range"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 0\n", "t.ini:4:", "out of range"},
      {"[sweep]\nproblem = simulate\n[fixed]\nn = 2\n[axes]\nn = list 1\n", "t.ini:6:", "both fixed"},
      {"[sweep]\nproblem = simulate\n[fixed]\ntransition = E\n[axes]\nn = list 1\n", "t.ini:4:", "one of"},
      {"[sweep]\nproblem = simulate\n[axes]\ntransition = list 1\n", "t.ini:4:", "cannot be swept"},
      {"[sweep]\nproblem = simulate\n[fixed]\ncontacts = 1.5\n[axes]\nn = list 1\n", "t.ini:4:", "whole"},
      {"[sweep]\nproblem = simulate\noutputs = e_out, nosuch\n[axes]\nn = list 1\n", "t.ini:3:", "unknown output"},
      {"[sweep]\nproblem = simulate\n[axes]\nn = list 1\nthis line is not ini\n", "t.ini:5:", "syntax"},
      {"[sweep]\nproblem = simulate\nproblem = simulate\n[axes]\nn = list 1\n", "t.ini:3:", "twice"},
      {"[sweep]\nproblem = simulate\n[fixed]\nm = 1\n  2\n[axes]\nn = list 1\n", "t.ini:5:", "continuation"},
      /* a combination only the problem's check() refuses: more contacts without accel */
      {"[sweep]\nproblem = simulate\n[fixed]\ncontacts = 3\n[axes]\nn = list 1\n", "t.ini: point 0", "accel"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    impactfit_sweep *s = NULL;
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_sweep_parse(cases[i].text, strlen(cases[i].text), "t.ini", &s, &err);
    CHECK(st != 0 && impactfit_status_is_input_error(st) && s == NULL,
          "bad definition %zu refused as input error (st %d)", i, st);
    CHECK(strncmp(err.message, cases[i].where, strlen(cases[i].where)) == 0 && strstr(err.message, cases[i].why),
          "bad definition %zu: message '%.120s' should start with '%.12s' and mention '%.20s'", i, err.message,
          cases[i].where, cases[i].why);
  }
  /* a line longer than inih's buffer is refused, not split */
  char *longdef = malloc(3000);
  strcpy(longdef, "[sweep]\nproblem = simulate\n[axes]\nn = list 1");
  for (int i = 0; i < 400; i++)
    strcat(longdef, ", 1");
  strcat(longdef, "\n");
  impactfit_sweep *s = NULL;
  impactfit_error err;
  int st = impactfit_sweep_parse(longdef, strlen(longdef), "t.ini", &s, &err);
  CHECK(st == IMPACTFIT_EPARSE && strstr(err.message, "t.ini:4: line too long"), "long line: %.100s", err.message);
  free(longdef);
  st = impactfit_sweep_load("/nonexistent/x.ini", &s, &err);
  CHECK(st == IMPACTFIT_EIO && s == NULL, "missing file is EIO");
}

/* ---- physics through the runner: Kelvin–Voigt ---- */
static double kv_e(double c, double k, double mass) {
  double xi = c / (2.0 * sqrt(k * mass));
  return exp(-2.0 * xi * acos(xi) / sqrt(1.0 - xi * xi));
}

static void test_runner_kelvin_voigt(void) {
  impactfit_error err;
  impactfit_sweep *s = parse("[sweep]\nproblem = simulate\noutputs = e_out\n[fixed]\nn = 1\n[axes]\n"
                             "mass = list 0.5, 2\nk = log 1, 100, 3\nc = linear 0.05, 0.6, 4\n",
                             &err);
  if (!s)
    return;
  buf b;
  impactfit_sweep_summary sum;
  CHECK(run(s, 2, 5, 0, 0, &b, &sum) == 0, "run");
  CHECK(sum.points == 24 && sum.failed == 0 && b.order_ok && b.calls == 5, "24 points in 5 ordered blocks");
  CHECK(sum.rhs_evals > 24 * 100, "rhs evaluations summed (%lld)", sum.rhs_evals);
  const char *row = b.p; /* the callback gets rows only, the header is the caller's */
  size_t rows = 0;
  while (row && row[0]) {
    size_t idx;
    double n, m, k, c, mass, v, accel, contacts, tmax, rtol, e;
    char status[16];
    long evals;
    int got = sscanf(row, "%zu,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%15[^,],%ld", &idx, &n, &m, &k, &c, &mass,
                     &v, &accel, &contacts, &tmax, &rtol, &e, status, &evals);
    CHECK(got == 14 && idx == rows && strcmp(status, "OK") == 0 && evals > 0, "row %zu parses", rows);
    if (got == 14)
      CHECK_REL(e, kv_e(c, k, mass), 1e-11, "row %zu: e_out against Kelvin-Voigt (c=%g k=%g mass=%g)", idx, c, k, mass);
    rows++;
    row = strchr(row, '\n');
    if (row)
      row++;
  }
  CHECK(rows == 24, "24 rows (%zu)", rows);
  free(b.p);
  impactfit_sweep_free(s);
}

/* ---- determinism and failed points ---- */
static void test_runner_determinism(void) {
  impactfit_error err;
  /* transition A with c = 3, n = 1 (xi = 1.5) never separates: ENOSEP rows */
  impactfit_sweep *s = parse("[sweep]\nproblem = simulate\n[fixed]\ntransition = A\n[axes]\n"
                             "n = list 1, 1.5\nc = list 0.2, 3, 0.7\nv = log 0.5, 2, 3\n",
                             &err);
  if (!s)
    return;
  buf ref, b;
  impactfit_sweep_summary sum;
  run(s, 1, 0, 0, 0, &ref, &sum);
  CHECK(sum.failed > 0 && ref.nfail == sum.failed, "some points fail (%zu)", sum.failed);
  /* every failed row: status name and empty outputs */
  for (size_t i = 0; i < ref.nfail && i < 64; i++) {
    char key[32];
    snprintf(key, sizeof key, "\n%zu,", ref.fail_idx[i]);
    const char *row = strstr(ref.p, key);
    CHECK(row != NULL, "failed point %zu has a row", ref.fail_idx[i]);
    if (row) {
      const char *end = strchr(row + 1, '\n');
      char text[1024];
      snprintf(text, sizeof text, "%.*s", (int)(end - row - 1), row + 1);
      char want[64] = "e-13";
      for (int c = 0; c < 17; c++)
        strcat(want, ",");
      strcat(want, "ENOSEP,");
      CHECK(strstr(text, want) != NULL, "failed row has 16 empty outputs and ENOSEP: %.150s", text);
    }
    CHECK(ref.fail_status[i] == IMPACTFIT_ENOSEP, "failure status ENOSEP");
  }
  static const struct {
    int threads;
    size_t block;
  } cfg[] = {{2, 0}, {2, 1}, {2, 7}, {1, 5}, {3, 2}};
  for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
    run(s, cfg[i].threads, cfg[i].block, 0, 0, &b, &sum);
    CHECK(b.len == ref.len && memcmp(b.p, ref.p, ref.len) == 0 && b.order_ok,
          "CSV identical with %d threads, block %zu", cfg[i].threads, cfg[i].block);
    free(b.p);
  }
  /* a sub-range reproduces its rows of the full run */
  run(s, 2, 4, 5, 7, &b, &sum);
  const char *p5 = strstr(ref.p, "\n5,"), *p12 = strstr(ref.p, "\n12,");
  CHECK(sum.points == 7 && p5 && p12 && b.len == (size_t)(p12 - p5) && memcmp(b.p, p5 + 1, b.len) == 0,
        "range 5..11 reproduces rows 5..11");
  free(b.p);
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.first = 18;
  CHECK(impactfit_sweep_run(s, &rp, on_rows, NULL, &b, NULL, &err) == IMPACTFIT_EINVAL, "range past the grid refused");
  free(ref.p);
  impactfit_sweep_free(s);
}

/* ---- a test problem with solve_run ---- */
static const impactfit_sweep_param tp_params[] = {
    {"x", 0.0, -HUGE_VAL, HUGE_VAL, 0, "outer"},
    {"y", 0.0, -HUGE_VAL, HUGE_VAL, 0, "inner"},
};
static const char *const tp_outputs[] = {"value", "run_pos"};
typedef struct tp_state {
  int fresh;
} tp_state;
static int tp_alloc(void **st, const char *const *o, const unsigned char *w, impactfit_error *err) {
  (void)o;
  (void)w;
  (void)err;
  *st = calloc(1, sizeof(tp_state));
  return *st ? 0 : IMPACTFIT_ENOMEM;
}
static void tp_free(void *st) { free(st); }
static void tp_reset(void *st) { ((tp_state *)st)->fresh = 1; }
static int tp_solve(void *st, const double *in, double *out, long *rhs, impactfit_error *err) {
  (void)st;
  (void)err;
  out[0] = in[0] * 1000 + in[1];
  out[1] = -1;
  *rhs = 1;
  return 0;
}
static int tp_solve_run(void *vs, size_t count, const double *in, double *out, long *rhs, int *status,
                        impactfit_error *errs) {
  tp_state *st = vs;
  int ok = st->fresh;
  st->fresh = 0;
  for (size_t i = 0; i < count; i++) {
    ok &= (in[2 * i] == in[0]) && (i == 0 || in[2 * i + 1] == in[2 * i - 1] + 1.0);
    out[2 * i] = in[2 * i] * 1000 + in[2 * i + 1];
    out[2 * i + 1] = ok ? (double)i : -1.0; /* position inside the run; −1 marks a broken contract */
    rhs[i] = (long)i;
    if (in[2 * i + 1] == 3.0 && in[2 * i] == 2.0) {
      status[i] = IMPACTFIT_ENOCONV;
      snprintf(errs[i].message, sizeof errs[i].message, "injected failure");
    }
    if (in[2 * i + 1] == 4.0 && in[2 * i] == 1.0)
      out[2 * i] = NAN; /* must become an ENONFINITE row */
  }
  return 0;
}
static const impactfit_sweep_problem tp = {
    .name = "runtest",
    .summary = "test",
    .params = tp_params,
    .n_params = 2,
    .options = NULL,
    .n_options = 0,
    .outputs = tp_outputs,
    .n_outputs = 2,
    .check = NULL,
    .alloc = tp_alloc,
    .reset = tp_reset,
    .free = tp_free,
    .solve = tp_solve,
    .solve_run = tp_solve_run,
};

/* Definitions built by API calls: the same rows and hash as the equivalent file; an open registry
 * (impactfit_sweep_parse_with) that knows only the problems given; a run collected into a table. */
static void test_builder_registry(void) {
  impactfit_error err;
  impactfit_error_clear(&err);
  /* the file of test_runner_runs, written by hand */
  const char *def = "[sweep]\nproblem = runtest\n[axes]\nx = list 1, 2, 3\ny = linear 0, 4, 5\n";
  impactfit_sweep *sf = NULL, *sb = NULL, *sb2 = NULL;
  const impactfit_sweep_problem *mine[1] = {&tp};
  CHECK(impactfit_sweep_parse_with(def, strlen(def), "t.ini", mine, 1, &sf, &err) == 0, "parse_with: %s", err.message);
  impactfit_sweep_def *d = NULL;
  CHECK(impactfit_sweep_def_new(&tp, "built", &d, &err) == 0, "def_new");
  const double xs[3] = {1, 2, 3};
  CHECK(impactfit_sweep_def_axis_values(d, "x", xs, 3, &err) == 0, "axis values");
  CHECK(impactfit_sweep_def_axis(d, "y", IMPACTFIT_AXIS_LINEAR, 0, 4, 5, &err) == 0, "axis");
  CHECK(impactfit_sweep_def_fixed(d, "nosuch", 1.0, &err) == IMPACTFIT_EINVAL && strstr(err.message, "nosuch") != NULL,
        "an unknown parameter is refused by name: %s", err.message);
  CHECK(impactfit_sweep_def_build(d, &sb, &err) == 0, "build: %s", err.message);
  CHECK(impactfit_sweep_def_build(d, &sb2, &err) == 0, "build again");
  if (sf && sb && sb2) {
    CHECK(impactfit_sweep_point_count(sb) == 15, "built grid has 3 x 5 points");
    CHECK(strcmp(impactfit_sweep_hash(sb), impactfit_sweep_hash(sb2)) == 0, "the same calls give the same hash");
    CHECK(strcmp(impactfit_sweep_hash(sb), impactfit_sweep_hash(sf)) != 0, "the hash is the canonical text's");
    buf a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    impactfit_sweep_summary sa, sbm;
    impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
    rp.threads = 2;
    CHECK(impactfit_sweep_run(sf, &rp, on_rows, NULL, &a, &sa, &err) == 0, "run file");
    rp.threads = 1;
    CHECK(impactfit_sweep_run(sb, &rp, on_rows, NULL, &b, &sbm, &err) == 0, "run built");
    CHECK(a.len == b.len && a.p && b.p && memcmp(a.p, b.p, a.len) == 0, "built and file sweeps: identical rows");
    /* the run as a table: the same numbers */
    impactfit_table *t = NULL;
    impactfit_sweep_summary st;
    CHECK(impactfit_sweep_run_table(sb, NULL, &t, &st, &err) == 0, "run_table: %s", err.message);
    if (t) {
      CHECK(impactfit_table_rows(t) == 15 && st.points == 15, "run_table: 15 rows");
      int jy = impactfit_table_find(t, "y"), jx = impactfit_table_find(t, "x");
      CHECK(jy >= 0 && jx >= 0, "run_table: columns x and y");
      if (jy >= 0 && jx >= 0) {
        double in[2];
        int same = 1;
        for (size_t i = 0; i < 15; i++) {
          impactfit_sweep_point(sb, i, in);
          same &= impactfit_table_col(t, (size_t)jx)[i] == in[0] && impactfit_table_col(t, (size_t)jy)[i] == in[1];
        }
        CHECK(same, "run_table: the inputs of every point exactly");
      }
      impactfit_table_free(t);
    }
    /* with failures (x = 2, y = 3 and a non-finite output at x = 1, y = 4): the table from the
     * numbers equals the table parsed from the CSV text, value for value and flag for flag */
    impactfit_table *tn = NULL, *tc = NULL;
    const char *hdr = impactfit_sweep_csv_header(sf);
    size_t hl = strlen(hdr);
    char *csv = malloc(hl + a.len + 1);
    if (csv) {
      memcpy(csv, hdr, hl);
      memcpy(csv + hl, a.p, a.len);
      csv[hl + a.len] = '\0';
    }
    impactfit_sweep_summary sn;
    CHECK(csv && impactfit_table_parse_csv(csv, hl + a.len, "t.csv", &tc, &err) == 0 &&
              impactfit_sweep_run_table(sf, NULL, &tn, &sn, &err) == 0,
          "tables: %s", err.message);
    if (tc && tn) {
      int same = impactfit_table_rows(tn) == impactfit_table_rows(tc) &&
                 impactfit_table_cols(tn) == impactfit_table_cols(tc);
      for (size_t j = 0; same && j < impactfit_table_cols(tn); j++) {
        same = strcmp(impactfit_table_col_name(tn, j), impactfit_table_col_name(tc, j)) == 0;
        for (size_t i = 0; same && i < impactfit_table_rows(tn); i++)
          same = impactfit_table_col(tn, j)[i] == impactfit_table_col(tc, j)[i] &&
                 impactfit_table_row_ok(tn, i) == impactfit_table_row_ok(tc, i);
      }
      CHECK(same && sn.failed == 2, "run_table equals the parsed CSV (columns, values, OK flags; %zu failed)",
            sn.failed);
    }
    impactfit_table_free(tn);
    impactfit_table_free(tc);
    free(csv);
    free(a.p);
    free(b.p);
  }
  /* a built definition is checked like a file: a value outside the range, by line */
  impactfit_sweep_def *bad = NULL;
  impactfit_sweep *sbad = NULL;
  impactfit_sweep_def_new(&tp, "bad", &bad, &err);
  impactfit_sweep_def_axis(bad, "x", IMPACTFIT_AXIS_LOG, 0, 1, 3, &err);
  CHECK(impactfit_sweep_def_build(bad, &sbad, &err) == IMPACTFIT_EINVAL && sbad == NULL &&
            strstr(err.message, "bad:") != NULL,
        "a bad built definition: EINVAL with its name: %s", err.message);
  impactfit_sweep_def_free(bad);
  /* the open registry: only the problems given are known */
  impactfit_sweep *sx = NULL;
  const char *copt_def = "[sweep]\nproblem = copt\n[axes]\nn = list 1.5\ne = list 0.5\n";
  CHECK(impactfit_sweep_parse_with(copt_def, strlen(copt_def), "c.ini", mine, 1, &sx, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "problems: runtest)") != NULL,
        "parse_with: copt unknown there: %s", err.message);
  CHECK(impactfit_sweep_parse_with(copt_def, strlen(copt_def), "c.ini", NULL, 0, &sx, &err) == 0, "NULL: built-ins");
  impactfit_sweep_free(sx);
  sx = NULL;
  const impactfit_sweep_problem *all[16];
  size_t nall = 0;
  while (nall < 16 && (all[nall] = impactfit_sweep_problem_at(nall)))
    nall++;
  for (size_t i = 0; i < nall; i++) {
    int documented = all[i]->output_units != NULL;
    for (size_t k = 0; documented && k < all[i]->n_outputs; k++)
      documented = all[i]->output_units[k] && all[i]->output_units[k][0];
    CHECK(documented, "built-in problem %s documents the unit of every output", all[i]->name);
  }
  CHECK(nall == 10 && impactfit_sweep_parse_with(copt_def, strlen(copt_def), "c.ini", all, nall, &sx, &err) == 0,
        "the %zu built-in problems pass the checks of a caller's problems: %s", nall, err.message);
  impactfit_sweep_free(sx);
  impactfit_sweep_problem incomplete = tp;
  incomplete.alloc = NULL;
  const impactfit_sweep_problem *inc[1] = {&incomplete};
  sx = NULL;
  CHECK(impactfit_sweep_parse_with(def, strlen(def), "t.ini", inc, 1, &sx, &err) == IMPACTFIT_EINVAL && !sx,
        "an incomplete problem is refused");
  impactfit_sweep_problem twice = tp;
  static const char *const dup_outputs[2] = {"x", "z"}; /* x is also a parameter: two CSV columns x */
  twice.outputs = dup_outputs;
  const impactfit_sweep_problem *tw[1] = {&twice};
  CHECK(impactfit_sweep_parse_with(def, strlen(def), "t.ini", tw, 1, &sx, &err) == IMPACTFIT_EINVAL && !sx &&
            strstr(err.message, "'x'") != NULL,
        "a problem with a column twice is refused: %s", err.message);
  impactfit_sweep_def_free(d);
  impactfit_sweep_free(sf);
  impactfit_sweep_free(sb);
  impactfit_sweep_free(sb2);
}

/* The built-in problems impact, eps-formula and identify-hc, built by API calls and run into a table:
 * their columns are the library functions' results (the wiring: parameter and output order), and
 * eps-formula's hunt-crossley is 3(1 - e)/2 (Hunt-Crossley 1975) computed here. */
static void test_more_builtin_problems(void) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_sweep_def *d = NULL;
  impactfit_sweep *s = NULL;
  impactfit_table *t = NULL;
  /* eps-formula */
  impactfit_sweep_def_new(impactfit_sweep_problem_from_name("eps-formula"), "eps", &d, &err);
  impactfit_sweep_def_option(d, "formula", "hunt-crossley", &err);
  impactfit_sweep_def_fixed(d, "k", 2e7, &err);
  impactfit_sweep_def_fixed(d, "v", 4, &err);
  impactfit_sweep_def_axis(d, "e", IMPACTFIT_AXIS_LINEAR, 0.1, 0.9, 5, &err);
  CHECK(impactfit_sweep_def_build(d, &s, &err) == 0 && impactfit_sweep_run_table(s, NULL, &t, NULL, &err) == 0,
        "eps-formula: %s", err.message);
  if (t) {
    const double *e = impactfit_table_col(t, (size_t)impactfit_table_find(t, "e"));
    const double *eps = impactfit_table_col(t, (size_t)impactfit_table_find(t, "eps"));
    const double *lam = impactfit_table_col(t, (size_t)impactfit_table_find(t, "lambda"));
    for (size_t i = 0; i < 5; i++) {
      CHECK_REL(eps[i], 1.5 * (1.0 - e[i]), 1e-15, "eps-formula hunt-crossley at e = %g", e[i]);
      CHECK_REL(lam[i], eps[i] * 2e7 / 4, 1e-15, "eps-formula lambda = eps k / v");
    }
  }
  impactfit_table_free(t);
  impactfit_sweep_free(s);
  impactfit_sweep_def_free(d);
  /* identify-hc */
  t = NULL;
  s = NULL;
  impactfit_sweep_def_new(impactfit_sweep_problem_from_name("identify-hc"), "id", &d, &err);
  const double es[2] = {0.4, 0.8};
  impactfit_sweep_def_axis_values(d, "e", es, 2, &err);
  impactfit_sweep_def_fixed(d, "dt", 2e-4, &err);
  impactfit_sweep_def_fixed(d, "v", 1.5, &err);
  impactfit_sweep_def_fixed(d, "mass", 0.2, &err);
  impactfit_sweep_def_fixed(d, "n", 1.5, &err);
  CHECK(impactfit_sweep_def_build(d, &s, &err) == 0 && impactfit_sweep_run_table(s, NULL, &t, NULL, &err) == 0,
        "identify-hc: %s", err.message);
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  for (size_t i = 0; t && ws && i < 2; i++) {
    impactfit_hc_identified id;
    CHECK(impactfit_hc_identify(ws, es[i], 2e-4, 1.5, 0.2, 1.5, &id, NULL) == 0, "identify");
    CHECK(impactfit_table_col(t, (size_t)impactfit_table_find(t, "k"))[i] == id.k &&
              impactfit_table_col(t, (size_t)impactfit_table_find(t, "lambda"))[i] == id.lambda &&
              impactfit_table_col(t, (size_t)impactfit_table_find(t, "dt_sim"))[i] == id.dt_sim,
          "identify-hc row %zu: k, lambda, dt_sim of impactfit_hc_identify", i);
  }
  impactfit_table_free(t);
  impactfit_sweep_free(s);
  impactfit_sweep_def_free(d);
  /* impact: two conditions as the outer axis */
  t = NULL;
  s = NULL;
  impactfit_sweep_def_new(impactfit_sweep_problem_from_name("impact"), "imp", &d, &err);
  impactfit_sweep_def_option(d, "transitions", "A,C", &err);
  const double tri[2] = {0, 1};
  impactfit_sweep_def_axis_values(d, "transition_index", tri, 2, &err);
  impactfit_sweep_def_fixed(d, "n", 1.5, &err);
  impactfit_sweep_def_fixed(d, "c", 0.4, &err);
  CHECK(impactfit_sweep_def_build(d, &s, &err) == 0 && impactfit_sweep_run_table(s, NULL, &t, NULL, &err) == 0,
        "impact: %s", err.message);
  for (size_t i = 0; t && ws && i < 2; i++) {
    impactfit_impact_params p = impactfit_impact_default_params();
    p.n = 1.5;
    p.c = 0.4;
    p.transition = i ? impactfit_transition_C : impactfit_transition_A;
    impactfit_impact_result r;
    CHECK(impactfit_impact_solve(ws, &p, &r, NULL) == 0, "solve");
    CHECK(impactfit_table_col(t, (size_t)impactfit_table_find(t, "e_out"))[i] == r.e_out &&
              impactfit_table_col(t, (size_t)impactfit_table_find(t, "delta_sep"))[i] == r.delta_sep &&
              impactfit_table_col(t, (size_t)impactfit_table_find(t, "steps"))[i] == (double)r.steps,
          "impact row %zu (transition %s): e_out, delta_sep, steps of impactfit_impact_solve", i, p.transition->name);
  }
  impactfit_impact_free(ws);
  impactfit_table_free(t);
  impactfit_sweep_free(s);
  impactfit_sweep_def_free(d);
}

static void test_runner_runs(void) {
  const char *def = "[sweep]\nproblem = runtest\n[axes]\nx = list 1, 2, 3\ny = linear 0, 4, 5\n";
  impactfit_sweep *s = NULL;
  impactfit_error err;
  int st = impactfit__sweep_parse_problem(def, strlen(def), "t.ini", &tp, &s, &err);
  CHECK(st == 0, "test problem definition parses");
  if (st)
    return;
  buf ref, b;
  impactfit_sweep_summary sum;
  run(s, 1, 0, 0, 0, &ref, &sum);
  CHECK(sum.failed == 2 && ref.nfail == 2 && ref.fail_idx[0] == 4 && ref.fail_status[0] == IMPACTFIT_ENONFINITE &&
            ref.fail_idx[1] == 8 && ref.fail_status[1] == IMPACTFIT_ENOCONV,
        "injected failures: point 4 ENONFINITE, point 8 ENOCONV");
  /* with whole runs per block, run_pos is the position along the innermost axis */
  const char *p = ref.p;
  for (size_t idx = 0; idx < 15; idx++) {
    size_t id;
    double x, y, val, pos;
    if (sscanf(p, "%zu,%lf,%lf,%lf,%lf", &id, &x, &y, &val, &pos) == 5)
      CHECK(id == idx && val == x * 1000 + y && pos == (double)(idx % 5), "run row %zu: value and run position", idx);
    else
      CHECK(idx == 4 || idx == 8, "row %zu has empty outputs only when it failed", idx);
    p = strchr(p, '\n') + 1;
  }
  CHECK(strstr(ref.p, "\n4,1,4,,,ENONFINITE,4\n") && strstr(ref.p, "\n8,2,3,,,ENOCONV,3\n"), "failed rows");
  /* blocks of 4 are rounded down to whole runs of 5? no: 4 < 5, runs are cut at block boundaries */
  run(s, 2, 4, 0, 0, &b, &sum);
  CHECK(b.calls == 4 && b.order_ok, "blocks of 4 points: 4 calls");
  CHECK(strstr(b.p, "\n4,1,4,,,ENONFINITE,0\n") != NULL, "run cut by a block boundary restarts after reset");
  buf b2;
  run(s, 1, 4, 0, 0, &b2, &sum);
  CHECK(b.len == b2.len && memcmp(b.p, b2.p, b.len) == 0, "cut runs identical for 1 and 2 threads");
  CHECK(strstr(b.p, "\n5,2,0,2000,0,OK,0\n") && strstr(b.p, "\n6,2,1,2001,1,OK,1\n") &&
            strstr(b.p, "\n7,2,2,2002,2,OK,2\n") && strstr(b.p, "\n8,2,3,,,ENOCONV,0\n"),
        "row 8 starts a new run at the block boundary 8");
  free(b.p);
  free(b2.p);
  free(ref.p);
  impactfit_sweep_free(s);
}

/* ---- shards ---- */

/* Splits CSV rows into lines indexed by their leading index; returns the number of lines, or
 * (size_t)-1 when an index repeats or is out of range. line[i] points into text (not terminated). */
static size_t index_lines(const char *text, size_t len, const char **line, size_t *line_len, size_t total) {
  size_t n = 0;
  for (const char *p = text; p < text + len;) {
    const char *e = memchr(p, '\n', (size_t)(text + len - p));
    if (!e)
      return (size_t)-1;
    size_t idx = strtoul(p, NULL, 10);
    if (idx >= total || line[idx])
      return (size_t)-1;
    line[idx] = p;
    line_len[idx] = (size_t)(e - p + 1);
    n++;
    p = e + 1;
  }
  return n;
}

/* Unit ordinal of every point by walking the grid (cuts at multiples of L and of B). */
static void brute_units(size_t total, size_t L, size_t B, size_t *unit) {
  size_t u = 0;
  for (size_t x = 0; x < total; x++) {
    if (x > 0 && (x % L == 0 || x % B == 0))
      u++;
    unit[x] = u;
  }
}

static void check_shards(const impactfit_sweep *s, size_t L, size_t block, size_t shards, int threads) {
  size_t total = impactfit_sweep_point_count(s), B = impactfit_sweep_block_size(s, block);
  buf ref;
  impactfit_sweep_summary sum;
  run(s, 1, block, 0, 0, &ref, &sum);
  const char **line = calloc(total, sizeof *line);
  size_t *line_len = calloc(total, sizeof *line_len), *ord = malloc(total * sizeof *ord);
  buf *part = calloc(shards, sizeof *part);
  brute_units(total, L, B, ord);
  size_t G = L < B ? L : B; /* the documented shard groups */
  size_t got = 0, min_pts = total, max_pts = 0;
  int member_ok = 1, tiles = 1, count_ok = 1;
  for (size_t i = 0; i < shards; i++) {
    memset(&part[i], 0, sizeof part[i]);
    part[i].order_ok = 1;
    impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
    rp.threads = threads;
    rp.block = block;
    rp.shard = i;
    rp.shards = shards;
    impactfit_error err;
    CHECK(impactfit_sweep_run(s, &rp, on_rows, on_fail, &part[i], &sum, &err) == 0, "shard %zu/%zu runs", i, shards);
    tiles &= part[i].order_ok && part[i].last_end == total && part[i].calls > 0;
    const char **mine = calloc(total, sizeof *mine);
    size_t *mine_len = calloc(total, sizeof *mine_len);
    size_t n = index_lines(part[i].p, part[i].len, mine, mine_len, total);
    count_ok &= (n == sum.points) && (n == impactfit_sweep_run_points(s, &rp));
    for (size_t x = 0; x < total && n != (size_t)-1; x++)
      if (mine[x]) {
        /* the shard of its group, and the whole unit with it */
        member_ok &= ((x / G) % shards == i) && !line[x] && (x == 0 || ord[x - 1] != ord[x] || mine[x - 1]);
        line[x] = mine[x];
        line_len[x] = mine_len[x];
        got++;
      } else {
        member_ok &= ((x / G) % shards != i);
      }
    min_pts = n < min_pts ? n : min_pts;
    max_pts = n > max_pts ? n : max_pts;
    free(mine);
    free(mine_len);
  }
  char *merged = malloc(ref.len + 1);
  size_t mlen = 0;
  for (size_t x = 0; x < total && got == total; x++) {
    memcpy(merged + mlen, line[x], line_len[x]);
    mlen += line_len[x];
  }
  CHECK(got == total, "block %zu, %zu shards: every index in exactly one shard (%zu of %zu)", block, shards, got,
        total);
  CHECK(member_ok, "block %zu, %zu shards: each row in the shard of its group, units (walked independently) whole",
        block, shards);
  CHECK(tiles, "block %zu, %zu shards: call ranges contiguous and ending at the grid's end", block, shards);
  CHECK(count_ok, "block %zu, %zu shards: rows = summary points = impactfit_sweep_run_points", block, shards);
  CHECK(mlen == ref.len && memcmp(merged, ref.p, ref.len) == 0, "block %zu, %zu shards: merged rows = unsharded run",
        block, shards);
  /* balance: the shards differ by at most one group of G points */
  CHECK(max_pts - min_pts <= G, "block %zu, %zu shards: balanced (%zu..%zu points)", block, shards, min_pts, max_pts);
  for (size_t i = 0; i < shards; i++)
    free(part[i].p);
  free(part);
  free(merged);
  free(line);
  free(line_len);
  free(ord);
  free(ref.p);
}

static void test_runner_shards(void) {
  impactfit_error err;
  impactfit_sweep *s = NULL;
  const char *def = "[sweep]\nproblem = runtest\n[axes]\nx = list 1, 2, 3, 4, 5, 6, 7\ny = linear 0, 4, 5\n";
  CHECK(impactfit__sweep_parse_problem(def, strlen(def), "t.ini", &tp, &s, &err) == 0, "runtest grid parses");
  if (s) {
    CHECK(impactfit_sweep_block_size(s, 0) == 4095 && impactfit_sweep_block_size(s, 12) == 10 &&
              impactfit_sweep_block_size(s, 4) == 4,
          "block size rounded to whole runs of 5 (4096 -> 4095, 12 -> 10), kept when shorter (4)");
    static const size_t blocks[] = {0, 4, 12, 3};
    static const size_t nshards[] = {1, 2, 3, 5, 8, 40};
    for (size_t b = 0; b < 4; b++)
      for (size_t k = 0; k < 6; k++)
        check_shards(s, 5, blocks[b], nshards[k], (int)(1 + (b + k) % 2));
    impactfit_sweep_free(s);
    /* long runs (L = 1025 > B/4): by default a block gathers about four units per thread
     * (max(B, 4 T L) points), which must not change a row (y = i exactly: steps of 1024/1024) */
    const char *deflong = "[sweep]\nproblem = runtest\n[axes]\nx = linear 1, 20, 20\ny = linear 0, 1024, 1025\n";
    CHECK(impactfit__sweep_parse_problem(deflong, strlen(deflong), "t.ini", &tp, &s, &err) == 0, "long runs parse");
    buf l1, l2, l3;
    impactfit_sweep_summary sm;
    run(s, 2, 0, 0, 0, &l1, &sm);    /* blocks of 8 runs */
    run(s, 1, 0, 0, 0, &l2, &sm);    /* blocks of 4 runs (4100 points) */
    run(s, 2, 4100, 0, 0, &l3, &sm); /* the block given: 4 runs */
    CHECK(l1.calls == 3 && l2.calls == 5 && l3.calls == 5, "blocks of 8, 4 and 4 runs (%zu, %zu, %zu calls)", l1.calls,
          l2.calls, l3.calls);
    CHECK(l1.len == l2.len && l1.len == l3.len && !memcmp(l1.p, l2.p, l1.len) && !memcmp(l1.p, l3.p, l1.len) &&
              l1.order_ok && strstr(l1.p, "\n20499,20,1024,21024,1024,OK,1024\n"),
          "rows identical for any grouping of whole runs (run position 999 at the end)");
    /* work smaller than a unit: one unit per block */
    buf l4;
    memset(&l4, 0, sizeof l4);
    l4.order_ok = 1;
    impactfit_sweep_run_params rw = impactfit_sweep_default_run_params();
    rw.threads = 2;
    rw.work = 1;
    CHECK(impactfit_sweep_run(s, &rw, on_rows, NULL, &l4, &sm, &err) == 0 && l4.calls == 20 && l4.len == l1.len &&
              !memcmp(l4.p, l1.p, l1.len),
          "work = 1 point: blocks of one whole run (%zu calls), same rows", l4.calls);
    free(l4.p);
    free(l1.p);
    free(l2.p);
    free(l3.p);
    impactfit_sweep_free(s);
    CHECK(impactfit__sweep_parse_problem(def, strlen(def), "t.ini", &tp, &s, &err) == 0, "runtest grid parses");
    /* a shard resumed from one of its call boundaries gives the rest of its rows */
    buf whole, tail;
    impactfit_sweep_summary sum;
    impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
    rp.block = 4;
    rp.shard = 1;
    rp.shards = 3;
    memset(&whole, 0, sizeof whole);
    impactfit_sweep_run(s, &rp, on_rows, NULL, &whole, &sum, &err);
    rp.first = 13; /* a unit boundary (cut at 12 by the block, at 15 by the run) */
    memset(&tail, 0, sizeof tail);
    impactfit_sweep_run(s, &rp, on_rows, NULL, &tail, &sum, &err);
    const char *from = whole.p;
    while (from && strtoul(from, NULL, 10) < 13)
      from = strchr(from, '\n') ? strchr(from, '\n') + 1 : NULL;
    CHECK(from && tail.len == whole.len - (size_t)(from - whole.p) && memcmp(tail.p, from, tail.len) == 0,
          "shard 1/3 from point 13 = its rows from 13 on");
    free(whole.p);
    free(tail.p);
    rp.shard = 3;
    CHECK(impactfit_sweep_run(s, &rp, on_rows, NULL, &tail, &sum, &err) == IMPACTFIT_EINVAL &&
              strstr(err.message, "shard 3 of 3"),
          "shard index past the count refused: %s", err.message);
    impactfit_sweep_free(s);
  }
  /* a problem without runs: units are points */
  s = parse("[sweep]\nproblem = simulate\noutputs = e_out\n[fixed]\nn = 1\n[axes]\nk = log 1, 100, 3\n"
            "c = linear 0.05, 0.6, 7\n",
            &err);
  if (s) {
    check_shards(s, 1, 5, 4, 2);
    check_shards(s, 1, 0, 21, 2);
    check_shards(s, 1, 0, 25, 1); /* more shards than points: some are empty */
    impactfit_sweep_free(s);
  }
}

/* ---- stop and resume through the poll hook ---- */
typedef struct stopper {
  buf b;
  size_t stop_after, polls, last_done;
  int monotone, on_caller;
  pthread_t caller;
} stopper;

static int stop_poll(void *ctx, size_t done, size_t failed) {
  stopper *t = ctx;
  t->polls++;
  t->monotone &= done >= t->last_done && failed <= done;
  t->last_done = done;
  t->on_caller &= pthread_equal(pthread_self(), t->caller) != 0;
  return done >= t->stop_after;
}

static int stop_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  stopper *t = ctx;
  t->on_caller &= pthread_equal(pthread_self(), t->caller) != 0;
  return on_rows(&t->b, first, count, rows, len);
}

static void check_resume(const impactfit_sweep *s, size_t block, size_t shard, size_t shards, int threads,
                         size_t stop_after) {
  impactfit_error err;
  buf ref;
  memset(&ref, 0, sizeof ref);
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.block = block;
  rp.shard = shard;
  rp.shards = shards;
  rp.threads = 1;
  impactfit_sweep_run(s, &rp, on_rows, NULL, &ref, NULL, &err);
  stopper t;
  memset(&t, 0, sizeof t);
  t.b.order_ok = t.monotone = t.on_caller = 1;
  t.caller = pthread_self();
  t.stop_after = stop_after;
  rp.threads = threads;
  rp.poll = stop_poll;
  impactfit_sweep_summary sum;
  int st = impactfit_sweep_run(s, &rp, stop_rows, NULL, &t, &sum, &err);
  size_t resume = t.b.calls ? t.b.last_end : 0, first_len = t.b.len;
  int interrupted = st == IMPACTFIT_EINTR;
  CHECK(st == 0 || interrupted, "stopped run returns 0 or EINTR (%d)", st);
  CHECK(t.polls > 0 && t.monotone && t.on_caller, "poll called (%zu times), counts monotone, callbacks on the caller",
        t.polls);
  CHECK(first_len <= ref.len && memcmp(t.b.p ? t.b.p : "", ref.p, first_len) == 0,
        "stop after %zu: the rows delivered are a prefix of the full run", stop_after);
  size_t nrows = 0;
  for (size_t i = 0; i < first_len; i++)
    nrows += t.b.p[i] == '\n';
  CHECK(nrows == sum.points, "summary counts the delivered rows (%zu, %zu)", nrows, sum.points);
  if (interrupted) {
    rp.first = resume;
    rp.poll = NULL;
    CHECK(resume < impactfit_sweep_point_count(s), "an interrupted run ends inside the grid");
    st = impactfit_sweep_run(s, &rp, stop_rows, NULL, &t, &sum, &err);
    CHECK(st == 0, "resumed run completes");
  }
  CHECK(t.b.len == ref.len && memcmp(t.b.p, ref.p, ref.len) == 0 && t.b.order_ok &&
            t.b.last_end == impactfit_sweep_point_count(s),
        "block %zu, shard %zu/%zu, %d threads, stopped after %zu points and resumed at %zu: identical rows", block,
        shard, shards, threads, stop_after, resume);
  free(t.b.p);
  free(ref.p);
}

static void test_runner_stop_resume(void) {
  impactfit_error err;
  impactfit_sweep *s = NULL;
  const char *def = "[sweep]\nproblem = runtest\n[axes]\nx = list 1, 2, 3, 4, 5, 6, 7, 8, 9\ny = linear 0, 6, 7\n";
  CHECK(impactfit__sweep_parse_problem(def, strlen(def), "t.ini", &tp, &s, &err) == 0, "runtest grid parses");
  if (s) {
    for (size_t k = 1; k < 63; k += 4) {
      check_resume(s, 0, 0, 1, 2, k);
      check_resume(s, 10, 0, 1, 2, k);    /* L = 7 > 10? no: 10 -> 7, whole runs */
      check_resume(s, 5, 0, 1, 1, k);     /* runs cut at multiples of 5 */
      check_resume(s, 5, 2, 3, 2, k / 3); /* a shard */
    }
    impactfit_sweep_free(s);
  }
  s = parse("[sweep]\nproblem = simulate\noutputs = e_out\n[fixed]\nn = 1.5\n[axes]\nc = log 0.01, 2, 40\n", &err);
  if (s) {
    for (size_t k = 1; k < 40; k += 7)
      check_resume(s, 8, 0, 1, 2, k);
    impactfit_sweep_free(s);
  }
}

/* ---- real concurrency: both threads compute units of one block at the same time ----
 * The "meet" problem's solve() waits until a second thread has also entered solve() (an event, not a
 * time: at most 60 s, a bound a loaded machine never reaches, after which the check below fails),
 * so a 2-thread run must have two threads inside one block at once: the runner must really share
 * a block's units out (the row records the thread), and the ThreadSanitizer build (test.sh) sees
 * the shared counters, the poll hook and the row buffers under true concurrency. */
static atomic_int meet_arrived, meet_gave_up;
static const impactfit_sweep_param meet_params[] = {{"x", 0.0, -HUGE_VAL, HUGE_VAL, 0, "index"}};
static const char *const meet_outputs[] = {"thread"};
static int meet_alloc(void **st, const char *const *o, const unsigned char *w, impactfit_error *err) {
  (void)o, (void)w, (void)err;
  *st = NULL;
  return 0;
}
static void meet_free(void *st) { (void)st; }
static int meet_solve(void *st, const double *in, double *out, long *rhs, impactfit_error *err) {
  (void)st, (void)in, (void)err;
  atomic_fetch_add(&meet_arrived, 1);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do
    clock_gettime(CLOCK_MONOTONIC, &t);
  while (atomic_load(&meet_arrived) < 2 && (t.tv_sec - t0.tv_sec) < 60);
  if (atomic_load(&meet_arrived) < 2)
    atomic_store(&meet_gave_up, 1);
  out[0] = omp_get_thread_num();
  *rhs = 1;
  return 0;
}
static const impactfit_sweep_problem meet = {
    .name = "meet",
    .summary = "test",
    .params = meet_params,
    .n_params = 1,
    .outputs = meet_outputs,
    .n_outputs = 1,
    .alloc = meet_alloc,
    .free = meet_free,
    .solve = meet_solve,
};

typedef struct meet_ctx {
  buf b;
  size_t polls;
} meet_ctx;
static int meet_poll(void *ctx, size_t done, size_t failed) {
  (void)done, (void)failed;
  ((meet_ctx *)ctx)->polls++;
  return 0;
}
static int meet_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  return on_rows(&((meet_ctx *)ctx)->b, first, count, rows, len);
}

static void test_runner_concurrency(void) {
  const char *def = "[sweep]\nproblem = meet\n[axes]\nx = linear 0, 199, 200\n";
  impactfit_sweep *s = NULL;
  impactfit_error err;
  CHECK(impactfit__sweep_parse_problem(def, strlen(def), "t.ini", &meet, &s, &err) == 0, "meet grid parses");
  if (!s)
    return;
  for (size_t shards = 1; shards <= 2; shards++) {
    atomic_store(&meet_arrived, 0);
    atomic_store(&meet_gave_up, 0);
    meet_ctx c;
    memset(&c, 0, sizeof c);
    c.b.order_ok = 1;
    impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
    rp.threads = 2;
    rp.block = 50;
    rp.shards = shards;
    rp.poll = meet_poll;
    impactfit_sweep_summary sum;
    int st = impactfit_sweep_run(s, &rp, meet_rows, NULL, &c, &sum, &err);
    int seen[2] = {0, 0};
    for (const char *p = c.b.p; p && *p; p = strchr(p, '\n') + 1) {
      size_t idx;
      double x, th;
      if (sscanf(p, "%zu,%lf,%lf", &idx, &x, &th) == 3 && (th == 0 || th == 1))
        seen[(int)th]++;
    }
    CHECK(st == 0 && sum.threads == 2 && seen[0] > 0 && seen[1] > 0 && seen[0] + seen[1] == (int)sum.points &&
              c.polls > 0 && c.b.order_ok,
          "%zu shard(s): both threads computed points (%d and %d), poll called %zu times", shards, seen[0], seen[1],
          c.polls);
    CHECK(!atomic_load(&meet_gave_up), "%zu shard(s): the second thread entered solve() within 60 s", shards);
    free(c.b.p);
  }
  impactfit_sweep_free(s);
}

/* A caller's problem whose parameters follow an option (sweep.h specialize): option n = 1..4 gives the
 * parameters x0 .. x(n-1), the output their sum. */
typedef struct spec_problem {
  impactfit_sweep_problem pr;
  impactfit_sweep_param params[4];
} spec_problem;
static const char *const spec_names[4] = {"x0", "x1", "x2", "x3"};
static const char *const spec_out[1] = {"sum"};
static const impactfit_sweep_option spec_opt[1] = {{"n", "2", NULL, "number of parameters, 1 to 4"}};
static int spec_alloc(void **st, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)wanted, (void)err;
  int *n = malloc(sizeof *n); /* the state: the number of parameters, from the option */
  if (!n)
    return IMPACTFIT_ENOMEM;
  *n = atoi(opt[0]);
  *st = n;
  return 0;
}
static void spec_free(void *st) { free(st); }
static int spec_solve(void *st, const double *in, double *out, long *rhs, impactfit_error *err);
static void spec_release(impactfit_sweep_problem *p) { free(p); }
static int spec_specialize(const impactfit_sweep_problem *self, const char *const *opt, impactfit_sweep_problem **out,
                           impactfit_error *err) {
  int n = atoi(opt[0]);
  if (n < 1 || n > 4)
    return snprintf(err->message, sizeof err->message, "n must be 1 to 4 (got '%s')", opt[0]), IMPACTFIT_EINVAL;
  spec_problem *sp = calloc(1, sizeof *sp);
  if (!sp)
    return IMPACTFIT_ENOMEM;
  sp->pr = *self;
  for (int i = 0; i < n; i++)
    sp->params[i] = (impactfit_sweep_param){
        .name = spec_names[i], .def = 0.0, .min = -HUGE_VAL, .max = HUGE_VAL, .flags = 0, .help = "a term"};
  sp->pr.params = sp->params;
  sp->pr.n_params = (size_t)n;
  *out = &sp->pr;
  return 0;
}
static const impactfit_sweep_problem spec_generic = {
    .name = "spec",
    .summary = "the sum of n parameters",
    .options = spec_opt,
    .n_options = 1,
    .outputs = spec_out,
    .n_outputs = 1,
    .alloc = spec_alloc,
    .free = spec_free,
    .solve = spec_solve,
    .specialize = spec_specialize,
    .release = spec_release,
};
static int spec_solve(void *st, const double *in, double *out, long *rhs, impactfit_error *err) {
  (void)err;
  out[0] = 0.0;
  for (int i = 0; i < *(const int *)st; i++)
    out[0] += in[i];
  *rhs = 0;
  return 0;
}

static void test_specialize(void) {
  impactfit_error err;
  const impactfit_sweep_problem *mine[1] = {&spec_generic};
  const char *def = "[sweep]\nproblem = spec\n[fixed]\nx0 = 1\nx1 = 10\nn = 3\n[axes]\nx2 = list 100, 200\n";
  impactfit_sweep *s = NULL;
  int st = impactfit_sweep_parse_with(def, strlen(def), "spec.ini", mine, 1, &s, &err);
  CHECK(st == 0, "specialize: the parameters of n = 3 (the option after them in the file): %s", err.message);
  if (!st) {
    CHECK(impactfit_sweep_get_problem(s) != &spec_generic && impactfit_sweep_get_problem(s)->n_params == 3 &&
              strcmp(impactfit_sweep_csv_header(s), "index,x0,x1,x2,sum,status,rhs_evals\n") == 0,
          "specialize: the sweep is of the specialised problem: %s", impactfit_sweep_csv_header(s));
    impactfit_table *t = NULL;
    CHECK(impactfit_sweep_run_table(s, NULL, &t, NULL, &err) == 0 && t &&
              impactfit_table_col(t, (size_t)impactfit_table_find(t, "sum"))[0] == 111.0 &&
              impactfit_table_col(t, (size_t)impactfit_table_find(t, "sum"))[1] == 211.0,
          "specialize: the rows: %s", err.message);
    impactfit_table_free(t);
    /* a definition built on the specialised problem specialises again (report_sweep_with_axes) */
    impactfit_sweep_def *d = NULL;
    impactfit_sweep *s2 = NULL;
    impactfit_sweep_def_new(impactfit_sweep_get_problem(s), "again", &d, &err);
    impactfit_sweep_def_option(d, "n", "4", &err);
    CHECK(impactfit_sweep_def_fixed(d, "x3", 7.0, &err) == 0, "specialize: the builder takes a name of n = 4");
    impactfit_sweep_def_axis_values(d, "x0", (const double[]){100.0}, 1, &err);
    CHECK(impactfit_sweep_def_build(d, &s2, &err) == 0 && impactfit_sweep_get_problem(s2)->n_params == 4,
          "specialize: built again with n = 4: %s", err.message);
    impactfit_sweep_free(s2);
    impactfit_sweep_def_free(d);
  }
  impactfit_sweep_free(s);
  s = NULL;
  const char *bad = "[sweep]\nproblem = spec\n[fixed]\nn = 9\n[axes]\nx0 = list 1\n";
  CHECK(impactfit_sweep_parse_with(bad, strlen(bad), "bad.ini", mine, 1, &s, &err) == IMPACTFIT_EINVAL && !s &&
            strstr(err.message, "bad.ini:4: n must be 1 to 4"),
        "specialize: its error with the option's line: %s", err.message);
  const char *unknown = "[sweep]\nproblem = spec\n[fixed]\nn = 1\n[axes]\nx1 = list 1\n";
  CHECK(impactfit_sweep_parse_with(unknown, strlen(unknown), "u.ini", mine, 1, &s, &err) == IMPACTFIT_EPARSE && !s &&
            strstr(err.message, "unknown parameter 'x1'"),
        "specialize: n = 1 has no x1: %s", err.message);
  impactfit_sweep_problem norelease = spec_generic;
  norelease.release = NULL;
  const impactfit_sweep_problem *nr[1] = {&norelease};
  CHECK(impactfit_sweep_parse_with(def, strlen(def), "nr.ini", nr, 1, &s, &err) == IMPACTFIT_EINVAL && !s,
        "specialize without release is refused");
}

int main(void) {
  test_enumeration();
  test_range_value();
  test_range_memory();
  test_bad_definitions();
  test_runner_kelvin_voigt();
  test_runner_determinism();
  test_runner_runs();
  test_builder_registry();
  test_specialize();
  test_more_builtin_problems();
  test_runner_shards();
  test_runner_stop_resume();
  test_runner_concurrency();
  return tu_report("test_sweep");
}
