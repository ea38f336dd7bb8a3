/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The reproduction of Poursina & Nikravesh (2020): the sweep problem copt, the scaling laws of c_opt
 * from an independent dimensional integration, and the committed generated header poursina2020.h.
 *
 * 1. Sweep problem copt (src/sweep/prob_copt.c) against direct impactfit_copt_solve calls:
 *    - along mass (innermost axis, scaled mode): every row is the direct solve's result, bit for
 *      bit (the scaled problem does not depend on mass; the reused solution must be what a fresh
 *      solve returns);
 *    - along e (continuation, impactfit_inverse_solve_run): each row's ζ and c_opt agree with the
 *      direct solve within 1e-8 relative. Both solutions meet |e_out − e| ≤ tol·min(e, 1 − e) with
 *      tol = 1e-10; ζ depends on e with |d ln ζ / d ln e| ≤ 2 and |d ln ζ / d ln(1 − e)| ≈ 1 on
 *      [0.05, 1), so two admissible solutions differ by at most ~4e-10 relative: 1e-8 leaves room
 *      for the integrator and still catches any real error (a wrong n moves c by > 1e-3);
 *    - dimensional = 1 (root search on c in the user's units) against the scaled mode: 1e-8;
 *    - δ_s = (v c_opt e_out / k)^(1/n): at separation the force k δ_s^n + c δ_s' vanishes with
 *      δ_s' = −e_out v (Poursina & Nikravesh 2020, Eq. 51), an identity the engine does not impose;
 *    - 1 and 2 threads give byte-identical CSV, also with blocks that cut the e runs;
 *    - invalid definitions are refused; a point that cannot converge fails alone.
 * 2. Scaling laws without the scaling: c_opt is found for a plain mass δ'' + c δ' + k δ^n = 0 in SI
 *    units, integrated with GSL's rk8pd (relative error control, no scaled variables, no series),
 *    separation located where k δ^n + c δ' falls to 0, and Brent's method on ln c for e_out = e.
 *    Slopes between the ends of the paper's ranges must be n/(n+1) (mass), (n−1)/(n+1) (v) and
 *    1/(n+1) (k) to 1e-8 (the solves are accurate to ~1e-11 in ln c over ln ranges of 8.5 to 15),
 *    and the independent c_opt must equal impactfit_copt_solve's to 1e-8.
 * 3. include/impactfit/generated/poursina2020.h: the full sweep of sweeps/poursina2020.ini and the
 *    stages of fits/poursina2020.ini, run here, regenerate the committed header byte for byte, and
 *    the header's constants and functions are the fitted ones.
 * usage: test_copt SOURCE_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>

#include "impactfit/generated/poursina2020.h"
#include "impactfit/impactfit.h"
#include "testutil.h"
#include "testsweep.h"

/* ---- running a sweep into a table ---- */

/* Runs a definition given as text; returns the CSV text (malloc'ed) or NULL. */
static char *run_text(const char *def, int threads, size_t block, size_t *failed) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_sweep *s = NULL;
  if (impactfit_sweep_parse(def, strlen(def), "test", &s, &err)) {
    CHECK(0, "parse: %.200s", err.message);
    return NULL;
  }
  sink k = {NULL, 0, 0};
  append(&k, impactfit_sweep_csv_header(s), strlen(impactfit_sweep_csv_header(s)));
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = threads;
  rp.block = block;
  impactfit_sweep_summary sum;
  int st = impactfit_sweep_run(s, &rp, on_rows, NULL, &k, &sum, &err);
  CHECK(st == 0, "run: %.200s", err.message);
  if (failed)
    *failed = sum.failed;
  impactfit_sweep_free(s);
  return k.p;
}

static impactfit_table *table_of(const char *csv) {
  impactfit_table *t = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (!csv || impactfit_table_parse_csv(csv, strlen(csv), "test", &t, &err)) {
    CHECK(0, "table: %.200s", err.message);
    return NULL;
  }
  return t;
}

static const double *col(const impactfit_table *t, const char *name) {
  int j = impactfit_table_find(t, name);
  CHECK(j >= 0, "column %s", name);
  return j >= 0 ? impactfit_table_col(t, (size_t)j) : NULL;
}

/* ---- 1. the sweep problem ---- */

