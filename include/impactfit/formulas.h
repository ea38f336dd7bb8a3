/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — the published closed forms that turn a coefficient of restitution into damping (or
 * damping into restitution), and their audit (docs/MODEL.md §5, docs/FORMULAS.md).
 *
 * Hunt–Crossley family (m = n). Every formula of the first table gives the hysteresis damping ratio
 * ε = λ v / k of f = k δ^n + λ δ^n δ' as a function of e; the damping factor is λ = ε k / v. The
 * reviews write the same as χ = ε k / v (Machado et al. 2012, Skrinjar et al. 2018, Flores 2022).
 * Formulas are constant type objects, compared by address and looked up by name:
 *
 *   name                 ε(e)                                      source
 *   hunt-crossley        3(1 − e)/2                                Hunt & Crossley 1975
 *   herbert-mcwhannell   6(1 − e)/((2e − 1)² + 3)                  Herbert & McWhannell 1977
 *   lee-wang             3(1 − e)/4                                Lee & Wang 1983
 *   lankarani-nikravesh  3(1 − e²)/4                               Lankarani & Nikravesh 1990
 *   gonthier             (1 − e²)/e                                Gonthier et al. 2004 (their closed
 *                                                                  approximation d ≈ 1 − e², ε = d/e)
 *   zhiying-qishao       3(1 − e²) e^(2(1 − e))/4                  Zhiying & Qishao 2006
 *   flores               8(1 − e)/(5e)                             Ye, Li & Zhu 2009; Flores et al. 2011
 *   hu-guo               3(1 − e)/(2e)                             Hu & Guo 2015
 *   zhang-2020           3(1 − e)/(2 α e),                         Zhang et al. 2020, as written in
 *                        α = 0.6181 e^(−3.52 e) + 0.899 e^(0.09025 e)   Zhang et al. 2021, Eqs. (48), (53)
 *   ramaswamy-humbert    (3+2p)(1−e²)/(2e) / ((3+2p)/(3−2p) + e),  Ramaswamy & Humbert, Eq. (6)
 *                        p = 1.381 (e^(−0.451 e) − e^(−0.451))
 *   exact                (1 + ε)/(1 − eε) = exp(ε(1 + e)), solved   impactfit_hc_eps (hc.h)
 *
 * The exact relation follows from the first integral of the Hunt–Crossley impact in the phase
 * plane (Marhefka & Orin 1999; Stronge 2000); Gonthier et al. 2004 wrote it as the implicit
 * relation between e and d = eε above (quoted so by Poursina & Nikravesh 2020, Eqs. 18–19), and
 * Carvalho & Martins 2019 wrote e(ε) in closed form with the Lambert W function
 * (impactfit_hc_e_lambert below). Until this version impactfit called the exact relation
 * `gonthier`; `gonthier` is now the closed form the reviews and public codes attribute to Gonthier
 * et al. (checked in L. Skrinjar's implementation of the review's models), and the exact relation
 * is `exact` (impactfit_formula_exact).
 *
 * Zhang 2020 in ε: Zhang et al. 2021, Eq. (53), λ = 3 mass (m+1)(1−e) v/(4α) ·
 * [e mass (n+1) v²/(2k)]^(−(m+1)/(n+1)); for m = n the bracket's exponent is −1, so
 * λ = 3 (1−e) k/(2 α e v) and ε = λ v/k = 3(1−e)/(2αe) for every n (α of Eq. (48) was fitted for
 * n = m = 1.5). With α = 1 it is Hu–Guo's formula.
 *
 * Beyond the Hunt–Crossley family the reference table further below (impactfit_published) lists
 * every published restitution–damping formula impactfit knows of — the DEM codes' forms
 * (dem.h), the m = (n − 1)/2 family (Antypov & Elliott 2011, Norouzi et al. 2016, Feng 2026),
 * viscoelastic spheres (Kuwabara & Kono 1987 to Müller & Pöschel 2011), Chatterjee, James &
 * Brogliato 2022 with an external load — with its source, model, end condition and its error
 * measured under both end conditions.
 */
#ifndef IMPACTFIT_FORMULAS_H
#define IMPACTFIT_FORMULAS_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"
#include "impactfit/inverse.h"

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
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_herbert_mcwhannell;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_lee_wang;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_lankarani_nikravesh;
/* The closed form (1 − e²)/e; until this version this name held the exact relation. */
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_gonthier;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_zhiying_qishao;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_flores;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_hu_guo;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_zhang_2020;
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_ramaswamy_humbert;
/* The exact relation (impactfit_hc_eps). */
IMPACTFIT_EXPORT extern const impactfit_formula *const impactfit_formula_exact;

