/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal to src/law/'s steppers: one impact (stepper.c), the phase statistics (phase.c) and the
 * inverse on the mean (step_solve.c) share these. */
#ifndef IMPACTFIT_STEP_INTERNAL_H
#define IMPACTFIT_STEP_INTERNAL_H

#include "impactfit/stepper.h"

#define STEP_LIMIT 1000000L
#define LN2 0.69314718055994530942

/* What the phase statistics compute: everything; everything but the continuous-time e (the stability
 * search); the mean and extremes only, without the linearisation (the inverse's search: stable is then
 * decided by e ≤ 1 alone); or only the midpoint rule on QUICK_PHASES cells of φ, without the
 * linearisation (within about the largest jump/QUICK_PHASES of the exact mean: enough to bracket a root
 * cheaply); or the stability only (stopping at the first impact that shows the step unstable). */
enum { STATS_FULL, STATS_NO_CONTINUOUS, STATS_SEARCH, STATS_QUICK, STATS_STABILITY };
#ifndef QUICK_PHASES
#define QUICK_PHASES 16
#endif

/* What an impact tells an observer and lets it shorten (the phase statistics' family of reference impacts,
 * phase.c). Steps are indexed from the first that acted (0); a run is a stretch of steps of one symbol (the
 * signature's runs, stepper.c), numbered from 0. */
typedef struct impactfit__step_hooks impactfit__step_hooks;
struct impactfit__step_hooks {
  /* step k, computed one by one from pre, left s; sym its symbol in the signature (0: none), run its run */
  void (*stepped)(impactfit__step_hooks *h, long k, const impactfit_step_state *pre, const impactfit_step_state *s,
                  uint64_t sym, int run);
  /* steps k .. k + n − 1 of run `run` taken at once (an affine run) */
  void (*jumped)(impactfit__step_hooks *h, long k, long n, int run);
  /* after step k, in run `run` (its first step k0, symbol sym): may move s (x, u) to the start of a later step
   * k_e > k + 1 of the same run; returns k_e − k − 1, the steps passed over (0: none), with *rho the largest
   * spectral radius over them (0: unknown) */
  long (*skip)(impactfit__step_hooks *h, int run, long k0, long k, impactfit_step_state *s, uint64_t sym, double *rho);
  /* after step k of run `run` (its first step k0): 1 where its rest may be taken by the flow (stepper.c; NULL: never
   * for an observed impact) */
  int (*may_flow)(impactfit__step_hooks *h, int run, long k0, long k);
  /* steps k .. k + n − 1 of run `run` taken by the flow (rho: the largest spectral radius at its points, 0 where not
   * known); the state at the start of k + n is the next `stepped`'s pre */
  void (*flowed)(impactfit__step_hooks *h, long k, long n, int run, double rho);
};

/* The phase statistics' family of reference impacts (step_family.c): built at a step far below the contact
 * time (*out NULL where it is not worth it or the references do not agree); the hooks that pass every impact
 * of the statistics over the family's smooth stretches; impactfit__family_begin before each impact. The
 * references' and the check's impacts and work enter S. */
typedef struct impactfit__family impactfit__family;
int impactfit__family_build(const impactfit_stepper *st, double v, int lean, impactfit_step_stats *S,
                            impactfit__family **out, impactfit_error *err);
impactfit__step_hooks *impactfit__family_hooks(impactfit__family *f);
void impactfit__family_begin(impactfit__family *f);
void impactfit__family_free(impactfit__family *f);

/* One impact at phase φ: ENOSEP with out->steps = STEP_LIMIT when it takes more steps than that, or with
 * out->work = limit when it takes more work (limit ≤ STEP_LIMIT; STEP_LIMIT: the step limit alone); lean:
 * without the linearisation (the spectral radius); hooks NULL or an observer. No check of the settings. */
int impactfit__step_impact(const impactfit_stepper *st, double v, double phi, int lean, long limit,
                           impactfit__step_hooks *hooks, impactfit_step_impact *out, impactfit_error *err);
/* The same, with *flowed (NULL: not asked) the steps of rk4's and Euler's runs taken by the flow (stepper.c) */
int impactfit__step_impact_flowed(const impactfit_stepper *st, double v, double phi, int lean, long limit,
                                  impactfit__step_hooks *hooks, impactfit_step_impact *out, long *flowed,
                                  impactfit_error *err);

/* A continuous-time stepper's impact (type NULL): the law's, solved by law.h (the same at every phase). */
int impactfit__step_adaptive_impact(const impactfit_stepper *st, double v, impactfit_law_impact_result *r,
                                    impactfit_error *err);

/* Whether the phase statistics step their impacts on an OpenMP team where no family is built: 0 (the default)
 * where the check impact took 25 us or more, 1 always, -1 never (tests/test_threads.c puts requests on the team's
 * path whatever the machine's speed; the numbers are the same on every path) */
extern int impactfit__phase_team;

/* The phase statistics in one of the modes above; keep (NULL: none) receives the family of reference impacts
 * the statistics used (NULL when none), for the refinement of the extremes (impactfit__family_free). */
int impactfit__phase_stats(const impactfit_stepper *st, double v, impactfit_step_stats *out, int mode,
                           impactfit__family **keep, impactfit_error *err);

/* e_min and e_max refined inside their smooth pieces (forward answers, the inverse's answer). */
int impactfit__step_refine_extremes(const impactfit_stepper *st, double v, impactfit_step_stats *S,
                                    impactfit__family *fam, impactfit_error *err);

/* The continuous-time impact of the stepper's law (or of its `continuous` law): 0 with *r, or a status
 * (EINVAL when it has none); its e (NaN when none). */
int impactfit__step_continuous_impact(const impactfit_stepper *st, double v, impactfit_law_impact_result *r);
double impactfit__step_continuous_e(const impactfit_stepper *st, double v);

/* The verdict on an impact that ran into the step limit: ENOSEP (the bodies stick) or ENOCONV (dt too
 * small to step through), with the message. */
int impactfit__step_limit_verdict(const impactfit_stepper *st, double v, impactfit_error *err);

/* A run of steps of the affine map a taken at once from s (the start of its first step, inside the region):
 * the largest n ≤ n_max whose steps all start inside the region with a margin (the last one at least a step
 * before the first zero of any form, and every force above f_tiny in size), s moved to the start of step n
 * (x, u; the rest of s untouched), *f_max (may be NULL) the largest |force| of those steps. Returns n, 0 when no
 * run of a step or more fits. */
long impactfit__step_affine_run(const impactfit_step_affine *a, impactfit_step_state *s, long n_max, double f_tiny,
                                double *f_max);
/* The same, and under gravity (a->X, the map's fixed point, not 0) *rests (may be NULL) 1 when the body rests on
 * the contact for good after the run (the map contracts to its fixed point inside the region: step_fast.c) */
long impactfit__step_affine_run_at(const impactfit_step_affine *a, impactfit_step_state *s, long n_max, double f_tiny,
                                   double *f_max, int *rests);

#endif
