/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — the published closed forms for the Hunt–Crossley damping, and their audit
 * (docs/MODEL.md §5).
 *
 * Every formula gives the hysteresis damping ratio ε = λ v / k of the Hunt–Crossley model
 * f = k δ^n + λ δ^n δ' (m = n) as a function of the coefficient of restitution e; the damping
 * factor is λ = ε k / v. Formulas are constant type objects, compared by address and looked up by
 * name:
 *
 *   name                 ε(e)                                      source
 *   hunt-crossley        3(1 − e)/2                                Hunt & Crossley 1975
 *   lankarani-nikravesh  3(1 − e²)/4                               Lankarani & Nikravesh 1990
 *   hu-guo               3(1 − e)/(2e)                             Hu & Guo 2015
 *   flores               8(1 − e)/(5e)                             Flores et al. 2011
 *   gonthier             exact: (1 + ε)/(1 − eε) = exp(ε(1 + e))   Gonthier et al. 2004 (impactfit_hc_eps)
 *   zhang-2020           3(1 − e)/(2 α e),                         Zhang et al. 2020, as written in
 *                        α = 0.6181 e^(−3.52 e) + 0.899 e^(0.09025 e)   Zhang et al. 2021, Eqs. (48), (53)
 *   ramaswamy-humbert    (3+2p)(1−e²)/(2e) / ((3+2p)/(3−2p) + e),  Ramaswamy & Humbert, Eq. (6)
 *                        p = 1.381 (e^(−0.451 e) − e^(−0.451))
 *
 * Zhang 2020 in ε: Zhang et al. 2021, Eq. (53), λ = 3 mass (m+1)(1−e) v/(4α) ·
 * [e mass (n+1) v²/(2k)]^(−(m+1)/(n+1)); for m = n the bracket's exponent is −1, so
 * λ = 3 (1−e) k/(2 α e v) and ε = λ v/k = 3(1−e)/(2αe) for every n (α of Eq. (48) was fitted for
 * n = m = 1.5). With α = 1 it is Hu–Guo's formula.
 */
#ifndef IMPACTFIT_FORMULAS_H
#define IMPACTFIT_FORMULAS_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct impactfit_formula {
  const char *name;       /* "hu-guo" */
  const char *label;      /* "Hu-Guo (2015)" */
  const char *expression; /* "3(1-e)/(2e)" */
  const char *citation;   /* the reference */
  /* ε(e) for e in (0, 1]; call through impactfit_formula_eps, which checks e. */
  int (*eps)(double e, double *eps, impactfit_error *err);
} impactfit_formula;

IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_hunt_crossley;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_lankarani_nikravesh;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_hu_guo;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_flores;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_gonthier;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_zhang_2020;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_ramaswamy_humbert;

/* Number of formulas and the i-th (0 ≤ i < count, in the order of the table above); NULL out of range. */
IMPACTFIT_EXPORT size_t impactfit_formula_count(void);
IMPACTFIT_EXPORT const impactfit_formula *impactfit_formula_at(size_t i);
/* By name (case-insensitive; "exact" is accepted for gonthier); NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_formula *impactfit_formula_from_name(const char *name);

/* ε(e) of formula f. EINVAL for e outside (0, 1] or an unknown formula; every formula gives 0 at
 * e = 1. */
IMPACTFIT_EXPORT int impactfit_formula_eps(const impactfit_formula *f, double e, double *eps, impactfit_error *err);

/* ---- audit ----------------------------------------------------------------------------------- */

/* The grid: `points` values of e equally spaced on [e_min, e_max] (ends included). */
typedef struct impactfit_audit_params {
  double e_min, e_max; /* default 0.01, 1 */
  size_t points;       /* default 991 (steps of 0.001) */
  double n;            /* spring exponent of the simulations (e_out does not depend on it), default 1.5 */
} impactfit_audit_params;

IMPACTFIT_EXPORT impactfit_audit_params impactfit_audit_default_params(void);

typedef struct impactfit_audit_row {
  const impactfit_formula *formula;
  /* relative error |ε_f − ε|/ε against the exact ε; at e = 1, where both vanish, its limit
   * (evaluated at e = 1 − 2^−26) */
  double eps_max, eps_mean, eps_e_at_max;
  /* |e_out − e| of an impact simulated with ε_f(e) (impact engine, m = n, condition C) */
  double e_max, e_mean, e_e_at_max;
  size_t points;
} impactfit_audit_row;

