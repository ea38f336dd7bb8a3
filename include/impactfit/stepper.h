/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — an engine's own time stepping of one head-on contact, and the restitution it gives.
 *
 * At the time steps people run, a simulation code's integrator changes the restitution its contact
 * law would give in continuous time (law.h): MuJoCo's semi-implicit Euler takes the force at the
 * step's start, its RK4 detects contact anew at every stage, ODE and Bullet solve their contact
 * rows implicitly, Bullet applies restitution only above velocity thresholds. A stepper is a
 * constant type object (the one-step map of a code, written as its source computes it, for one
 * body of effective mass M approaching a contact head-on) plus its settings: the law it
 * discretises (where it has one), the end condition of that law (C: force clamped at zero, A: not),
 * M, the step dt and the stepper's own parameters. Anyone can define a stepper type in their own code;
 * every function below works with it.
 *
 * The state of a step is the penetration x = δ (m; < 0: a gap) and its rate u = δ' (m/s; > 0:
 * approaching). One impact starts in free flight at x = (φ − J) v dt, u = v, J whole steps before
 * the first step start with x > 0 (J = 2 plus the steps the engine reaches ahead, reach/(v dt)),
 * so that without a force the first step start after touching has x = φ v dt: the phase φ ∈ (0, 1]
 * says where the first contact step falls. The impact ends when a step leaves x ≤ 0, u < 0 and
 * applied no force; e = −u/v then. It also ends, with e = max(0, −u/v), after a step with no force that
 * left the state (x, u, memory) exactly unchanged (a fixed point of the map: the bodies rest for good), or
 * left a gap that the approach speed would not close within 1e4 steps (a row acting before touching
 * stopped the body short: the bodies stick, as when no separation comes within 1e6 steps). e(φ) is
 * piecewise smooth: it or a derivative jumps where the
 * sequence of steps in contact changes, or the branches a stepper's rules take (clamps, thresholds),
 * or the side of a knot of the law (its switches) at a state where the force is evaluated: a step's
 * `branch` records all of them (the built-ins: contact, clamp and switch sides of every force
 * evaluation). The phase statistics find those points (the signature of each step sequence) on 66
 * samples of φ and by bisection, to 2e-15/|jump| where e jumps and to about √(1e-15/|e'|) where e is continuous
 * and only a derivative jumps (the mean's error from a break's place is below 1e-15 either way), then
 * integrate e(φ) over each smooth piece with 4-point Gauss–Legendre quadrature on the piece and its
 * halves where they agree to 1e-14 per unit of φ (12 impacts; once a piece's 4-point rules disagree, the
 * statistics' other pieces start with the next rule), else 8-point on the piece and its halves where they
 * agree to 1e-12 per unit of φ, else adaptively in Sidi's variable t (φ = a + w t⁴(35 −
 * 84t + 70t² − 20t³)), which makes the fractional powers of φ − a at a piece's end smooth (laws with δ^p,
 * p < 1: the first or last contact step starts at a penetration → 0), so the mean over a uniformly
 * distributed φ is exact to about 1e-13 and a continuous function of the stepper's parameters (the
 * inverse solves for it). Jumps closer together than 1/66 in φ whose signatures agree at the samples would
 * be missed. Two degenerate cases take other rules: where every sample's e lies within 1e-14 of the others
 * (an engine's restitution 0, whose contact ends at a rounding-level speed, each phase through another
 * sequence of branches), an unknown slope is the samples' spread over their spacing and a bracket's
 * bisection stops at any width once its bound on the mean's error is below 1e-17; where the signature
 * changes between at least 3/4 of the samples' neighbours (DART's push-out at maxERV, whose number of
 * steps changes with φ while e stays linear or constant), or the bisection finds more than 4096 changes,
 * the breaks are placed by e alone: a bracket is split at its midpoint until e there lies on the chord of
 * its ends to 1e-15. e_min and e_max are the extremes of every e evaluated, e(1 − 2^-40) included (the limit φ →
 * 1⁻ of an e that rises to the end of the step). tests/test_stepper.c compares the mean with a
 * 40000-point midpoint rule, tests/codes/test_mujoco.c with GSL's adaptive quadrature on pieces found from
 * e's values (MuJoCo's law: within 3.5e-14), tests/test_engine_edges.c with qags on pieces bisected on the
 * signatures (Chrono's PlainCoulomb δ^(1/2) δ' and Hertz δ^(1/4) δ' dampings: within 2e-16; the
 * audit's quad-precision mean within 2e-16; Gauss–Legendre in φ was 2.0e-10 and 1.3e-11 off).
 *
 * The fast path of long contacts: an impact's cost does not grow with the steps of its long runs of one symbol
 * (a step's contact and branch) where (1) the step map is affine there (`affine`: n steps by the map's power,
 * src/law/step_fast.c; a run without force 1e6 steps a call, the next call at once), (2) the stepper is rk4 or Euler and its local error at dt, estimated from steps of 4^j dt,
 * bounds the error of the whole run by 1e-16 of the state's scale (rk4: steps of 1e-6 s and below on MuJoCo's
 * soft contact at 0.1 m/s; Euler: 1e-7 s): the run is the flow of the law's own field (rk4) or of Euler's modified
 * field (docs/ARCHITECTURE.md), integrated by GSL's rk8pd to 1e-15, to 16 steps before the first state where an
 * evaluation would see another symbol, then stepped, for runs of 4096 steps or more (tests/test_family.c: within
 * 3.7e-15 of the same map stepped in __float128 over contacts of 1.6e4-1.7e5 steps), or (3) the phase statistics'
 * family of reference impacts passes the other phases over its stretches (src/law/step_family.c; its references'
 * runs taken by (2) but for their heads and last steps), unless (2) took the check impact's runs with 200 times
 * fewer steps' work than their steps: steps and signatures stay those of the stepped map.
 *
 * Stability: the spectral radius of the step map linearised about each contact step's state (with
 * the law's ∂f/∂δ and ∂f/∂δ', for steppers that say how: `amplification`; in a step that starts within
 * one step's travel v·dt of δ = 0, a ∂f/∂δ more than ten times the slope of f over that travel, as laws
 * such as δ^m δ' with m < 1 have near δ = 0 where it is unbounded, is replaced by that slope: the step
 * does not see it); a radius above 1 + 1e-9 anywhere in the contact, or a single impact with e > 1
 * (a dissipative law never returns more than it got: the step made the energy), marks the step as
 * unstable, and impactfit_step_max_stable_dt finds the largest dt that is not (its probes stop at the first
 * impact that shows the step unstable; steps below 1e-4 of the contact time are not searched). The second condition
 * binds first: semi-implicit Euler on a linear spring-damper keeps its spectral radius below 1 up to
 * h² a + 2 h b = 4 but returns single impacts with e > 1 well before (e up to 2.05 at 0.97 of that step
 * for a damping ratio of 0.25); MuJoCo's default impedance law with timeconst 0.005, dampratio 0.1 has
 * e ≤ 1 at every phase only below 0.00067 s, against 0.000876 s for the spectral radius (measured in
 * MuJoCo itself: tests/engines/mujoco_impact.c). */