static void test_problem_registered(void) {
  const impactfit_sweep_problem *p = impactfit_sweep_problem_from_name("copt");
  CHECK(p && p->solve && p->solve_run && p->reset, "problem copt registered with solve, solve_run and reset");
}

static void test_along_mass(void) {
  const char *def = "[sweep]\nproblem = copt\n[fixed]\ne = 0.37\nk = 3e7\nv = 2.5\n"
                    "[axes]\nn = list 1.2, 1.8\nmass = log 1e-4, 30, 7\n";
  char *csv = run_text(def, 1, 0, NULL);
  impactfit_table *t = table_of(csv);
  free(csv);
  if (!t)
    return;
  const double *n = col(t, "n"), *mass = col(t, "mass"), *c = col(t, "c_opt"), *z = col(t, "zeta"),
               *eo = col(t, "e_out"), *ds = col(t, "delta_sep"), *tc = col(t, "t_contact"), *it = col(t, "iterations");
  impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
  impactfit_inverse_params p = impactfit_inverse_default_params();
  for (size_t i = 0; i < impactfit_table_rows(t); i++) {
    CHECK(impactfit_table_row_ok(t, i), "row %zu OK", i);
    p.n = n[i];
    impactfit_copt_result r;
    int st = impactfit_copt_solve(ws, &p, 0.37, 3e7, mass[i], 2.5, 0, &r, NULL);
    CHECK(st == 0 && c[i] == r.c_opt && z[i] == r.zeta && eo[i] == r.e_out && ds[i] == r.delta_sep &&
              tc[i] == r.t_contact && it[i] == r.iterations,
          "along mass, row %zu (n %g, mass %g): the direct solve's values bit for bit (c %.17g vs %.17g)", i, n[i],
          mass[i], c[i], r.c_opt);
    /* Poursina & Nikravesh 2020, Eq. (51): the force vanishes at separation */
    CHECK_REL(ds[i], pow(2.5 * c[i] * eo[i] / 3e7, 1.0 / n[i]), 1e-9, "delta_sep = (v c e_out/k)^(1/n), row %zu", i);
  }
  impactfit_inverse_free(ws);
  impactfit_table_free(t);
}

static void test_along_e(void) {
  const char *def = "[sweep]\nproblem = copt\n[fixed]\nk = 2e9\nmass = 0.04\nv = 0.8\n"
                    "[axes]\nn = list 1, 1.5, 2\ne = linear 0.05, 1, 96\n";
  const char *def_dim = "[sweep]\nproblem = copt\n[fixed]\nk = 2e9\nmass = 0.04\nv = 0.8\ndimensional = 1\n"
                        "[axes]\nn = list 1, 1.5, 2\ne = linear 0.05, 1, 96\n";
  size_t failed = 1, failed_dim = 1;
  char *csv = run_text(def, 1, 0, &failed), *csv_dim = run_text(def_dim, 2, 0, &failed_dim);
  CHECK(failed == 0 && failed_dim == 0, "no failed points");
  impactfit_table *t = table_of(csv), *td = table_of(csv_dim);
  free(csv);
  free(csv_dim);
  if (!t || !td)
    return;
  const double *n = col(t, "n"), *e = col(t, "e"), *c = col(t, "c_opt"), *z = col(t, "zeta"), *eo = col(t, "e_out"),
               *ee = col(t, "e_err"), *ds = col(t, "delta_sep"), *it = col(t, "iterations"), *cd = col(td, "c_opt"),
               *eod = col(td, "e_out");
  impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
  impactfit_inverse_params p = impactfit_inverse_default_params();
  double sims = 0.0;
  for (size_t i = 0; i < impactfit_table_rows(t); i++) {
    p.n = n[i];
    impactfit_copt_result r;
    int st = impactfit_copt_solve(ws, &p, e[i], 2e9, 0.04, 0.8, 0, &r, NULL);
    CHECK(st == 0, "direct solve n %g e %g", n[i], e[i]);
    CHECK_REL(c[i], r.c_opt, 1e-8, "along e (continuation): c_opt at n %g, e %.6f", n[i], e[i]);
    CHECK_REL(z[i], r.zeta, 1e-8, "along e (continuation): zeta at n %g, e %.6f", n[i], e[i]);
    CHECK_REL(cd[i], r.c_opt, 1e-8, "dimensional = 1: c_opt at n %g, e %.6f", n[i], e[i]);
    double bound = 1e-10 * fmin(e[i], 1.0 - e[i]) * 1.0000001 + 1e-16;
    CHECK(fabs(eo[i] - e[i]) <= bound && fabs(eod[i] - e[i]) <= bound,
          "|e_out - e| <= tol min(e, 1-e) at n %g, e %.6f (%.3g, %.3g)", n[i], e[i], eo[i] - e[i], eod[i] - e[i]);
    CHECK(ee[i] == eo[i] - e[i], "e_err = e_out - e");
    CHECK_REL(ds[i], pow(0.8 * c[i] * eo[i] / 2e9, 1.0 / n[i]), 1e-9, "delta_sep identity at n %g, e %.6f", n[i], e[i]);
    sims += it[i];
  }
  /* continuation: about one simulation per point (direct solves need 3-6) */
  CHECK(sims / (double)impactfit_table_rows(t) < 2.0, "continuation: %.2f simulations per point",
        sims / (double)impactfit_table_rows(t));
  impactfit_inverse_free(ws);
  impactfit_table_free(t);
  impactfit_table_free(td);
}