/* Number of formulas and the i-th (0 ≤ i < count, in the order of the table above); NULL out of range. */
IMPACTFIT_EXPORT size_t impactfit_formula_count(void);
IMPACTFIT_EXPORT const impactfit_formula *impactfit_formula_at(size_t i);
/* By name (case-insensitive); NULL when unknown. */
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

/* ---- Hunt–Crossley: the exact e(ε) in closed form (Carvalho & Martins 2019) ------------------- */

/* With u = 1 − eε the exact relation reads u e^(−u) = (1 + ε) e^(−(1 + ε)), whose root u < 1 is on
 * the principal branch of the Lambert W function:
 *     e(ε) = (1 + W₀(−(1 + ε) e^(−(1 + ε)))) / ε,   e(0) = 1,
 * the closed form of Carvalho & Martins 2019 (derived here from the relation; their printed
 * equation was not available). Evaluated as written, with GSL's gsl_sf_lambert_W0: the argument
 * approaches the branch point −1/e as ε → 0, where W₀ is a square root of the argument's distance to
 * it, and the form loses digits: measured |e − impactfit_hc_e(ε)| 1e-13 at ε = 1e-2, 5e-9 at 1e-4,
 * 2e-3 at 1e-7, and at ε = 1e-8 the argument rounds to −1/e and the form gives e = 0 (topic
 * formulas); impactfit_hc_e (hc.h) solves the same relation without cancellation and is the one to
 * use. EINVAL for ε < 0 or not finite; GSL's failures as ENOCONV. */
IMPACTFIT_EXPORT int impactfit_hc_e_lambert(double eps, double *e, impactfit_error *err);

/* ---- viscoelastic spheres (n = 3/2, m = 1/2) ------------------------------------------------- */

/* The viscoelastic contact of Kuwabara & Kono 1987 and Brilliantov et al. 1996,
 *     F = ρ (δ^(3/2) + (3/2) A δ^(1/2) δ'),   i.e. k = ρ, c = (3/2) A ρ, n = 3/2, m = 1/2,
 * (A in s: the dissipative constant of the material), is described by the Pöschel group with one
 * scaled damping
 *     x = β v^(1/5),   β = (3/2) A (ρ/mass)^(2/5)        (units: x dimensionless, v in m/s),
 * in which e(x) is the same for every ρ, mass, v. In impactfit's scaled damping (impact.h)
 * ζ = c δ_m0^(3/2)/(mass v) = (5/4)^(3/5) x exactly (δ_m0 = (5 mass v²/(4ρ))^(2/5)). The published
 * e(x):
 *   first order (Kuwabara & Kono 1987; Brilliantov et al. 1996, C₁ in closed form):
 *       e = 1 − C₁ x,  C₁ = Γ(3/5) √π / (2^(1/5) 5^(2/5) Γ(21/10)) = 1.1534488…;
 *   second order (Ramírez et al. 1999; Schwager & Pöschel 2008 with force-free separation):
 *       e = 1 − C₁ x + C₂ x²,  C₂ = (3/5) C₁² = 0.7982665…
 * Ramírez et al.'s Padé approximant, Schwager & Pöschel 2008's complete series and Müller &
 * Pöschel 2011's Padé [1/4] and [3/6] forms: coefficients not available here (the reference table
 * lists them as not found). */
IMPACTFIT_EXPORT double impactfit_visco_zeta_from_x(double x); /* (5/4)^(3/5) x */
IMPACTFIT_EXPORT double impactfit_visco_x_from_zeta(double zeta);
/* x for the dissipative constant A (s), stiffness ρ = k (N/m^(3/2)), effective mass (kg) and impact
 * speed v (m/s). EINVAL for A < 0 or k, mass, v not positive and finite. */
IMPACTFIT_EXPORT int impactfit_visco_x(double A, double k, double mass, double v, double *x, impactfit_error *err);
/* C₁ from its closed form (GSL's Γ) and C₂ = (3/5) C₁². */
IMPACTFIT_EXPORT double impactfit_visco_c1(void);
IMPACTFIT_EXPORT double impactfit_visco_c2(void);
/* The truncated series: order 1 or 2; e may fall below 0 for large x (returned as computed).
 * NAN for another order or x < 0. */
