/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The inverse on the mean e over the phase and the largest stable step (include/impactfit/stepper.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"
#include "impactfit/stepper.h"
#include "step_internal.h"
#include "stepper_impl.h"

/* ---------------------------------------------------------------- the inverse on the mean */

/* The evaluations of the exact mean that the inverse keeps: GSL's Brent evaluates the bracket's ends
 * again. */
#define MEAN_CACHE 8
#define UNSTABLE 1e3 /* mean − e where the step blows up: "e = +inf" */

typedef struct {
  impactfit_step_build_fn build;
  const void *ctx;
  double v, e;
  int status, mode;
  int unstable; /* values met where the step blew up */
  impactfit_error *err;
  impactfit_step_stats S; /* of the last evaluation */
  long evals, impacts;    /* phase statistics computed, impacts simulated (all modes) */
  long steps;             /* their steps */
  long cont_solves;       /* continuous-time impacts solved (law.h) for the surrogate */
  double mmin, mmax;      /* the range of the exact means met, the unstable values left out */
  int n_cache;
  double cache_x[MEAN_CACHE], cache_g[MEAN_CACHE];
  int cache_mode[MEAN_CACHE];
  impactfit_step_stats cache_S[MEAN_CACHE];
  int S_mode;     /* the mode c->S was computed in */
  double jump[4]; /* refine's failure across a jump: the bracket's ends' ln(value) and means */
  int jumped;
  impactfit__family *fam; /* the family of reference impacts of the last evaluation with the linearisation */
  double fam_x;           /* its ln(value) */
} mean_ctx;

/* mean e − asked e at ln(value), exact unless c->mode is STATS_QUICK; the bodies stick: e = 0; the step
 * blows up: UNSTABLE */
static double mean_fn(double lnv, void *params) {
  mean_ctx *c = params;
  int quick = c->mode == STATS_QUICK;
  if (!quick)
    for (int i = 0; i < c->n_cache; i++)
      if (c->cache_x[i] == lnv) {
        c->S = c->cache_S[i];
        c->S_mode = c->cache_mode[i];
        return c->cache_g[i];
      }
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  int s = c->build(c->ctx, exp(lnv), &st, c->err);
  if (!s && c->mode == STATS_NO_CONTINUOUS) { /* the answer's statistics: its family kept for the extremes */
    impactfit__family *nf = NULL;
    s = impactfit__phase_stats(&st, c->v, &c->S, c->mode, &nf, c->err);
    if (!s) {
      impactfit__family_free(c->fam);
      c->fam = nf, c->fam_x = lnv;
    }
  } else if (!s) {
    s = impactfit__phase_stats(&st, c->v, &c->S, c->mode, NULL, c->err);
  }
  c->evals++;
  c->impacts += c->S.impacts;
  c->steps += c->S.steps;
  c->S_mode = c->mode;
  double g;
  if (s == IMPACTFIT_ENOSEP || s == IMPACTFIT_ENONFINITE) {
    impactfit_error_clear(c->err);
    memset(&c->S, 0, sizeof c->S);
    c->S.e_continuous = NAN;
    if (s == IMPACTFIT_ENONFINITE) { /* the step is unstable there: the energy grows without bound */
      c->unstable += !quick;
      c->S.e_mean = c->S.e_min = c->S.e_max = INFINITY;
      g = UNSTABLE;
    } else {
      g = -c->e; /* the bodies stick: e = 0 */
    }
  } else if (s) {
    c->status = s;
    return 0.0;
  } else {
    g = c->S.e_mean - c->e;
  }
  if (!quick) {
    if (g != UNSTABLE) {
      c->mmin = fmin(c->mmin, g + c->e);
      c->mmax = fmax(c->mmax, g + c->e);
    }
    int k = c->n_cache < MEAN_CACHE ? c->n_cache++ : (int)(c->evals % MEAN_CACHE);
    c->cache_x[k] = lnv;
    c->cache_g[k] = g;
    c->cache_mode[k] = c->mode;
    c->cache_S[k] = c->S;
  }
  return g;
}

/* The search aims at |mean − e| ≤ tol/AIM and accepts tol where it cannot get closer (a mean that jumps near
 * the root): the answers are never less accurate than the tolerance and usually far more. */
#define AIM 10.0

/* Brent's method (GSL) on ln(value) inside [xa, xb] where mean − e changes sign, until |g| ≤ tol/AIM (or the
 * bracket collapses with a point within tol) */
static int refine(mean_ctx *c, double xa, double xb, double tol, double *x) {
  double best = INFINITY, xbest = NAN;
  gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!rs)
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper inverse: out of memory");
  gsl_function F = {mean_fn, c};
  gsl_root_fsolver_set(rs, &F, xa, xb);
  int conv = 0;
  double l = xa, u = xb;
  for (int it = 0; it < 200 && !c->status; it++) {
    if (gsl_root_fsolver_iterate(rs) != GSL_SUCCESS || c->status)
      break;
    *x = gsl_root_fsolver_root(rs);
    double g = mean_fn(*x, c);
    if (c->status)
      break;
    if (fabs(g) < best)
      best = fabs(g), xbest = *x;
    if (fabs(g) <= tol / AIM) {
      conv = 1;
      break;
    }
    l = gsl_root_fsolver_x_lower(rs), u = gsl_root_fsolver_x_upper(rs);
    if (u - l <= 4.0 * DBL_EPSILON * fmax(1.0, fabs(u)))
      break;
  }
  gsl_root_fsolver_free(rs);
  if (c->status)
    return c->status;
  if (!conv && best <= tol) {
    *x = xbest;
    conv = 1;
  }
  if (conv)
    return 0;
  /* the means on the jump's two sides (the bracket's ends, met before: from the cache) */
  double gl = mean_fn(l, c), gu = mean_fn(u, c);
  if (c->status)
    return c->status;
  if (gl != UNSTABLE && gu != UNSTABLE && (gl > 0.0) != (gu > 0.0)) {
    c->jumped = 1;
    c->jump[0] = l, c->jump[1] = u, c->jump[2] = gl + c->e, c->jump[3] = gu + c->e;
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOCONV,
                           "stepper inverse: the mean e jumps across %.17g near the value %.17g, from %.9g to %.9g "
                           "(not reached to %.3g)",
                           c->e, exp(*x), gl + c->e, gu + c->e, tol);
  }
  return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOCONV,
                         "stepper inverse: the mean e jumps across %.17g near the value %.17g (not reached to %.3g)",
                         c->e, exp(*x), tol);
}

