/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — one direct central impact through a continuous contact element.
 *
 * Equation (docs/MODEL.md §1): penetration δ(t) of two bodies of effective mass `mass` that meet with
 * approach velocity v,
 *
 *     mass δ'' + f = mass·accel,    f = k δ^n + c δ^m δ',    δ(0) = 0, δ'(0) = v,
 *
 * (accel = 0 for a free impact; accel > 0 presses the bodies together, e.g. gravity on a ball
 * bouncing on the ground). Units: k in N/m^n, c in N·s·m^-(m+1), mass in kg, v in m/s, time in s.
 * m = 0 is a linear (viscous) damper, m = n is Hunt–Crossley with λ = c.
 *
 * The contact begins and ends according to a transition condition (Jönsson, Bathelt & Broman 2005):
 *   A  contact while δ > 0: starts and ends at δ = 0; a tensile force may act at the end.
 *   B  contact while f > 0, the element being extended to δ < 0 as f = −k|δ|^n + c|δ|^m δ':
 *      for m < n the contact starts before the bodies touch, at δ = −(c v / k)^(1/(n−m)).
 *   C  starts at δ = 0, ends when f falls to 0 (no tensile force). The default. With accel > 0 a
 *      body that separated at δ > 0 may turn back before leaving the element; the next contact
 *      then starts where f rises through 0 again (at δ > 0, the bodies still parting slightly).
 *   D  as C; after separation the element relaxes by itself (0 = c x^m x' + k x^n) and the next
 *      contact starts when the bodies meet the relaxing surface (needs accel > 0 and max_contacts > 1
 *      to matter: in a free impact the bodies never meet again).
 *
 * Internally the problem is solved in the scaled variables of docs/MODEL.md §2,
 *     x = δ/δ_m0, τ = t v/δ_m0, δ_m0 = [(n+1) mass v² / (2k)]^(1/(n+1)),
 *     x'' + ζ x^m x' + ((n+1)/2) x^n = γ,   ζ = c δ_m0^(m+1) / (mass v),   γ = accel δ_m0 / v²,
 * so e_out depends on (n, m, ζ, γ, transition) only and the accuracy does not depend on the units.
 * The integrator is GSL's rk8pd (Dormand–Prince 8(7)); near δ = 0, where δ^n is not smooth, the
 * solution is continued by a generalised power series instead of tiny steps; every event (maximum
 * penetration, peak force, separation, re-contact) is located by root finding on its event function
 * along the integrator's own solution (or along the series), to a few units of double rounding.
 * Accuracy: e_out, δ_max, t_contact agree with the exact solutions (undamped Hertz, Kelvin–Voigt,
 * Hunt–Crossley) to about 1e-12 relative over the seeds' ranges (see tests/test_impact.c). Against
 * an independent quad-precision reference (src/reference/, docs/ACCURACY.md), the largest errors
 * over random cases (n ∈ [1, 3], m ∈ [0, 2], ζ ≤ 300, A–D) and directed ones on the box's edges
 * (m → 0⁺, m → n from both sides, ζ from 1e-6 to 1000), times 1.5 and rounded up to two digits, as
 * `impactfit reproduce --topic accuracy` measures them (generated/accuracy.h, IMPACTFIT_ACCURACY_*):
 * |Δe_out| ≤ 2.0e-12 max(e, 0.01); t_contact ≤ 1.8e-12 (1 + ζ/e) relative (the end, at speed e,
 * moves by the state error times ζ/e: ~1e-8 for Kelvin–Voigt under C at e ≈ 1e-4); f_max ≤ 6.5e-14,
 * f_min ≤ 9.1e-14 and δ_max ≤ 3.8e-14 relative to the scale of the motion; δ_sep ≤ 4.8e-12 (1 + ζ) δ_m0;
 * the times of f_max and δ_max (flat maxima) ≤ 1.4e-10 and 3.8e-08 of t_contact.
 */
#ifndef IMPACTFIT_IMPACT_H
#define IMPACTFIT_IMPACT_H

#include <stddef.h>

#include "impactfit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A transition condition: constant type objects, compared by address. */
typedef struct impactfit_transition {
  const char *name;    /* "A", "B", "C", "D" */
  const char *summary; /* one line */
  int start_on_force;  /* contact starts where the (extended) element force becomes positive (B) */
  int end_on_force;    /* contact ends where the element force falls to zero (B, C, D) */
  int relax_element;   /* the element relaxes by itself after separation (D) */
} impactfit_transition;

IMPACTFIT_EXPORT extern const impactfit_transition *const impactfit_transition_A;
IMPACTFIT_EXPORT extern const impactfit_transition *const impactfit_transition_B;
IMPACTFIT_EXPORT extern const impactfit_transition *const impactfit_transition_C;
IMPACTFIT_EXPORT extern const impactfit_transition *const impactfit_transition_D;
/* Looks a condition up by name ("A".."D", case-insensitive); NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_transition *impactfit_transition_from_name(const char *name);

#define IMPACTFIT_MAX_CONTACTS 256

typedef struct impactfit_impact_params {
  double n;                               /* spring exponent, > 0 (the papers use 1 ≤ n ≤ 2) */
  double m;                               /* damping exponent, ≥ 0 */
  double k;                               /* stiffness, > 0 */
  double c;                               /* damping coefficient (c, or λ for Hunt–Crossley), ≥ 0 */
  double mass;                            /* effective mass m_i m_j / (m_i + m_j), > 0 */
  double v;                               /* approach velocity just before impact, > 0 */
  double accel;                           /* constant acceleration pressing the bodies together, ≥ 0; default 0 */
  const impactfit_transition *transition; /* default impactfit_transition_C */
  int max_contacts;                       /* contacts to follow, 1..IMPACTFIT_MAX_CONTACTS; > 1 needs accel > 0 */
  double t_max;                           /* time bound in units of δ_m0 / v: ENOSEP beyond it; default 0 =
                         automatic, 1e4 max(1, ζ) (a heavily damped creep takes a time ∝ ζ) */
  double rtol;                            /* integrator tolerance on the scaled state (default 1e-13) */
  int series;                             /* 1 (default): power-series start and end at δ = 0; 0: integrate only */
  int locate_extrema; /* 1 (default): locate δ_max and the force extrema; 0: skip (inverse solvers) */
} impactfit_impact_params;

