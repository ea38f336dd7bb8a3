/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Drop tests against an engine (tests/engines/ode_scene.c, bullet_scene.cpp; MuJoCo's are in mujoco_scene.c):
 * impactfit's side of a case (its input for the asked fit, impactfit_drop_solve; the sequence and the
 * distribution over releases, impactfit_drop_stats_run), the user's fit, and the checks. The harness supplies
 * the engine's drop: the sphere released from rest at the gap h over a plane under gravity, the apexes (local
 * maxima of the gap at the step starts above min_h) it gives in nsteps steps, at most n, converting the value
 * to the engine's inputs with its own code; dh_registry puts the registry's drop answer into it. C and C++. */
#ifndef IMPACTFIT_TESTS_ENGINES_DROP_HARNESS_H
#define IMPACTFIT_TESTS_ENGINES_DROP_HARNESS_H

#include "harness.h"
#include "impactfit/code_drop.h"
#include "impactfit/drop.h"

typedef int (*dh_engine_fn)(const hz_case *c, double value, double h, long nsteps, double min_h, int n, double *apex);

typedef struct dh_case {
  const char *code;
  hz_case c;
  double g, h, min_h, t_max;
  int bounces, samples;
  double e;     /* asked (NaN: forward, with value) */
  double value; /* forward: the value; inverse: the search range [lo, hi] */
  double lo, hi;
} dh_case;

/* the user's fit: ln h_k on k (k = 0..n, h_0 the release), e = exp(slope/2) */
static inline double dh_user_fit(double h0, const double *apex, int n) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k <= n; k++) {
    double y = log(k == 0 ? h0 : apex[k - 1]);
    sx += k;
    sy += y;
    sxx += (double)k * k;
    sxy += k * y;
  }
  double N = n + 1;
  return exp(0.5 * (N * sxy - sx * sy) / (N * sxx - sx * sx));
}

typedef struct {
  const char *code;
  const hz_case *c;
  double g;
} dh_ctx;

static inline int dh_build(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  const dh_ctx *x = (const dh_ctx *)ctx;
  impactfit_code_request q;
  if (hz_request(x->code, x->c, NAN, &q))
    return IMPACTFIT_EINVAL;
  q.gravity = x->g;
  return impactfit_code_stepper(&q, value, st, err);
}

static inline const char *dh_end(int end) {
  return end == IMPACTFIT_DROP_COUNTED ? "counted"
         : end == IMPACTFIT_DROP_LOW   ? "low"
         : end == IMPACTFIT_DROP_REST  ? "rest"
                                       : "time";
}

static inline void dh_header(const char *what) {
  printf("%s\n    bounces determined/counted (impactfit)/found (engine); the largest relative difference of the "
         "determined apexes;\n    the fit of the release (impactfit, engine); the mean fit over K releases spread over "
         "one step (impactfit, sd,\n    the engine); where impactfit's sequence ends\n",
         what);
  printf("    %-36s %9s %8s %13s %8s %7s %11s %11s %3s %11s %8s %11s %s\n", "case", "integ.", "dt", "value", "bounces",
         "max rel", "fit", "engine fit", "K", "mean fit", "sd", "eng. mean", "end");
}