/* An exact bracket of the root near x0, stepping towards it by the secant estimate from the slope k of
 * the cheap mean and widening the step fourfold, within [xl, xr]. Returns 1 with [*xa, *xb] (signs of g
 * opposite), 2 with *root when a point meets the tolerance, 0 when none was found there, -1 on a status. */
static int bracket_near(mean_ctx *c, double x0, double k, double xl, double xr, double tol, double *xa, double *xb,
                        double *root) {
  double g0 = mean_fn(x0, c);
  if (c->status)
    return -1;
  if (g0 == UNSTABLE)
    return 0;
  if (fabs(g0) <= tol / AIM) {
    *root = x0;
    return 2;
  }
  double d = isfinite(k) && k != 0.0 ? -1.5 * g0 / k : 0.0, span = xr - xl;
  double dir = d < 0.0 ? -1.0 : 1.0;
  d = fabs(d);
  if (!(d >= 1e-9 * span))
    d = 1e-9 * span;
  for (int i = 0; i < 16; i++) {
    double x1 = x0 + dir * d;
    if (x1 < xl || x1 > xr)
      return 0;
    double g1 = mean_fn(x1, c);
    if (c->status)
      return -1;
    if (g1 == UNSTABLE)
      return 0;
    if (fabs(g1) <= tol / AIM) {
      *root = x1;
      return 2;
    }
    if ((g1 > 0.0) != (g0 > 0.0)) {
      *xa = fmin(x0, x1);
      *xb = fmax(x0, x1);
      return 1;
    }
    x0 = x1;
    g0 = g1;
    d *= 4.0;
  }
  return 0;
}