#ifndef IMPACTFIT_STEPPER_H
#define IMPACTFIT_STEPPER_H

#include <stddef.h>
#include <stdint.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"
#include "impactfit/law.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IMPACTFIT_STEPPER_MAX_PARAMS 12

/* The state between two steps. */
typedef struct impactfit_step_state {
  double x;      /* penetration δ at the step's start, m (< 0: a gap) */
  double u;      /* δ', m/s (> 0: approaching) */
  double f;      /* the normal force the last step applied (mean over the step: impulse/dt), N */
  int contact;   /* 1: the engine had a contact in the last step (a force, a constraint row) */
  int branch;    /* which branch of the engine's rules the last step took (a clamp, a threshold): the
                    stepper's own small integer, 0 for its plain branch */
  double mem[4]; /* the stepper's memory between steps (zero at the start) */
} impactfit_step_state;

struct impactfit_stepper;

/* A step that is affine in (x, u) while it keeps one branch (a run of such steps is taken at once, by the
 * power of the map: impactfit_stepper_type.affine): x' = x + B[0][0] x + B[0][1] u, u' = u + B[1][0] x +
 * B[1][1] u (B = A − I, the increments kept apart from the identity, so that a power of the map over many
 * steps is exact to rounding), valid wherever every form G[i][0] x + G[i][1] u + G[i][2] > 0 (i < n_forms)
 * holds at the step's start: the region where the step takes the branch it takes at the given state, its
 * contact and branch included. The force (the step's impulse over dt) is F[0] x + F[1] u + F[2] there. */
