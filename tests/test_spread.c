/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The answer over the user's ranges (codes.h: request.r_min, r_max; answer.spread, exact_model, exact_other):
 *  1. LAMMPS granular hooke, damping velocity, a sphere on a wall, end A: the damped oscillator's closed form
 *     e = exp(−π ζ/√(1 − ζ²)), ζ = η/(2 √(k m)), m = 4/3 π r³ ρ, at the corners and at every grid point of
 *     the box (e does not depend on v for this law: the speed axis must not change it); e_min, e_max, where,
 *     worst from the closed form; the model exact over the ranges is granular hooke damping tsuji with the
 *     same kn, its one value giving the asked e at every corner by independent forward solves;
 *  2. gran/hertz/history, two spheres: every one of the 5 × 5 × 5 points solved here by impactfit_code_forward
 *     with its own bodies: the corners, e_min, e_max, where and worst are those of these solves exactly; the
 *     box's corners are its extremes (e is monotone in r1, r2 and v here: checked on the grid), the asked e
 *     lies inside, and the exact model (granular hertz damping tsuji, the same spring) gives it at the corners;
 *  3. scale-invariant models (LIGGGHTS hertz, YADE Mindlin en, Chrono hertz): exact over the ranges, the
 *     spread below 1e-12, measured at every point; no exact_model;
 *  4. a model whose code has no exact model with the user's inputs (LIGGGHTS hertz/stiffness with kn): the
 *     model named (exact_other: liggghts hertz), measured exact over the box with its own reference settings;
 *  5. a stepped engine (MuJoCo, a wall, one speed): the corners are the forward phase means at those radii;
 *  6. invalid ranges: EINVAL with a message;
 *  7. an extreme between the grid's points: LAMMPS granular hertz/material damping mass_velocity, two spheres,
 *     steel (7800 kg/m³) on wood (600 kg/m³): the damping grows with the effective mass and falls with the
 *     effective radius, so e is not monotone in r1 at r2 = r_max; the 5-point grid's smallest e is a corner,
 *     the true one at r1 ~ 9.34 mm: the refined e_min against a dense scan (4001 radii, solved here) polished by
 *     GSL's Brent minimiser, within 1e-12; a 41 x 41 scan of (r1, r2) and a scan of v find nothing below it; the
 *     corners are the grid's;
 *  8. body 2's own size range (request.r2_min, r2_max): the corners at body 2's radii, an interior smallest e
 *     with one material (r1 2-10 mm against r2 1-1.5 mm), the note, the errors. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>

#include "codes/codes_test.h"
#include "impactfit/impactfit.h"
#include "testutil.h"

static double sphere_mass(double r, double rho) { return 4.0 / 3.0 * M_PI * r * r * r * rho; }

/* e of value for md at a wall or pair of radii r1, r2 and speed v, the bodies set up here */
static double forward_at(const ct_request *base, double value, int wall, double r1, double r2, double rho, double v) {
  ct_request r = *base;
  ct_q(&r);
  r.q.bodies = impactfit_code_bodies_default();
  r.q.bodies.pair = wall ? 0 : 1;
  r.q.bodies.r1 = r1;
  r.q.bodies.rho1 = rho;
  if (!wall) {
    r.q.bodies.r2 = r2;
    r.q.bodies.rho2 = rho;
  }
  r.q.r_min = r.q.r_max = NAN;
  double e = NAN;
  impactfit_error err;
  int s = impactfit_code_forward(&r.q, value, v, &e, &err);
  CHECK(s == 0, "forward at r1 %g r2 %g v %g: %s", r1, r2, v, err.message);
  return e;
}

static int solve(ct_request *r, impactfit_code_answer *a) {
  impactfit_error err;
  ct_q(r);
  int s = impactfit_code_solve(&r->q, a, &err);
  CHECK(s == 0, "solve %s %s: %s", r->q.model->code->name, r->q.model->model, err.message);
  return s;
}

static double logspace(double a, double b, int i, int n) { return a * pow(b / a, (double)i / (n - 1)); }

