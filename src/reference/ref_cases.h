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
#include "impactfit/law.h"

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

/* The box's edges (docs/ACCURACY.md), cases 0 .. ref_edge_engine_count − 1: the grid n ∈ {1, 1.5, 2, 3}
 * × m ∈ {0, 1e-9, 0.25, 1, n − 1e-3, n − 1e-6, n, n + 1e-6, 2} × (A–D at ζ ∈ {1e-6, 1e-3, 1, 30}, and C
 * at ζ ∈ {300, 1000});
 * the independent audit's scan of m → n⁻ under C (n ∈ {1.2, 1.8, 2.5}, n − m ∈ {1e-6 … 1e-3},
 * ζ ∈ {30, 150, 700}); and n ∈ {0.3, 0.5, 0.8} below the box, m ∈ {0, 0.1, 0.25}, ζ ∈ {0.01, 1, 30}, B–D. */
extern const int ref_edge_engine_count;
void ref_edge_engine_run(impactfit_impact_workspace *ws, int index, ref_engine_case *out);

typedef struct ref_inverse_case {
  ref_outcome outcome[REF_INVERSE_N];
  double err[REF_INVERSE_N];
  double zeta[REF_INVERSE_N]; /* what the command returned (ε for hc-eps, Δτ for impact-time) */
  char message[REF_INVERSE_N][600];
} ref_inverse_case;

/* The inverse targets of `seed`. */
void ref_inverse_run(impactfit_inverse_workspace *iws, impactfit_impact_workspace *ws, uint64_t seed,
                     ref_inverse_case *out);

/* The box's edges for the inverse commands, one target per index 0 .. ref_edge_inverse_count − 1 (the
 * other commands' outcomes REF_SKIPPED): copt at n ∈ {1, 1.25, …, 2.5} × e ∈ {0.01, …, 1/2 and 1e-7 on
 * both sides, …, 1 − 1e-6}; zhang-alpha at n ∈ {1, 1.5, 2, 3} × m ∈ {0, 0.25, 1, 1.44, 2} × e ∈ {0.02,
 * 0.1, 0.5, 0.9, 0.999} × A, C, and m = n at e ∈ {1e-6 … 1 − 1e-6}; hc-eps at 14 e from 1e-6 to
 * 1 − 1e-9; impact-time at n ∈ {1, 1.233, 1.5, 2, 2.5, 3} × 13 ε from 1e-4 to 20 (with the audit's
 * 2.41e-3). */
extern const int ref_edge_inverse_count;
void ref_edge_inverse_run(impactfit_inverse_workspace *iws, impactfit_impact_workspace *ws, int index,
                          ref_inverse_case *out);

/* ---- the law engine (law.h; src/reference/ref_law_cases.c) ----
 * Each case draws one of three laws: a power law of a type of the case file's own (the generic engine)
 * against the reference (n ∈ [1, 3], m as for the engine's cases, ζ log-uniform in [1e-3, 1000]); the
 * approach-damper (n ∈ [0.3, 3], ζ ≤ 300) against the reference's approach phase and the exact
 * undamped return; MuJoCo's impedance with a constant d ∈ [1e-4, 0.9999] (Kelvin–Voigt, ξ log-uniform
 * in [1e-3, 100]) against its closed forms; condition A or C. Scaled units (δ_m0 = 1, v = 1). Measures:
 *   e_out      |Δe| / max(e, 0.01)
 *   t_contact  |Δt| / (t_contact + L/(v e))   (L = the result's length: the end at speed e v moves by
 *              the state's error over e)
 *   delta_max  relative;  f_max  relative (not for the impedance);  delta_sep  |Δδ| / δ_max */
#define REF_SET_LAW_SEED 4000000u
#define REF_SET_LAW 1000
enum { REF_LAW_E_OUT, REF_LAW_T_CONTACT, REF_LAW_DELTA_MAX, REF_LAW_F_MAX, REF_LAW_DELTA_SEP, REF_LAW_N };
extern const char *const ref_law_names[REF_LAW_N];
extern const double ref_law_ceiling[REF_LAW_N];

typedef struct ref_law_case {
  int kind;          /* 0 power (generic engine), 1 approach-damper, 2 impedance with constant d */
  double n, m, zeta; /* for the impedance: n = 1, m = d, zeta = ξ */
  char cond;
  ref_outcome outcome;
  double err[REF_LAW_N];
  double got[REF_LAW_N], want[REF_LAW_N];
  char message[600];
} ref_law_case;

void ref_law_run(impactfit_law_workspace *ws, uint64_t seed, ref_law_case *out);
/* issue 39's cases and a grid of the edges (n ∈ {0.3, 1, 2, 3} × m ∈ {0, 1e-9, n} × ζ ∈ {1e-3, 1, 300}
 * × A, C for both power laws; ξ ∈ {1e-3 … 1000} × A, C for the impedance) */
extern const int ref_edge_law_count;
void ref_edge_law_run(impactfit_law_workspace *ws, int index, ref_law_case *out);

/* Hunt–Crossley e(ε) from the exact relation ε(1 + e) = ln((1 + ε)/(1 − εe)), by bisection in
 * __float128 (to 1e-32 relative; the relation cancels to ε²(1 − e²)/2 near e = 1). */
double ref_hc_e_exact(double eps);

#endif