IMPACTFIT_EXPORT double impactfit_visco_e_series(int order, double x);
/* The expansion of the exact e(x) at small x, measured with the engine under condition tr (A or C):
 * impacts simulated at rtol 1e-14 for 16 values of x log-spaced on [5e-4, 1e-2], and (1 − e)/x
 * fitted by least squares with 1, x, x^(3/2), x², x^(5/2), x³ (GSL multifit_linear):
 *     e = 1 − c[0] x + c[1] x² + c[2] x^(5/2) + …
 * Measured: c[0] and c[1] within 3e-10 and 2e-6 relative of the closed forms above, c[2] stable to
 * ±0.001 when the fitting range is moved (0 under A, 0.27 under C: the term the end at zero force
 * adds, Schwager & Pöschel's "delayed recovery"). ws: an engine workspace. */
IMPACTFIT_EXPORT int impactfit_visco_expansion(impactfit_impact_workspace *ws, const impactfit_transition *tr,
                                               double c[3], impactfit_error *err);

/* ---- Chatterjee, James & Brogliato 2022: any n, m, with an external load ---------------------- */

/* Their model (from their public MATLAB toolbox ChattAbhi/Approx-ViscoElastic-CoR, commit 258b137,
 * ScaledParams.m, numericCOR.m, ConstCORCoeffs.m, analyticCOR.m, VarCORCoeffsNumeric.m): a bead of
 * mass m meets the contact with speed v₀ under gravity g and a compressive force F,
 *     m δ'' + k δ^α + c (δ^β)' = m g + F,   c = γ₀ k,   α ≥ 1, β ≥ 1,
 * which is impact.h's element with n = α, m = β − 1, impactfit's c = β γ₀ k, and its constant
 * acceleration accel = g + F/m. Scaled with L = (m v₀²/k)^(1/(α+1)), T = L/v₀:
 *     u'' + γ (u^β)' + u^α = g̃,  u(0) = 0, u'(0) = 1,
 *     γ = γ₀ (k/m)^(1 − β/(α+1)) v₀^(2β/(α+1) − 1),   g̃ = (m/k)^(1/(α+1)) v₀^(−2α/(α+1)) (g + F/m).
 * Their simulation ends the contact where u returns to 0 (condition A). Their published forms:
 *   first order:  e = 1 − γ C₀ − γ g̃ C₁ (clamped at 0),
 *       C₀ = β K^((β−α−1)/(α+1)) B(β/(α+1), 3/2),  C₁ = β K^((β−α)/(α+1)) B((β+1)/(α+1), 1/2), K = (α+1)/2;
 *   second order with the Schwager–Pöschel constant (α = β = 3/2): e = 1 − γ C₀ − γ g̃ C₁ + (9/4) C₂ γ²;
 *   second order with load-dependent coefficients I(g̃), Q(g̃):
 *       e = 1 − β I γ + β² I (Q − I/2) γ²                 for γ ≤ γ_c = 2/(β (Q − I/2)),
 *       e = √max(0, 1 − 2 β I γ + 2 β² I Q γ²)           for γ > γ_c,
 *       I = 2 ∫₀^{u_m} u^(β−1) √D(u) du,  Q = ∫₀^{u_m} u^(β−1) / √D(u) du,
 *       D(u) = 1 + 2 (g̃ u − u^(α+1)/(α+1)),  D(u_m) = 0.
 * Their toolbox evaluates I and Q either by quadrature ('ord2numint') or by their own closed
 * approximations ('ord2approx'); impactfit evaluates them by quadrature (GSL QAWS, which takes the
 * 1/√ end point of Q exactly), to about 1e-12 relative: the formula as published, without the
 * extra error of the approximations of I and Q. */
typedef struct impactfit_cjb_coeffs {
  double C0, C1;  /* the first-order constants */
  double I, Q;    /* I(g̃), Q(g̃) */
  double gamma_c; /* 2/(β (Q − I/2)) */
  double u_m;     /* the maximum compression of the undamped loaded impact */
} impactfit_cjb_coeffs;

/* Their γ and g̃ for impact.h's parameters (n = α, m = β − 1 ≥ 0, c, k, mass, v, accel). EINVAL for
 * n < 1 or m < 0 (their α, β ≥ 1) or invalid parameters. */
IMPACTFIT_EXPORT int impactfit_cjb_scaled(const impactfit_impact_params *p, double *gamma, double *gtil,
                                          impactfit_error *err);
/* C₀, C₁ (α, β ≥ 1) and, for g̃ ≥ 0, I, Q, γ_c, u_m. EINVAL for α, β < 1 or g̃ < 0 or not finite;
 * ENOCONV when the quadrature fails. */
IMPACTFIT_EXPORT int impactfit_cjb_coefficients(double alpha, double beta, double gtil, impactfit_cjb_coeffs *c,
                                                impactfit_error *err);