/* Where the cheap mean crosses e: walking from the guess by factors of 2 (*walked = 1 when the walk
 * reached a bound with |mean − e| shrinking all the way, *bound then that bound), else scanning
 * [a, b] on 25 points. Returns 1 with the crossing cell [*x0, *x1] and the cheap values *q0, *q1 there,
 * 0 when none, -1 on a status. */
static int cheap_crossing(mean_ctx *c, double a, double b, double guess, double lo, double hi, double *x0, double *x1,
                          double *q0, double *q1, int *walked, double *bound, int *mono) {
  c->mode = STATS_QUICK;
  *walked = 0;
  *mono = 0;
  if (isfinite(guess) && guess > lo && guess < hi) {
    double xg = log(guess), g0 = mean_fn(xg, c);
    if (c->status)
      return -1;
    double xn = fmin(b, xg + LN2), gn = mean_fn(xn, c);
    if (c->status)
      return -1;
    if (g0 != UNSTABLE && gn != UNSTABLE) {
      if ((g0 > 0.0) != (gn > 0.0)) {
        *x0 = xg, *x1 = xn, *q0 = g0, *q1 = gn;
        return 1;
      }
      /* the direction in which |mean − e| shrinks */
      double dir = fabs(gn) < fabs(g0) ? 1.0 : -1.0, xp = dir > 0 ? xn : xg, gp = dir > 0 ? gn : g0;
      for (int i = 0; i < 40; i++) {
        double xq = dir > 0 ? fmin(b, xp + LN2) : fmax(a, xp - LN2);
        if (xq == xp) {
          *walked = 1;
          *bound = xp;
          return 0;
        }
        double gq = mean_fn(xq, c);
        if (c->status)
          return -1;
        if (gq == UNSTABLE)
          break;
        if ((gq > 0.0) != (gp > 0.0)) { /* crossed (also where it overshoots: |gq| > |gp|) */
          *x0 = xp, *x1 = xq, *q0 = gp, *q1 = gq;
          return 1;
        }
        if (fabs(gq) > fabs(gp))
          break; /* not monotone here: scan */
        xp = xq, gp = gq;
      }
    }
  }
  enum { NGRID = 25 };
  double gp = 0.0;
  int up = 1, down = 1;
  for (int i = 0; i < NGRID; i++) {
    double x = a + (b - a) * i / (NGRID - 1), g = mean_fn(x, c);
    if (c->status)
      return -1;
    if (i > 0 && gp != UNSTABLE && g != UNSTABLE && ((gp > 0.0) != (g > 0.0) || g == 0.0)) {
      *x0 = a + (b - a) * (i - 1) / (NGRID - 1), *x1 = x, *q0 = gp, *q1 = g;
      return 1;
    }
    if (i > 0)
      up &= g >= gp && g != UNSTABLE, down &= g <= gp && gp != UNSTABLE;
    gp = g;
  }
  *mono = up || down; /* the cheap mean monotone and never crossing: the exact means at the ends decide */
  return 0;
}

/* The exact mean on 25 points of [a, b]: its first bracket. Returns 1 with it, 0 when none, -1. */
static int exact_scan(mean_ctx *c, double a, double b, double *xa, double *xb) {
  enum { NGRID = 25 };
  double gp = 0.0;
  for (int i = 0; i < NGRID; i++) {
    double x = a + (b - a) * i / (NGRID - 1), g = mean_fn(x, c);
    if (c->status)
      return -1;
    if (i > 0 && gp != UNSTABLE && g != UNSTABLE && ((gp > 0.0) != (g > 0.0) || g == 0.0)) {
      *xa = a + (b - a) * (i - 1) / (NGRID - 1);
      *xb = x;
      return 1;
    }
    gp = g;
  }
  return 0;
}

/* ---------------------------------------------------------------- the continuous-time surrogate */

/* The continuous-time e at ln(value) minus the asked e (NaN when the stepper has no continuous law or the
 * build or the law's solve fails); *steps, when given, the contact's length in steps of dt. */