/* 1. the damped linear oscillator */
static double oscillator_e(double eta, double k, double m) {
  double z = eta / (2.0 * sqrt(k * m));
  return exp(-M_PI * z / sqrt(1.0 - z * z));
}

static void check_hooke_closed_form(void) {
  const double kn = 2e4, rho = 2500.0, lo = 0.002, hi = 0.01;
  ct_request r = ct_make(ct_find("lammps", NULL, "granular hooke", "velocity"));
  r.q.bodies.pair = 0;
  r.q.bodies.m1 = NAN;
  r.q.bodies.rho1 = rho;
  ct_set1(&r, "kn", kn);
  r.q.e = 0.5;
  r.q.suggest = 1;
  r.q.r_min = lo;
  r.q.r_max = hi;
  r.q.v_min = 0.5;
  r.q.v_max = 2.0;
  impactfit_code_answer a;
  if (solve(&r, &a)) {
    impactfit_code_answer_free(&a);
    return;
  }
  CHECK(a.end == impactfit_transition_A, "granular hooke without limit_damping: end A");
  CHECK_REL(oscillator_e(a.value, kn, sphere_mass(0.005, rho)), 0.5, 1e-9, "the design point's closed form");
  CHECK(a.has_spread && !a.spread_exact && a.spread_points == 5 && a.spread.evaluations == 25,
        "a wall: 5 radii x 5 speeds, not exact (%d %d %d %ld)", a.has_spread, a.spread_exact, a.spread_points,
        a.spread.evaluations);
  double e_lo = oscillator_e(a.value, kn, sphere_mass(lo, rho)), e_hi = oscillator_e(a.value, kn, sphere_mass(hi, rho));
  for (int i = 0; i < 8; i++) /* a wall: r2 = r1 (bit 1 follows bit 0) */
    if (((i >> 1) & 1) == (i & 1))
      CHECK_REL(a.spread.e_corner[i], (i & 1) ? e_hi : e_lo, 1e-9, "corner %d against the closed form", i);
  CHECK_REL(a.spread.e_min, e_lo, 1e-9, "e_min: the smallest sphere");
  CHECK_REL(a.spread.e_max, e_hi, 1e-9, "e_max: the largest sphere");
  CHECK(a.spread.r1_min == lo && a.spread.r1_max == hi, "where: r %g, %g", a.spread.r1_min, a.spread.r1_max);
  CHECK_REL(a.spread.worst, fmax(0.5 - e_lo, e_hi - 0.5), 1e-9, "worst");
  for (int i = 0; i < 5; i++) { /* interior radii: inside [e_min, e_max] and the closed form's */
    double rr = logspace(lo, hi, i, 5), e = forward_at(&r, a.value, 1, rr, rr, rho, 1.3);
    CHECK_REL(e, oscillator_e(a.value, kn, sphere_mass(rr, rho)), 1e-9, "r %g: forward against the closed form", rr);
    CHECK(e >= a.spread.e_min - 1e-15 && e <= a.spread.e_max + 1e-15, "r %g inside the spread", rr);
  }
  const impactfit_code_answer *x = a.exact_model;
  CHECK(x && strcmp(x->model->model, "granular hooke") == 0 && strcmp(x->model->option, "tsuji") == 0 &&
            x->spread_exact && x->has_spread,
        "the exact model: granular hooke damping tsuji (%s)", x ? x->model->model : "none");
  if (x) {
    CHECK(strstr(x->input, "hooke 20000 ") != NULL, "the same spring in its line: %s", x->input);
    ct_request t = r;
    t.q.model = x->model;
    ct_q(&t);
    for (int i = 0; i < 2; i++)
      for (int k = 0; k < 2; k++)
        CHECK_ABS(forward_at(&t, x->value, 1, i ? hi : lo, 0, rho, k ? 2.0 : 0.5), 0.5, 1e-9,
                  "tsuji's value at corner r %g v %g", i ? hi : lo, k ? 2.0 : 0.5);
  }
  CHECK(strstr(a.note, "exact at r = 0.005 m, v = 1 m/s only") && strstr(a.note, "exact over them: lammps granular "
                                                                                 "hooke damping tsuji"),
        "the note: %s", a.note);
  impactfit_code_answer_free(&a);
}