/* Their e for scaled damping γ ≥ 0 and load g̃ ≥ 0: order 1 (constant coefficients), 2 (I, Q) or
 * 3 (the Schwager–Pöschel constant, α = β = 3/2 only: EINVAL otherwise). */
IMPACTFIT_EXPORT int impactfit_cjb_e(int order, double alpha, double beta, double gamma, double gtil, double *e,
                                     impactfit_error *err);
/* The exact first-order coefficient s = lim (1 − e)/γ as γ → 0 at load g̃ (their β I(g̃)), measured
 * with the engine under tr: impacts at rtol 1e-14 for 10 values of γ log-spaced on [1e-4, 1e-2],
 * (1 − e)/γ fitted with 1, γ, γ^(3/2), γ² and its value at γ = 0 taken; under C with a load, e is taken
 * where the body crosses δ = 0 (√(e_out² − 2 accel δ_sep), as impactfit_published_audit does).
 * About 1e-8 relative. */
IMPACTFIT_EXPORT int impactfit_cjb_slope(impactfit_impact_workspace *ws, double alpha, double beta, double gtil,
                                         const impactfit_transition *tr, double *slope, impactfit_error *err);

/* ---- Zhang et al. 2021: α(e) for n = 3/2 and six damping exponents ----------------------------- */

/* Their Eqs. (47)–(52): the modification parameter α(e) of Eq. (53) (inverse.h) fitted for n = 3/2,
 *   m = 2:               α = c₀ + c₁ e + c₂ e² + c₃ e³                          (Eq. 47)
 *   m = 1.5 … 0.25:      α = c₀ e^(c₁ e) + c₂ e^(c₃ e)                          (Eqs. 48–52)
 * (m = 1.5 is Zhang 2020 above). One copy of the printed constants: the topics zhang and formulas
 * audit them (docs/REPRODUCTION.md). */
typedef struct impactfit_zhang2021_fit {
  double m;             /* the damping exponent (n = 3/2) */
  const char *equation; /* "Eq. (47)" */
  double c[4];          /* c₀ … c₃ as printed */
} impactfit_zhang2021_fit;

IMPACTFIT_EXPORT size_t impactfit_zhang2021_fit_count(void); /* 6, m = 2, 1.5, 1, 0.65, 0.5, 0.25 */
IMPACTFIT_EXPORT const impactfit_zhang2021_fit *impactfit_zhang2021_fit_at(size_t i);
/* α(e) of fit f (no range check). */
IMPACTFIT_EXPORT double impactfit_zhang2021_alpha(const impactfit_zhang2021_fit *f, double e);

/* ---- damping only while the bodies approach: exact for m = (n − 1)/2 ------------------------------ */

/* The approach-damper of law.h (f = k δ^n + c δ^m δ' while δ' > 0, k δ^n afterwards; Jankowski
 * 2005's pounding model for n = 3/2, m = 1/4) with c = a √(mass k) and m = (n − 1)/2: by the
 * transformation of inverse.h ("the scale-invariant family") the approach is a damped quarter cycle
 * of the Kelvin–Voigt oscillator with damping ratio ξ = a/√(2(n+1)) and the return is undamped, so
 *     e = exp(−ξ acos ξ/√(1 − ξ²))  (ξ < 1),   e = exp(−ξ acosh ξ/√(ξ² − 1))  (ξ > 1),   e(1) = 1/e,
 * the square root of the clamped Kelvin–Voigt restitution (impactfit_kv_e under C), whatever the end
 * condition (the force never pulls) and whatever k, mass, v. The exact prefactor for e ∈ (0, 1):
 * a = √(2(n+1)) ξ with ξ = impactfit_dem_damping_ratio(e², clamped) (e² rounded: about 1e-16/(1 − e)
 * relative in a). Tested against the law engine (tests/test_published.c). EINVAL for n < 1 or e outside
 * (0, 1]; e = 1 gives 0. */
IMPACTFIT_EXPORT int impactfit_approach_damper_prefactor(double n, double e, double *a, impactfit_error *err);

/* ---- the reference table: every published restitution–damping formula ------------------------- */

/* One published formula: where it is from, the model it belongs to, the end condition its authors
 * assumed, the accuracy they claimed, where its form was confirmed and impactfit's exact alternative;
 * `method` says how impactfit evaluates and audits it (NULL: the form was not found, `found` says
 * what was searched). Constant objects, in the order of impactfit_published_at. */
typedef struct impactfit_published_method impactfit_published_method; /* opaque type objects */