static double cont_fn(mean_ctx *c, double lnv, double *steps) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  impactfit_law_impact_result r;
  if (c->build(c->ctx, exp(lnv), &st, NULL) || !st.type)
    return NAN;
  c->cont_solves++;
  if (impactfit__step_continuous_impact(&st, c->v, &r))
    return NAN;
  if (steps)
    *steps = r.t_contact / st.dt;
  return r.e_out - c->e;
}

static double cont_gsl(double lnv, void *p) { return cont_fn(p, lnv, NULL); }

/* The root of e_continuous − e in [a, b] (ln of the value): walking by factors of 2 from x0 towards the
 * target, or on 25 points where the walk turns away, then Brent (GSL) to 1e-11 in ln(value); the slope there
 * by a central difference. Returns 1 with *xs and *ks; 0 when e_continuous does not cross e on the 25 points,
 * with *xb the point closest to it and *mono 1 when the 25 values are monotone; -1 when it is not defined
 * somewhere on the way (no continuous law: the quick mean decides). */
static int cont_root(mean_ctx *c, double a, double b, double x0, double *xs, double *ks, double *xb, int *mono) {
  double g0 = cont_fn(c, x0, NULL), xl = NAN, xr = NAN, gl = NAN, gr = NAN;
  if (isnan(g0))
    return -1;
  *mono = 0;
  double xn = fmin(b, x0 + LN2), gn = xn > x0 ? cont_fn(c, xn, NULL) : NAN;
  if (!isnan(gn) && (g0 > 0.0) != (gn > 0.0)) {
    xl = x0, xr = xn, gl = g0, gr = gn;
  } else if (!isnan(gn) || x0 == b) {
    double dir = !isnan(gn) && fabs(gn) < fabs(g0) ? 1.0 : -1.0, xp = dir > 0 ? xn : x0, gp = dir > 0 ? gn : g0;
    for (int i = 0; i < 60; i++) {
      double xq = dir > 0 ? fmin(b, xp + LN2) : fmax(a, xp - LN2);
      if (xq == xp)
        break;
      double gq = cont_fn(c, xq, NULL);
      if (isnan(gq))
        return -1;
      if ((gq > 0.0) != (gp > 0.0)) {
        xl = fmin(xp, xq), xr = fmax(xp, xq), gl = xl == xp ? gp : gq, gr = xl == xp ? gq : gp;
        break;
      }
      if (fabs(gq) > fabs(gp))
        break;
      xp = xq, gp = gq;
    }
  }
  if (isnan(xl)) { /* the 25 points */
    enum { NGRID = 25 };
    double gp = NAN, best = INFINITY;
    int up = 1, down = 1;
    for (int i = 0; i < NGRID && isnan(xl); i++) {
      double x = a + (b - a) * i / (NGRID - 1), g = cont_fn(c, x, NULL);
      if (isnan(g))
        return -1;
      if (fabs(g) < best)
        best = fabs(g), *xb = x;
      if (i > 0) {
        up &= g >= gp;
        down &= g <= gp;
        if ((gp > 0.0) != (g > 0.0))
          xl = a + (b - a) * (i - 1) / (NGRID - 1), xr = x, gl = gp, gr = g;
      }
      gp = g;
    }
    if (isnan(xl)) {
      *mono = up || down;
      return 0;
    }
  }
  gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!rs)
    return -1;
  gsl_function F = {cont_gsl, c};
  double x = 0.5 * (xl + xr);
  if (gsl_root_fsolver_set(rs, &F, xl, xr) == GSL_SUCCESS)
    for (int it = 0; it < 100; it++) {
      if (gsl_root_fsolver_iterate(rs) != GSL_SUCCESS)
        break;
      x = gsl_root_fsolver_root(rs);
      double l = gsl_root_fsolver_x_lower(rs), u = gsl_root_fsolver_x_upper(rs);
      if (u - l <= 1e-11 * fmax(1.0, fabs(x)))
        break;
    }
  gsl_root_fsolver_free(rs);
  (void)gl, (void)gr;
  double d = 1e-4 * fmax(1.0, xr - xl) < 1e-3 ? 1e-4 : 1e-3;
  double xm = fmax(a, x - d), xp = fmin(b, x + d), gm = cont_fn(c, xm, NULL), gp = cont_fn(c, xp, NULL);
  *xs = x;
  *ks = xp > xm ? (gp - gm) / (xp - xm) : NAN;
  return 1;
}