typedef struct impactfit_step_affine {
  double B[2][2];
  double G[4][3];
  int n_forms;
  double F[3];
  /* where nonzero (B zero, no force): each step adds exactly dx to x and leaves u, as the engine's own coordinate
   * arithmetic does (a drift on its grid, e.g. Bullet's stored position): n steps are x + n dx, to the bit */
  double dx;
  /* under gravity (a constant acceleration in every step): the map's fixed point, the state it leaves unchanged
   * (the body at rest on the contact): x' − X[0] = (x − X[0]) + B[0][0] (x − X[0]) + B[0][1] (u − X[1]), and so
   * for u; (0, 0) without gravity. The forms and the force stay in (x, u). */
  double X[2];
} impactfit_step_affine;

/* A stepper's type: a constant object, compared by address. */
typedef struct impactfit_stepper_type {
  const char *name;               /* "euler", "rk4", ... */
  const char *summary;            /* one line */
  int n_params;                   /* the stepper's own parameters, ≤ IMPACTFIT_STEPPER_MAX_PARAMS */
  const char *const *param_names; /* n_params names */
  const char *const *param_units; /* n_params units */
  int needs_law;                  /* 1: steps st->law (with st->end); 0: its own contact rule */
  /* EINVAL with a message when the settings are invalid (NULL: none beyond the common checks). */
  int (*check)(const struct impactfit_stepper *st, impactfit_error *err);
  /* Advances s by one step of st->dt: sets x, u, f, contact, branch. Returns 0 or a status. */
  int (*step)(const struct impactfit_stepper *st, impactfit_step_state *s);
  /* The gap (m, ≥ 0) at which the engine starts to act before the bodies touch, for approach speed v
   * (predictive contacts); NULL: 0. */
  double (*reach)(const struct impactfit_stepper *st, double v);
  /* The spectral radius of the step map for the linear force f = kl δ + bl δ' (N/m, N s/m), in
   * contact; NULL: not known (the stepper is then reported as stable unless e > 1). */
  double (*amplification)(const struct impactfit_stepper *st, double kl, double bl);
  /* The continuous-time law this stepper converges to as dt → 0, for steppers without one in
   * st->law (e.g. ODE's ERP/CFM made from a spring and a damper); NULL: none, or st->law. Returns 0
   * with *law and *end set, or a status. */
  int (*continuous)(const struct impactfit_stepper *st, impactfit_law *law, const impactfit_transition **end);
  /* Optional (NULL: none): 1 with *a when the step from s is affine in (x, u) (impactfit_step_affine) and the
   * engine's memory s->mem does not enter it (a later step recomputes it: the memory after a run taken at
   * once is that of its first step); 0 when not (a nonlinear force, gravity, a branch that depends on the
   * memory). Long runs of such steps are then taken at once (the header comment's fast path, (1)), and so is a long
   * free approach before the engine acts (a map with no force there: a predictive contact's reach). */
  int (*affine)(const struct impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a);
  /* Optional (NULL: none): where `affine` refuses (a step that rounds as the engine does), up to n_max further
   * steps from s (the state a step just left) that keep that step's branch and contact with no force, taken by the
   * type's own arithmetic without the generic per-step bookkeeping, each exactly as `step` would take it; stops
   * before the first step that would leave them. Returns the steps taken (s advanced by them). */
  long (*run)(const struct impactfit_stepper *st, impactfit_step_state *s, long n_max);
} impactfit_stepper_type;

