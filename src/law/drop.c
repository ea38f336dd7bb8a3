/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Drop tests at a code's time step (include/impactfit/drop.h): the bounce sequence stepped with the code's own
 * step map, the fits a user applies to it, and the input whose fit gives an asked e. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/drop.h"

#define DROP_STEP_LIMIT 10000000L

impactfit_drop_params impactfit_drop_default_params(void) {
  impactfit_drop_params p = {
      .height = 1.0,
      .bounces = 15,
      .min_height = 0.0,
      .t_max = 0.0,
      .rest_steps = 0,
      .reading = IMPACTFIT_DROP_HEIGHTS,
  };
  return p;
}

double impactfit_drop_fit_heights(const double *h, int n, double *h0, double *r2) {
  if (h0)
    *h0 = NAN;
  if (r2)
    *r2 = NAN;
  if (!h || n < 1)
    return NAN;
  double kbar = 0.5 * n, ybar = 0.0;
  for (int k = 0; k <= n; k++) {
    if (!(h[k] > 0.0))
      return NAN;
    ybar += log(h[k]);
  }
  ybar /= n + 1;
  double sxy = 0.0, sxx = 0.0, syy = 0.0;
  for (int k = 0; k <= n; k++) {
    double dx = k - kbar, dy = log(h[k]) - ybar;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  double slope = sxy / sxx, icpt = ybar - slope * kbar;
  if (h0)
    *h0 = exp(icpt);
  if (r2) {
    double res = 0.0;
    for (int k = 0; k <= n; k++) {
      double r = log(h[k]) - (icpt + slope * k);
      res += r * r;
    }
    *r2 = syy > 0.0 ? 1.0 - res / syy : 1.0;
  }
  return exp(0.5 * slope);
}

static int check_params(const impactfit_stepper *st, const impactfit_drop_params *p, impactfit_error *err) {
  if (!p)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: NULL parameters");
  if (!(isfinite(p->height) && p->height > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: the height must be > 0 (m) (got %.17g)", p->height);
  if (!(p->bounces >= 1 && p->bounces <= IMPACTFIT_DROP_MAX_BOUNCES))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: bounces must lie in 1 .. %d (got %d)",
                           IMPACTFIT_DROP_MAX_BOUNCES, p->bounces);
  if (!(isfinite(p->min_height) && p->min_height >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: min_height must be >= 0 (m) (got %.17g)", p->min_height);
  if (!(p->t_max >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: t_max must be >= 0 (s) (got %.17g)", p->t_max);
  if (p->rest_steps < 0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: rest_steps must be >= 0 (got %ld)", p->rest_steps);
  if (p->reading != IMPACTFIT_DROP_HEIGHTS && p->reading != IMPACTFIT_DROP_SPEEDS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: unknown reading %d", (int)p->reading);
  int s = impactfit_stepper_check(st, err);
  if (s)
    return s;
  if (!st->type || !st->type->step)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: stepper %s takes no fixed steps",
                           st->type ? st->type->name : "continuous");
  if (!(st->gravity > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: the stepper's gravity must be > 0 (m/s^2) (got %.17g)",
                           st->gravity);
  return 0;
}

/* the fits of what was counted */
static void finish(const impactfit_drop_params *p, impactfit_drop_result *r) {
  double h[IMPACTFIT_DROP_MAX_BOUNCES + 1];
  h[0] = p->height;
  double sum = 0.0;
  for (int k = 0; k < r->n; k++) {
    h[k + 1] = r->b[k].apex;
    sum += r->b[k].v_out / r->b[k].v_in;
  }
  r->e_heights = impactfit_drop_fit_heights(h, r->n, &r->h0_fit, &r->r2);
  r->e_speeds = r->n > 0 ? sum / r->n : NAN;
  r->e_fit = p->reading == IMPACTFIT_DROP_SPEEDS ? r->e_speeds : r->e_heights;
}

/* counts the pending bounce (the impact in cur and the flight after it, apex): 1 when the sequence ends here */
static int count(const impactfit_drop_params *p, impactfit_drop_result *res, impactfit_drop_bounce *cur, double apex,
                 double t_apex) {
  if (apex < p->min_height) {
    res->end = IMPACTFIT_DROP_LOW;
    res->low_apex = apex;
    return 1;
  }
  cur->apex = apex;
  cur->t_apex = t_apex;
  res->b[res->n++] = *cur;
  if (res->n >= p->bounces) {
    res->end = IMPACTFIT_DROP_COUNTED;
    return 1;
  }
  return 0;
}

int impactfit_drop_run(const impactfit_stepper *st, const impactfit_drop_params *p, impactfit_drop_result *res,
                       impactfit_error *err) {
  impactfit_error_clear(err);
  if (!res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: NULL result");
  memset(res, 0, sizeof *res);
  res->e_heights = res->e_speeds = res->e_fit = res->h0_fit = res->r2 = res->low_apex = NAN;
  int s = check_params(st, p, err);
  if (s)
    return s;
  long rest = p->rest_steps > 0 ? p->rest_steps : 100000L;
  long limit = DROP_STEP_LIMIT;
  if (p->t_max > 0.0 && p->t_max / st->dt < (double)limit)
    limit = (long)floor(p->t_max / st->dt + 1e-9);
  double vscale = sqrt(2.0 * st->gravity * p->height);
  impactfit_step_state x = {.x = -p->height, .u = 0.0};
  /* in_impact: between an impact's first step and its end; pending: a counted-to-be impact in cur, whose flight
   * (apex so far in apex) is under way */
  int in_impact = 0, pending = 0, done = 0;
  impactfit_drop_bounce cur = {0};
  double apex = 0.0, t_apex = 0.0;
  res->end = IMPACTFIT_DROP_TIME;
  for (long k = 0; k < limit && !done; k++) {
    impactfit_step_state pre = x;
    int rc = st->type->step(st, &x);
    if (rc)
      return IMPACTFIT__FAIL(err, rc, "drop test: step %ld of stepper %s failed", k, st->type->name);
    res->steps = k + 1;
    if (!isfinite(x.x) || !isfinite(x.u) || fabs(x.u) > 1e4 * vscale)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE,
                             "drop test: the state blew up at step %ld (dt = %.6g s is unstable for this contact)", k,
                             st->dt);
    if (!in_impact && x.f != 0.0) { /* an impact begins: the flight before it is over */
      if (pending && count(p, res, &cur, apex, t_apex))
        break;
      pending = 0;
      memset(&cur, 0, sizeof cur);
      cur.v_in = pre.u;
      cur.phase = pre.u > 0.0 ? pre.x / (pre.u * st->dt) : NAN;
      cur.first_step = k;
      in_impact = 1;
    }
    if (in_impact) {
      cur.contact_steps++;
      if (x.x <= 0.0 && x.u < 0.0 && x.f == 0.0) { /* it ends: the flight begins at this step start */
        in_impact = 0;
        pending = 1;
        cur.v_out = -x.u;
        apex = -x.x;
        t_apex = (k + 1) * st->dt;
      } else if (x.f == 0.0 && pre.x <= 0.0 && pre.u < 0.0) {
        /* a flight whose apex is this step's start (apart, separating, approaching again by its end: a rebound
         * below g dt, as ODE's dContactBounce gives above bounce_vel): the impact ended at the step before; the
         * next force begins the next one (a peak finder sees the apex) */
        in_impact = 0;
        pending = 1;
        cur.contact_steps--;
        cur.v_out = -pre.u;
        apex = fmax(-pre.x, -x.x);
        t_apex = (-pre.x >= -x.x ? k : k + 1) * st->dt;
      } else if (cur.contact_steps > rest) {
        res->end = IMPACTFIT_DROP_REST;
        done = 1;
      }
    } else if (pending && -x.x > apex) {
      apex = -x.x;
      t_apex = (k + 1) * st->dt;
    }
  }
  /* the time ran out in a flight that passed its apex (falling again): a peak finder counts it */
  if (res->end == IMPACTFIT_DROP_TIME && pending && !in_impact && x.u > 0.0)
    count(p, res, &cur, apex, t_apex);
  finish(p, res);
  return 0;
}

/* ---------------------------------------------------------------- the distribution over the release */

/* flags: what to compute beyond the exact release */
enum { ST_DETERMINED = 1, ST_SAMPLES = 2 };

static int stats_run(const impactfit_stepper *st, const impactfit_drop_params *p, int samples, int what,
                     impactfit_drop_stats *out, impactfit_error *err) {
  memset(out, 0, sizeof *out);
  out->e_mean = out->e_sd = out->e_min = out->e_max = NAN;
  int s = impactfit_drop_run(st, p, &out->exact, err);
  if (s)
    return s;
  impactfit_drop_params q = *p;
  impactfit_drop_result r;
  if (what & ST_DETERMINED) {
    int det = out->exact.n;
    for (int side = -1; side <= 1; side += 2) {
      q.height = p->height * (1.0 + side * 1e-12);
      if ((s = impactfit_drop_run(st, &q, &r, err)))
        return s;
      int k = 0;
      while (k < out->exact.n && k < r.n && fabs(r.b[k].apex / out->exact.b[k].apex - 1.0) <= 1e-6)
        k++;
      if (k < det)
        det = k;
    }
    out->determined = det;
  }
  if ((what & ST_SAMPLES) && samples > 0) {
    double step = sqrt(2.0 * st->gravity * p->height) * st->dt, sum = 0.0, sum2 = 0.0;
    int counted = 0;
    out->samples = samples;
    out->e_min = INFINITY;
    out->e_max = -INFINITY;
    out->n_min = IMPACTFIT_DROP_MAX_BOUNCES;
    for (int k = 0; k < samples; k++) {
      q.height = p->height + (k + 0.5) / samples * step;
      if ((s = impactfit_drop_run(st, &q, &r, err)))
        return s;
      if (r.n < out->n_min)
        out->n_min = r.n;
      if (r.n > out->n_max)
        out->n_max = r.n;
      if (isnan(r.e_fit))
        continue;
      counted++;
      sum += r.e_fit;
      sum2 += r.e_fit * r.e_fit;
      out->e_min = fmin(out->e_min, r.e_fit);
      out->e_max = fmax(out->e_max, r.e_fit);
    }
    if (counted > 0) {
      out->e_mean = sum / counted;
      out->e_sd = sqrt(fmax(0.0, sum2 / counted - out->e_mean * out->e_mean));
    } else {
      out->e_min = out->e_max = NAN;
    }
  }
  return 0;
}

int impactfit_drop_stats_run(const impactfit_stepper *st, const impactfit_drop_params *p, int samples,
                             impactfit_drop_stats *out, impactfit_error *err) {
  impactfit_error_clear(err);
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: NULL result");
  if (!(samples >= 1 && samples <= 4096))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop test: samples must lie in 1 .. 4096 (got %d)", samples);
  return stats_run(st, p, samples, ST_DETERMINED | ST_SAMPLES, out, err);
}

/* ---------------------------------------------------------------- the inverse */

typedef struct {
  impactfit_step_build_fn build;
  const void *ctx;
  const impactfit_drop_params *p;
  int samples;
  double e;
  impactfit_error *err;
} solve_ctx;

/* the fit (exact release or mean) − e at value; *o the statistics. A value whose step blows up counts as +inf, one
 * where nothing is counted (no bounce) as e = 0. */
static int residual(solve_ctx *c, double value, double *f, impactfit_drop_stats *o) {
  impactfit_stepper st;
  int s = c->build(c->ctx, value, &st, c->err);
  if (s)
    return s;
  s = stats_run(&st, c->p, c->samples, ST_SAMPLES, o, c->err);
  if (s == IMPACTFIT_ENONFINITE) {
    impactfit_error_clear(c->err);
    *f = INFINITY;
    return 0;
  }
  if (s)
    return s;
  double fit = c->samples > 0 ? o->e_mean : o->exact.e_fit;
  *f = isnan(fit) ? -c->e : fit - c->e;
  return 0;
}

/* the statistics at the answer, with the determined bounces */
static int final_stats(solve_ctx *c, double value, impactfit_drop_stats *o) {
  impactfit_stepper st;
  int s = c->build(c->ctx, value, &st, c->err);
  return s ? s : stats_run(&st, c->p, c->samples, ST_DETERMINED | ST_SAMPLES, o, c->err);
}

/* long: the checks, the two ways to a bracket and the refinement read best in one place */
int impactfit_drop_solve(impactfit_step_build_fn build, const void *ctx, const impactfit_drop_params *p, int samples,
                         double e, double lo, double hi, double guess, double tol, double *value,
                         impactfit_drop_stats *stats, impactfit_error *err) {
  impactfit_error_clear(err);
  if (!build || !value || !stats)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop solve: NULL argument");
  if (!(e > 0.0 && e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop solve: expected 0 < e < 1 (got %.17g)", e);
  if (!(lo > 0.0 && hi > lo && isfinite(hi)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop solve: expected 0 < lo < hi (got %.17g, %.17g)", lo, hi);
  if (!(samples >= 0 && samples <= 4096))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop solve: samples must lie in 0 .. 4096 (got %d)", samples);
  if (tol == 0.0)
    tol = 1e-9;
  if (!(tol >= 1e-14 && tol < 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "drop solve: tol must lie in [1e-14, 0.1) (got %.17g)", tol);
  solve_ctx c = {.build = build, .ctx = ctx, .p = p, .samples = samples, .e = e, .err = err};
  impactfit_drop_stats o;
  int s;
  /* a bracket: around the guess, growing by factors of 1.5, else a scan of the range on 25 points */
  double a = NAN, b = NAN, fa = NAN, fb = NAN, emin = INFINITY, emax = -INFINITY;
  if (isfinite(guess) && guess > lo && guess < hi) {
    double f0;
    if ((s = residual(&c, guess, &f0, &o)))
      return s;
    emin = emax = f0 + e;
    for (int i = 1; i <= 16 && isnan(a); i++) {
      double w = pow(1.5, i), xl = fmax(lo, guess / w), xh = fmin(hi, guess * w), fl, fh;
      if ((s = residual(&c, xl, &fl, &o)) || (s = residual(&c, xh, &fh, &o)))
        return s;
      emin = fmin(emin, fmin(fl, fh) + e);
      emax = fmax(emax, fmax(fl, fh) + e);
      if ((fl > 0.0) != (f0 > 0.0))
        a = xl, fa = fl, b = guess, fb = f0;
      else if ((fh > 0.0) != (f0 > 0.0))
        a = guess, fa = f0, b = xh, fb = fh;
      if (xl == lo && xh == hi)
        break;
    }
  }
  if (isnan(a)) {
    double xp = lo, fp;
    if ((s = residual(&c, xp, &fp, &o)))
      return s;
    emin = fmin(emin, fp + e);
    emax = fmax(emax, fp + e);
    for (int i = 1; i <= 24 && isnan(a); i++) {
      double x = lo * pow(hi / lo, i / 24.0), f;
      if ((s = residual(&c, x, &f, &o)))
        return s;
      emin = fmin(emin, f + e);
      emax = fmax(emax, f + e);
      if ((f > 0.0) != (fp > 0.0))
        a = xp, fa = fp, b = x, fb = f;
      xp = x;
      fp = f;
    }
  }
  if (isnan(a))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "drop solve: no value in [%.6g, %.6g] gives the fitted e = %.17g (fits from %.6g to %.6g)",
                           lo, hi, e, emin, emax);
  /* Illinois regula falsi in ln(value), bisection where the residual is infinite */
  int side = 0;
  for (int it = 0; it < 200; it++) {
    double la = log(a), lb = log(b), lm;
    if (isfinite(fa) && isfinite(fb) && fa != fb)
      lm = lb - fb * (lb - la) / (fb - fa);
    else
      lm = 0.5 * (la + lb);
    if (!(lm > fmin(la, lb) && lm < fmax(la, lb)))
      lm = 0.5 * (la + lb);
    double m = exp(lm), fm;
    if ((s = residual(&c, m, &fm, &o)))
      return s;
    if (fabs(fm) <= tol) {
      *value = m;
      return final_stats(&c, m, stats);
    }
    if ((fm > 0.0) == (fb > 0.0)) {
      b = m, fb = fm;
      if (side == 1)
        fa *= 0.5;
      side = 1;
    } else {
      a = m, fa = fm;
      if (side == -1)
        fb *= 0.5;
      side = -1;
    }
    if (fabs(lb - la) <= 4e-16 * fmax(fabs(la), fabs(lb)) + 1e-300)
      break;
  }
  /* the bracket closed on a jump: the side closer to e */
  double fa2, fb2;
  if ((s = residual(&c, a, &fa2, &o)) || (s = residual(&c, b, &fb2, &o)))
    return s;
  *value = fabs(fa2) < fabs(fb2) ? a : b;
  if ((s = final_stats(&c, *value, stats)))
    return s;
  return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                         "drop solve: the fitted e jumps from %.12g to %.12g at the value %.12g (the number of steps "
                         "of "
                         "an impact changes there): e = %.12g lies in the jump",
                         fa2 + e, fb2 + e, *value, e);
}
