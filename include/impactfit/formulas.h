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
IMPACTFIT_EXPORT int impactfit_formula_eps(const impactfit_formula *f, double e, double *eps,
                                           impactfit_error *err);

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

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_FORMULAS_H */