/* 2. gran/hertz/history, two spheres: every point of the box */
static void check_hertz_history_box(void) {
  const double rho = 2500.0, lo = 0.002, hi = 0.01, vlo = 0.2, vhi = 5.0;
  ct_request r = ct_make(ct_find("lammps", NULL, "gran/hertz/history", NULL));
  r.q.bodies.pair = 1;
  r.q.bodies.m1 = NAN;
  r.q.bodies.rho1 = rho;
  ct_set1(&r, "kn", 7.3e7);
  r.q.e = 0.5;
  r.q.suggest = 1;
  r.q.r_min = lo;
  r.q.r_max = hi;
  r.q.v_min = vlo;
  r.q.v_max = vhi;
  impactfit_code_answer a;
  if (solve(&r, &a)) {
    impactfit_code_answer_free(&a);
    return;
  }
  CHECK(a.has_spread && a.spread.evaluations == 125 && !a.spread_exact, "5 x 5 x 5 points, not exact");
  double emin = INFINITY, emax = -INFINITY, worst = 0.0, wmin[3] = {0}, wmax[3] = {0};
  int monotone = 1;
  double grid[5][5][5];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 5; k++) {
        double r1 = logspace(lo, hi, i, 5), r2 = logspace(lo, hi, j, 5), v = logspace(vlo, vhi, k, 5);
        double e = grid[i][j][k] = forward_at(&r, a.value, 0, r1, r2, rho, v);
        if (e < emin)
          emin = e, wmin[0] = r1, wmin[1] = r2, wmin[2] = v;
        if (e > emax)
          emax = e, wmax[0] = r1, wmax[1] = r2, wmax[2] = v;
        worst = fmax(worst, fabs(e - 0.5));
        if ((i && e > grid[i - 1][j][k]) || (j && e > grid[i][j - 1][k]) || (k && e > grid[i][j][k - 1]))
          monotone = 0;
      }
  CHECK(a.spread.e_min == emin && a.spread.e_max == emax && a.spread.worst == worst,
        "the extremes and worst are the grid's: %.17g %.17g %.17g vs %.17g %.17g %.17g", a.spread.e_min, a.spread.e_max,
        a.spread.worst, emin, emax, worst);
  CHECK(a.spread.r1_min == wmin[0] && a.spread.r2_min == wmin[1] && a.spread.v_at_min == wmin[2] &&
            a.spread.r1_max == wmax[0] && a.spread.r2_max == wmax[1] && a.spread.v_at_max == wmax[2],
        "where the extremes are");
  for (int c = 0; c < 8; c++)
    CHECK(a.spread.e_corner[c] == grid[(c & 1) * 4][((c >> 1) & 1) * 4][((c >> 2) & 1) * 4], "corner %d", c);
  CHECK(monotone, "e decreases with r1, r2 and v on the grid (gamma_n fixed: more mass, more speed, more damping)");
  CHECK(emax == a.spread.e_corner[0] && emin == a.spread.e_corner[7], "the extremes are corners");
  CHECK(a.spread.search_evaluations > 0 && a.spread.search_evaluations < 2000,
        "the local searches ran from the corners (%ld points) and kept the corners' e to the bit",
        a.spread.search_evaluations);
  CHECK(emin < 0.5 && emax > 0.5 && emin < 0.02 && emax > 0.9, "the asked e inside, a wide spread: %g .. %g", emin,
        emax);
  const impactfit_code_answer *x = a.exact_model;
  CHECK(x && strcmp(x->model->model, "granular hertz") == 0 && strcmp(x->model->option, "tsuji") == 0,
        "exact model: granular hertz tsuji");
  if (x) {
    ct_request t = r;
    t.q.model = x->model;
    ct_q(&t);
    for (int c = 0; c < 8; c++)
      CHECK_ABS(forward_at(&t, x->value, 0, c & 1 ? hi : lo, c & 2 ? hi : lo, rho, c & 4 ? vhi : vlo), 0.5, 1e-9,
                "tsuji at corner %d", c);
    CHECK(x->spread.worst < 1e-12, "its own worst %.3g", x->spread.worst);
  }
  impactfit_code_answer_free(&a);
}