/* one case: returns impactfit's value (NaN on failure); *stats the distribution at it */
static inline double dh_run(const dh_case *d, dh_engine_fn engine, impactfit_drop_stats *S) {
  impactfit_drop_params p = impactfit_drop_default_params();
  p.height = d->h;
  p.bounces = d->bounces;
  p.min_height = d->min_h;
  p.t_max = d->t_max;
  p.rest_steps = (long)(0.5 / d->c.dt) + 100; /* an impact of 0.5 s: the ball rests */
  dh_ctx x = {d->code, &d->c, d->g};
  impactfit_error err;
  double value = d->value;
  int exact = 0; /* 1: the value gives the release's fit = e (solved on the release) */
  if (isnan(d->e)) {
    impactfit_stepper st;
    if (dh_build(&x, value, &st, &err) || impactfit_drop_stats_run(&st, &p, d->samples, S, &err)) {
      fprintf(stderr, "FAIL %s: impactfit's drop test: %s\n", d->c.model, err.message);
      hz_fail++;
      return NAN;
    }
  } else {
    int rc = impactfit_drop_solve(dh_build, &x, &p, d->samples, d->e, d->lo, d->hi, NAN, 1e-9, &value, S, &err);
    if (rc && !(rc == IMPACTFIT_ENOCONV && fabs(S->e_mean - d->e) <= 2.0 * S->e_sd / sqrt(d->samples) + 1e-6)) {
      fprintf(stderr, "FAIL %s e %g: impactfit's drop inverse: %s\n", d->c.model, d->e, err.message);
      hz_fail++;
      return NAN;
    }
    /* a sequence determined to its end: the release itself is what the user gets, and what to solve for */
    if (S->determined == S->exact.n) {
      double v1 = value;
      impactfit_drop_stats S1;
      rc = impactfit_drop_solve(dh_build, &x, &p, 0, d->e, fmax(d->lo, value / 2), fmin(d->hi, value * 2), value, 1e-9,
                                &v1, &S1, &err);
      if (rc == IMPACTFIT_ENOCONV)
        printf("      (solved on the release: %s; the mean's answer is kept)\n", err.message);
      if (rc == 0 && S1.determined == S1.exact.n) {
        impactfit_stepper st;
        if (dh_build(&x, v1, &st, &err) == 0 && impactfit_drop_stats_run(&st, &p, d->samples, S, &err) == 0) {
          value = v1;
          exact = rc == 0;
        }
      }
    }
  }
  const impactfit_drop_result *R = &S->exact;
  long nsteps = R->end == IMPACTFIT_DROP_TIME ? R->steps : R->steps + 10;
  double got[IMPACTFIT_DROP_MAX_BOUNCES + 1];
  int found = engine(&d->c, value, d->h, S->determined == R->n ? nsteps : 2 * nsteps, d->min_h, R->n + 1, got);
  double worst = 0.0, worst_all = 0.0;
  for (int k = 0; k < R->n && k < found; k++) {
    double dd = fabs(got[k] / R->b[k].apex - 1.0);
    if (k < S->determined)
      worst = fmax(worst, dd);
    worst_all = fmax(worst_all, dd);
    if (getenv("DROP_DEBUG"))
      printf("      bounce %2d: engine %.15g impactfit %.15g (v_in %.9g v_out %.9g phase %.6f steps %ld)\n", k + 1,
             got[k], R->b[k].apex, R->b[k].v_in, R->b[k].v_out, R->b[k].phase, R->b[k].contact_steps);
  }
  double fit = found >= R->n && R->n > 0 ? dh_user_fit(d->h, got, R->n) : NAN;
  double step = sqrt(2.0 * d->g * d->h) * d->c.dt, sum = 0.0, sum2 = 0.0;
  int cnt = 0;
  long limit = d->t_max > 0 ? (long)fmin(floor(d->t_max / d->c.dt + 1e-9), 2.0 * nsteps) : 2 * nsteps;
  for (int k = 0; k < S->samples; k++) {
    double hk = d->h + (k + 0.5) / S->samples * step, gk[IMPACTFIT_DROP_MAX_BOUNCES + 1];
    int fk = engine(&d->c, value, hk, limit, d->min_h, d->bounces, gk);
    if (fk < 1)
      continue;
    double ek = dh_user_fit(hk, gk, fk);
    sum += ek;
    sum2 += ek * ek;
    cnt++;
  }
  double em = cnt ? sum / cnt : NAN;
  double tol = 1e-6 + 4.0 * S->e_sd * sqrt(2.0 / S->samples);
  char name[160];
  snprintf(name, sizeof name, "%s, %s%.3g", d->c.model, isnan(d->e) ? "value " : "e ", isnan(d->e) ? value : d->e);
  printf("    %-36s %9s %8.3g %13.8g %2d/%2d/%2d %7.1e %11.8f %11.8f %3d %11.8f %8.1e %11.8f %s\n", name,
         d->c.integrator ? d->c.integrator : "-", d->c.dt, value, S->determined, R->n, found, worst, R->e_fit, fit,
         S->samples, S->e_mean, S->e_sd, em, dh_end(R->end));
  char w[400];
  snprintf(w, sizeof w, "%s: the determined apexes vs impactfit's", name);
  HZ_CHECK_ABS(worst, 0.0, 1e-6, w);
  snprintf(w, sizeof w, "%s: determined bounces found in the engine", name);
  HZ_CHECK_ABS((double)(found >= S->determined), 1.0, 0.0, w);
  snprintf(w, sizeof w, "%s: the engine's mean fit vs impactfit's", name);
  HZ_CHECK_ABS(em, S->e_mean, tol, w);
  if (S->determined == R->n) {
    snprintf(w, sizeof w, "%s: every apex vs impactfit's", name);
    HZ_CHECK_ABS(worst_all, 0.0, 1e-6, w);
    snprintf(w, sizeof w, "%s: the engine's sequence ends where impactfit's does", name);
    HZ_CHECK_ABS((double)found, (double)R->n, R->end == IMPACTFIT_DROP_COUNTED ? 1.0 : 0.0, w);
    snprintf(w, sizeof w, "%s: the user's fit of the engine's heights vs impactfit's", name);
    HZ_CHECK_ABS(fit, R->e_fit, 1e-9, w);
    if (exact) { /* else e lies in a jump of the release's fit (printed above) */
      snprintf(w, sizeof w, "%s: the user's fit with impactfit's input vs the asked e", name);
      HZ_CHECK_ABS(fit, d->e, 1e-4, w);
    }
  }
  if (!isnan(d->e) && !exact) { /* solved on the mean */
    snprintf(w, sizeof w, "%s: the engine's mean fit with impactfit's input vs the asked e", name);
    HZ_CHECK_ABS(em, d->e, fmax(1e-4, tol), w);
  }
  return value;
}


