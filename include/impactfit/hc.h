/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — Hunt–Crossley contacts: exact damping ratio, impact time, identification from one
 * measured impact, and the Ramaswamy–Humbert fits (docs/MODEL.md §1 and §4).
 *
 * The model: mass δ'' + k δ^n + λ δ^n δ' = 0, δ(0) = 0, δ'(0) = v (damping exponent m = n).
 * Two dimensionless groups describe it completely (Ramaswamy & Humbert):
 *     hysteresis damping ratio   ε = λ v / k                      (dimensionless)
 *     impact natural frequency   ω_i = [k v^(n−1) / mass]^(1/(n+1))   (1/s)
 * With τ = ω_i t and x = δ ω_i / v the impact reads
 *     x'' + x^n (ε x' + 1) = 0,   x(0) = 0, x'(0) = 1,
 * so the coefficient of restitution e depends on ε only (not on n, k, mass or v) and the
 * dimensionless contact duration Δτ = ω_i Δt on (ε, n) only.
 *
 * Contact ends at δ = 0: the force k δ^n (1 + ε δ'/v) stays positive until then, so transition
 * conditions A and C (impact.h) describe the same impact.
 *
 * Exact restitution (first integral of the equation in the phase plane: Marhefka & Orin 1999,
 * Stronge 2000; the relation as written by Gonthier et al. 2004, quoted as Eqs. 18–19 of seed 000;
 * e(ε) in closed form with the Lambert W function: Carvalho & Martins 2019, formulas.h):
 *     (1 + ε) / (1 − e ε) = exp(ε (1 + e)),   0 < e ≤ 1,  0 ≤ ε < 1/e.
 * Near e = 1: ε = 3/2 s + 3/2 s² + 27/20 s³ + 6/5 s⁴ + …, s = 1 − e (Hunt–Crossley's 3(1−e)/2 is
 * the first term). As e → 0: ε = (1 − u)/e with u = 1 − e ε = (1 + ε) exp(−ε(1 + e)), which is
 * below 1e-16 for e < 0.025: there ε = 1/e to double precision.
 */
#ifndef IMPACTFIT_HC_H
#define IMPACTFIT_HC_H

#include <stddef.h>
#include <stdio.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- exact damping ratio -------------------------------------------------------------------- */

/* ε(e) from the exact relation above, for 0 < e ≤ 1 (e = 1 gives 0). Solved for w = ln(1 − e ε)
 * in a form free of cancellation at both ends, by a bracketed Newton iteration that allocates
 * nothing (src/hc/hc_eps.c; safe inside sweep loops and from any number of threads); accurate to a
 * few units of double rounding: measured ≤ 5e-16 relative against 100-digit arithmetic at 525
 * values of e in [1e-300, 1]. EINVAL for e outside (0, 1], not finite, or so small that 1/e
 * overflows; ENOCONV if the root finder fails (not observed). About 1–1.5 µs (bench/bench_hc). */
IMPACTFIT_EXPORT int impactfit_hc_eps(double e, double *eps, impactfit_error *err);

/* The inverse, e(ε), for finite ε ≥ 0 (ε = 0 gives 1), from the same relation solved for 1 − e
 * (ε ≤ 1) or ln(1 − eε) (ε > 1), with the same allocation-free iteration; measured ≤ 5e-16
 * relative as above. Saves a simulation when only e is wanted. */
IMPACTFIT_EXPORT int impactfit_hc_e(double eps, double *e, impactfit_error *err);

/* The damping factor λ = ε k / v (N s/m^(n+1)) of a Hunt–Crossley contact with damping ratio ε,
 * stiffness k (N/m^n) and approach velocity v (m/s), computed as (ε·k)/v. EINVAL for ε < 0, k ≤ 0,
 * v ≤ 0, a non-finite input, or a λ that is not representable (overflow to infinity). */
IMPACTFIT_EXPORT int impactfit_hc_lambda(double eps, double k, double v, double *lambda, impactfit_error *err);

/* ---- impact time ---------------------------------------------------------------------------- */

/* ω_i = [k v^(n−1) / mass]^(1/(n+1)) in 1/s. EINVAL for non-positive or non-finite inputs, or when
 * ω_i is not representable. */
IMPACTFIT_EXPORT int impactfit_hc_omega(double k, double v, double mass, double n, double *omega_i,
                                        impactfit_error *err);

/* Dimensionless contact duration Δτ(ε, n) of x'' + x^n (ε x' + 1) = 0, x(0) = 0, x'(0) = 1, until x
 * returns to 0 (0 ≤ ε ≤ 1e7, n > 0). Simulated with the impact engine (mass = k = v = 1, m = n,
 * c = ε, then ω_i = 1 and t_contact = Δτ) under condition A: it is condition C for this model,
 * and ends exactly at δ = 0 even for ε ≳ 1e4, where 1 + ε x' falls below rounding long before x
 * reaches 0 and C's zero-force test would end the contact early. Δτ(0, n) = 2 x_m B(1/(n+1), 1/2)/(n+1),
 * x_m = ((n+1)/2)^(1/(n+1)) (Δτ(0, 1) = π); for large ε, Δτ grows like ε^(n/(n+1)).
 * Accuracy: measured ≤ 3e-14 relative for 1e-6 ≤ ε ≤ 2e4 and ≤ 2e-13 up to 1e7, 0.5 ≤ n ≤ 3,
 * against an independent quadrature (tests/test_hc.c). Cost (measured, one core): 50–100 µs for
 * ε ≤ 100, then growing like ε (0.2 ms at 1e3, 0.15 s at 1e6, 1.7 s at 1e7). `e_out` (may be
 * NULL) receives the simulated restitution. ws: an engine workspace (one per thread). EINVAL for
 * ε outside [0, 1e7] or n ≤ 0. */
IMPACTFIT_EXPORT int impactfit_hc_impact_time(impactfit_impact_workspace *ws, double eps, double n, double *dtau,
                                              double *e_out, impactfit_error *err);

/* ---- identification from one measured impact ------------------------------------------------- */

typedef struct impactfit_hc_identified {
  double eps;         /* ε = impactfit_hc_eps(e) */
  double dtau;        /* Δτ(ε, n) */
  double omega_i;     /* Δτ / Δt, 1/s */
  double k;           /* mass ω_i^(n+1) / v^(n−1), N/m^n */
  double lambda;      /* ε k / v, N·s/m^(n+1) */
  double e_sim;       /* restitution of a simulated impact with k, λ (condition A = C) */
  double dt_sim;      /* its contact duration, s */
  double e_residual;  /* |e_sim − e| / e */
  double dt_residual; /* |dt_sim − Δt| / Δt */
} impactfit_hc_identified;

/* Stiffness and damping of a Hunt–Crossley contact (exponent n, m = n) that reproduce a measured
 * coefficient of restitution e and contact duration dt (s) for an impact of effective mass `mass`
 * (kg) at approach velocity v (m/s): ε from e (exact), ω_i = Δτ(ε, n)/dt, then k and λ. The result
 * is checked by simulating the identified impact; the residuals are typically ≤ 1e-13. Round trips
 * (simulate → identify) return k to about 1e-14 and λ to about 1e-14/ε relative (the absolute
 * accuracy of a simulated e, amplified by dε/de near e = 1). EINVAL for invalid input, for e so
 * small that ε > 1e7, or when k is not representable. */
IMPACTFIT_EXPORT int impactfit_hc_identify(impactfit_impact_workspace *ws, double e, double dt, double v, double mass,
                                           double n, impactfit_hc_identified *out, impactfit_error *err);

/* ---- Ramaswamy–Humbert ε(e) ------------------------------------------------------------------ */

/* Published constants of Ramaswamy & Humbert, Eq. (6) (claimed 0.062 % relative error in ε on
 * 0.01 ≤ e ≤ 1; measured against the exact ε: 3.35 % maximum at e = 0.32, 1.52 % mean, see
 * README and `impactfit hc-audit`). Refitted constants (least squares: 1.75 % max; minimax:
 * 0.793 % max, the best this form reaches) are in include/impactfit/generated/ramaswamy_eps.h. */
#define IMPACTFIT_HC_RH_ALPHA 1.381
#define IMPACTFIT_HC_RH_BETA 0.451

/* Their form: ε(e) = (3 + 2p)(1 − e²)/(2e) · ((3 + 2p)/(3 − 2p) + e)^(−1),
 * p = α (exp(−β e) − exp(−β)). EINVAL for e outside (0, 1], non-finite α, β, or 2|p| ≥ 3 (the form
 * has a pole). */
IMPACTFIT_EXPORT int impactfit_hc_rh_eps(double e, double alpha, double beta, double *eps, impactfit_error *err);

/* Relative error statistics over a grid of e. */
typedef struct impactfit_hc_eps_stats {
  double max;      /* max |ε_f − ε| / ε over the grid */
  double mean;     /* mean of the same */
  double rms;      /* root mean square of the same */
  double e_at_max; /* where the maximum is */
  size_t points;
} impactfit_hc_eps_stats;

/* The grid: `points` ≥ 2 values of e equally spaced on [e_min, e_max] ⊂ (0, 1], ends included.
 * At e = 1, where every ε vanishes, the relative error is its limit, evaluated at e = 1 − 2^−26. */
typedef struct impactfit_hc_rh_fit_params {
  double e_min, e_max;  /* default 0.01, 1 (the paper's range) */
  size_t points;        /* default 991 (steps of 0.001) */
  double alpha0, beta0; /* starting point, default the published constants */
} impactfit_hc_rh_fit_params;

IMPACTFIT_EXPORT impactfit_hc_rh_fit_params impactfit_hc_rh_fit_default_params(void);

/* Why a second fitting routine beside fit.h: impactfit_hc_rh_eps_refit is the independent
 * implementation of the same two fits (least squares with trapezoid weights, minimax in epigraph form)
 * that fit.h performs generically on fits/ramaswamy_eps.ini: analytic Jacobian of this one form
 * instead of fit.h's libmatheval derivatives, its own start and restarts. tests/test_fit.c and
 * tests/test_ramaswamy.c compare the two minimax fits, which is what catches a regression in either;
 * the hc-audit command prints this one's refits. New fits use fit.h (a fit file and a generated
 * header); this API is not extended. */

/* Objective of a refit. */
typedef enum impactfit_hc_objective {
  IMPACTFIT_HC_LSQ = 0,    /* least squares on the relative error, trapezoid weights (GSL multifit_nlinear) */
  IMPACTFIT_HC_MINIMAX = 1 /* smallest maximum relative error (NLopt SLSQP, epigraph form) */
} impactfit_hc_objective;

/* "lsq", "minimax"; NULL for an unknown value. */
IMPACTFIT_EXPORT const char *impactfit_hc_objective_name(impactfit_hc_objective obj);

typedef struct impactfit_hc_rh_fit {
  double alpha, beta;
  impactfit_hc_eps_stats err; /* relative error of the fitted form against the exact ε on the grid */
  int iterations;             /* least squares: GSL iterations; minimax: SLSQP evaluations */
} impactfit_hc_rh_fit;

/* Relative error of the form with (α, β) against the exact ε on the grid of `p`. */
IMPACTFIT_EXPORT int impactfit_hc_rh_eps_error(double alpha, double beta, const impactfit_hc_rh_fit_params *p,
                                               impactfit_hc_eps_stats *out, impactfit_error *err);

/* Refits α and β against the exact ε on the grid of `p`: least squares on the relative error
 * with trapezoid-rule weights (1/2 at the two ends: the sum approximates the integral over the
 * range, so the constants hardly depend on the grid's spacing; Levenberg–Marquardt with the
 * analytic Jacobian; as fits/ramaswamy_eps.ini), or the smallest maximum relative error (the
 * epigraph problem min t subject to |r_i(α, β)| ≤ t, solved by SLSQP from the least-squares
 * solution, and checked by restarts from the published constants). ENOCONV when the optimiser
 * fails. */
IMPACTFIT_EXPORT int impactfit_hc_rh_eps_refit(const impactfit_hc_rh_fit_params *p, impactfit_hc_objective obj,
                                               impactfit_hc_rh_fit *out, impactfit_error *err);

/* ---- Ramaswamy–Humbert Δτ(ε, n) surface ---------------------------------------------------- */

/* Δτ = a e^(−bε) + (c − d e^(−f n)) ε + (g n − h) e^(−i n) − j n + k, constants in the order
 * a b c d f g h i j k. Published (Eq. 7, claimed 0.237 % relative error; measured on
 * [0, 20] × [1, 2]: 7.6 % maximum, 1.9 % mean; on [0, 10] × [1, 2]: 1.5 % maximum, 0.22 % mean).
 * Refitted constants (5.1 % maximum, 0.43 % mean on [0, 20] × [1, 2]) are in
 * include/impactfit/generated/ramaswamy_dtau.h; impactfit_hc_rh_dtau evaluates either set. */
IMPACTFIT_EXPORT extern const double impactfit_hc_rh_dtau_published[10];
IMPACTFIT_EXPORT double impactfit_hc_rh_dtau(const double c[10], double eps, double n);

typedef struct impactfit_hc_dtau_stats {
  double max, mean, rms;       /* of |Δτ_f − Δτ| / Δτ over the grid */
  double eps_at_max, n_at_max; /* where the maximum is */
  size_t points;
} impactfit_hc_dtau_stats;

/* Grid of exact Δτ values: eps_points values of ε equally spaced on [0, eps_max] × n_points values
 * of n equally spaced on [n_min, n_max]. */
typedef struct impactfit_hc_dtau_grid_params {
  double eps_max;              /* default 20 */
  double n_min, n_max;         /* default 1, 2 */
  size_t eps_points, n_points; /* default 201, 51 */
} impactfit_hc_dtau_grid_params;

IMPACTFIT_EXPORT impactfit_hc_dtau_grid_params impactfit_hc_dtau_grid_default_params(void);

/* Relative error of the 10-constant surface with constants c against Δτ simulated on the grid. */
IMPACTFIT_EXPORT int impactfit_hc_rh_dtau_error(impactfit_impact_workspace *ws, const double c[10],
                                                const impactfit_hc_dtau_grid_params *p, impactfit_hc_dtau_stats *out,
                                                impactfit_error *err);

/* ---- a surrogate for Δτ(ε, n) --------------------------------------------------------------- */

/* ln Δτ as a tensor-product Chebyshev series in X = 2 ln(1+ε)/ln(1+ε_max) − 1 and
 * Y = 2 (n − n_min)/(n_max − n_min) − 1, interpolating simulated values at the Chebyshev points
 * (Gauss nodes) of both variables. ln(1+ε) moves the nearest singularity (ε = −1) to infinity and
 * the logarithm turns the ε^(n/(n+1)) growth into a nearly linear one, so few terms reach 1e-9.
 * Accuracy with the defaults: 4e-10 relative maximum on held-out points (tests/test_hc.c requires
 * ≤ 1e-9); degrees 24 × 8 give 3e-7, 48 × 14 give 6e-13. Building takes (deg_eps+1)(deg_n+1)
 * simulations (0.04 s with the defaults); an evaluation about 0.5 µs. */
typedef struct impactfit_hc_dtau_surrogate_params {
  double eps_max;      /* default 100, at most 1e4 */
  double n_min, n_max; /* default 1, 2 */
  int deg_eps, deg_n;  /* polynomial degrees 1..200, default 36 and 12 */
} impactfit_hc_dtau_surrogate_params;

IMPACTFIT_EXPORT impactfit_hc_dtau_surrogate_params impactfit_hc_dtau_surrogate_default_params(void);
/* The simulations a build runs: one per Chebyshev node, (deg_eps + 1)(deg_n + 1). */
IMPACTFIT_EXPORT long impactfit_hc_dtau_surrogate_simulations(const impactfit_hc_dtau_surrogate_params *p);

typedef struct impactfit_hc_dtau_surrogate impactfit_hc_dtau_surrogate;

/* Builds the surrogate; *out is freed with impactfit_hc_dtau_surrogate_free. EINVAL for
 * parameters outside the ranges above or n_min ≥ n_max (then *out = NULL). */
IMPACTFIT_EXPORT int impactfit_hc_dtau_surrogate_build(impactfit_impact_workspace *ws,
                                                       const impactfit_hc_dtau_surrogate_params *p,
                                                       impactfit_hc_dtau_surrogate **out, impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_hc_dtau_surrogate_free(impactfit_hc_dtau_surrogate *s);

/* Δτ(ε, n) from the surrogate; EINVAL outside its domain [0, ε_max] × [n_min, n_max]. */
IMPACTFIT_EXPORT int impactfit_hc_dtau_surrogate_eval(const impactfit_hc_dtau_surrogate *s, double eps, double n,
                                                      double *dtau, impactfit_error *err);

/* Relative error of the surrogate against Δτ simulated on a grid inside its domain (EINVAL
 * otherwise); grid points that are not Chebyshev nodes are held out from the construction. */
IMPACTFIT_EXPORT int impactfit_hc_dtau_surrogate_error(impactfit_impact_workspace *ws,
                                                       const impactfit_hc_dtau_surrogate *s,
                                                       const impactfit_hc_dtau_grid_params *p,
                                                       impactfit_hc_dtau_stats *out, impactfit_error *err);

/* The two Δτ(ε, n) surfaces against Δτ simulated on the grid p (what `impactfit hc-audit` reports):
 * out[0] Ramaswamy–Humbert's published surface (impactfit_hc_rh_dtau_error), out[1] the surrogate
 * built with sp (impactfit_hc_dtau_surrogate_build, then _error; p must lie in its domain). */
IMPACTFIT_EXPORT int impactfit_hc_dtau_audit(impactfit_impact_workspace *ws, const impactfit_hc_dtau_grid_params *p,
                                             const impactfit_hc_dtau_surrogate_params *sp,
                                             impactfit_hc_dtau_stats out[2], impactfit_error *err);

/* Its parameters and coefficients c[i (deg_n+1) + j] of T_i(X) T_j(Y) (owned by s). */
IMPACTFIT_EXPORT const double *impactfit_hc_dtau_surrogate_coefficients(const impactfit_hc_dtau_surrogate *s,
                                                                        impactfit_hc_dtau_surrogate_params *p);

/* Writes the surrogate as a self-contained C header (`impactfit dtau-surrogate` writes
 * include/impactfit/generated/ramaswamy_dtau_surrogate.h): a DO NOT EDIT banner with the command
 * (may be NULL), the box, the degrees and the held-out check (`check`, may be NULL); the
 * coefficients printed with %.17g; static inline double impactfit_<name>(eps, n), computing what
 * impactfit_hc_dtau_surrogate_eval computes in the same operation order (−1 outside the box), and
 * impactfit_<name>_dt(eps, n, k, mass, v) = Δτ/ω_i in s. The text holds no time stamp: the same
 * surrogate gives the same bytes (codegen.h's writer). EINVAL when name is not a C identifier, EIO
 * on a write error. */
IMPACTFIT_EXPORT int impactfit_hc_dtau_surrogate_write_header(const impactfit_hc_dtau_surrogate *s,
                                                              const impactfit_hc_dtau_stats *check, const char *name,
                                                              const char *command, FILE *f, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_HC_H */