/* A stepper's settings. A NULL type is continuous time: the code takes no fixed steps (its integrator
 * controls its error to an accuracy, Simbody's; or the question is the law's own e): st->law is
 * integrated exactly (law.h), dt is not used (any value, NaN included), an impact is one law.h solve at
 * every phase, the phase statistics are e_mean = e_min = e_max = e_continuous with one piece, and the
 * step is stable (largest stable dt inf). In the code registry (codes.h) such a stepper comes from an
 * integrator whose step map is NULL ("continuous"). */
typedef struct impactfit_stepper {
  const impactfit_stepper_type *type; /* NULL: continuous time */
  impactfit_law law;                  /* the law it discretises (type->needs_law) */
  const impactfit_transition *end;    /* impactfit_transition_C (force clamped at zero) or _A (default C) */
  double mass;                        /* effective mass M, kg */
  double dt;                          /* the time step, s */
  double p[IMPACTFIT_STEPPER_MAX_PARAMS];
  /* a constant acceleration (m/s²) of the bodies' approach, into the contact (gravity on a sphere over a
   * plane; 0: none), applied in every step as the engine applies gravity (its step's own rule); a law
   * whose force depends on it (MuJoCo's a0) carries it among its parameters too */
  double gravity;
} impactfit_stepper;

/* The built-in steppers (each steps st->law):
 * euler  semi-implicit (symplectic) Euler with the force from the step's start: u ← u − dt f(x, u)/M,
 *        x ← x + dt u; contact while x > 0 at the step's start. MuJoCo's mjINT_EULER (the contact
 *        force from the positions and velocities at the step's start, velocity updated first).
 * rk4    the classic fourth-order Runge–Kutta step on (x, u), the force of each stage computed at that
 *        stage's state with contact wherever x > 0 there: MuJoCo's mjINT_RK4, which runs collision
 *        detection at every stage. */
IMPACTFIT_EXPORT extern const impactfit_stepper_type *const impactfit_stepper_euler;
IMPACTFIT_EXPORT extern const impactfit_stepper_type *const impactfit_stepper_rk4;
/* explicit-euler  forward Euler with the force from the step's start: x ← x + dt u, u ← u − dt f(x, u)/M
 *        (position with the old velocity; Chrono's EULER_EXPLICIT_I and _II).
 * frozen-force  the exact motion under the force of the step's start held over the step: x ← x + dt u −
 *        dt² f/(2M), u ← u − dt f/M (Chrono's RUNGE_KUTTA and HEUN, whose stages all see the contact force
 *        stored at the step's start).
 * Both step st->law and record the contact, the clamp and the law's switch sides in `branch` as euler does. */
IMPACTFIT_EXPORT extern const impactfit_stepper_type *const impactfit_stepper_explicit_euler;
IMPACTFIT_EXPORT extern const impactfit_stepper_type *const impactfit_stepper_frozen_force;

/* The built-in stepper types (euler, rk4, explicit-euler, frozen-force), lookup by name (NULL: unknown).
 * The codes' own step maps (ODE's, Bullet's) are listed by the code registry (codes.h:
 * impactfit_code_stepper_type_*). */
IMPACTFIT_EXPORT size_t impactfit_stepper_type_count(void);
IMPACTFIT_EXPORT const impactfit_stepper_type *impactfit_stepper_type_at(size_t i);
IMPACTFIT_EXPORT const impactfit_stepper_type *impactfit_stepper_type_from_name(const char *name);
/* The same over a program's own types extra[0 .. n) first, then the registered ones (extra may be
 * NULL with n = 0), as impactfit_law_type_from_name_in. */