typedef struct impactfit_published {
  const char *name;        /* "herbert-mcwhannell" */
  const char *authors;     /* "Herbert & McWhannell" */
  int year;                /* 1977 */
  const char *reference;   /* title, journal, volume, pages */
  const char *doi;         /* "" when none or not known */
  const char *equation;    /* the equation number, or how the form is known */
  const char *model;       /* "m = n (Hunt–Crossley), any n" */
  const char *end;         /* the end condition the authors assumed: "A", "C", "A = C", "-" */
  const char *range;       /* the range the authors state, "" when none */
  const char *expression;  /* the formula, plain text */
  const char *claimed;     /* the authors' claimed accuracy, "" for none */
  double claimed_max;      /* the same as a bound on max |Δe|, NaN when they give none in that measure */
  const char *found;       /* where the form was confirmed, or what was searched when it was not */
  const char *alternative; /* impactfit's exact alternative (a command or a generated header) */
  const impactfit_published_method *method; /* NULL: not audited (form not found) */
  const void *data;                         /* the method's data */
} impactfit_published;

IMPACTFIT_EXPORT size_t impactfit_published_count(void);
IMPACTFIT_EXPORT const impactfit_published *impactfit_published_at(size_t i);
IMPACTFIT_EXPORT const impactfit_published *impactfit_published_from_name(const char *name);
/* The method's name: "eps(e)" (a formulas.h object, m = n), "dem" (a dem.h object), "prefactor"
 * (c = a(e) √(mass k), m = (n − 1)/2), "copt" (Poursina & Nikravesh's closed form, m = 0),
 * "zhang2021" (Zhang et al.'s α(e) fits), "visco-series" (e(x) above), "cjb" (Chatterjee et al.),
 * "lambert" (e(ε) above), or "" when not audited. */
IMPACTFIT_EXPORT const char *impactfit_published_method_name(const impactfit_published *f);

typedef struct impactfit_published_audit_params {
  double e_min, e_max; /* the range of the exact e, default 0.01, 0.99 */
  size_t points;       /* default 99 */
  double gtil;         /* cjb: the load g̃ audited besides g̃ = 0 (default 0.1; 0: only unloaded) */
  double valid_tol;    /* the |Δe| that defines e_valid below (default 0.01) */
} impactfit_published_audit_params;

IMPACTFIT_EXPORT impactfit_published_audit_params impactfit_published_audit_default_params(void);

typedef struct impactfit_published_audit_row {
  const impactfit_published *formula;
  const impactfit_transition *transition; /* A or C */
  double max, mean;                       /* |e_real − e_formula|: the restitution the formula's damping really gives
                         (eps(e), dem, prefactor) or the formula's e against the exact e at the same
                         damping (visco-series, cjb, lambert) */
  double e_at_max;                        /* the exact e where the maximum is */
  double var_at_max;                      /* the formula's own variable there: x (visco-series), γ (cjb), ε (lambert);
                         NaN for the others */
  double gtil_at_max;                     /* cjb: the load there; 0 otherwise */
  double n_at_max, m_at_max;              /* the exponents of the case where the maximum is (formulas audited
                                for several n or m: copt, zhang2021, cjb, prefactor) */
  double e_valid;                         /* "good to valid_tol for e ≥ e_valid": for each case (exponent pair and
                         load) the smallest measured e above the case's last point with |Δe| > valid_tol,
                         and the largest of those over the cases (a measured point; the crossing lies
                         below it); NaN when a case misses it even at the point nearest e_max */
  size_t points;                          /* points measured */
  size_t failures;                        /* points where the bodies never separate (e_real = 0 counted as such) */
} impactfit_published_audit_row;

/* Measures formula f under transition tr (A or C) on `points` values of the exact e equally spaced
 * on [e_min, e_max]: eps(e), dem and prefactor simulate the formula's damping (prefactor and dem
 * with m = (n − 1)/2 use the exact closed form of inverse.h instead of a simulation); visco-series
 * and cjb find the exact damping of each e with the inverse solver (cjb's load: the same γ values
 * simulated with g̃); lambert compares with impactfit_hc_e at ε = impactfit_hc_eps(e). ws: an engine
 * workspace; iws: an inverse workspace (NULL: allocated for the call). EINVAL for a formula without
 * a method, a transition other than A or C, or an invalid grid. */
IMPACTFIT_EXPORT int impactfit_published_audit(impactfit_impact_workspace *ws, impactfit_inverse_workspace *iws,
                                               const impactfit_published *f, const impactfit_transition *tr,
                                               const impactfit_published_audit_params *p,
                                               impactfit_published_audit_row *row, impactfit_error *err);

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