/* ---------------------------------------------------------------- the exact mean's secant */

/* From x0 (where the surrogate crosses) along the secant of the exact mean, the first step with the
 * surrogate's slope k0, each later one with the slope of the last two exact means (no step longer than 4
 * times the one before): returns 2 with *root where a mean meets the tolerance, 1 with the exact bracket [*xa,
 * *xb] where the sign changes, 3 when the walk reached a bound of [a, b] with the distance to the target
 * shrinking all the way (the target is then out of reach for a monotone mean: *xa that bound), 0 when the walk
 * failed (the step blew up or the bodies stuck somewhere, a slope of the wrong sign, a growing distance: the
 * scans decide), -1 on a status. Every evaluation is made with the linearisation (the answer's statistics: at a
 * small step the first, at the continuous-time root, often meets the tolerance and is not computed again; the
 * mean is the same to the bit without it). */
static int exact_secant(mean_ctx *c, double x0, double k0, double a, double b, double tol, double *xa, double *xb,
                        double *root) {
  c->mode = STATS_NO_CONTINUOUS;
  double g0 = mean_fn(x0, c);
  if (c->status)
    return -1;
  if (g0 == UNSTABLE || g0 == -c->e)
    return 0;
  if (fabs(g0) <= tol / AIM) {
    *root = x0;
    return 2;
  }
  double k = k0, last = INFINITY, best = fabs(g0), xbest = x0;
  for (int it = 0; it < 24; it++) {
    if (!(isfinite(k) && k != 0.0))
      break;
    double d = -g0 / k;
    if (fabs(d) > 4.0 * last)
      d = copysign(4.0 * last, d);
    double x1 = fmin(b, fmax(a, x0 + d));
    if (x1 == x0) { /* at a bound, the secant pointing out of the range */
      if (best <= tol)
        break;
      *xa = x0;
      return 3;
    }
    double g1 = mean_fn(x1, c);
    if (c->status)
      return -1;
    if (g1 == UNSTABLE || g1 == -c->e)
      break;
    if (fabs(g1) < best)
      best = fabs(g1), xbest = x1;
    if (fabs(g1) <= tol / AIM) {
      *root = x1;
      return 2;
    }
    if ((g1 > 0.0) != (g0 > 0.0)) {
      *xa = fmin(x0, x1);
      *xb = fmax(x0, x1);
      return 1;
    }
    double k1 = (g1 - g0) / (x1 - x0);
    if (fabs(g1) >= fabs(g0) || k1 * k0 <= 0.0)
      break;
    last = fabs(x1 - x0);
    x0 = x1, g0 = g1, k = k1;
  }
  if (best <= tol) { /* the closest point, where the mean's own noise keeps it from tol/AIM */
    *root = xbest;
    return 2;
  }
  return 0;
}

/* Fewer contact steps than this at the guess: the quick mean (16 impacts) is cheaper than the law's solve
 * and nearer to the exact mean; more: the continuous-time e starts the search. */
#define CONT_STEPS 32.0

/* The search from the continuous-time inverse (see CONT_STEPS): returns 2 with *root, 1 with an exact bracket
 * [*xa, *xb], 4 when the target is out of reach (the exact means at both ends of the range on the same side
 * of it, where the continuous-time e is monotone or the secant reached an end with the distance shrinking),
 * 0 when it does not decide (no continuous law, a short contact, a failed secant: the quick mean and the
 * scans do), -1 on a status. */
