/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — multibody examples: a 1-D chain of masses on a contact element (the vibratory roller of
 * Jönsson, Bathelt & Broman 2005) and two impacting pendulums (Poursina & Nikravesh 2020, §6).
 *
 * ---- 1-D system (impactfit_mb1d_*) --------------------------------------------------------------
 * x is up; every mass moves vertically. Masses i = 0..N−1 (N ≤ IMPACTFIT_MB1D_MAX_MASSES) are joined
 * by links (a linear spring k in parallel with a viscous damper c, free length d) to each other or to
 * the fixed ground; gravity g acts on every mass; one mass carries the harmonic excitation
 * F_amp sin(ω t) (positive up, switched on at t = 0); one mass rests on a fixed surface at x = 0
 * through the contact element
 *
 *     F_f = k s(δ) + c δ',    δ = −x_contact (penetration),    s(δ) = sgn(δ)|δ|^n, n ≥ 1,
 *
 * which pushes the mass up with F_c = F_f while the contact is active and not at all otherwise. The
 * transition condition (impact.h, Jönsson et al.) decides when it is active:
 *   A  while δ > 0 (starts and ends at δ = 0; F_f < 0, adhesion, is possible at the end);
 *   B  while F_f > 0, the element extended to δ < 0 (starts before touching: force without touching);
 *   C  starts at δ = 0, ends when F_f falls to 0; if the mass comes back while still at δ > 0 (it
 *      turned before leaving the undeformed level) the contact restarts where F_f rises through 0
 *      (the element compression is δ, as C assumes);
 *   D  as C, but after separation the element relaxes by itself, 0 = c x_f' + k x_f^n from
 *      x_f(t⁺) = δ(t⁺) (for n = 1: x_f = x_f⁺ exp(−(k/c)(t − t⁺))), and the next contact starts where
 *      the mass meets the relaxing surface, δ = x_f.
 * The relaxing compression x_f is integrated with the masses; every transition is the root of its
 * event function (δ, F_f or δ − x_f) along the integrator's own solution (GSL rk8pd, Brent's method),
 * a pair of roots inside one step being caught through the event function's extremum. Accuracy
 * (default rtol 1e-11 on the state scaled by L and V below): a mass dropped on the element under
 * A–D agrees with the impact engine to ~2e-14 s in every transition time and ~2e-13 of the
 * approach speed in the rebound speeds (tests/test_multibody.c).
 *
 * Steady state: the state is sampled once per excitation period, at t = jT (T = 2π/ω, the phase at
 * which the excitation crosses zero upwards). The motion is taken as periodic with multiplicity q (the
 * smallest q ≤ max_multiplicity) once the last q samples each repeat the sample q periods earlier:
 *     max_i |s_j,i − s_{j−q},i| / scale_i ≤ ss_tol   for j = J−q+1..J,
 * over the positions and the element compression (scale L) and velocities (scale V), with equal
 * contact flags, where L = max((W/k)^(1/n), (F_amp/k)^(1/n)) is the deflection of the contact element
 * under the total weight W or the excitation amplitude and V = L·max(ω, √(k L^(n−1)/m_contact)), and
 * the transient has died out: with d_J that maximum and ρ = d_J/d_{J−q} its decay over q periods, the
 * remaining distance from the periodic orbit, about d_J ρ/(1 − ρ), must be below ss_tol too
 * (d_J/(1 − ρ) ≤ ss_tol, or d_J ≤ ss_tol/100). Without this a slowly decaying alternating transient
 * would pass for period 2. For the same reason q is accepted only if the samples of every proper
 * divisor q' of q are still far apart (d_q' > 1000·ss_tol): the phases of a genuine period-q orbit
 * differ by O(1), not by a residue of the transient. Then record_periods further periods are
 * simulated and described (impactfit_mb1d_period).
 *
 * ---- Two pendulums (impactfit_pendulum_*) ---------------------------------------------------------
 * Two uniform rods of negligible thickness (masses m1, m2, lengths L1, L2) hang from fixed pivots on
 * one horizontal line, O1 = (0, 0) and O2 = (−a, 0); angles θ1, θ2 are measured from the downward
 * vertical, counter-clockwise positive, so rod i points along u_i = (sin θi, −cos θi). The paper's
 * figure is not available in the text; these are our assumptions: with its initial state θ1 = π/12,
 * θ2 = −π/2 the rods start pointing away from each other (rod 2 horizontal) and swing together. For
 * L1 ≥ a + L2 (required; the paper's 6 ≥ 2 + 4) the tip of rod 1 cannot reach rod 2 (|P1 − O2| ≥ L1 − a),
 * so the contact is the tip of rod 2, P2 = O2 + L2 u2, against the side of rod 1: with
 * n1 = (cos θ1, sin θ1), φ = θ2 − θ1,
 *     δ = (P2 − O1)·n1 = L2 sin φ − a cos θ1            (penetration, > 0 past rod 1's line),
 *     ℓ = (P2 − O1)·u1 = L2 cos φ − a sin θ1            (contact point's distance from O1),
 *     δ' = −ℓ θ1' + L2 cos φ θ2',
 * and a contact counts only where 0 ≤ ℓ ≤ L1. The normal contact force f (frictionless) enters the
 * equations of motion through the generalized forces Q = −f ∂δ/∂θ, i.e. Q1 = f ℓ, Q2 = −f L2 cos φ:
 *     I_i θi'' = −m_i g (L_i/2) sin θi + Q_i,    I_i = m_i L_i²/3.
 * The effective mass at the contact point is mass = 1/(ℓ²/I1 + L2² cos²φ/I2). Impact models:
 *   impulse  piecewise impulse–momentum method: at δ = 0 the impulse P = (1 + e) mass δ'⁻ changes the
 *            angular velocities by ℓP/I1 and −L2 cos φ P/I2, so that δ'⁺ = −e δ'⁻ exactly;
 *   copt     continuous f = k δ^n + c δ' with condition C and the exact damping c_opt of the impact
 *            (mass and δ'⁻ at the contact point when it starts) that makes a free impact rebound with
 *            e (Poursina–Nikravesh's model with the inverse solved instead of their fit, Eq. (49));
 *   flores   Hunt–Crossley f = k δ^n + λ δ^n δ' with Flores et al.'s λ = 8(1 − e) k / (5 e δ'⁻).
 * Energy E = Σ ½ I_i θi'² − m_i g (L_i/2) cos θi is conserved between impacts.
 */
#ifndef IMPACTFIT_MULTIBODY_H
#define IMPACTFIT_MULTIBODY_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================ 1-D system ================================================= */

#define IMPACTFIT_MB1D_MAX_MASSES 8
#define IMPACTFIT_MB1D_MAX_LINKS 16
#define IMPACTFIT_MB1D_MAX_RECORD 4096 /* steady-state periods that can be recorded */

/* A spring k (N/m) and damper c (N s/m) in parallel between mass i (below, or −1 for the fixed
 * ground at x = 0) and mass j (above), free length d (m): the force on j is
 * −k (x_j − x_i − d) − c (x_j' − x_i'), and the opposite acts on i. */
typedef struct impactfit_mb1d_link {
  int i, j;
  double k, c, d;
} impactfit_mb1d_link;

typedef struct impactfit_mb1d_system {
  int n_masses;
  double mass[IMPACTFIT_MB1D_MAX_MASSES]; /* kg, > 0 */
  int n_links;
  impactfit_mb1d_link link[IMPACTFIT_MB1D_MAX_LINKS];
  double g;            /* gravity (m/s², ≥ 0), acting downwards */
  int excited;         /* mass carrying F_amp sin(ω t), or −1 */
  double f_amp, omega; /* N (≥ 0), rad/s (> 0: also the period of the steady-state analysis) */
  int contact_mass;    /* the mass on the contact element */
  double k, c, n;      /* contact element F_f = k s(δ) + c δ': N/m^n (> 0), N s/m (≥ 0), n ≥ 1 */
  const impactfit_transition *transition; /* A, B, C or D */
} impactfit_mb1d_system;

/* Jönsson et al.'s vibratory roller (docs/MODEL.md §6; the paper's Table 2): mass 0 is the drum
 * (m2 = 2000 kg, carries the excitation F_ω sin(ωt), F_ω = 58.8 kN, and rests on the soil through
 * the contact element), mass 1 the frame (m3 = 1000 kg) joined to the drum by k23 = 1e6 N/m,
 * c23 = 1e4 N s/m, free length d = 0.5 m (the paper gives none; d only shifts the frame's
 * position), g = 9.81 m/s². The drum's position is that of its lowest point (0: touching the
 * undeformed soil).
 * case_no 1..4 selects (k, c, ω) = (5e6, 8e4, 40π), (2e8, 5.06e5, 40π), (2e8, 5.06e5, 80π),
 * (2e8, 2.53e6, 80π); c = 2D√(m2 k) with D = 0.4, 0.4, 0.4, 2.0 as printed (rounded) in the paper.
 * Returns 0 or EINVAL. */
IMPACTFIT_EXPORT int impactfit_mb1d_roller(int case_no, const impactfit_transition *tr, impactfit_mb1d_system *sys,
                                           impactfit_error *err);

/* The excitation period T = 2π/ω of a system, in s (the period of its steady-state analysis); NaN
 * when ω is not > 0. */
IMPACTFIT_EXPORT double impactfit_mb1d_excitation_period(const impactfit_mb1d_system *sys);

/* Checks a system: 0 or EINVAL with the reason. */
IMPACTFIT_EXPORT int impactfit_mb1d_check(const impactfit_mb1d_system *sys, impactfit_error *err);

/* State of the system. `element` is the compression of the contact element: δ while in contact,
 * the relaxing x_f out of contact under D, 0 otherwise. */
typedef struct impactfit_mb1d_state {
  double t;
  double x[IMPACTFIT_MB1D_MAX_MASSES], v[IMPACTFIT_MB1D_MAX_MASSES];
  int in_contact;
  double element;
} impactfit_mb1d_state;

/* Static equilibrium at rest with the excitation off (t = 0): solves the force balance with GSL's
 * hybridsj (the contact force k δ^n where δ > 0). Returns 0, EINVAL (no equilibrium: a mass is not
 * held by any link or the contact) or ENOCONV. */
IMPACTFIT_EXPORT int impactfit_mb1d_equilibrium(const impactfit_mb1d_system *sys, impactfit_mb1d_state *out,
                                                impactfit_error *err);

/* A point reported to a callback: a sample (kind 0) or one side of a transition (kind 1: contact
 * starts, kind 2: contact ends; reported twice at the same t, first with the state and forces before,
 * then after the switch). */
typedef struct impactfit_mb1d_point {
  int kind;
  double t;                            /* s */
  double x[IMPACTFIT_MB1D_MAX_MASSES]; /* m */
  double v[IMPACTFIT_MB1D_MAX_MASSES]; /* m/s */
  double a[IMPACTFIT_MB1D_MAX_MASSES]; /* m/s² */
  double force;                        /* contact force on the contact mass, N (0 out of contact) */
  double delta;                        /* penetration −x_contact, m */
  double element;                      /* compression of the element, m */
  int in_contact;
} impactfit_mb1d_point;

typedef int (*impactfit_mb1d_fn)(void *ctx, const impactfit_mb1d_point *pt);

typedef struct impactfit_mb1d_params {
  double rtol;          /* integrator tolerance relative to the scales L, V (default 1e-11) */
  double ss_tol;        /* steady-state tolerance (default 1e-8) */
  int max_periods;      /* periods simulated at most before a steady state (default 20000) */
  int max_multiplicity; /* largest period multiplicity looked for (default 8) */
  int record_periods;   /* steady-state periods described (default 0: twice the multiplicity) */
  int trace_points;     /* samples per excitation period passed to fn (0: transitions only) */
  impactfit_mb1d_fn fn; /* optional callback: samples and transitions (steady: recorded periods only) */
  void *ctx;
} impactfit_mb1d_params;

IMPACTFIT_EXPORT impactfit_mb1d_params impactfit_mb1d_default_params(void);

/* What happened in one excitation period [t_start, t_start + T). */
typedef struct impactfit_mb1d_period {
  double t_start;                     /* s */
  int contact_starts, contact_losses; /* transitions in the period */
  double contact_fraction;            /* time with the contact active / T */
  double touch_fraction;              /* time with δ > 0 (the mass below the undeformed surface) / T */
  double untouched_force_fraction;    /* time with the contact active while δ < 0 (B) / T */
  double a_max, a_min;                /* extremes of the contact mass's acceleration, m/s² */
  double f_max, f_min;                /* extremes of the contact force while active, N (f_min < 0: tensile);
                                0 when the contact is never active */
  double delta_max, delta_min;        /* extremes of the penetration δ, m */
} impactfit_mb1d_period;

typedef struct impactfit_mb1d_result {
  int multiplicity;       /* q: the steady state repeats after q periods */
  int transient_periods;  /* periods simulated until the steady state was detected */
  double distance;        /* max scaled distance of a sample from the one q periods earlier, over the
                              detection and the recorded periods */
  double error_estimate;  /* scaled distance of the detected state from the periodic orbit,
                              estimated as d/(1 − ρ) (see the header comment) */
  double period_contrast; /* max scaled distance between consecutive period samples while
                              recorded: ~0 for q = 1, the size of the period-q alternation else */
  int n_periods;          /* recorded steady-state periods */
  /* summary over the recorded periods */
  double losses_per_period;            /* contact losses per excitation period (mean) */
  double contact_fraction;             /* mean */
  double touch_fraction;               /* mean */
  double a_max, a_min;                 /* m/s² */
  double f_max, f_min;                 /* N */
  int tensile;                         /* 1: a tensile (adhesive) contact force acted (f_min < 0) */
  int untouched_force;                 /* 1: a contact force acted while the mass was off the surface */
  double delta_max, delta_min;         /* m */
  double length_scale, velocity_scale; /* L, V of the tolerances */
  long steps, rhs_evals;
} impactfit_mb1d_result;

typedef struct impactfit_mb1d_workspace impactfit_mb1d_workspace;

IMPACTFIT_EXPORT impactfit_mb1d_workspace *impactfit_mb1d_alloc(void);
IMPACTFIT_EXPORT void impactfit_mb1d_free(impactfit_mb1d_workspace *ws); /* NULL is a no-op */

/* Integrates from *state to t_end (> state->t), reporting samples every T/trace_points from the
 * start time (if trace_points > 0) and every transition to p->fn. *state is updated to the end. Per
 * period statistics are not kept. Returns 0, EINVAL, ENONFINITE, ESTEP, ENOCONV (event location or
 * more than 1e5 transitions per period: chattering), or the callback's non-zero return. */
IMPACTFIT_EXPORT int impactfit_mb1d_simulate(impactfit_mb1d_workspace *ws, const impactfit_mb1d_system *sys,
                                             const impactfit_mb1d_params *p, impactfit_mb1d_state *state, double t_end,
                                             impactfit_error *err);

/* From the static equilibrium at t = 0 with the excitation switched on, runs to the periodic steady
 * state (see the header comment) and records p->record_periods periods after it. Returns 0, EINVAL,
 * ENOCONV (no periodic steady state of multiplicity ≤ max_multiplicity within max_periods), or the
 * errors of impactfit_mb1d_simulate. */
IMPACTFIT_EXPORT int impactfit_mb1d_steady(impactfit_mb1d_workspace *ws, const impactfit_mb1d_system *sys,
                                           const impactfit_mb1d_params *p, impactfit_mb1d_result *res,
                                           impactfit_error *err);

/* Recorded period i (0 ≤ i < res.n_periods) of the last impactfit_mb1d_steady; EINVAL when out of range. */
IMPACTFIT_EXPORT int impactfit_mb1d_period_get(const impactfit_mb1d_workspace *ws, int i, impactfit_mb1d_period *out);

/* ================================ two pendulums =============================================== */

/* An impact model: constant type objects compared by address. */
typedef struct impactfit_pendulum_model {
  const char *name; /* "impulse", "copt", "flores" */
  const char *summary;
} impactfit_pendulum_model;

IMPACTFIT_EXPORT extern const impactfit_pendulum_model *const impactfit_pendulum_impulse;
IMPACTFIT_EXPORT extern const impactfit_pendulum_model *const impactfit_pendulum_copt;
IMPACTFIT_EXPORT extern const impactfit_pendulum_model *const impactfit_pendulum_flores;
/* Looks a model up by name (case-sensitive); NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_pendulum_model *impactfit_pendulum_model_from_name(const char *name);

#define IMPACTFIT_PENDULUM_MAX_IMPACTS 1024

typedef struct impactfit_pendulum_point {
  int kind;                              /* 0 sample, 1 contact starts, 2 contact ends (the impulse method reports
                           1 before and 2 after the impulse, at the same t) */
  double t;                              /* s */
  double theta1, theta2, omega1, omega2; /* rad, rad/s */
  double delta, delta_dot;               /* penetration (m) and its rate (m/s) */
  double force;                          /* contact force, N (0 out of contact) */
  double energy;                         /* E (J), plus the spring's k δ^(n+1)/(n+1) in contact */
  int in_contact;
} impactfit_pendulum_point;

typedef int (*impactfit_pendulum_fn)(void *ctx, const impactfit_pendulum_point *pt);

typedef struct impactfit_pendulum_params {
  double m1, m2, L1, L2, a, g;           /* kg, kg, m, m, m, m/s² */
  double theta1, theta2, omega1, omega2; /* initial state, rad and rad/s */
  double e, n, k;                        /* restitution (0 < e ≤ 1), Hertz exponent, N/m^n */
  const impactfit_pendulum_model *model;
  double t_end;     /* s */
  double rtol;      /* integrator tolerance (default 1e-12) */
  double sample_dt; /* > 0: a sample to fn every sample_dt seconds */
  impactfit_pendulum_fn fn;
  void *ctx;
} impactfit_pendulum_params;

/* Defaults: the paper's system, m1 = 1 kg, m2 = 0.2 kg, L1 = 6 m, L2 = 4 m, a = 2 m, g = 9.81,
 * θ1 = π/12, θ2 = −π/2 at rest, e = 0.3, n = 1.5, k = 1e8 N/m^1.5, model impulse, t_end = 8 s. */
IMPACTFIT_EXPORT impactfit_pendulum_params impactfit_pendulum_default_params(void);

typedef struct impactfit_pendulum_impact {
  double t_start, t_end;   /* s (equal for the impulse method) */
  double v_in, v_out;      /* δ' at the start and −δ' at the end, m/s */
  double e_eff;            /* v_out / v_in: the restitution the impact really produced */
  double mass;             /* effective mass at the contact point at the start, kg */
  double lever;            /* ℓ at the start, m */
  double c;                /* damping used: c_opt (copt, N s/m), λ (flores), 0 (impulse) */
  double delta_max, f_max; /* m, N (continuous models) */
  double omega1_before, omega2_before, omega1_after, omega2_after; /* rad/s */
  double energy_before, energy_after; /* the rods' energy E just before and after (J); the energy
                                         the element still holds at separation is not the rods' */
  int ended;                          /* 0: the contact was still open at t_end (the "after" fields then
                                 hold the state at t_end) */
} impactfit_pendulum_impact;

typedef struct impactfit_pendulum_result {
  int n_impacts;
  double energy_start, energy_end;       /* J */
  double theta1, theta2, omega1, omega2; /* state at t_end */
  double max_energy_drift;               /* largest |E − E after the last impact| between impacts, at the
                                integrator's steps, relative to Σ m_i g L_i/2 + the initial
                                kinetic energy */
  long steps, rhs_evals;
} impactfit_pendulum_result;

typedef struct impactfit_pendulum_workspace impactfit_pendulum_workspace;

IMPACTFIT_EXPORT impactfit_pendulum_workspace *impactfit_pendulum_alloc(void);
IMPACTFIT_EXPORT void impactfit_pendulum_free(impactfit_pendulum_workspace *ws); /* NULL: no-op */

/* Simulates from t = 0 to t_end. Returns 0, EINVAL (also when the initial state has δ ≥ 0), ENOCONV
 * (c_opt or event location), ENONFINITE, ESTEP, or the callback's non-zero return. */
IMPACTFIT_EXPORT int impactfit_pendulum_simulate(impactfit_pendulum_workspace *ws, const impactfit_pendulum_params *p,
                                                 impactfit_pendulum_result *res, impactfit_error *err);

/* Impact i (0 ≤ i < res.n_impacts) of the last simulation; EINVAL when out of range. */
IMPACTFIT_EXPORT int impactfit_pendulum_impact_get(const impactfit_pendulum_workspace *ws, int i,
                                                   impactfit_pendulum_impact *out);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_MULTIBODY_H */