/* 3. scale-invariant models: exact over the ranges, measured */
static void check_invariant(void) {
  static const struct {
    const char *code, *model, *option;
  } cases[] = {{"liggghts", "hertz", NULL}, {"yade", "mindlin", "en"}, {"chrono", "hertz", NULL}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_request r = ct_dem(ct_find(cases[i].code, NULL, cases[i].model, cases[i].option), 0);
    r.q.e = 0.6;
    r.q.suggest = 1;
    r.q.r_min = 0.001;
    r.q.r_max = 0.02;
    r.q.v_min = 0.1;
    r.q.v_max = 3.0;
    r.q.points = 3;
    impactfit_code_answer a;
    if (solve(&r, &a) == 0) {
      CHECK(a.has_spread && a.spread_exact && a.spread.evaluations == 27 && !a.exact_model && !a.exact_other,
            "%s %s: exact over the box, 27 points", cases[i].code, cases[i].model);
      CHECK(a.spread.e_max - a.spread.e_min < 1e-12 && a.spread.worst < 1e-12, "%s: spread %.3g, worst %.3g",
            cases[i].code, a.spread.e_max - a.spread.e_min, a.spread.worst);
      CHECK_ABS(forward_at(&r, a.value, 0, 0.001, 0.02, 2500.0, 3.0), 0.6, 1e-12, "%s: an independent corner",
                cases[i].code);
      CHECK(strstr(a.note, "exact over the ranges") != NULL, "%s: the note says so: %s", cases[i].code, a.note);
    }
    impactfit_code_answer_free(&a);
  }
}

/* 4. no exact model with the user's inputs: one named */
static void check_exact_other(void) {
  ct_request r = ct_dem(ct_find("liggghts", NULL, "hertz/stiffness", NULL), 0);
  ct_set1(&r, "kn", 1e6);
  r.q.e = 0.5;
  r.q.suggest = 1;
  r.q.r_min = 0.002;
  r.q.r_max = 0.01;
  impactfit_code_answer a;
  if (solve(&r, &a) == 0) {
    CHECK(a.has_spread && !a.spread_exact && !a.exact_model && a.exact_other &&
              strcmp(a.exact_other->model, "hertz") == 0,
          "liggghts hertz/stiffness: liggghts hertz named (%s)", a.exact_other ? a.exact_other->model : "none");
    CHECK(strstr(a.note, "liggghts hertz is") != NULL, "the note names it: %s", a.note);
  }
  impactfit_code_answer_free(&a);
}

/* 5. a stepped engine */
static void check_stepped(void) {
  ct_request r = ct_make(ct_find("mujoco", "2.2.2", NULL, NULL));
  r.q.bodies.m1 = NAN;
  r.q.bodies.rho1 = 2500.0;
  r.q.e = 0.5;
  r.q.r_min = 0.002;
  r.q.r_max = 0.01;
  r.q.points = 2;
  impactfit_code_answer a;
  if (solve(&r, &a) == 0) {
    CHECK(a.stepped && a.has_spread && a.spread.evaluations == 2 && a.spread.search_evaluations == 0,
          "mujoco: 2 radii, no local search (phase means)");
    CHECK(a.spread.e_corner[0] == forward_at(&r, a.value, 1, 0.002, 0, 2500.0, 1.0) &&
              a.spread.e_corner[3] == forward_at(&r, a.value, 1, 0.01, 0, 2500.0, 1.0),
          "the corners are the phase means at those radii");
    CHECK(strstr(a.note, "over r in [0.002, 0.01] m") != NULL, "the note: %s", a.note);
  }
  impactfit_code_answer_free(&a);
}