/* Defaults: n = 1.5, m = 0, k = mass = v = 1, c = 0, accel = 0, condition C, one contact. */
IMPACTFIT_EXPORT impactfit_impact_params impactfit_impact_default_params(void);

/* Parameters of the scaled problem itself: mass = v = 1, k = (n+1)/2 (so δ_m0 = 1) and c = ζ. */
IMPACTFIT_EXPORT impactfit_impact_params impactfit_impact_scaled_params(double n, double m, double zeta);

/* Scales of the problem: δ_m0 (m), the time scale δ_m0/v (s), the force scale mass v²/δ_m0 (N),
 * ζ and γ. Any output may be NULL. Returns EINVAL for invalid parameters. */
IMPACTFIT_EXPORT int impactfit_impact_scales(const impactfit_impact_params *p, double *delta_m0, double *time_scale,
                                             double *force_scale, double *zeta, double *gamma, impactfit_error *err);

/* One contact of a simulation (the first is contact 0). */
typedef struct impactfit_contact {
  double t_start, t_end;         /* s */
  double delta_start, delta_end; /* penetration at the start and end of contact, m */
  double v_in, v_out;            /* δ' at the start and −δ' at the end, m/s (v_in < 0 when a C
                                    contact restarts at δ > 0 before the bodies have parted) */
  double f_start, f_end;         /* contact force just after the start / just before the end, N */
  double element_start;          /* compression of the element when the contact starts (D), m */
  int ended;                     /* 0: a resting contact still open at the time bound (the end
                                    fields then hold the state at the bound) */
} impactfit_contact;

typedef struct impactfit_impact_result {
  double e_out;          /* −δ'(t_s)/v at the end of the first contact */
  double t_contact;      /* duration of the first contact, s */
  double f_max;          /* largest contact force during the first contact, N */
  double t_fmax;         /* time of f_max, s (0 when it is the jump at the start, m = 0) */
  double f_min;          /* smallest contact force during the first contact (< 0: tensile), N */
  double delta_max;      /* maximum penetration, m */
  double t_delta_max;    /* its time, s */
  double delta_start;    /* penetration when contact starts (< 0 under B), m */
  double delta_sep;      /* penetration at separation (> 0 under B, C, D with m < n), m */
  double f_start, f_end; /* force just after the start / just before the end of contact, N */
  double damping_work;   /* energy dissipated by the damper during the first contact, J */
  double energy_error; /* |½mass(v_in² − v_out²) + mass·accel·Δδ − W_damp − ΔU_spring| / (½ mass v²) */
  double zeta, gamma, delta_m0; /* the scaled problem's parameters and length scale */
  long rhs_evals;               /* right-hand-side evaluations (all contacts) */
  long steps;                   /* accepted integrator steps (all contacts) */
  int n_contacts;               /* contacts started; all but possibly the last have ended */
} impactfit_impact_result;