IMPACTFIT_EXPORT const impactfit_stepper_type *
impactfit_stepper_type_from_name_in(const char *name, const impactfit_stepper_type *const *extra, size_t n);

/* The stepper's own parameters by name (law.h's impactfit_law_param_index, _set, _get): the index of
 * the parameter called name (-1: none), and its value set or read (EINVAL with a message listing the
 * type's parameters when it has none of that name). */
IMPACTFIT_EXPORT int impactfit_stepper_param_index(const impactfit_stepper_type *type, const char *name);
IMPACTFIT_EXPORT int impactfit_stepper_set(impactfit_stepper *st, const char *name, double value, impactfit_error *err);
IMPACTFIT_EXPORT int impactfit_stepper_get(const impactfit_stepper *st, const char *name, double *value,
                                           impactfit_error *err);

/* Checks a stepper's settings (mass, dt, the law, the type's check). */
IMPACTFIT_EXPORT int impactfit_stepper_check(const impactfit_stepper *st, impactfit_error *err);

/* One impact at phase φ. */
typedef struct impactfit_step_impact {
  double e;           /* −u/v after the impact */
  double phi;         /* the phase */
  double x_first;     /* the penetration at the first step start with x > 0, m */
  double f_max;       /* the largest force applied in a step, N */
  double rho_max;     /* the largest spectral radius of the linearised map in contact (0: unknown) */
  long steps;         /* steps from the first one that acted to the end */
  long contact_steps; /* steps with a contact */
  uint64_t signature; /* a hash of the sequence of (contact, branch) of the steps whose impulse changed
                         the speed by more than 1e-12 v (the steps that can change e) */
  long work;          /* the step map's evaluations: the steps computed one by one, and one for each run of
                         steps taken at once (impactfit_stepper_type.affine; steps − work steps saved) */
} impactfit_step_impact;

/* Simulates one impact at speed v > 0 and phase φ ∈ (0, 1]. Returns 0, EINVAL, ENOSEP (no end within
 * 1e6 steps: the bodies stick), ENONFINITE (the state blew up, |u| > 1e4 v: an unstable step). */
IMPACTFIT_EXPORT int impactfit_step_impact_at(const impactfit_stepper *st, double v, double phi,
                                              impactfit_step_impact *out, impactfit_error *err);

/* The restitution over the phase of the first contact step. */
typedef struct impactfit_step_stats {
  double e_mean;           /* the mean of e(φ) over φ uniform on (0, 1] */
  double e_min, e_max;     /* the smallest and largest e(φ) (samples, jumps' sides and quadrature nodes) */
  double phi_min, phi_max; /* where */
  double e_continuous;     /* the law's e in continuous time (law.h), NaN when the stepper has none */
  double rho_max;          /* the largest spectral radius seen (0: unknown) */
  int stable;              /* 0: rho_max > 1 + 1e-9 or some e(φ) > 1 */
  int pieces;              /* smooth pieces of e(φ) */
  long impacts;            /* impacts simulated */
  long steps_max;          /* the most steps one impact took */
  long steps;              /* the work of every impact simulated (impactfit_step_impact.work: tests/test_work.c
                              bounds it) */
} impactfit_step_stats;

/* e(φ) over φ ∈ (0, 1] at speed v (see the header comment). Returns 0 or a status of
 * impactfit_step_impact_at or of the continuous-time solve; ENOCONV when the continuous-time contact lasts
 * more than 2.5e5 steps of dt (a quarter of impact_at's limit: dt is too small to be stepped through; the
 * message gives the continuous-time e, which the stepped e tends to), not ENOSEP with a false "stick". */
IMPACTFIT_EXPORT int impactfit_step_phase_stats(const impactfit_stepper *st, double v, impactfit_step_stats *out,
                                                impactfit_error *err);