/* ---------------------------------------------------------------- the registry's drop answer */

/* impactfit_code_drop, the registry's drop test (what `impactfit engine --drop` and impactfit.drop print), asked
 * with the case's request as the CLI builds it (hz_request; gravity d->g; height, bounces, --peak d->min_h,
 * --t-max, --releases d->samples; the CLI's default rest bound), its value into the engine. The checks: the
 * engine's apexes equal the answer's on the determined bounces (1e-6 relative); the engine's sequence ends where
 * the answer's does (the same count; "rest" and "low": no further apex above the peak threshold in one more
 * second); the user's fit of the engine's heights equals the answer's fit (1e-9) when the answer's sequence is
 * determined to its end, and the asked e (1e-4) when the answer was solved on that release outside a jump; the
 * engine's mean fit over the answer's releases equals the answer's mean (its sd's sampling error), and the asked e
 * when the answer was solved on the mean. Returns 1 when the answer was solved on the release, outside a jump,
 * and the engine's fit is the asked e within 1e-4; 0 otherwise; -1 on failure. */
typedef struct dh_reg_row {
  double worst, fit, engine_mean;
  int found;
} dh_reg_row;

static inline void dh_registry_header(const char *what) {
  printf("%s\n    the answer solved on (release/mean; J: in a jump of the fit); its value; bounces determined/counted "
         "(the answer)/found\n    (the engine); the largest relative difference of the determined apexes; the "
         "answer's fit and end; the engine's fit;\n    the answer's mean fit over K releases and the engine's\n",
         what);
  printf("    %-44s %-9s %15s %8s %7s %11s %-7s %11s %3s %11s %11s\n", "case", "on", "value", "bounces", "max rel",
         "fit", "end", "engine fit", "K", "mean fit", "eng. mean");
}

