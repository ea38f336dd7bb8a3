/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The random cases on which impactfit measures its own accuracy against the reference (ref_impact.h)
 * or an exact relation: used by tests/test_reference.c (with tolerances) and by the report topic
 * `accuracy` (which states the measured maxima in include/impactfit/generated/accuracy.h).
 *
 * A case is a function of its seed only (splitmix64), so a case set is a range of seeds, the same on
 * every machine and thread count. Error measures (scaled so that one figure holds over the domain):
 *   engine (n ∈ [1, 3]; m ∈ [0, 2], a fifth m = 10^U(−9, −2), a tenth 0, a tenth n; A–D; ζ
 *   log-uniform in [1e-3, ζ_max]):
 *     e_out        |Δe| / max(e, 0.01)
 *     t_contact    relative error / (1 + ζ/e)      (the end, at speed e, moves by the state error ζ/e)
 *     f_max, f_min |Δf| / (f_max + K|δ_start|^n)  (B starts at δ_start < 0)
 *     t_fmax, t_delta_max  |Δt| / t_contact
 *     delta_max    |Δδ| / (δ_max + |δ_start|)
 *     delta_sep    |Δδ| / (1 + ζ)
 *   inverse (each case draws one target of each command):
 *     copt         m = 0, C, n ∈ [1, 2.5], e ∈ [0.01, 1): |e_ref(ζ) − e| / min(e, 1 − e)
 *     zhang-alpha  any m ∈ [0, 2], A or C, e ∈ [0.02, 1): the same; and m = n, e ∈ [1e-6, 1):
 *                  the exact Hunt–Crossley e at the returned ζ
 *     hc-eps       e ∈ [1e-6, 1): the exact e at the returned ε, over min(e, 1 − e)
 *     impact-time  n ∈ [1, 3], ε ∈ [1e-4, 20]: relative to the reference contact duration
 */
#ifndef IMPACTFIT_REF_CASES_H
#define IMPACTFIT_REF_CASES_H

#include <stdint.h>

#include "impactfit/impact.h"
#include "impactfit/inverse.h"

/* The case sets the stated accuracy is measured on (`impactfit reproduce --topic accuracy`); check,
 * quick runs and tests/test_reference.c take the first cases of the same sets. */
#define REF_SET1_SEED 1000000u /* engine cases, ζ ≤ REF_SET1_ZETA */
#define REF_SET1_ZETA 30.0
#define REF_SET2_SEED 2000000u /* engine cases, ζ ≤ REF_SET2_ZETA */
#define REF_SET2_ZETA 300.0
#define REF_SET_ENGINE 2000 /* cases in each engine set */
#define REF_SET_INV_SEED 3000000u
#define REF_SET_INVERSE 500 /* inverse cases (one target of each command) */

/* steps of the reference per impact: a few hundred separate; more is a creep */
#define REF_STEPS 5000L

enum {
  REF_E_OUT,
  REF_T_CONTACT,
  REF_F_MAX,
  REF_T_FMAX,
  REF_DELTA_MAX,
  REF_T_DELTA_MAX,
  REF_DELTA_SEP,
  REF_F_MIN,
  REF_ENGINE_N
};
enum { REF_COPT, REF_ZHANG, REF_ZHANG_HC, REF_HC_EPS, REF_IMPACT_TIME, REF_INVERSE_N };
extern const char *const ref_engine_names[REF_ENGINE_N];   /* "e_out", "t_contact", ... */
extern const char *const ref_inverse_names[REF_INVERSE_N]; /* "copt", "zhang-alpha", "zhang-alpha HC", ... */

/* impactfit's accuracy requirements: every case of any seed, in the test and in the report, must be
 * within these (the stated figures, measured maxima, are smaller) */
extern const double ref_engine_ceiling[REF_ENGINE_N];
extern const double ref_inverse_ceiling[REF_INVERSE_N];

typedef enum ref_outcome {
  REF_MEASURED, /* err[] holds the measures */
  REF_SKIPPED,  /* outside the documented domain (B with a gap beyond 1e3 δ_m0, or m = n, ζ > K) */
  REF_AGREED,   /* no measure, and nothing wrong: the reference gave up on a slow creep and the engine
                 * did not end the contact sooner; or both see no separation (e < 1e-9) */
  REF_FAILED    /* a defect: message says what */
} ref_outcome;

typedef struct ref_engine_case {
  double n, m, zeta;
  char cond;
  ref_outcome outcome;
  double err[REF_ENGINE_N];
  double got[REF_ENGINE_N], want[REF_ENGINE_N]; /* engine and reference values (scaled units) */
  char message[600];
} ref_engine_case;

/* The engine case of `seed` (ζ ≤ zeta_max). ws: the engine's workspace. */
void ref_engine_run(impactfit_impact_workspace *ws, uint64_t seed, double zeta_max, ref_engine_case *out);

typedef struct ref_inverse_case {
  ref_outcome outcome[REF_INVERSE_N];
  double err[REF_INVERSE_N];
  double zeta[REF_INVERSE_N]; /* what the command returned (ε for hc-eps, Δτ for impact-time) */
  char message[REF_INVERSE_N][600];
} ref_inverse_case;

/* The inverse targets of `seed`. */
void ref_inverse_run(impactfit_inverse_workspace *iws, impactfit_impact_workspace *ws, uint64_t seed,
                     ref_inverse_case *out);

/* Hunt–Crossley e(ε) from the exact relation ε(1 + e) = ln((1 + ε)/(1 − εe)), by bisection in long
 * double (to 1e-21 relative). */
double ref_hc_e_exact(double eps);

#endif
