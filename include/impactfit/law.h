/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — contact force laws as objects, and one impact through any of them.
 *
 * impact.h solves the element f = k δ^n + c δ^m δ' (the papers' family) to near machine precision
 * with a power-series start. Codes and papers also use laws outside that family: MuJoCo's
 * impedance law, a damper that acts only while the bodies approach, and others. A force law here
 * is a constant type object (its name, its parameters with units, the force f(δ, δ') with its two
 * partial derivatives, and the places where it is not smooth) plus the values of its parameters.
 * Anyone can define a new type in their own code and use it with every function of this header
 * and of stepper.h; nothing in the library needs to know it.
 *
 * The motion (docs/MODEL.md §1, here for any law): penetration δ(t) ≥ 0 of two bodies of effective
 * mass M (kg) that meet with approach velocity v > 0,
 *
 *     M δ'' = −f(δ, δ'),     δ(0) = 0, δ'(0) = v,
 *
 * f in N, δ in m, δ' in m/s. The contact begins at δ = 0 and ends by the transition condition
 * (impact.h): A: when δ returns to 0 (f may be tensile before that); C: when f falls to 0 (the force
 * is clamped at zero: the bodies part there, at δ_sep ≥ 0), or when δ returns to 0 first. Conditions
 * B and D are not offered for general laws. e_out = −δ'(t_end)/v.
 *
 * The engine integrates the scaled state x = δ/L, w = δ'/v in τ = t v/L (L from the law's elastic
 * part, so that x is of order 1) with GSL's rk8pd at a relative tolerance rtol (default 1e-13), the
 * absolute tolerance on x and w scaled by the state's own size, so that a heavily damped rebound or a
 * slow creep back is integrated relative to itself. It stops exactly (to a few units of double
 * rounding in the step length) at every zero of the law's switch functions, where f or its
 * derivatives jump, and restarts the integrator there, so that every step sees a smooth right-hand
 * side; the end of contact, δ_max (δ' = 0) and the force maximum (df/dt = 0, from the law's
 * derivatives) are located on single rk8pd steps from the last accepted point, and δ = 0 is
 * approached in steps that shorten geometrically. Under C, once the force cancels (it falls below its
 * rate-dependent part), f itself is integrated from its derivatives and the end located on it; a zero
 * of the force ends the contact only when the force then becomes clearly negative (a force that
 * decays to zero without changing sign ends at δ = 0). The work of the rate-dependent part is
 * integrated too, so that 1 − e_out is known without cancellation (the inverse uses it above e = 1/2).
 * Measured against independent results (the quad-precision reference of src/reference/ for a power law
 * through this engine, n ∈ [1, 3], m ∈ [0, 2], ζ ≤ 1000; the reference's approach and the exact
 * undamped return for the approach-damper, n ∈ [0.3, 3]; Kelvin–Voigt's closed forms for the impedance
 * with a constant d; A and C; 1000 random and 166 directed cases, `impactfit reproduce --topic
 * accuracy`, generated/accuracy.h IMPACTFIT_ACCURACY_LAW_*, the maxima times 1.5):
 * |Δe_out| ≤ 1.5e-12 max(e, 0.01); |Δt_contact| ≤ 5.0e-14 (t_contact + L/(v e_out)) (the end, at speed
 * e v, moves by the state's error over e); δ_max ≤ 2.8e-13 and f_max ≤ 2.8e-13 relative; |Δδ_sep| ≤
 * 2.8e-13 δ_max.
 * Laws that are not smooth at δ = 0 itself (δ^n with n < 2) cost more steps near the start, not accuracy.
 */
#ifndef IMPACTFIT_LAW_H
#define IMPACTFIT_LAW_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IMPACTFIT_LAW_MAX_PARAMS 12
#define IMPACTFIT_LAW_MAX_SWITCHES 8

/* A force law's type: a constant object; compared by address. */
typedef struct impactfit_law_type {
  const char *name;               /* "power", "impedance", "approach-damper", ... */
  const char *summary;            /* the force in one line, in the names of the parameters */
  int n_params;                   /* ≤ IMPACTFIT_LAW_MAX_PARAMS */
  const char *const *param_names; /* n_params names */
  const char *const *param_units; /* n_params units ("N/m^n", "-", ...) */
  /* EINVAL with a message naming the parameter when p does not describe a valid law. */
  int (*check)(const double *p, impactfit_error *err);
  /* The force (N) at penetration δ ≥ 0 (m) and rate δ' (m/s), before any clamp at zero; when not
   * NULL, *df_ddelta = ∂f/∂δ (N/m) and *df_drate = ∂f/∂δ' (N s/m) there. */
  double (*force)(const double *p, double delta, double rate, double *df_ddelta, double *df_drate);
  /* Functions s_i(δ, δ') (0 ≤ i < n_switches) whose sign changes mark where f or its derivatives jump
   * (δ = a knot of a piecewise law; δ' = 0 for a damper that acts only one way). NULL when none. */
  int n_switches; /* ≤ IMPACTFIT_LAW_MAX_SWITCHES */
  double (*switch_value)(const double *p, int i, double delta, double rate);
  /* Optional (NULL: the engine finds it): a length (m) of the order of the largest penetration of an
   * impact of mass M at speed v, used to scale the state. */
  double (*length_scale)(const double *p, double mass, double v);
} impactfit_law_type;

/* A law: its type and the values of its parameters. */
typedef struct impactfit_law {
  const impactfit_law_type *type;
  double p[IMPACTFIT_LAW_MAX_PARAMS];
} impactfit_law;

/* The built-in types.
 * power:      f = k δ^n + c δ^m δ'. Parameters k (N/m^n), n, c (N s m^-(m+1)), m. impact.h's element.
 * impedance:  MuJoCo's soft contact (docs/engines/MUJOCO.md), mass-normalised Kelvin–Voigt with the
 *             solimp impedance d(δ):
 *                 f = M d(δ) (B δ' + K d(δ) δ),
 *             parameters M (kg), B (1/s), K (1/s²) as MuJoCo computes them from solref (its
 *             reference acceleration is −B δ_dist' − K d δ_dist), d0, dwidth, width (m), midpoint,
 *             power (solimp). d(δ) rises from d0 at δ = 0 to
 *             dwidth at δ = width (the power-sigmoid of MuJoCo's solimp, midpoint and power shaping
 *             it) and stays there. Any finite solimp is accepted and clamped as MuJoCo's getsolparam
 *             clamps it (2.2.2 engine_core_constraint.c:1023-1028): d0, dwidth, midpoint to
 *             [1e-4, 0.9999], width to >= 0 (0: d = (d0 + dwidth)/2 everywhere), power to >= 1.
 * approach-damper: f = k δ^n + c δ^m δ' while δ' > 0 (approach), k δ^n while δ' ≤ 0: a damper that
 *             acts only while the bodies approach. Parameters k, n, c, m as power. */
IMPACTFIT_EXPORT extern const impactfit_law_type *const impactfit_law_power;
IMPACTFIT_EXPORT extern const impactfit_law_type *const impactfit_law_impedance;
IMPACTFIT_EXPORT extern const impactfit_law_type *const impactfit_law_approach_damper;

/* The registered built-in types, and lookup by name (NULL when unknown). */
IMPACTFIT_EXPORT size_t impactfit_law_type_count(void);
IMPACTFIT_EXPORT const impactfit_law_type *impactfit_law_type_at(size_t i);
IMPACTFIT_EXPORT const impactfit_law_type *impactfit_law_type_from_name(const char *name);

/* A power law f = k δ^n + c δ^m δ'. */
IMPACTFIT_EXPORT impactfit_law impactfit_law_power_make(double k, double n, double c, double m);

/* MuJoCo's impedance d(δ) of solimp (d0, dwidth, width, midpoint, power) at penetration δ ≥ 0, with
 * its derivative dd/dδ when dd is not NULL (0 beyond width and where MuJoCo's clamp acts). */
IMPACTFIT_EXPORT double impactfit_law_impedance_d(const double solimp[5], double delta, double *dd);

/* The force of law at (δ, δ'), clamped at zero when clamp is non-zero; EINVAL-free (no checks). */
IMPACTFIT_EXPORT double impactfit_law_force(const impactfit_law *law, double delta, double rate, int clamp);

/* Checks the law's parameters (type's check; EINVAL for a NULL type). */
IMPACTFIT_EXPORT int impactfit_law_check(const impactfit_law *law, impactfit_error *err);

/* What an impact through a law is asked. */
typedef struct impactfit_law_impact_params {
  impactfit_law law;
  double mass;                            /* effective mass M, kg (> 0) */
  double v;                               /* approach velocity, m/s (> 0) */
  const impactfit_transition *transition; /* impactfit_transition_A or _C (default C) */
  double rtol;                            /* integrator tolerance on the scaled state (default 1e-13) */
  double t_max;                           /* bound on the contact, in units of L/v (default 0: 1e5) */
} impactfit_law_impact_params;

/* Defaults: law power with k = 1, n = 1.5, c = 0, m = 0; mass = v = 1; condition C. */
IMPACTFIT_EXPORT impactfit_law_impact_params impactfit_law_impact_default_params(void);

typedef struct impactfit_law_impact_result {
  double e_out;       /* −δ'(t_end)/v */
  double t_contact;   /* s */
  double delta_max;   /* m */
  double t_delta_max; /* s */
  double f_max;       /* largest contact force (after the clamp), N */
  double delta_sep;   /* penetration where the contact ended (0 when it ended at δ = 0), m */
  double f_end;       /* force just before the end (0 under C unless it ended at δ = 0), N */
  double length;      /* the length scale L used, m */
  int ended_on_force; /* 1: ended where f fell to 0 (C); 0: at δ = 0 */
  int switches;       /* switch crossings passed during the contact */
  long rhs_evals;     /* force evaluations */
  long steps;         /* accepted integrator steps */
} impactfit_law_impact_result;

typedef struct impactfit_law_workspace impactfit_law_workspace;

IMPACTFIT_EXPORT impactfit_law_workspace *impactfit_law_alloc(void);
IMPACTFIT_EXPORT void impactfit_law_free(impactfit_law_workspace *ws); /* NULL is a no-op */

/* Simulates one impact through p->law. Returns 0, EINVAL (invalid parameters, or a transition other
 * than A or C), ENOSEP (no end of contact within t_max: the bodies stick), ENONFINITE, ESTEP. ws may
 * be NULL (allocated for the call). */
IMPACTFIT_EXPORT int impactfit_law_impact_solve(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                                                impactfit_law_impact_result *res, impactfit_error *err);

/* The inverse: the value of parameter `index` of p->law in [lo, hi] (0 < lo < hi; searched in
 * ln(value)) with e_out = e, |e_out − e| ≤ tol·min(e, 1 − e) for the simulated e_out (tol 0: 1e-10;
 * tol ≥ 1e-12); above e = 1/2 met on 1 − e_out from the energy balance (1 − e_out² = 2/(M v²) × the work
 * of the law's rate-dependent part f(δ, δ') − f(δ, 0) and the elastic energy ∫₀^δ_sep f(s, 0) ds left
 * at the end: no cancellation as e → 1), and res->e_out is then 1 − that, rounded. e_out must change monotonically with the parameter over [lo, hi] for the answer to be
 * unique: the search brackets the target on a grid of the interval, then refines the first bracket
 * with Brent's method (GSL). Returns 0 with *value and res set, ENOROOT with the reachable range of
 * e in the message when no value in [lo, hi] gives e, or an error of impactfit_law_impact_solve. */
IMPACTFIT_EXPORT int impactfit_law_solve_param(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                                               int index, double e, double lo, double hi, double tol, double *value,
                                               impactfit_law_impact_result *res, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_LAW_H */