static int cont_start(mean_ctx *c, double a, double b, double guess, double lo, double hi, double tol, double *xa,
                      double *xb, double *root) {
  double xg = isfinite(guess) && guess > lo && guess < hi ? log(guess) : 0.5 * (a + b), steps = NAN;
  if (isnan(cont_fn(c, xg, &steps)) || !(steps >= CONT_STEPS))
    return 0;
  double xs, ks, xbest = NAN;
  int mono = 0, cr = cont_root(c, a, b, xg, &xs, &ks, &xbest, &mono);
  c->mode = STATS_SEARCH;
  if (cr == 1) {
    int f = exact_secant(c, xs, ks, a, b, tol, xa, xb, root);
    if (f != 3)
      return f;
    xbest = *xa; /* the end the secant reached: the other end decides */
  } else if (cr == 0 && mono) {
    /* e_continuous does not reach e: the exact mean at the end closest to it */
    double gb = mean_fn(xbest, c), gcb = cont_fn(c, xbest, NULL);
    if (c->status)
      return -1;
    if (gb == UNSTABLE || gb == -c->e)
      return 0;
    if (fabs(gb) <= tol / AIM) {
      *root = xbest;
      return 2;
    }
    if ((gb > 0.0) != (gcb > 0.0)) { /* the stepped mean crosses where the continuous one does not */
      double d = xbest == a ? 1e-3 : -1e-3, k = (cont_fn(c, xbest + d, NULL) - gcb) / d;
      int f = exact_secant(c, xbest, k, a, b, tol, xa, xb, root);
      return f == 3 ? 0 : f;
    }
  } else {
    return 0;
  }
  /* the other end */
  double xo = xbest == a ? b : a, go = mean_fn(xo, c), gb = mean_fn(xbest, c);
  if (c->status)
    return -1;
  if (go == UNSTABLE || go == -c->e || gb == UNSTABLE || gb == -c->e)
    return 0;
  if (fabs(go) <= tol / AIM) {
    *root = xo;
    return 2;
  }
  if ((go > 0.0) == (gb > 0.0))
    return 4;
  *xa = a, *xb = b;
  return 1;
}

static int no_root(mean_ctx *c, double lo, double hi, impactfit_step_stats *stats) {
  if (stats) {
    memset(stats, 0, sizeof *stats);
    stats->e_min = c->mmin;
    stats->e_max = c->mmax;
    stats->e_mean = NAN;
    stats->e_continuous = NAN;
    stats->impacts = c->impacts;
    stats->steps = c->steps;
  }
  if (!(c->mmin <= c->mmax))
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOROOT,
                           "no value in [%.6g, %.6g] gives a mean e of %.17g at this step: the step is unstable at "
                           "every value tried",
                           lo, hi, c->e);
  return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOROOT,
                         "no value in [%.6g, %.6g] gives a mean e of %.17g at this step: the means found range "
                         "over [%.6g, %.6g]%s",
                         lo, hi, c->e, c->mmin, c->mmax,
                         c->unstable ? " (values where the step is unstable left out)" : "");
}

static int solve_mean(mean_ctx *cp, double lo, double hi, double guess, double tol, double *value,
                      impactfit_step_stats *stats);