static void test_threads(void) {
  const char *defs[] = {
      "[sweep]\nproblem = copt\n[axes]\nn = linear 1, 2, 5\ne = linear 0.3, 1, 37\n",
      "[sweep]\nproblem = copt\n[fixed]\ne = 0.6\n[axes]\nn = linear 1, 2, 4\nk = log 1e5, 1e10, 9\n",
      "[sweep]\nproblem = copt\n[fixed]\ne = 0.6\ndimensional = 1\n[axes]\nn = linear 1, 2, 3\nmass = log 1e-5, 50, "
      "7\n",
  };
  for (size_t d = 0; d < sizeof defs / sizeof defs[0]; d++) {
    char *a = run_text(defs[d], 1, 0, NULL), *b = run_text(defs[d], 2, 0, NULL), *c = run_text(defs[d], 2, 11, NULL),
         *c1 = run_text(defs[d], 1, 11, NULL);
    CHECK(a && b && strcmp(a, b) == 0, "definition %zu: 1 and 2 threads give the same bytes", d);
    CHECK(c && c1 && strcmp(c, c1) == 0, "definition %zu, blocks of 11: 1 and 2 threads give the same bytes", d);
    free(a);
    free(b);
    free(c);
    free(c1);
  }
}

static void test_errors(void) {
  const char *bad[] = {
      "[sweep]\nproblem = copt\n[axes]\nn = linear 1, 2, 3\n",                   /* e missing */
      "[sweep]\nproblem = copt\n[fixed]\ne = 0\n[axes]\nn = linear 1, 2, 3\n",   /* e = 0 */
      "[sweep]\nproblem = copt\n[fixed]\ne = 1.2\n[axes]\nn = linear 1, 2, 3\n", /* e > 1 */
      "[sweep]\nproblem = copt\n[fixed]\nn = 0\n[axes]\ne = linear 0.5, 1, 3\n", /* n = 0 */
      "[sweep]\nproblem = copt\n[fixed]\nn = 1\nmethod = newton\n[axes]\ne = linear 0.5, 1, 3\n",
      "[sweep]\nproblem = copt\n[fixed]\nn = 1\ntol = 1e-20\n[axes]\ne = linear 0.5, 1, 3\n",
      "[sweep]\nproblem = copt\n[fixed]\nn = 1\nk = -1\n[axes]\ne = linear 0.5, 1, 3\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    impactfit_sweep *s = NULL;
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_sweep_parse(bad[i], strlen(bad[i]), "bad", &s, &err);
    CHECK(st == IMPACTFIT_EINVAL || st == IMPACTFIT_EPARSE, "bad definition %zu refused (%d: %.120s)", i, st,
          err.message);
    CHECK(err.message[0] != '\0', "bad definition %zu has a message", i);
    impactfit_sweep_free(s);
  }
  /* bisection with 2 simulations cannot converge at e < 1; e = 1 needs none */
  const char *def = "[sweep]\nproblem = copt\n[fixed]\nn = 1.5\nmethod = bisect\nmax_iter = 2\nguess = closed\n"
                    "[axes]\ne = list 0.5, 0.7, 1\n";
  size_t failed = 0;
  char *csv = run_text(def, 1, 0, &failed);
  CHECK(failed == 2, "max_iter = 2: the two points e < 1 fail (%zu failed)", failed);
  CHECK(csv && strstr(csv, "ENOCONV") != NULL, "failed rows carry the status name");
  impactfit_table *t = table_of(csv);
  if (t) {
    CHECK(!impactfit_table_row_ok(t, 0) && !impactfit_table_row_ok(t, 1) && impactfit_table_row_ok(t, 2), "only e = 1 "
                                                                                                          "succeeds");
    CHECK(col(t, "c_opt")[2] == 0.0 && col(t, "e_out")[2] == 1.0, "e = 1: c_opt = 0, e_out = 1");
    impactfit_table_free(t);
  }
  free(csv);
}