typedef struct impactfit_impact_workspace impactfit_impact_workspace;

/* A workspace holds the integrator and series storage; one per thread, reused for every impact. */
IMPACTFIT_EXPORT impactfit_impact_workspace *impactfit_impact_alloc(void);
IMPACTFIT_EXPORT void impactfit_impact_free(impactfit_impact_workspace *ws); /* NULL is a no-op */

/* Simulates the impact. Returns 0, or EINVAL (invalid parameters), ENOSEP (the first contact does
 * not end before t_max: e.g. condition A with strong damping, where the bodies never separate; also
 * when, under A without accel and with n ≥ 1, m ≤ (n − 1)/2, the state proves that δ can no longer
 * reach 0, and when a contact needs more than 4e6 integrator steps, about 10 s: a creep too slow to
 * follow), ENONFINITE, ESTEP. With max_contacts > 1, the simulation follows further contacts until
 * max_contacts have started or t_max is reached; a later contact that does not end before t_max
 * (the bodies come to rest) is recorded with ended = 0 and is not an error. When the first contact
 * fails (ENOSEP, ENONFINITE, ESTEP), res holds zeros except zeta, gamma, delta_m0 and the cost of
 * the attempt (rhs_evals, steps). */
IMPACTFIT_EXPORT int impactfit_impact_solve(impactfit_impact_workspace *ws, const impactfit_impact_params *p,
                                            impactfit_impact_result *res, impactfit_error *err);

/* Contact i (0 ≤ i < res.n_contacts) of the last solve; EINVAL when out of range. */
IMPACTFIT_EXPORT int impactfit_impact_contact(const impactfit_impact_workspace *ws, int i, impactfit_contact *out);

/* A result as a row of the sweep problem "impact" (sweep.h; one impactfit_impact_solve per point),
 * whose outputs are, in column order, the members e_out, t_contact, f_max, t_fmax, f_min, delta_max,
 * t_delta_max, delta_start, delta_sep, f_start, f_end, damping_work, energy_error, zeta, delta_m0,
 * steps and n_contacts (column "n_contacts"): IMPACTFIT_IMPACT_ROW values. */
#define IMPACTFIT_IMPACT_ROW 17
/* Writes those members of r to out[0 .. IMPACTFIT_IMPACT_ROW) in that order. */
IMPACTFIT_EXPORT void impactfit_impact_result_to_row(const impactfit_impact_result *r, double *out);
/* The inverse: a row of problem "impact" and the point's right-hand-side evaluations (which the
 * sweep runner reports beside the outputs) as a result; gamma, not an output, is set to 0. */
IMPACTFIT_EXPORT void impactfit_impact_result_from_row(const double *out, long rhs_evals, impactfit_impact_result *r);

/* A point of a trajectory. */
typedef struct impactfit_trace_point {
  double t, delta, delta_dot; /* s, m, m/s */
  double force;               /* contact force, N (0 out of contact) */
  double element;             /* compression of the element, m (D: relaxing; others: δ or 0) */
  int in_contact;
} impactfit_trace_point;

typedef int (*impactfit_trace_fn)(void *ctx, const impactfit_trace_point *pt);

/* Solves as impactfit_impact_solve, then samples the motion at `points` ≥ 2 equally spaced times from
 * 0 to the end of the last contact (plus the same span again after it when max_contacts > 1 left
 * time), calling fn for each; a non-zero return from fn stops and is returned. Each sample is computed
 * on the solution itself (the integrator lands on the sample time), not interpolated. */
IMPACTFIT_EXPORT int impactfit_impact_trace(impactfit_impact_workspace *ws, const impactfit_impact_params *p,
                                            size_t points, impactfit_trace_fn fn, void *ctx,
                                            impactfit_impact_result *res, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_IMPACT_H */