int impactfit_step_solve_mean(impactfit_step_build_fn build, const void *ctx, double v, double e, double lo, double hi,
                              double guess, double tol, double *value, impactfit_step_stats *stats,
                              impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!build || !value)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: NULL argument");
  if (!(isfinite(e) && e > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: e must be > 0 (got %.17g)", e);
  if (!(isfinite(lo) && isfinite(hi) && lo > 0.0 && hi > lo))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: need 0 < lo < hi (got %.17g, %.17g)", lo, hi);
  if (tol == 0.0)
    tol = 1e-10;
  if (!(tol >= 1e-13 && tol < 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: tol must lie in [1e-13, 0.1) (got %.17g)", tol);
  mean_ctx c = {.build = build, .ctx = ctx, .v = v, .e = e, .err = err, .mmin = INFINITY, .mmax = -INFINITY};
  int s = solve_mean(&c, lo, hi, guess, tol, value, stats);
  impactfit__family_free(c.fam);
  return s;
}

/* The search (impactfit_step_solve_mean's comment in stepper.h) */
static int solve_mean(mean_ctx *cp, double lo, double hi, double guess, double tol, double *value,
                      impactfit_step_stats *stats) {
  mean_ctx c = *cp; /* copied back at every return (the family to free) */
  int rs = 0;
#define RETURN(x) \
  do {            \
    rs = (x);     \
    goto done;    \
  } while (0)
  impactfit_step_build_fn build = c.build;
  const void *ctx = c.ctx;
  double v = c.v;
  impactfit_error *err = c.err;
  double a = log(lo), b = log(hi), xa = a, xb = b, x = NAN, x0, x1, q0, q1, bound = a;
  int walked = 0, found = 0;
  /* 0. where the contact takes many steps, the continuous-time inverse is the start and its slope the
   * secant's first (the stepped mean is close to it); else the quick mean's crossing */
  found = cont_start(&c, a, b, guess, lo, hi, tol, &xa, &xb, &x);
  if (found < 0)
    RETURN(c.status);
  if (found == 4)
    RETURN(no_root(&c, lo, hi, stats));
  /* 1. the cheap mean's crossing; 2. an exact bracket near its secant root */
  int mono = 0;
  int r = found ? 2 : cheap_crossing(&c, a, b, guess, lo, hi, &x0, &x1, &q0, &q1, &walked, &bound, &mono);
  if (r < 0)
    RETURN(c.status);
  c.mode = STATS_SEARCH;
  if (r == 0 && mono) { /* the exact means at the two ends: on one side of e, out of reach; else a bracket */
    double ga = mean_fn(a, &c), gb = mean_fn(b, &c);
    if (c.status)
      RETURN(c.status);
    if (ga != UNSTABLE && gb != UNSTABLE && ga != -c.e && gb != -c.e) {
      if ((ga > 0.0) == (gb > 0.0) && fabs(ga) > tol / AIM && fabs(gb) > tol / AIM)
        RETURN(no_root(&c, lo, hi, stats));
      found = 1;
    }
  }
  if (r == 1) {
    double k = (q1 - q0) / (x1 - x0), xs = x0 + (q1 != q0 ? -q0 / k : 0.5 * (x1 - x0)), w = fabs(x1 - x0);
    found = bracket_near(&c, fmin(fmax(xs, a), b), k, fmax(a, fmin(x0, x1) - w), fmin(b, fmax(x0, x1) + w), tol, &xa,
                         &xb, &x);
    if (found < 0)
      RETURN(c.status);
  } else if (walked) {
    /* the cheap walk reached a bound, the distance not growing: the exact means at the guess, that bound and
     * the other end (for the range reached) */
    double gg = mean_fn(log(guess), &c), gb = mean_fn(bound, &c), go = mean_fn(bound == a ? b : a, &c);
    if (c.status)
      RETURN(c.status);
    if (gg != UNSTABLE && gb != UNSTABLE && go != UNSTABLE && (gg > 0.0) == (gb > 0.0) && (go > 0.0) == (gb > 0.0) &&
        fabs(gb) <= fabs(gg))
      RETURN(no_root(&c, lo, hi, stats));
  }
  /* 3. otherwise the exact mean on 25 points */
  if (!found) {
    int s = exact_scan(&c, a, b, &xa, &xb);
    if (s < 0)
      RETURN(c.status);
    if (s == 0)
      RETURN(no_root(&c, lo, hi, stats));
    found = 1;
  }
  /* 4. Brent on the exact bracket (unless a point already met the tolerance) */
  if (found == 1) {
    double ga = mean_fn(xa, &c), gb = mean_fn(xb, &c);
    if (c.status)
      RETURN(c.status);
    if (fabs(ga) <= tol / AIM || fabs(gb) <= tol / AIM) {
      x = fabs(gb) <= tol / AIM ? xb : xa;
    } else {
      c.mode = STATS_NO_CONTINUOUS; /* Brent's points near the root, with the linearisation: the answer's */
      int s = refine(&c, xa, xb, tol, &x);
      if (s == IMPACTFIT_ENOCONV && c.jumped && stats) { /* the jump's sides (stepper.h) */
        memset(stats, 0, sizeof *stats);
        stats->e_min = fmin(c.jump[2], c.jump[3]);
        stats->e_max = fmax(c.jump[2], c.jump[3]);
        stats->e_mean = stats->e_continuous = NAN;
        stats->impacts = c.impacts;
        stats->steps = c.steps;
      }
      if (s)
        RETURN(s);
    }
  }
  /* the statistics at the answer, linearisation included (Brent's last point has it; a point the search
   * met the tolerance at without it is computed again), with the continuous-time e */
  *value = exp(x);
  c.mode = STATS_NO_CONTINUOUS;
  mean_fn(x, &c);
  if (c.status)
    RETURN(c.status);
  if (c.S_mode != STATS_NO_CONTINUOUS) {
    c.n_cache = 0;
    mean_fn(x, &c);
    if (c.status)
      RETURN(c.status);
  }
  if (stats) {
    impactfit_stepper st;
    memset(&st, 0, sizeof st);
    *stats = c.S;
    if (build(ctx, *value, &st, NULL) == 0) {
      stats->e_continuous = impactfit__step_continuous_e(&st, v);
      long i0 = stats->impacts, s0 = stats->steps;
      int s = impactfit__step_refine_extremes(&st, v, stats, c.fam_x == x ? c.fam : NULL, err);
      if (s)
        RETURN(s);
      c.impacts += stats->impacts - i0;
      c.steps += stats->steps - s0;
      stats->stable = stats->stable && stats->e_max <= 1.0;
    }
    stats->impacts = c.impacts;
    stats->steps = c.steps;
  }
done:
  *cp = c;
  return rs;
#undef RETURN
}

/* ---------------------------------------------------------------- the largest stable step */

static int stable_at(const impactfit_stepper *st, double v, double dt, int *stable, impactfit_error *err) {
  impactfit_stepper s = *st;
  s.dt = dt;
  impactfit_step_stats S;
  int rc = impactfit__phase_stats(&s, v, &S, STATS_STABILITY, NULL, err);
  if (rc == IMPACTFIT_ENONFINITE || rc == IMPACTFIT_ENOSEP) {
    *stable = 0;
    return 0;
  }
  if (rc)
    return rc;
  *stable = S.stable;
  return 0;
}

int impactfit_step_max_stable_dt(const impactfit_stepper *st, double v, double *dt_max, impactfit_error *err) {
  impactfit_error_clear(err);
  if (!dt_max)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: NULL result");
  int s = impactfit_stepper_check(st, err), ok;
  if (s)
    return s;
  if (!st->type) { /* no step to bound */
    *dt_max = INFINITY;
    return 0;
  }
  double lo, hi, dt = st->dt;
  if ((s = stable_at(st, v, dt, &ok, err)))
    return s;
  if (ok) {
    lo = dt;
    hi = dt;
    for (int i = 0;; i++) {
      if (i >= 20) { /* stable up to 1e6 dt */
        *dt_max = INFINITY;
        return 0;
      }
      hi *= 2.0;
      if ((s = stable_at(st, v, hi, &ok, err)))
        return s;
      if (!ok)
        break;
      lo = hi;
    }
  } else {
    hi = dt;
    lo = dt;
    /* a step so small that the contact takes more than 1e4 of them is not searched (each stable probe there
     * steps ~70 impacts through it): unstable at every step of practical size */
    impactfit_law_impact_result cr;
    double t_c = impactfit__step_continuous_impact(st, v, &cr) == 0 ? cr.t_contact : NAN;
    for (int i = 0;; i++) {
      if (isfinite(t_c) && t_c / (0.5 * lo) > 1e4) {
        *dt_max = 0.0;
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                               "stepper %s: unstable at every step down to %.3g s (%.3g steps per contact of %.3g s)",
                               st->type->name, lo, t_c / lo, t_c);
      }
      if (i >= 60) {
        *dt_max = 0.0;
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT, "stepper %s: unstable at every step down to %.3g s",
                               st->type->name, lo);
      }
      lo *= 0.5;
      if ((s = stable_at(st, v, lo, &ok, err)))
        return s;
      if (ok)
        break;
      hi = lo;
    }
  }
  while (hi - lo > 1e-6 * lo) {
    double m = sqrt(lo * hi);
    if ((s = stable_at(st, v, m, &ok, err)))
      return s;
    if (ok)
      lo = m;
    else
      hi = m;
  }
  *dt_max = lo;
  return 0;
}