/* ---- 2. an independent dimensional solver ---- */

typedef struct dim_sys {
  double n, k, mass, c;
} dim_sys;

static int rhs(double t, const double y[], double dydt[], void *params) {
  (void)t;
  const dim_sys *s = params;
  double d = y[0] > 0.0 ? y[0] : 0.0;
  dydt[0] = y[1];
  dydt[1] = -(s->c * y[1] + s->k * pow(d, s->n)) / s->mass;
  return GSL_SUCCESS;
}

static double force(const dim_sys *s, const double y[]) {
  return s->k * pow(y[0] > 0 ? y[0] : 0.0, s->n) + s->c * y[1];
}

/* e_out of mass δ'' + c δ' + k δ^n = 0, δ(0) = 0, δ'(0) = v, contact ended where the force falls
 * to 0 (condition C). rk8pd with relative error 1e-13 per step (and h|y'| in the scale, since δ
 * starts at 0); the crossing is located by bisection on the length of one rk8pd step from the last
 * accepted state. */
static double dim_e_out(double n, double k, double mass, double v, double c) {
  dim_sys s = {n, k, mass, c};
  gsl_odeiv2_system sys = {rhs, NULL, 2, &s};
  gsl_odeiv2_step *st = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 2);
  gsl_odeiv2_control *ctl = gsl_odeiv2_control_standard_new(0.0, 1e-13, 1.0, 1.0);
  gsl_odeiv2_evolve *ev = gsl_odeiv2_evolve_alloc(2);
  double y[2] = {0.0, v}, t = 0.0, h = 1e-9, e_out = NAN;
  for (long steps = 0; steps < 10000000; steps++) {
    double y0[2] = {y[0], y[1]}, t0 = t;
    if (gsl_odeiv2_evolve_apply(ev, ctl, st, &sys, &t, 1e300, &h, y) != GSL_SUCCESS)
      break;
    if (force(&s, y) <= 0.0) { /* crossed during [t0, t]: bisect on the step length */
      double lo = 0.0, hi = t - t0, yt[2], err[2];
      for (int i = 0; i < 200 && hi - lo > 1e-16 * (t0 + hi); i++) {
        double mid = 0.5 * (lo + hi);
        yt[0] = y0[0];
        yt[1] = y0[1];
        gsl_odeiv2_step_reset(st);
        gsl_odeiv2_step_apply(st, t0, mid, yt, err, NULL, NULL, &sys);
        if (force(&s, yt) > 0.0)
          lo = mid;
        else
          hi = mid;
      }
      yt[0] = y0[0];
      yt[1] = y0[1];
      gsl_odeiv2_step_reset(st);
      gsl_odeiv2_step_apply(st, t0, 0.5 * (lo + hi), yt, err, NULL, NULL, &sys);
      e_out = -yt[1] / v;
      break;
    }
  }
  gsl_odeiv2_evolve_free(ev);
  gsl_odeiv2_control_free(ctl);
  gsl_odeiv2_step_free(st);
  return e_out;
}

typedef struct dim_target {
  double n, k, mass, v, e;
} dim_target;

static double dim_g(double u, void *params) {
  const dim_target *d = params;
  return log(dim_e_out(d->n, d->k, d->mass, d->v, exp(u))) - log(d->e);
}