/* 6. invalid ranges */
static void check_errors(void) {
  const impactfit_code_model *md = ct_find("lammps", NULL, "granular hooke", "velocity");
  static const double bad[][2] = {{0.01, 0.002}, {NAN, 0.01}, {0.0, 0.01}, {0.002, INFINITY}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ct_request r = ct_dem(md, 1);
    r.q.e = 0.5;
    r.q.r_min = bad[i][0];
    r.q.r_max = bad[i][1];
    impactfit_code_answer a;
    impactfit_error err;
    int s = impactfit_code_solve(ct_q(&r), &a, &err);
    CHECK(s == IMPACTFIT_EINVAL && strstr(err.message, "size range"), "range %g..%g: %d %s", bad[i][0], bad[i][1], s,
          err.message);
    impactfit_code_answer_free(&a);
  }
  ct_request r = ct_dem(md, 1);
  r.q.e = 0.5;
  r.q.r_min = 0.002;
  r.q.r_max = 0.01;
  r.q.points = 65;
  impactfit_code_answer a;
  impactfit_error err;
  CHECK(impactfit_code_solve(ct_q(&r), &a, &err) == IMPACTFIT_EINVAL, "65 points per axis refused");
  impactfit_code_answer_free(&a);
  r.q.points = 0;
  r.q.bodies = impactfit_code_bodies_default();
  r.q.bodies.meff = 0.001;
  r.q.bodies.reff = 0.003;
  CHECK(impactfit_code_solve(ct_q(&r), &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "radii"),
        "meff and reff refused: %s", err.message);
  impactfit_code_answer_free(&a);
}

/* 7. an extreme between the grid's points */
static double forward_rho(const ct_request *base, double value, double r1, double r2, double rho1, double rho2,
                          double v) {
  ct_request r = *base;
  ct_q(&r);
  r.q.bodies = impactfit_code_bodies_default();
  r.q.bodies.pair = 1;
  r.q.bodies.r1 = r1;
  r.q.bodies.rho1 = rho1;
  r.q.bodies.r2 = r2;
  r.q.bodies.rho2 = rho2;
  r.q.r_min = r.q.r_max = NAN;
  double e = NAN;
  impactfit_error err;
  int s = impactfit_code_forward(&r.q, value, v, &e, &err);
  CHECK(s == 0, "forward at r1 %g r2 %g v %g: %s", r1, r2, v, err.message);
  return e;
}

/* e along r1 (its log) at a fixed r2 and v: GSL's minimiser's function */
typedef struct edge_fn {
  const ct_request *r;
  double value, r2, rho1, rho2, v;
} edge_fn;

static double edge_e(double x, void *p) {
  const edge_fn *E = p;
  return forward_rho(E->r, E->value, exp(x), E->r2, E->rho1, E->rho2, E->v);
}

