/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — drop tests: a ball released above a plane under gravity, bouncing, at the code's own time step.
 *
 * A user who judges a code's restitution drops a ball and reads e from the bounces: from the rebound
 * speeds, or from the apex heights fitted as h_n = e^(2n) h_0. At the step a simulation takes, each impact
 * falls at its own phase and speed (the flight between bounces is stepped too: its length decides where the
 * next first contact step falls), the law's e depends on the speed, and the code's thresholds end the
 * sequence. impactfit_drop_run steps the whole sequence with the code's own step map (a stepper of
 * stepper.h with st->gravity > 0: the same map that gives the single-impact e(φ)), so the bounce heights
 * it gives are the ones the code produces, step by step; impactfit_drop_solve gives the value of a
 * stepper family's parameter whose fitted e equals an asked e.
 *
 * The state is stepper.h's: x = −gap (m), u = the approach speed (m/s). The run starts at rest with the
 * gap `height`. An impact begins at the first step that applies a force (f ≠ 0) and ends at the first
 * step after which the bodies are apart (x ≤ 0), separating (u < 0), with no force: stepper.h's end of one
 * impact; or, when a step without force starts apart and separating but ends approaching again (a rebound
 * slower than g dt: a flight of one step), at the step before it. v_in is u at the start of the impact's
 * first step, v_out = −u after its last one. The flight
 * after impact n has apex h_n: the largest gap at a step start (the positions a simulation reports after
 * each step) before the next impact. h_0 is the release height. The sequence ends when `bounces` apexes
 * are counted, when an apex is below `min_height` (a peak finder's threshold: it is not counted), when an
 * impact does not end within `rest_steps` steps (the ball rests on the contact: a soft contact under
 * gravity, or a code that stops restitution below a speed threshold), or at t_max. */
#ifndef IMPACTFIT_DROP_H
#define IMPACTFIT_DROP_H

#include "impactfit/common.h"
#include "impactfit/stepper.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IMPACTFIT_DROP_MAX_BOUNCES 256

/* How the user reads e from the bounces. */
typedef enum impactfit_drop_reading {
  /* the least-squares line through (n, ln h_n), n = 0 … N with h_0 the release height (as an exact
   * point): e = exp(slope/2), h_0 fitted = exp(intercept) */
  IMPACTFIT_DROP_HEIGHTS = 0,
  /* the mean of v_out/v_in over the N impacts */
  IMPACTFIT_DROP_SPEEDS = 1
} impactfit_drop_reading;

typedef struct impactfit_drop_params {
  double height;     /* the gap at release, m (> 0) */
  int bounces;       /* N: apexes to count, 1 … IMPACTFIT_DROP_MAX_BOUNCES */
  double min_height; /* an apex below it ends the sequence uncounted, m (≥ 0; 0: none) */
  double t_max;      /* the simulated time, s (0: no bound but the step bound 1e7) */
  long rest_steps;   /* an impact longer than this rests (0: 100000 steps) */
  impactfit_drop_reading reading;
} impactfit_drop_params;

/* height 1 m, 15 bounces, no threshold, no time bound, heights. */
IMPACTFIT_EXPORT impactfit_drop_params impactfit_drop_default_params(void);

typedef struct impactfit_drop_bounce {
  double apex;        /* h_n, m */
  double t_apex;      /* when (the step start), s since release */
  double v_in, v_out; /* m/s */
  double phase;       /* where the impact's first step fell: x at its start / (v_in dt) */
  long first_step;    /* the index of the impact's first step */
  long contact_steps; /* the steps of the impact */
} impactfit_drop_bounce;

/* Why the sequence ended. */
enum {
  IMPACTFIT_DROP_COUNTED = 0, /* N apexes */
  IMPACTFIT_DROP_LOW = 1,     /* the next apex is below min_height */
  IMPACTFIT_DROP_REST = 2,    /* an impact did not end within rest_steps: the ball rests */
  IMPACTFIT_DROP_TIME = 3     /* t_max (or 1e7 steps) */
};

typedef struct impactfit_drop_result {
  int n;                                               /* bounces counted (≤ N) */
  impactfit_drop_bounce b[IMPACTFIT_DROP_MAX_BOUNCES]; /* b[k]: impact k + 1 and the apex after it */
  double e_heights;                                    /* the heights' fit (NaN for n = 0) */
  double h0_fit;                                       /* its intercept, m */
  double r2;                                           /* its R² (in ln h) */
  double e_speeds;                                     /* the speeds' mean (NaN for n = 0) */
  double e_fit;                                        /* the one the reading asks */
  int end;                                             /* IMPACTFIT_DROP_COUNTED, _LOW, _REST or _TIME */
  double low_apex;                                     /* _LOW: the apex that was below min_height, m */
  long steps;                                          /* steps taken */
} impactfit_drop_result;

/* Steps the drop test with st (st->gravity > 0). Returns 0 (with res->n possibly below N: res->end says
 * why), EINVAL, or a status of the stepper (ENONFINITE when the state blows up). */
IMPACTFIT_EXPORT int impactfit_drop_run(const impactfit_stepper *st, const impactfit_drop_params *p,
                                        impactfit_drop_result *res, impactfit_error *err);

/* The fit of the heights h[0..n] (h[0] the release height): e = exp(slope/2) of the least-squares line
 * through (k, ln h[k]); h0 and r2 when not NULL. NaN for n < 1 or a height ≤ 0. */
IMPACTFIT_EXPORT double impactfit_drop_fit_heights(const double *h, int n, double *h0, double *r2);

/* The sequence is chaotic at the steps codes take: a bounce's e depends on where its first contact step falls
 * (at first order in dt when the damping acts from the first contact), and that phase on the flight before,
 * whose length in steps changes by 2 dv/(g dt) with the rebound speed: a difference δ in one apex grows by a
 * factor of about v |de/dφ| · 2/(g dt) per bounce (measured: 30 to 100 for MuJoCo's soft contact at dt 0.0002
 * to 0.002). After some bounces the heights are decided by rounding: two codes, or one code and impactfit,
 * that differ only there give different heights, and the fitted e of one release is a draw from a
 * distribution. impactfit_drop_stats gives the bounces that are determined and that distribution: the fit over
 * releases spread over one step of the first impact's travel, h + (k + ½)/K · v0 dt (k < K, v0 = √(2 g h)),
 * which samples the first impact's phase uniformly as stepper.h's mean does for one impact. */
typedef struct impactfit_drop_stats {
  impactfit_drop_result exact; /* the release at p->height */
  /* the leading bounces whose apexes the releases at h (1 ± 1e-12) give within 1e-6 (relative) of the exact
   * release's: a code whose arithmetic differs from impactfit's only by rounding gives them within 1e-6 */
  int determined;
  int samples;                       /* K */
  double e_mean, e_sd, e_min, e_max; /* of e_fit over the K releases (NaN where nothing was counted) */
  int n_min, n_max;                  /* the bounces they counted */
} impactfit_drop_stats;

/* The exact release, the determined bounces and the distribution over `samples` releases (1 … 4096). */
IMPACTFIT_EXPORT int impactfit_drop_stats_run(const impactfit_stepper *st, const impactfit_drop_params *p, int samples,
                                              impactfit_drop_stats *out, impactfit_error *err);

/* The value in [lo, hi] (0 < lo < hi, searched in ln(value)) of the family `build` (stepper.h) whose drop test
 * gives the asked e within tol (0: 1e-9): samples = 0: the exact release's fit (res->e_fit); samples = K > 0:
 * the mean of the fit over K releases (impactfit_drop_stats: stats->e_mean). guess (NaN or 0: none) starts the
 * bracket (the single impact's value is a good one). The fits are piecewise smooth in the value: they jump where
 * an impact's number of steps changes (the mean over K releases by about 1/K of a single release's jump).
 * Returns 0 with *value, *stats (its exact release's result and, for K > 0, the distribution; `determined` is
 * computed); ENOROOT with the reachable fits in the message when no value in the range gives e; ENOCONV when e
 * lies in a jump (then *value is the side closer to e and the message gives both sides); or a status of the
 * build or the run. */
IMPACTFIT_EXPORT int impactfit_drop_solve(impactfit_step_build_fn build, const void *ctx,
                                          const impactfit_drop_params *p, int samples, double e, double lo, double hi,
                                          double guess, double tol, double *value, impactfit_drop_stats *stats,
                                          impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_DROP_H */
