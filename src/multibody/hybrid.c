/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Event-locating rk8pd integration for the multibody examples (see hybrid.h).
 *
 * Stepper choice: rk8pd (Dormand–Prince 8(7)) as in the impact engine. Between events the roller and
 * the pendulum are smooth and not stiff at the tolerances used (the stiffest mode, a drum on soil of
 * k = 2e8 N/m, has ω ≈ 316 rad/s against a step of a few ms), so an explicit high-order pair reaches
 * 1e-11 with few right-hand-side evaluations; the non-smooth points are handled by restarting at each
 * located event instead of by the stepper. */
#include "hybrid.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "../common/common_impl.h"

int impactfit__hyb_init(impactfit__hyb *H, size_t dim,
                        int (*f)(double t, const double y[], double dydt[], void *params), void *params, double tol,
                        const double *scale) {
  memset(H, 0, sizeof *H);
  if (dim == 0 || dim > IMPACTFIT__HYB_MAXDIM || !(tol > 0.0))
    return IMPACTFIT_EINVAL;
  H->dim = dim;
  H->sys.function = f;
  H->sys.jacobian = NULL;
  H->sys.dimension = dim;
  H->sys.params = params;
  H->step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, dim);
  H->control = scale ? gsl_odeiv2_control_scaled_new(tol, 0.0, 1.0, 0.0, scale, dim)
                     : gsl_odeiv2_control_standard_new(tol, tol, 1.0, 0.0);
  H->evolve = gsl_odeiv2_evolve_alloc(dim);
  H->brent = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!H->step || !H->control || !H->evolve || !H->brent) {
    impactfit__hyb_release(H);
    return IMPACTFIT_ENOMEM;
  }
  H->h = 1e-6;
  return 0;
}

void impactfit__hyb_release(impactfit__hyb *H) {
  if (!H)
    return;
  if (H->step)
    gsl_odeiv2_step_free(H->step);
  if (H->control)
    gsl_odeiv2_control_free(H->control);
  if (H->evolve)
    gsl_odeiv2_evolve_free(H->evolve);
  if (H->brent)
    gsl_root_fsolver_free(H->brent);
  memset(H, 0, sizeof *H);
}

void impactfit__hyb_restart(impactfit__hyb *H, double h) {
  gsl_odeiv2_evolve_reset(H->evolve);
  gsl_odeiv2_step_reset(H->step);
  H->h = h;
}

static int finite_state(const double *y, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(y[i]))
      return 0;
  return 1;
}

int impactfit__hyb_step(impactfit__hyb *H, double *t, double y[], double t_stop) {
  H->t0 = *t;
  memcpy(H->y0, y, H->dim * sizeof y[0]);
  H->have_dydt0 = 0;
  int st = gsl_odeiv2_evolve_apply(H->evolve, H->control, H->step, &H->sys, t, t_stop, &H->h, y);
  if (st == GSL_EBADFUNC || !finite_state(y, H->dim))
    return IMPACTFIT_ENONFINITE;
  if (st != GSL_SUCCESS)
    return IMPACTFIT_ESTEP;
  H->len = *t - H->t0;
  H->steps++;
  return 0;
}

int impactfit__hyb_state(impactfit__hyb *H, double s, double y[]) {
  memcpy(y, H->y0, H->dim * sizeof y[0]);
  if (s <= 0.0)
    return 0;
  if (!H->have_dydt0) {
    if (H->sys.function(H->t0, H->y0, H->dydt0, H->sys.params) != GSL_SUCCESS)
      return IMPACTFIT_ENONFINITE;
    H->have_dydt0 = 1;
  }
  double yerr[IMPACTFIT__HYB_MAXDIM];
  /* The same single step the integrator took, shortened to s: a point of its own solution. */
  int st = gsl_odeiv2_step_apply(H->step, H->t0, s, y, yerr, H->dydt0, NULL, &H->sys);
  if (st != GSL_SUCCESS || !finite_state(y, H->dim))
    return IMPACTFIT_ENONFINITE;
  return 0;
}

typedef struct root_ctx {
  impactfit__hyb *H;
  const impactfit__hyb_fn *fn;
  int which;
  int status;
} root_ctx;

static double root_fn(double s, void *params) {
  root_ctx *rc = params;
  double y[IMPACTFIT__HYB_MAXDIM];
  int st = impactfit__hyb_state(rc->H, s, y);
  if (st) {
    rc->status = st;
    return 0.0;
  }
  double t = rc->H->t0 + s;
  return rc->which ? rc->fn->gd(t, y, rc->fn->ctx) : rc->fn->g(t, y, rc->fn->ctx);
}