/* c with e_out(c) = e: an expanding bracket on ln c from c = 1 N s/m, then Brent (GSL). */
static double dim_copt(double n, double e, double k, double mass, double v) {
  dim_target d = {n, k, mass, v, e};
  gsl_function F = {dim_g, &d};
  double lo = 0.0, hi = 0.0;
  if (dim_g(0.0, &d) > 0.0) { /* too little damping at c = 1 */
    for (hi = 1.5; dim_g(hi, &d) > 0.0; hi += 1.5)
      lo = hi;
  } else {
    for (lo = -1.5; dim_g(lo, &d) <= 0.0; lo -= 1.5)
      hi = lo;
  }
  gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  gsl_root_fsolver_set(s, &F, lo, hi);
  double u = 0.5 * (lo + hi);
  for (int i = 0; i < 100; i++) {
    gsl_root_fsolver_iterate(s);
    u = gsl_root_fsolver_root(s);
    lo = gsl_root_fsolver_x_lower(s);
    hi = gsl_root_fsolver_x_upper(s);
    if (gsl_root_test_interval(lo, hi, 1e-14, 0.0) == GSL_SUCCESS)
      break;
  }
  gsl_root_fsolver_free(s);
  return exp(u);
}

static void test_scaling_laws(void) {
  gsl_set_error_handler_off();
  impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
  impactfit_inverse_params p = impactfit_inverse_default_params();
  const double e = 0.7, ns[] = {1.0, 1.37, 2.0};
  double maxrel = 0.0;
  for (size_t j = 0; j < 3; j++) {
    double n = ns[j];
    /* the ends of the paper's ranges (sections 4.2.1-4.2.3), the others 1 */
    double m1 = dim_copt(n, e, 1, 1e-5, 1), m2 = dim_copt(n, e, 1, 50, 1);
    double v1 = dim_copt(n, e, 1, 1, 0.01), v2 = dim_copt(n, e, 1, 1, 50);
    double k1 = dim_copt(n, e, 1e5, 1, 1), k2 = dim_copt(n, e, 1e10, 1, 1);
    double dev = fmax(fabs(log(m2 / m1) / log(50 / 1e-5) - n / (n + 1)),
                      fmax(fabs(log(v2 / v1) / log(50 / 0.01) - (n - 1) / (n + 1)),
                           fabs(log(k2 / k1) / log(1e10 / 1e5) - 1 / (n + 1))));
    printf("n = %g: dimensional solver, largest slope deviation from the exact laws %.3g\n", n, dev);
    CHECK_ABS(log(m2 / m1) / log(50 / 1e-5), n / (n + 1), 1e-8, "n = %g: slope of ln c_opt in ln mass", n);
    CHECK_ABS(log(v2 / v1) / log(50 / 0.01), (n - 1) / (n + 1), 1e-8, "n = %g: slope of ln c_opt in ln v", n);
    CHECK_ABS(log(k2 / k1) / log(1e10 / 1e5), 1 / (n + 1), 1e-8, "n = %g: slope of ln c_opt in ln k", n);
    /* the same c_opt from the library (scaled problem, engine with series) */
    p.n = n;
    impactfit_copt_result r;
    const double pts[6][4] = {{1, 1e-5, 1, 0}, {1, 50, 1, 0},  {1, 1, 0.01, 0},
                              {1, 1, 50, 0},   {1e5, 1, 1, 0}, {1e10, 1, 1, 0}};
    const double mine[6] = {m1, m2, v1, v2, k1, k2};
    for (int i = 0; i < 6; i++) {
      int st = impactfit_copt_solve(ws, &p, e, pts[i][0], pts[i][1], pts[i][2], 0, &r, NULL);
      CHECK(st == 0, "copt_solve at point %d", i);
      maxrel = fmax(maxrel, fabs(r.c_opt / mine[i] - 1.0));
      CHECK_REL(r.c_opt, mine[i], 1e-8,
                "n = %g, k %g, mass %g, v %g: impactfit_copt_solve against the dimensional solver", n, pts[i][0],
                pts[i][1], pts[i][2]);
    }
  }
  printf("dimensional solver against impactfit_copt_solve: largest |c/c_dim - 1| = %.3g\n", maxrel);
  impactfit_inverse_free(ws);
}

/* ---- 3. the committed generated header ---- */