static void check_interior_extreme(void) {
  const double rho1 = 7800.0, rho2 = 600.0, lo = 0.002, hi = 0.01, vlo = 0.2, vhi = 5.0;
  ct_request r = ct_dem(ct_find("lammps", NULL, "granular hertz/material", "mass_velocity"), 0);
  r.q.bodies.pair = 1;
  r.q.bodies.r2 = 0.005;
  r.q.bodies.rho1 = rho1;
  r.q.bodies.rho2 = rho2;
  r.q.e = 0.5;
  r.q.r_min = lo;
  r.q.r_max = hi;
  r.q.v_min = vlo;
  r.q.v_max = vhi;
  impactfit_code_answer a;
  if (solve(&r, &a)) {
    impactfit_code_answer_free(&a);
    return;
  }
  const impactfit_code_spread *sp = &a.spread;
  /* the grid alone: its smallest e is the corner (10, 10 mm, 0.2 m/s) */
  double grid_min = INFINITY;
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 5; k++)
        grid_min = fmin(grid_min, forward_rho(&r, a.value, logspace(lo, hi, i, 5), logspace(lo, hi, j, 5), rho1, rho2,
                                              logspace(vlo, vhi, k, 5)));
  double corner = forward_rho(&r, a.value, hi, hi, rho1, rho2, vlo);
  CHECK(grid_min == corner && sp->e_corner[3] == corner, "the grid's smallest e is the corner (%.12f)", corner);
  CHECK(sp->e_min < grid_min - 1e-4, "the refined e_min %.12f is below the grid's %.12f", sp->e_min, grid_min);
  CHECK(sp->r2_min == hi && sp->v_at_min == vlo && sp->r1_min > logspace(lo, hi, 3, 5) && sp->r1_min < hi,
        "where: r1 %.6g inside the last cell, r2 %g, v %g", sp->r1_min, sp->r2_min, sp->v_at_min);
  /* a dense scan of r1 at (r2 = r_max, v = v_min), then GSL's Brent minimiser in the scan's bracket (a second
   * method: the library searches with NLopt's BOBYQA) */
  edge_fn E = {.r = &r, .value = a.value, .r2 = hi, .rho1 = rho1, .rho2 = rho2, .v = vlo};
  int best = 0;
  double dense = INFINITY;
  for (int i = 0; i <= 4000; i++) {
    double e = edge_e(log(logspace(lo, hi, i, 4001)), &E);
    if (e < dense)
      dense = e, best = i;
  }
  CHECK(best > 0 && best < 4000, "the dense scan's smallest e is inside (point %d of 4001)", best);
  double x = log(logspace(lo, hi, best, 4001)), brent = dense;
  gsl_function F = {.function = edge_e, .params = &E};
  gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
  if (m && best > 0 && best < 4000 &&
      gsl_min_fminimizer_set(m, &F, x, log(logspace(lo, hi, best - 1, 4001)), log(logspace(lo, hi, best + 1, 4001))) ==
          GSL_SUCCESS) {
    for (int it = 0; it < 200; it++) {
      gsl_min_fminimizer_iterate(m);
      if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(m), gsl_min_fminimizer_x_upper(m), 1e-12, 0) == GSL_SUCCESS)
        break;
    }
    brent = gsl_min_fminimizer_f_minimum(m);
    x = gsl_min_fminimizer_x_minimum(m);
  }
  gsl_min_fminimizer_free(m);
  CHECK(brent <= dense && fabs(sp->e_min - brent) <= 1e-12,
        "e_min %.15f against GSL Brent's %.15f (at r1 %.9g; the scan's %.15f): within 1e-12", sp->e_min, brent, exp(x),
        dense);
  CHECK_REL(sp->r1_min, exp(x), 1e-5, "where against Brent's");
  CHECK_ABS(forward_rho(&r, a.value, sp->r1_min, sp->r2_min, rho1, rho2, sp->v_at_min), sp->e_min, 1e-15,
            "e_min is e at its where");
  /* nothing lower elsewhere: (r1, r2) at v_min, and v along the edge */
  double other = INFINITY;
  for (int i = 0; i <= 40; i++)
    for (int j = 0; j <= 40; j++)
      other = fmin(other, forward_rho(&r, a.value, logspace(lo, hi, i, 41), logspace(lo, hi, j, 41), rho1, rho2, vlo));
  for (int k = 0; k <= 40; k++)
    other = fmin(other, forward_rho(&r, a.value, sp->r1_min, hi, rho1, rho2, logspace(vlo, vhi, k, 41)));
  CHECK(other >= sp->e_min - 1e-15, "a 41 x 41 scan and a speed scan: nothing below e_min (%.15f >= %.15f)", other,
        sp->e_min);
  CHECK_ABS(sp->worst, fmax(0.5 - sp->e_min, sp->e_max - 0.5), 1e-15, "worst takes the refined extreme");
  impactfit_code_answer_free(&a);
}