/* Audits formula f over the grid: one exact ε and one simulated impact per point. ws: an engine
 * workspace (one per thread). */
IMPACTFIT_EXPORT int impactfit_formula_audit(impactfit_impact_workspace *ws, const impactfit_formula *f,
                                             const impactfit_audit_params *p, impactfit_audit_row *row,
                                             impactfit_error *err);

/* ---- the published closed forms of c_opt (Poursina & Nikravesh 2020) ------------------------- */

/* For the Hertz spring with a linear damper, f = k δ^n + c δ' (m = 0), contact ending where f falls
 * to 0 (condition C), the damping c_opt that gives restitution e (impactfit_copt_solve, inverse.h)
 * was fitted by Poursina & Nikravesh (2020) as
 *     c = α (e^β − 1) [k v^(n−1) mass^n]^(1/(n+1))                          (Eq. 49)
 * (c in N·s/m for k in N/m^n, v in m/s, mass in kg; α, β dimensionless), with
 *     α(n) = 0.3331 n⁴ − 1.48 n³ + 3.077 n² − 2.306 n + 1.794               (Eq. 46)
 *     β(n) = 1.285 n^0.2553 − 1.725                                           (Eq. 47)
 * for n in [1, 2], and two special forms with their own pairs:
 *     n = 3/2:  c = 1.95 (e^−0.3 − 1) k^0.4 v^0.2 mass^0.6                  (Eq. 52)
 *     n = 1:    c = 1.4181 (e^−0.44 − 1) √(k mass)                           (Eq. 57)
 * (Eq. 49 with (α, β) = (1.95, −0.3) and (1.4181, −0.44); at n = 1 Eqs. 46–47 give exactly
 * α = 1.4181, β = −0.44, at n = 3/2 α = 1.9496, β = −0.29995.) The constants are those printed, one
 * copy here: the report audits them (accuracy measured by simulation in reports/REPORT.md: they
 * reproduce e to a few 1e-3 on [0.45, 1] and worse below, the range they were fitted on) and the
 * inverse solver uses them for its starting guesses. */
typedef struct impactfit_copt_pair {
  const char *label; /* "Eq. (57)" */
  double n;          /* the spring exponent the pair is for */
  double alpha, beta;
} impactfit_copt_pair;

typedef struct impactfit_copt_formula {
  const char *name;     /* "poursina2020" */
  const char *citation; /* the reference */
  double alpha_coef[5]; /* α(n) = Σ_i alpha_coef[i] nⁱ (Eq. 46) */
  double beta_coef[3];  /* β(n) = beta_coef[0] n^beta_coef[1] + beta_coef[2] (Eq. 47) */
  double n_min, n_max;  /* the range of n they were fitted on */
  impactfit_copt_pair eq52, eq57;
} impactfit_copt_formula;

IMPACTFIT_EXPORT extern const impactfit_copt_formula *const impactfit_copt_formula_poursina2020;

/* α(n) of Eq. (46) by Horner's rule, (((a4 n + a3) n + a2) n + a1) n + a0, and β(n) of Eq. (47) as
 * b0 pow(n, b1) + b2: the published polynomials evaluated for any n (no range check; outside
 * [n_min, n_max] they are extrapolations). */
IMPACTFIT_EXPORT double impactfit_copt_formula_alpha(const impactfit_copt_formula *f, double n);
IMPACTFIT_EXPORT double impactfit_copt_formula_beta(const impactfit_copt_formula *f, double n);

/* Eq. (49) for a given pair: α (e^β − 1) exp((ln k + (n − 1) ln v + n ln mass)/(n + 1)), in N·s/m.
 * No checks: e in (0, 1], k, mass, v > 0 give a finite c ≥ 0 for β < 0 (NaN for non-positive k,
 * mass or v). */
IMPACTFIT_EXPORT double impactfit_copt_closed_c(double alpha, double beta, double n, double e, double k, double mass,
                                                double v);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_FORMULAS_H */