int impactfit__hyb_root(impactfit__hyb *H, const impactfit__hyb_fn *fn, int which, double a, double b, double *s) {
  root_ctx rc = {H, fn, which, 0};
  gsl_function F = {root_fn, &rc};
  double ga = root_fn(a, &rc), gb = root_fn(b, &rc);
  if (rc.status)
    return rc.status;
  /* Values at the bracket's ends recomputed on the segment may differ in the last bits from the
   * caller's: when they no longer straddle zero, the root is at the end closer to zero. */
  if (gb == 0.0 || (ga * gb > 0.0 && fabs(gb) <= fabs(ga))) {
    *s = b;
    return 0;
  }
  if (ga == 0.0 || ga * gb > 0.0) {
    *s = a;
    return 0;
  }
  int st = gsl_root_fsolver_set(H->brent, &F, a, b);
  double r = 0.5 * (a + b);
  for (int it = 0; st == GSL_SUCCESS && it < 200; it++) {
    st = gsl_root_fsolver_iterate(H->brent);
    if (rc.status)
      return rc.status;
    r = gsl_root_fsolver_root(H->brent);
    double lo = gsl_root_fsolver_x_lower(H->brent), hi = gsl_root_fsolver_x_upper(H->brent);
    if (hi - lo <= 4.0 * DBL_EPSILON * (fabs(H->t0) + fabs(hi)) + 1e-300)
      break;
  }
  if (st != GSL_SUCCESS)
    return IMPACTFIT_ENOCONV;
  *s = r;
  return 0;
}

int impactfit__hyb_extremum(impactfit__hyb *H, const impactfit__hyb_fn *fn, double a, double b, const double *ya,
                            const double *yb, int *found, double *s, double *value) {
  *found = 0;
  double da = fn->gd(H->t0 + a, ya, fn->ctx), db = fn->gd(H->t0 + b, yb, fn->ctx);
  if (!((da > 0.0 && db < 0.0) || (da < 0.0 && db > 0.0)))
    return 0;
  int st = impactfit__hyb_root(H, fn, 1, a, b, s);
  if (st)
    return st;
  double y[IMPACTFIT__HYB_MAXDIM];
  if ((st = impactfit__hyb_state(H, *s, y)))
    return st;
  *value = fn->g(H->t0 + *s, y, fn->ctx);
  *found = 1;
  return 0;
}

static int crosses(int dir, double ga, double gb) {
  return dir > 0 ? (ga < 0.0 && gb >= 0.0) : (ga > 0.0 && gb <= 0.0);
}

int impactfit__hyb_crossing(impactfit__hyb *H, const impactfit__hyb_fn *fn, int dir, double a, double b,
                            const double *ya, const double *yb, int *found, double *s) {
  *found = 0;
  double ga = fn->g(H->t0 + a, ya, fn->ctx), gb = fn->g(H->t0 + b, yb, fn->ctx);
  int ext = 0, st;
  double sm = 0.0, gm = 0.0;
  if ((st = impactfit__hyb_extremum(H, fn, a, b, ya, yb, &ext, &sm, &gm)))
    return st;
  if (ext) { /* search [a, sm] first, then [sm, b] */
    if (crosses(dir, ga, gm))
      b = sm;
    else if (crosses(dir, gm, gb))
      a = sm;
    else
      return 0;
  } else if (!crosses(dir, ga, gb)) {
    return 0;
  }
  if ((st = impactfit__hyb_root(H, fn, 0, a, b, s)))
    return st;
  *found = 1;
  return 0;
}

int impactfit__hyb_crossing_valid(impactfit__hyb *H, const impactfit__hyb_fn *fn, int dir, double a, double b,
                                  const double *ya, const double *yb, int (*valid)(const double *y, void *vctx),
                                  void *vctx, int *found, double *s, double *ys) {
  double yA[IMPACTFIT__HYB_MAXDIM];
  memcpy(yA, ya, H->dim * sizeof yA[0]);
  *found = 0;
  for (int tries = 0; tries < 8; tries++) {
    int st, f;
    double r;
    if ((st = impactfit__hyb_crossing(H, fn, dir, a, b, yA, yb, &f, &r)))
      return st;
    if (!f)
      return 0;
    if ((st = impactfit__hyb_state(H, r, yA)))
      return st;
    if (!valid || valid(yA, vctx)) {
      *found = 1;
      *s = r;
      memcpy(ys, yA, H->dim * sizeof yA[0]);
      return 0;
    }
    if (!(r > a)) /* no progress: the invalid root sits at the start */
      return 0;
    a = r;
  }
  return 0;
}

int impactfit__hyb_sample(impactfit__hyb *H, impactfit__hyb_sampler *S, double s_hi, double *t, double y[]) {
  if (S->next > S->last)
    return 0;
  double ts = S->t0 + (double)S->next * S->dt;
  if (ts > H->t0 + s_hi)
    return 0;
  double s = ts - H->t0;
  int st = impactfit__hyb_state(H, s < 0.0 ? 0.0 : s, y);
  if (st)
    return st;
  *t = ts;
  S->next++;
  return 1;
}