/* 8. body 2's own size range (request.r2_min, r2_max): one material, r1 2-10 mm, r2 1-1.5 mm, mass_velocity */
static void check_r2_range(void) {
  const double rho = 2500.0, lo = 0.002, hi = 0.01, lo2 = 0.001, hi2 = 0.0015, vlo = 0.2, vhi = 5.0;
  ct_request r = ct_dem(ct_find("lammps", NULL, "granular hertz/material", "mass_velocity"), 0);
  r.q.bodies.pair = 1;
  r.q.bodies.r2 = 0.0012;
  r.q.bodies.rho2 = rho;
  r.q.e = 0.5;
  r.q.suggest = 1;
  r.q.r_min = lo;
  r.q.r_max = hi;
  r.q.r2_min = lo2;
  r.q.r2_max = hi2;
  r.q.v_min = vlo;
  r.q.v_max = vhi;
  impactfit_code_answer a;
  if (solve(&r, &a)) {
    impactfit_code_answer_free(&a);
    return;
  }
  const impactfit_code_spread *sp = &a.spread;
  CHECK(a.r2_min == lo2 && a.r2_max == hi2 && a.r_min == lo && a.r_max == hi, "the answer's two ranges");
  double grid_min = INFINITY;
  for (int c = 0; c < 8; c++)
    CHECK_ABS(sp->e_corner[c],
              forward_rho(&r, a.value, c & 1 ? hi : lo, c & 2 ? hi2 : lo2, rho, rho, c & 4 ? vhi : vlo), 1e-15,
              "corner %d at body 2's own radii", c);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++)
      grid_min = fmin(grid_min,
                      forward_rho(&r, a.value, logspace(lo, hi, i, 5), logspace(lo2, hi2, j, 5), rho, rho, vlo));
  CHECK(sp->r2_min == hi2 && sp->v_at_min == vlo && sp->r1_min > lo && sp->r1_min < hi && sp->e_min < grid_min - 1e-6,
        "one material: the smallest e at r1 %.6g inside (r2 %g), %.3g below the grid's", sp->r1_min, sp->r2_min,
        grid_min - sp->e_min);
  double dense = INFINITY;
  for (int i = 0; i <= 400; i++)
    dense = fmin(dense, forward_rho(&r, a.value, logspace(lo, hi, i, 401), hi2, rho, rho, vlo));
  CHECK(sp->e_min <= dense + 1e-15 && dense - sp->e_min < 1e-6, "e_min %.12f against a 401-radius scan's %.12f",
        sp->e_min, dense);
  CHECK(strstr(a.note, "r1 in [0.002, 0.01] m, r2 in [0.001, 0.0015] m") != NULL, "the note names both ranges: %s",
        a.note);
  CHECK(a.exact_model && a.exact_model->spread_exact, "the exact model over the same box");
  impactfit_code_answer_free(&a);
  /* errors: a wall; no range of body 1; an empty range */
  const double bad[3][4] = {{lo, hi, lo2, hi2}, {NAN, NAN, lo2, hi2}, {lo, hi, hi2, lo2}};
  for (int k = 0; k < 3; k++) {
    ct_request b = r;
    b.q.bodies.pair = k == 0 ? 0 : 1;
    if (k == 0)
      b.q.bodies.r2 = b.q.bodies.rho2 = NAN;
    b.q.r_min = bad[k][0];
    b.q.r_max = bad[k][1];
    b.q.r2_min = bad[k][2];
    b.q.r2_max = bad[k][3];
    ct_q(&b);
    impactfit_error err;
    int st = impactfit_code_solve(&b.q, &a, &err);
    CHECK(st == IMPACTFIT_EINVAL && strstr(err.message, "body 2's size range"), "r2 range case %d: EINVAL (%s)", k,
          err.message);
    impactfit_code_answer_free(&a);
  }
}

int main(void) {
  check_hooke_closed_form();
  check_hertz_history_box();
  check_invariant();
  check_exact_other();
  check_stepped();
  check_errors();
  check_interior_extreme();
  check_r2_range();
  return tu_report("test_spread");
}