static void test_generated_header(const char *src) {
  char path[4096];
  snprintf(path, sizeof path, "%s/fits/poursina2020.ini", src);
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_fitfile *f = NULL;
  if (impactfit_fitfile_load(path, &f, &err)) {
    CHECK(0, "load %.300s: %.200s", path, err.message);
    return;
  }
  const impactfit_sweep *s = impactfit_fitfile_sweep(f);
  sink k = {NULL, 0, 0};
  append(&k, impactfit_sweep_csv_header(s), strlen(impactfit_sweep_csv_header(s)));
  impactfit_sweep_summary sum;
  impactfit_table *t = NULL;
  int st = impactfit_sweep_run(s, NULL, on_rows, NULL, &k, &sum, &err);
  if (!st)
    st = impactfit_table_parse_csv(k.p, k.len, "sweep", &t, &err);
  if (!st)
    st = impactfit_fitfile_run(f, t, &err);
  CHECK(st == 0 && sum.failed == 0, "poursina2020: full sweep and fits: %.200s", err.message);
  free(k.p);
  impactfit_table_free(t);
  if (st) {
    impactfit_fitfile_free(f);
    return;
  }
  char *text = NULL;
  size_t len = 0;
  impactfit_codegen_header(f, &text, &len, &err);
  snprintf(path, sizeof path, "%s/include/impactfit/generated/poursina2020.h", src);
  FILE *h = fopen(path, "rb");
  char *old = malloc(len + 2);
  size_t got = h ? fread(old, 1, len + 1, h) : 0;
  if (h)
    fclose(h);
  CHECK(text && got == len && memcmp(old, text, len) == 0,
        "poursina2020.h: regenerated header equals the committed one (regenerate: impactfit sweep "
        "sweeps/poursina2020.ini --out DIR && impactfit fit fits/poursina2020.ini --data DIR)");
  free(old);
  free(text);
  impactfit_fit_stage per_n, alpha, beta;
  impactfit_fitfile_stage(f, 0, &per_n);
  impactfit_fitfile_stage(f, 1, &alpha);
  impactfit_fitfile_stage(f, 2, &beta);
  CHECK(per_n.n_groups == IMPACTFIT_POURSINA2020_PER_N_GROUPS && per_n.n_groups == 100, "per_n: 100 groups");
  for (size_t g = 0; g < per_n.n_groups && g < IMPACTFIT_POURSINA2020_PER_N_GROUPS; g++) {
    const impactfit_fit_result *r = &per_n.results[g];
    CHECK(r->n_points == 600, "per_n group %zu: 600 points", g);
    CHECK(impactfit_poursina2020_per_n_n[g] == per_n.group_values[g] &&
              impactfit_poursina2020_per_n_alpha[g] == r->value[0] &&
              impactfit_poursina2020_per_n_beta[g] == r->value[1],
          "per_n group %zu: header constants are the fitted doubles", g);
  }
  for (double n = 1.0; n <= 2.0; n += 0.0625) {
    CHECK(impactfit_poursina2020_alpha(n) == impactfit_fit_model_eval(alpha.model, alpha.results[0].value, n, 0.0),
          "alpha(%g) from the header", n);
    CHECK(impactfit_poursina2020_beta(n) == impactfit_fit_model_eval(beta.model, beta.results[0].value, n, 0.0),
          "beta(%g) from the header", n);
  }
  /* n = 1 is Kelvin-Voigt: the fitted alpha (e^beta - 1) must follow the exact c_opt = 2 xi sqrt(k mass)
   * (exp(-2 xi acos xi / sqrt(1 - xi^2)) = e) within the stage's own misfit: the header states
   * max |f - y| = 1.2e-4 for n = 1, so 2e-4 catches a fit that went wrong. */
  for (double e = 0.45; e < 1.0; e += 0.05) {
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 200; i++) {
      double xi = 0.5 * (lo + hi);
      if (exp(-2 * xi * acos(xi) / sqrt(1 - xi * xi)) > e)
        lo = xi;
      else
        hi = xi;
    }
    CHECK_ABS(impactfit_poursina2020_per_n(0, e), 2.0 * 0.5 * (lo + hi), 2e-4,
              "per-n fit at n = 1, e = %.2f against Kelvin-Voigt", e);
  }
  impactfit_fitfile_free(f);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_copt SOURCE_DIR\n");
    return 2;
  }
  test_problem_registered();
  test_along_mass();
  test_along_e();
  test_threads();
  test_errors();
  test_scaling_laws();
  test_generated_header(argv[1]);
  return tu_report("test_copt");
}
