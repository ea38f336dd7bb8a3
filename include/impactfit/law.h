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
 * Accuracy, stated once: a law with its own solver (the `impact` member below) is solved by it; the
 * power law's is impact.h's engine, so an impact through the power law has the accuracy impact.h
 * states (its figures are measured against the quad-precision reference, docs/ACCURACY.md), whether
 * it is asked through this header, a stepper's continuous limit, a sweep or the CLI. Every other law
 * is solved by the general engine of this header.
 *
 * The general engine integrates the scaled state x = δ/L, w = δ'/v in τ = t v/L (L from the law's elastic
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
 *
 * Parameters by name: every law lists its parameters (param_names, param_units, param_help) and is
 * read and written by name (impactfit_law_param_index, impactfit_law_set, impactfit_law_get); the
 * command line (`impactfit simulate --law NAME --PARAM VALUE`, `impactfit zhang-alpha --law NAME
 * [--solve PARAM]`), the sweep problems law-impact and law-damping and the fits on their outputs
 * find a law and its parameters by name from these fields alone, so a new law is its type object
 * (in src/law/law.c with its line in the registry, or a program's own, impactfit_law_type_from_name_in)
 * and nothing else (docs/LAWS.md).
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

struct impactfit_law_impact_params;
struct impactfit_law_impact_result;
/* The workspace of impactfit_law_impact_solve (below). */
typedef struct impactfit_law_workspace impactfit_law_workspace;

/* A force law's type: a constant object; compared by address. Outside code may define its own (every
 * function of this header and of stepper.h takes it; impactfit_law_type_from_name_in finds it by name
 * beside the built-ins). The members after length_scale are optional (NULL: none); the front ends use
 * them to offer the law's parameters as options, sweep columns and inverse unknowns. */
typedef struct impactfit_law_type {
  const char *name;               /* "power", "impedance", "approach-damper", ...: a word of letters, digits, '-' */
  const char *summary;            /* the force in one line, in the names of the parameters */
  int n_params;                   /* ≤ IMPACTFIT_LAW_MAX_PARAMS */
  const char *const *param_names; /* n_params names, each a C identifier, distinct */
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
  /* Optional: n_params one-line meanings with the allowed range, the unit left to param_units
   * ("spring exponent (> 0)"). */
  const char *const *param_help;
  /* Optional: n_params default values (NaN: none, the value must be given); NULL: none has one. */
  const double *param_default;
  /* Optional: the order in which listings, table columns and sweep columns show the parameters, a
   * permutation of 0 .. n_params-1; NULL: 0, 1, 2, ... (impactfit_law_param_at). */
  const int *param_order;
  /* Optional: the name of the damping parameter, the unknown of the inverse by default
   * (`impactfit zhang-alpha --law NAME`, sweep problem law-damping). */
  const char *damping;
  /* Optional: the name of the parameter that with the mass and the speed sets the units of an impact:
   * e depends only on ratios then (the power law's k: e depends on n, m and ζ), and front ends ask for
   * the three together or none (`--k --mass --v`, as every command does). */
  const char *unit_param;
  /* Optional: a scale of parameter i (its unit) for an impact of mass M at speed v given the other
   * parameters p, or NaN when the law has none for it: the inverse searches [1e-9, 1e6] times it, and
   * the value over it is the scaled value `zeta` of the front ends (the power law's c: M v/δ_m0^(m+1),
   * so that zeta is impact.h's ζ; the impedance law's B: the critical 2√K, zeta MuJoCo's dampratio). */
  double (*param_scale)(const double *p, int i, double mass, double v);
  /* Optional: the law's own solver of one impact, called by impactfit_law_impact_solve in place of the
   * general engine once the law, mass, v, rtol and the transition (A or C) have been checked (ws is
   * never NULL there; the result is the general engine's, field by field). The power law's is
   * impact.h's engine (series start, its own event location and accuracy). */
  int (*impact)(impactfit_law_workspace *ws, const struct impactfit_law_impact_params *p,
                struct impactfit_law_impact_result *res, impactfit_error *err);
} impactfit_law_type;

/* A law: its type and the values of its parameters (p[i] for param_names[i]; read and write them by
 * name with impactfit_law_set and impactfit_law_get). */
typedef struct impactfit_law {
  const impactfit_law_type *type;
  double p[IMPACTFIT_LAW_MAX_PARAMS];
} impactfit_law;

/* The built-in types; each parameter as name (unit): meaning, default ("required": none).
 *
 * power: f = k δ^n + c δ^m δ', impact.h's element (solved by impact.h's engine).
 *   k (N/m^n)          stiffness (> 0), default 1
 *   n (-)              spring exponent (> 0), required
 *   c (N s m^-(m+1))   damping coefficient (>= 0; lambda for Hunt-Crossley, m = n), required
 *   m (-)              damping exponent (>= 0), default 0
 *   shown in the order n, m, c, k; damping c (zeta = impact.h's ζ = c δ_m0^(m+1)/(M v)); unit
 *   parameter k.
 *
 * impedance: MuJoCo's soft contact (docs/engines/MUJOCO.md), mass-normalised Kelvin–Voigt with the
 *   solimp impedance d(δ):   f = M s(δ) (B δ' + K d(δ) δ + g),   s = d/(d + rscale (1 − d)).
 *   d(δ) rises from d0 at δ = 0 to dwidth at δ = width (the power-sigmoid of MuJoCo's solimp,
 *   midpoint and power shaping it) and stays there. Any finite solimp is accepted and clamped as
 *   MuJoCo's getsolparam clamps it (2.2.2 engine_core_constraint.c:1023-1028): d0, dwidth, midpoint to
 *   [1e-4, 0.9999], width to >= 0 (0: d = (d0 + dwidth)/2 everywhere), power to >= 1.
 *   The solver's force is (aref − a0)/(A + R) with R = rscale (1 − d)/d A: rscale = 1 for a
 *   frictionless contact (condim 1) and for the elliptic cone (s = d), μ²(1 + μ²)/(impratio (condim − 1))
 *   for the pyramidal cone (μ the contact's first friction value).
 *   M (kg)             the constraint's mass, MuJoCo's 1/A (a sphere on a plane: its mass), required
 *   B (1/s)            damping of the reference acceleration (>= 0), required; from solref
 *                      (timeconst, dampratio): B = 2/(dwidth timeconst)
 *   K (1/s^2)          stiffness of the reference acceleration (>= 0), required;
 *                      K = 1/(dwidth^2 timeconst^2 dampratio^2)
 *   d0 (-)             impedance at δ = 0, in (0, 1), default 0.9       (solimp[0])
 *   dwidth (-)         impedance at and beyond width, in (0, 1), default 0.95 (solimp[1])
 *   width (m)          penetration where d reaches dwidth (>= 0), default 0.001 (solimp[2])
 *   midpoint (-)       midpoint of the sigmoid, in (0, 1), default 0.5   (solimp[3])
 *   power (-)          power of the sigmoid (>= 1), default 2            (solimp[4])
 *   rscale (-)         the regulariser's scale (> 0), default 1 (condim 1, elliptic cone)
 *   g (m/s^2)          the acceleration the bodies would have into the contact without it (−a0:
 *                      gravity along the normal), which the constraint force takes up in part; default 0
 *   damping B (zeta = B/(2√K), MuJoCo's dampratio when M is the body's mass).
 *
 * approach-damper: f = k δ^n + c δ^m δ' while δ' > 0 (approach), k δ^n while δ' ≤ 0: a damper that
 *   acts only while the bodies approach; the parameters, order, damping and unit parameter of power.
 */
IMPACTFIT_EXPORT extern const impactfit_law_type *const impactfit_law_power;
IMPACTFIT_EXPORT extern const impactfit_law_type *const impactfit_law_impedance;
IMPACTFIT_EXPORT extern const impactfit_law_type *const impactfit_law_approach_damper;

/* The registered built-in types, and lookup by name (NULL when unknown). */
IMPACTFIT_EXPORT size_t impactfit_law_type_count(void);
IMPACTFIT_EXPORT const impactfit_law_type *impactfit_law_type_at(size_t i);
IMPACTFIT_EXPORT const impactfit_law_type *impactfit_law_type_from_name(const char *name);
/* The same over a program's own types extra[0 .. n) first, then the built-ins (extra may be NULL
 * with n = 0), as impactfit_sweep_parse_with takes a program's own problems. */
IMPACTFIT_EXPORT const impactfit_law_type *
impactfit_law_type_from_name_in(const char *name, const impactfit_law_type *const *extra, size_t n);

/* impactfit_law_type_from_name_in with a message: 0 and *out, or EINVAL "unknown force law 'x'
 * (known: power, impedance, approach-damper; did you mean ...?)". */
IMPACTFIT_EXPORT int impactfit_law_type_find(const char *name, const impactfit_law_type *const *extra, size_t n,
                                             const impactfit_law_type **out, impactfit_error *err);

/* ---- parameters by name ---- */

/* The index of the parameter called name (p[index]), or -1 when the type has none of that name. */
IMPACTFIT_EXPORT int impactfit_law_param_index(const impactfit_law_type *type, const char *name);
/* The index of the parameter shown at position i (0 ≤ i < n_params) of type->param_order (i itself
 * without an order); -1 out of range. */
IMPACTFIT_EXPORT int impactfit_law_param_at(const impactfit_law_type *type, int i);
/* The default of parameter i (NaN: it has none; also out of range). */
IMPACTFIT_EXPORT double impactfit_law_param_default(const impactfit_law_type *type, int i);
/* A law of this type with every parameter at its default (NaN where it has none: such a law is
 * invalid until they are set). */
IMPACTFIT_EXPORT impactfit_law impactfit_law_make(const impactfit_law_type *type);
/* Sets (gets) the parameter called name. EINVAL with a message listing the type's parameters when it
 * has none of that name (or law or its type is NULL); the value itself is checked by
 * impactfit_law_check. */
IMPACTFIT_EXPORT int impactfit_law_set(impactfit_law *law, const char *name, double value, impactfit_error *err);
IMPACTFIT_EXPORT int impactfit_law_get(const impactfit_law *law, const char *name, double *value, impactfit_error *err);
/* The scale of parameter i of law for an impact of mass M at speed v (type->param_scale), or NaN when
 * there is none (no hook, or it gives no finite positive value). */
IMPACTFIT_EXPORT double impactfit_law_param_scale(const impactfit_law *law, int i, double mass, double v);

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
  double t_max;                           /* bound on the contact, in units of L/v (default 0: 1e5; a law with
                                             its own solver: that solver's, impact.h's 1e4 max(1, ζ)) */
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