static inline int dh_registry(const dh_case *d, dh_engine_fn engine, dh_reg_row *row) {
  char name[160], w[400];
  snprintf(name, sizeof name, "%s %s, dt %.4g, e %g", d->code, d->c.model, d->c.dt, d->e);
  impactfit_code_request q;
  if (hz_request(d->code, &d->c, d->e, &q)) {
    hz_fail++;
    return -1;
  }
  q.gravity = d->g;
  q.v = NAN;
  impactfit_drop_params p = impactfit_drop_default_params();
  p.height = d->h;
  p.bounces = d->bounces;
  p.min_height = d->min_h;
  p.t_max = d->t_max;
  impactfit_code_drop_answer a;
  impactfit_error err;
  int rc = impactfit_code_drop(&q, &p, d->samples, &a, &err);
  if (rc || !a.reachable) {
    fprintf(stderr, "FAIL %s: the registry's drop answer: %s %s\n", name, rc ? err.message : "", a.note ? a.note : "");
    hz_fail++;
    impactfit_code_drop_free(&a);
    return -1;
  }
  const impactfit_drop_stats *S = &a.stats;
  const impactfit_drop_result *R = &S->exact;
  double dt = d->c.dt;
  /* one second more than the answer's run: a further apex would contradict "rest" and "low" */
  long more = (long)(1.0 / dt), nsteps = R->end == IMPACTFIT_DROP_TIME ? R->steps : R->steps + more;
  double got[IMPACTFIT_DROP_MAX_BOUNCES + 1];
  int found = engine(&d->c, a.value, d->h, nsteps, d->min_h, R->n + 1, got), whole = S->determined == R->n;
  double worst = 0.0;
  for (int k = 0; k < S->determined && k < found; k++)
    worst = fmax(worst, fabs(got[k] / R->b[k].apex - 1.0));
  double fit = found >= R->n && R->n > 0 ? dh_user_fit(d->h, got, R->n) : NAN;
  /* the engine's mean over the answer's releases (drop.h: h + (k + 1/2)/K v0 dt) */
  double step = sqrt(2.0 * d->g * d->h) * dt, sum = 0.0;
  int cnt = 0;
  for (int k = 0; k < S->samples; k++) {
    double hk = d->h + (k + 0.5) / S->samples * step, gk[IMPACTFIT_DROP_MAX_BOUNCES + 1];
    int fk = engine(&d->c, a.value, hk, nsteps + (long)(2.0 * step / (d->g * dt)) + 10, d->min_h, d->bounces, gk);
    if (getenv("DROP_DEBUG"))
      printf("      release %.17g: %d apexes, fit %.10f\n", hk, fk, fk >= 1 ? dh_user_fit(hk, gk, fk) : NAN);
    if (fk >= 1) {
      sum += dh_user_fit(hk, gk, fk);
      cnt++;
    }
  }
  double em = cnt ? sum / cnt : NAN, tol = 1e-6 + 4.0 * S->e_sd * sqrt(2.0 / S->samples);
  int release = a.on == IMPACTFIT_CODE_DROP_RELEASE;
  printf("    %-44s %-7s%-2s %15.10g %2d/%2d/%2d %7.1e %11.8f %-7s %11.8f %3d %11.8f %11.8f\n", name,
         release ? "release" : "mean", a.jump ? " J" : "", a.value, S->determined, R->n, found, worst, R->e_fit,
         impactfit_drop_end_name(R->end), fit, S->samples, S->e_mean, em);
  snprintf(w, sizeof w, "%s: the determined apexes vs the registry's answer", name);
  HZ_CHECK_ABS(worst, 0.0, 1e-6, w);
  snprintf(w, sizeof w, "%s: the engine has the %d determined apexes", name, S->determined);
  HZ_CHECK_ABS((double)(found >= S->determined), 1.0, 0.0, w);
  snprintf(w, sizeof w, "%s: the engine's mean fit over the answer's releases vs the answer's", name);
  HZ_CHECK_ABS(em, S->e_mean, tol, w);
  int ok = 0;
  if (whole) {
    snprintf(w, sizeof w, "%s: the engine's sequence ends where the answer's does (%s after %d)", name,
             impactfit_drop_end_name(R->end), R->n);
    if (R->end == IMPACTFIT_DROP_COUNTED)
      HZ_CHECK_ABS((double)(found >= R->n), 1.0, 0.0, w);
    else
      HZ_CHECK_ABS((double)found, (double)R->n, 0.0, w);
    snprintf(w, sizeof w, "%s: the user's fit of the engine's heights vs the answer's", name);
    HZ_CHECK_ABS(fit, R->e_fit, 1e-9, w);
    if (release && !a.jump) {
      snprintf(w, sizeof w, "%s: the user's fit with the answer's input vs the asked e", name);
      HZ_CHECK_ABS(fit, d->e, 1e-4, w);
      ok = fabs(fit - d->e) <= 1e-4;
    }
  }
  if (release) {
    snprintf(w, sizeof w, "%s: solved on the release: its sequence is determined to its end", name);
    HZ_CHECK_ABS((double)whole, 1.0, 0.0, w);
  } else if (!a.jump) {
    snprintf(w, sizeof w, "%s: solved on the mean: the answer's mean vs the asked e", name);
    HZ_CHECK_ABS(S->e_mean, d->e, 1e-8, w);
    snprintf(w, sizeof w, "%s: solved on the mean: the engine's mean fit vs the asked e", name);
    HZ_CHECK_ABS(em, d->e, tol, w);
  }
  if (row)
    *row = (dh_reg_row){.worst = worst, .fit = fit, .engine_mean = em, .found = found};
  impactfit_code_drop_free(&a);
  return ok;
}

#endif