/* A family of steppers with one parameter (the value a user types: a damping ratio, an ERP, a
 * restitution): builds the settings for `value`. */
typedef int (*impactfit_step_build_fn)(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err);

/* The value in [lo, hi] (0 < lo < hi; searched in ln(value)) whose mean e over the phase equals e to
 * |e_mean − e| ≤ tol (tol 0: 1e-10), at speed v; the search aims at tol/10 and stops at tol only where the
 * mean's own noise or a jump keeps it from getting closer. Where the contact takes 32 steps or more at guess (in
 * (lo, hi); NaN or 0: none, the middle of the range) and the stepper has a continuous-time law, the search
 * starts at the continuous-time inverse (the law's e, law.h: walking by factors of 2 from the guess, or on
 * 25 points, then Brent's method, GSL; the stepped mean tends to it as dt → 0) and follows the secant of the
 * exact mean from there, the first step with the continuous-time e's slope (no step longer than 4 times the
 * one before), to the tolerance or to a sign change, which Brent's method (GSL) on the exact mean refines;
 * where the continuous-time e is monotone and does not reach e, or the secant reaches an end of the range
 * with the distance to the target shrinking all the way, the exact means at the two ends decide (on the same
 * side of e: out of reach). Otherwise, or where that does not decide, the search first locates the target on
 * a cheap mean, a 16-phase midpoint rule (within about the largest jump of e(φ)/16 of the mean): from guess
 * it walks by factors of 2 towards the target until that mean crosses it (the mean is monotone in the
 * parameter in the usual case); without a guess, or when the walk turns away, it scans the range on 25
 * points. At the crossing it takes the exact mean at the secant's root and grows a bracket from there by the
 * secant step (fourfold each time), then refines it with Brent's method (GSL) on the exact mean. When the cheap mean never crosses e, or its crossing holds
 * no exact bracket, the exact mean decides: on the 25 points, or, when the walk reached a bound with
 * the distance to the target shrinking all the way, at the guess and that bound (the target is then out
 * of reach). A value where the bodies stick counts as e = 0 and one where the step blows up
 * (ENONFINITE) as e = +∞; a target that lies only across such a jump gives ENOCONV naming it, and so
 * does one across a jump of the mean between two values (an engine's threshold): then, where both sides'
 * means were computed, stats->e_min and e_max are those two means (e between them; e_mean NaN). Returns 0
 * with *value and *stats (the phase statistics at *value, with the continuous-time e; stats->impacts
 * and stats->steps count every impact and step the search simulated), or ENOROOT with the range of the exact means met in the
 * message (and in stats->e_min and e_max), or a status of the build or of the phase statistics. */
IMPACTFIT_EXPORT int impactfit_step_solve_mean(impactfit_step_build_fn build, const void *ctx, double v, double e,
                                               double lo, double hi, double guess, double tol, double *value,
                                               impactfit_step_stats *stats, impactfit_error *err);

/* The largest time step (s) for which the stepper is stable at speed v (stats.stable), searched from
 * st->dt by doubling or halving, then bisection to 1e-6 relative; inf when stable up to 1e6·dt
 * (implicit steppers; at once for continuous time, a NULL type). Each probe stops at the first impact that shows
 * the step unstable (no quadrature). ENOROOT when unstable at every step down to the one at which the
 * continuous-time contact takes 1e4 steps (explicit Euler on an undamped spring: the spectral radius
 * exceeds 1 + 1e-9 down to h ω ≈ 4.5e-5). Returns 0 or a status. */
IMPACTFIT_EXPORT int impactfit_step_max_stable_dt(const impactfit_stepper *st, double v, double *dt_max,
                                                  impactfit_error *err);

/* The spectral radius of the 2×2 map [x, u] → [x', u'] given as its four entries (helper for a
 * stepper's `amplification`). */
IMPACTFIT_EXPORT double impactfit_step_spectral_radius(double a11, double a12, double a21, double a22);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_STEPPER_H */
