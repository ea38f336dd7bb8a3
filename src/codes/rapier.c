/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rapier (npm @dimforge/rapier3d-compat 0.21.0, the WebAssembly build of the rapier3d crate; float32): its
 * time step of one frictionless contact as a stepper (src/codes/npm_engines_impl.h), and its registry entry
 * (docs/engines/RAPIER.md).
 *
 * Read in dimforge/rapier at ccd01cd2 (2026-08-16: rapier 0.35.2, the JavaScript bindings 0.20.0 in
 * typescript/; the stored snapshot's newest commit). The npm package 0.21.0 (published 2026-09-25) builds a
 * later commit of the same repository (typescript/Cargo.toml patches rapier3d to the in-repo crate; its
 * WebAssembly names soft-body sources that ccd01cd2 does not have): every panic location the WebAssembly
 * holds for src/dynamics/solver/contact_constraint/contact_with_twist_friction.rs (10 of them) falls on the
 * same line and column at ccd01cd2, and tests/engines/rapier_impacts.c measures the 0.21.0 engine against
 * this model phase by phase. The files, at ccd01cd2:
 *   src/dynamics/integration_parameters.rs
 *     57-75    contact softness 30 Hz, ζ = 10; against a fixed body 60 Hz, ζ = 10
 *     91-94    erp_inv_dt(h) = ω/(h ω + 2ζ), ω = 2π f
 *     107-122  cfm_coeff = (1/erp − 1)²/((1 + (1/erp − 1)) 4ζ²)
 *     128-149  cfm_factor = 1/(1 + cfm_coeff): new impulse = cfm_factor (old − m Δv)
 *     379-408  defaults: dt 1/60, warmstart 1, one PGS and one stabilization iteration per substep, 4 solver
 *              iterations (substeps), max corrective velocity 3 m/s, prediction distance 0.02 m, max linear
 *              velocity 400 m/s, one CCD substep
 *   src/dynamics/coefficient_combine_rule.rs:37-84  restitution rules: Average (the default), Min, Multiply,
 *     Max, ClampedSum, GeometricMean; the pair uses the larger of the two colliders' rules (67)
 *   src/geometry/collider.rs:686-700  a collider's restitution 0 and rule Average by default
 *   src/geometry/narrow_phase/pair_update.rs
 *     319-330  contact manifolds within the prediction distance (plus the colliders' skins, 0 by default)
 *     338-343  the pair's restitution: CoefficientCombineRule::combine of the two colliders'
 *     459-496  a solver contact for each point closer than the prediction distance; is-new when the point's
 *              impulse of the last step is 0
 *   src/geometry/contact_pair.rs:756-779  is_bouncy: a new point bounces when restitution > 0, an old one
 *     only when restitution >= 1
 *   src/dynamics/solver/staged_island_solver/init.rs:60-95  substeps = num_solver_iterations, substep
 *     length dt/substeps
 *   src/dynamics/solver/staged_island_solver/worker.rs
 *     227-530  per substep: the velocity increments (gravity), the constraints' update fused with the warm
 *              start (the impulse of the previous substep re-applied), the biased solve
 *              (num_internal_pgs_iterations), then
 *     564-630  the positions integrated with the velocities (x += h v), then
 *     636-650  the unbiased (relax) solve with the rhs refreshed at the new positions
 *     653-730  after all substeps, the restitution pass (once per step)
 *     825-835  the velocity written back with the body's damping v/(1 + dt linear_damping) (0 by default)
 *   src/dynamics/solver/contact_constraint/contact_with_twist_friction.rs (the default FrictionModel::
 *     Simplified in 3D)
 *     218-219  is_new from the point's last impulse, the bounce flag
 *     260-297  the normal part: projected mass 1/(im1 + im2) for a row through the centres, the restitution
 *              seed e · (v1 − v2)·n1 at the step's start (negative while approaching), the warm start
 *              impulse and the accumulator
 *     426-486  update at a substep: dist = the current separation, rhs = max(dist, 0)/h +
 *              clamp(dist erp_inv_dt, −max corrective velocity, 0), cfm_factor where dist <= 0, else 1 (the
 *              speculative row is rigid); the accumulator banks the impulse, the impulse is scaled by the
 *              warm-start coefficient
 *     529-556  the relax refresh: rhs = max(dist, 0)/h, cfm 1
 *     568-599  apply_restitution: after the substeps, when the seed is negative
 *     783-830  writeback: the point's warm-start impulse = the last impulse, its impulse = the step's total
 *   src/dynamics/solver/contact_constraint/contact_constraint_element.rs
 *     465-478  warm start: v1 += n1 im1 λ, v2 −= n1 im2 λ
 *     481-504  solve: Δv = n1·(v1 − v2) + rhs, λ' = cfm_factor · max(0, λ − m Δv)
 *     508-534  solve_restitution: Δv = n1·(v1 − v2) + seed, λ' = max(0, λ − m Δv) when seed < 0 and the
 *              step's total impulse > 0
 *   src/dynamics/rigid_body_components.rs:835-841, 884-900  damping, integration
 * With n1 pointing from body 2 to body 1, approach speed u = −n1·(v1 − v2), penetration x = −dist and
 * effective mass M: per step (h = dt/N) a point exists while the gap −x is below the prediction distance
 * p_d at the step's start; its seed is s = −e u₀ (bouncy) or 0; λ starts at the point's warm-start impulse;
 * each substep: λ_acc += λ, λ ← w λ, u ← u − λ/M (warm start); rhs = max(−x, 0)/h − min(x⁺ ω_e, v_max);
 * λ' = c · max(0, λ + M(u − rhs)) (c = cfm_factor where x >= 0, else 1), u ← u − (λ' − λ)/M; x ← x + h u;
 * relax: λ' = max(0, λ + M(u − max(−x, 0)/h)); after the substeps, restitution: when s < 0 and λ_acc + λ > 0,
 * λ' = max(0, λ + M(u + e u₀)) — the separation speed becomes e u₀ exactly. e is the combined restitution
 * at every phase, speed and step whenever the speculative row stops the bodies at the surface (the gap
 * closes within a step that starts inside the prediction distance). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "../law/stepper_impl.h"
#include "npm_engines_impl.h"
#include "friction_impl.h"

static const char *const rapier_names[IMPACTFIT__RAPIER_NPARAMS] = {"restitution",
                                                                    "substeps",
                                                                    "natural_frequency",
                                                                    "damping_ratio",
                                                                    "max_corrective_velocity",
                                                                    "prediction_distance",
                                                                    "warmstart_coefficient",
                                                                    "linear_damping"};
static const char *const rapier_units[IMPACTFIT__RAPIER_NPARAMS] = {"-", "-", "Hz", "-", "m/s", "m", "-", "1/s"};

/* branch bits: a point exists, it bounces, the restitution pass acted, the soft (penetrating) row acted, the
 * corrective velocity bound acted. The soft bit is banded (a penetration above 1e-9 of the step's travel):
 * a speculative row stops the body at dist = 0 to rounding, on either side of it, with no effect on e */
enum { B_POINT = 1, B_BOUNCY = 2, B_REST = 4, B_SOFT = 8, B_MAXCORR = 16 };

static int rapier_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  if (!(p[IMPACTFIT__RAPIER_RESTITUTION] >= 0.0 && isfinite(p[IMPACTFIT__RAPIER_RESTITUTION])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper rapier-soft: the restitution must be >= 0 (got %.17g)",
                           p[IMPACTFIT__RAPIER_RESTITUTION]);
  double n = p[IMPACTFIT__RAPIER_SUBSTEPS];
  if (!(n >= 1.0 && n <= 1000.0 && n == floor(n)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper rapier-soft: the substeps (num_solver_iterations) must be a whole number in "
                           "[1, 1000] (got %.17g)",
                           n);
  if (!(p[IMPACTFIT__RAPIER_FREQUENCY] > 0.0 && isfinite(p[IMPACTFIT__RAPIER_FREQUENCY])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper rapier-soft: the natural frequency must be > 0 (Hz) (got %.17g)",
                           p[IMPACTFIT__RAPIER_FREQUENCY]);
  if (!(p[IMPACTFIT__RAPIER_ZETA] > 0.0 && isfinite(p[IMPACTFIT__RAPIER_ZETA])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper rapier-soft: the damping ratio must be > 0 (got %.17g)",
                           p[IMPACTFIT__RAPIER_ZETA]);
  if (!(p[IMPACTFIT__RAPIER_MAXCORR] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper rapier-soft: the max corrective velocity must be >= 0 (m/s) (got %.17g)",
                           p[IMPACTFIT__RAPIER_MAXCORR]);
  if (!(p[IMPACTFIT__RAPIER_PREDICTION] >= 0.0 && isfinite(p[IMPACTFIT__RAPIER_PREDICTION])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper rapier-soft: the prediction distance must be >= 0 (m) (got %.17g)",
                           p[IMPACTFIT__RAPIER_PREDICTION]);
  if (!(p[IMPACTFIT__RAPIER_WARMSTART] >= 0.0 && p[IMPACTFIT__RAPIER_WARMSTART] <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper rapier-soft: the warm-start coefficient must lie in [0, 1] (got %.17g)",
                           p[IMPACTFIT__RAPIER_WARMSTART]);
  if (!(p[IMPACTFIT__RAPIER_DAMPING] >= 0.0 && isfinite(p[IMPACTFIT__RAPIER_DAMPING])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper rapier-soft: the linear damping must be >= 0 (got %.17g)",
                           p[IMPACTFIT__RAPIER_DAMPING]);
  return 0;
}

/* the soft row's coefficients at substep h (integration_parameters.rs:91-149) */
static void rapier_soft(const double *p, double h, double *erp_inv_dt, double *cfm_factor) {
  double w = p[IMPACTFIT__RAPIER_FREQUENCY] * 2.0 * IMPACTFIT__PI, z = p[IMPACTFIT__RAPIER_ZETA];
  double eid = w / (h * w + 2.0 * z), erp = h * eid;
  double cfm_coeff = 0.0;
  if (erp != 0.0) {
    double inv_erp_minus_one = 1.0 / erp - 1.0;
    cfm_coeff = inv_erp_minus_one * inv_erp_minus_one / ((1.0 + inv_erp_minus_one) * 4.0 * z * z);
  }
  *erp_inv_dt = eid;
  *cfm_factor = 1.0 / (1.0 + cfm_coeff);
}

/* one solve of the row: λ' = c max(0, λ + M (u − rhs)), the approach speed updated; returns λ' */
static double rapier_solve(double M, double c, double rhs, double lam, double *u) {
  double nl = (lam - M * (rhs - *u));
  if (nl < 0.0)
    nl = 0.0;
  nl *= c;
  *u -= (nl - lam) / M;
  return nl;
}

/* mem[0]: the point's warm-start impulse (the last impulse of its last step), mem[1]: its total impulse of
 * the last step (0: a new point) */
static int rapier_step(const impactfit_stepper *st, impactfit_step_state *s) {
  const double *p = st->p;
  int nsub = (int)p[IMPACTFIT__RAPIER_SUBSTEPS];
  double M = st->mass, h = st->dt / nsub, x = s->x, u = s->u, r = p[IMPACTFIT__RAPIER_RESTITUTION];
  double damp = 1.0 / (1.0 + st->dt * p[IMPACTFIT__RAPIER_DAMPING]);
  s->branch = 0;
  /* the narrow phase at the step's start: a point while the gap is below the prediction distance */
  if (!(-x < p[IMPACTFIT__RAPIER_PREDICTION])) {
    for (int k = 0; k < nsub; k++)
      x += h * u;
    s->x = x;
    s->u = u * damp;
    s->f = 0.0;
    s->contact = 0;
    s->mem[0] = s->mem[1] = 0.0;
    return 0;
  }
  s->branch |= B_POINT;
  int is_new = s->mem[1] == 0.0, bouncy = is_new ? r > 0.0 : r >= 1.0;
  double seed = bouncy ? r * -u : 0.0; /* e (v1 − v2)·n1 at the step's start */
  if (bouncy)
    s->branch |= B_BOUNCY;
  double eid, cfm;
  rapier_soft(p, h, &eid, &cfm);
  double lam = s->mem[0], acc = -lam, w = p[IMPACTFIT__RAPIER_WARMSTART], vmax = p[IMPACTFIT__RAPIER_MAXCORR];
  for (int k = 0; k < nsub; k++) {
    /* update, fused with the warm start */
    double dist = -x, bias = dist * eid;
    if (bias < -vmax) {
      bias = -vmax;
      s->branch |= B_MAXCORR;
    }
    double rhs = (dist > 0.0 ? dist : 0.0) / h + (bias < 0.0 ? bias : 0.0);
    double c = dist <= 0.0 ? cfm : 1.0;
    if (x > 1e-9 * (p[IMPACTFIT__RAPIER_PREDICTION] + fabs(u) * st->dt))
      s->branch |= B_SOFT;
    acc += lam;
    lam *= w;
    u -= lam / M;
    /* the biased solve, the positions, the relax solve at the new positions */
    lam = rapier_solve(M, c, rhs, lam, &u);
    x += h * u;
    dist = -x;
    lam = rapier_solve(M, 1.0, (dist > 0.0 ? dist : 0.0) / h, lam, &u);
  }
  if (seed < 0.0 && acc + lam > 0.0) {
    double nl = lam - M * (seed - u);
    if (nl < 0.0)
      nl = 0.0;
    u -= (nl - lam) / M;
    lam = nl;
    s->branch |= B_REST;
  }
  s->mem[0] = lam;
  s->mem[1] = acc + lam;
  s->x = x;
  s->u = u * damp;
  s->f = (acc + lam) / st->dt;
  /* a contact for the phase statistics: a step whose point carried an impulse or started in penetration (a
   * point that only waits inside the prediction distance does not change e: leaving it out of the step
   * signature keeps e(φ) in one piece) */
  s->contact = acc + lam > 0.0 || s->x > 0.0;
  return 0;
}

/* The step's affine map (stepper.h: impactfit_step_affine) in the free approach: no warm-start impulse left (the
 * memory zero), approaching, and either no point (the gap at or beyond the prediction distance) or a point whose
 * rows ask for nothing (a gap of dt u or more at the step's start: every substep's speculative row max(dist, 0)/h
 * is at least the approach speed, so its impulse is 0). The substeps then add h u each (x' = x + dt u in exact
 * arithmetic) and the damping scales u once: a drift with no force, the memory staying 0. The region's form is the
 * smaller of the two gaps (u falls under the damping: the bound dt u only grows looser). */
static int rapier_affine(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  const double *p = st->p;
  double dt = st->dt, x = s->x, u = s->u, pd = p[IMPACTFIT__RAPIER_PREDICTION];
  if (st->gravity != 0.0 || s->mem[0] != 0.0 || s->mem[1] != 0.0 || !(u > 0.0) || !(x < 0.0))
    return 0;
  memset(a, 0, sizeof *a);
  if (dt * u <= pd)
    a->G[0][0] = -1.0, a->G[0][1] = -dt * (1.0 + 1e-9);
  else
    a->G[0][0] = -1.0, a->G[0][2] = -pd * (1.0 + 1e-9);
  a->n_forms = 1;
  if (!(a->G[0][0] * x + a->G[0][1] * u + a->G[0][2] > 0.0))
    return 0;
  /* the step's own rounded factor (rapier_step's damp): n steps are its n-th power to rounding, not that of the
   * exact 1/(1 + dt c) (whose half-ulp difference grows n-fold); damp − 1 is exact (Sterbenz) */
  double damp = 1.0 / (1.0 + dt * p[IMPACTFIT__RAPIER_DAMPING]);
  double nsub = p[IMPACTFIT__RAPIER_SUBSTEPS];
  a->B[0][1] = nsub * (dt / nsub); /* the substeps' h each */
  a->B[1][1] = damp - 1.0;
  return 1;
}

static double rapier_reach(const impactfit_stepper *st, double v) {
  (void)v;
  return st->p[IMPACTFIT__RAPIER_PREDICTION];
}

const impactfit_stepper_type impactfit__stepper_rapier = {
    .name = "rapier-soft",
    .summary = "Rapier (rapier3d 0.35 / JS 0.21.0) soft-step solver on one contact point: substeps of dt/4 with warm "
               "start, a biased solve (rigid speculative row at a gap, soft row in penetration: 30 Hz or 60 Hz "
               "against a fixed body, damping ratio 10), positions, a relax solve, then the restitution pass that "
               "sets the separation speed to e times the approach speed",
    .n_params = IMPACTFIT__RAPIER_NPARAMS,
    .param_names = rapier_names,
    .param_units = rapier_units,
    .needs_law = 0,
    .check = rapier_check,
    .step = rapier_step,
    .reach = rapier_reach,
    .amplification = NULL,
    .continuous = NULL,
    .affine = rapier_affine,
};

void impactfit__rapier_stepper(impactfit_stepper *st, double M, double dt, int fixed, double restitution) {
  memset(st, 0, sizeof *st);
  st->type = &impactfit__stepper_rapier;
  st->end = impactfit_transition_C;
  st->mass = M;
  st->dt = dt;
  st->p[IMPACTFIT__RAPIER_RESTITUTION] = restitution;
  st->p[IMPACTFIT__RAPIER_SUBSTEPS] = 4.0;
  st->p[IMPACTFIT__RAPIER_FREQUENCY] = fixed ? 60.0 : 30.0;
  st->p[IMPACTFIT__RAPIER_ZETA] = 10.0;
  st->p[IMPACTFIT__RAPIER_MAXCORR] = 3.0;
  st->p[IMPACTFIT__RAPIER_PREDICTION] = 0.02;
  st->p[IMPACTFIT__RAPIER_WARMSTART] = 1.0;
  st->p[IMPACTFIT__RAPIER_DAMPING] = 0.0;
}

/* ---------------------------------------------------------------- the registry entry (include/impactfit/codes.h) */

static const impactfit_code_input rp_inputs[] = {
    {.name = "restitution",
     .unit = "-",
     .help = "the pair's restitution: the two colliders' setRestitution values combined by the larger of their "
             "CoefficientCombineRules (Average by default; a collider's restitution is 0 by default)",
     .count = 1,
     .def = {NAN}},
    {.name = "numSolverIterations",
     .unit = "-",
     .help = "IntegrationParameters.numSolverIterations: the substeps of a step",
     .count = 1,
     .def = {4.0}},
    {.name = "normalizedPredictionDistance",
     .unit = "length units",
     .help = "IntegrationParameters.normalizedPredictionDistance: points within it are kept (times lengthUnit)",
     .count = 1,
     .def = {0.02}},
    {.name = "lengthUnit", .unit = "m", .help = "IntegrationParameters.lengthUnit", .count = 1, .def = {1.0}},
    {.name = "linearDamping",
     .unit = "1/s",
     .help = "RigidBodyDesc.setLinearDamping of the sphere(s): v/(1 + dt d) per step",
     .count = 1,
     .def = {0.0}},
    IMPACTFIT__IN_FRICTION("friction", "ColliderDesc.setFriction of the sphere (Rapier's default 0.5; rule Average)",
                           0.5),
};

static int rp_build(const impactfit_code_ctx *c, double r, impactfit_stepper *st, impactfit_error *err) {
  double unit = impactfit_code_value(c, "lengthUnit")[0];
  /* the engine steps with its float32 dt (world.timestep) */
  impactfit__rapier_stepper(st, c->M, (double)(float)c->dt, c->wall, r);
  st->p[IMPACTFIT__RAPIER_SUBSTEPS] = impactfit_code_value(c, "numSolverIterations")[0];
  st->p[IMPACTFIT__RAPIER_PREDICTION] = impactfit_code_value(c, "normalizedPredictionDistance")[0] * unit;
  st->p[IMPACTFIT__RAPIER_MAXCORR] = 3.0 * unit;
  st->p[IMPACTFIT__RAPIER_DAMPING] = impactfit_code_value(c, "linearDamping")[0];
  return impactfit_stepper_check(st, err);
}

static int rp_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)c, (void)err;
  *value = 0.5 * e;
  impactfit_text_appendf(what, "setRestitution(e) on the sphere's collider only: the default rule Average with the "
                               "other collider's default 0 makes the pair's restitution e/2");
  return 0;
}

static void rp_input(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  impactfit_text_appendf(out,
                         "world.timestep = %.12g; RAPIER.ColliderDesc.ball(%.12g).setRestitution(%.12g)"
                         ".setRestitutionCombineRule(RAPIER.CoefficientCombineRule.Max)",
                         c->dt, c->r1, r);
  if (impactfit__friction_given(c, "friction")) /* yours, as typed */
    impactfit_text_appendf(out, ".setFriction(%.12g)", impactfit_code_value(c, "friction")[0]);
  impactfit_text_appendf(out, "   (the %s keeps its default 0: Max gives %.12g)", c->wall ? "ground" : "other sphere",
                         r);
}

static void rp_note(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  double pd = impactfit_code_value(c, "normalizedPredictionDistance")[0] * impactfit_code_value(c, "lengthUnit")[0];
  impactfit_text_appendf(out,
                         "Rapier's restitution pass sets the separation speed to the pair's restitution times the "
                         "approach speed at the step's start, once per impact (is_new), at every phase, step and "
                         "speed: e = %.6g. The default rule Average halves a restitution typed on the sphere alone "
                         "(the other collider's default is 0). ",
                         r);
  if (!c->wall && c->v * c->dt >= pd)
    impactfit_text_appendf(out,
                           "TWO DYNAMIC BODIES PASS THROUGH: v dt = %.4g m is not below the prediction distance %.4g "
                           "m, so some phases find the spheres overlapping by more than r1 + r2 (measured: 4 of 40 "
                           "phases at 2 m/s and 1/60 s for two 5 mm spheres). ",
                           c->v * c->dt, pd);
  if (c->v < 0.1)
    impactfit_text_appendf(out, "Below 0.1 m/s (2 x normalized_linear_threshold 0.05) a body that keeps that speed for "
                                "0.5 s falls asleep (frozen): keep it awake (setCanSleep(false)) or the impact may not "
                                "happen. ");
}


/* the note, then the friction settings (yours) */
static void rp_note_all(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  rp_note(c, r, out);
  impactfit__friction_note(c, "setFriction", NULL, out);
}

static const impactfit_code_ops rp_ops = {
    .build = rp_build, .lo = 1e-6, .hi = 1.0, .naive = rp_naive, .input = rp_input, .note = rp_note_all};

static const impactfit_code_integrator rp_integrators[] = {
    {.name = "soft-step",
     .stepper = &impactfit__stepper_rapier,
     .summary = "the soft-step solver: substeps with warm start, biased and relax solves, the restitution pass"},
};

static const impactfit_code_source rp_sources[] = {
    {"src/dynamics/integration_parameters.rs:57-149, 379-408", "ccd01cd2 (rapier 0.35.2; npm 0.21.0 measured)"},
    {"src/dynamics/coefficient_combine_rule.rs:37-84", "ccd01cd2"},
    {"src/geometry/collider.rs:686-700", "ccd01cd2"},
    {"src/geometry/narrow_phase/pair_update.rs:319-343, 459-496", "ccd01cd2"},
    {"src/geometry/contact_pair.rs:756-779", "ccd01cd2"},
    {"src/dynamics/solver/staged_island_solver/init.rs:60-95", "ccd01cd2"},
    {"src/dynamics/solver/staged_island_solver/worker.rs:227-730, 825-835", "ccd01cd2"},
    {"src/dynamics/solver/contact_constraint/contact_with_twist_friction.rs:218-297, 426-599, 783-830", "ccd01cd2"},
    {"src/dynamics/solver/contact_constraint/contact_constraint_element.rs:465-534", "ccd01cd2"},
    {"src/dynamics/rigid_body_components.rs:835-900, 1290-1475", "ccd01cd2"},
};

static const impactfit_code_model rp_models[] = {
    {.code = &impactfit__code_rapier,
     .model = "restitution",
     .option = "",
     .versions = "0.21.0 (npm @dimforge/rapier3d-compat; rapier3d after 0.35.2)",
     .first_version = "0.21.0",
     .version_min = 21000,
     .version_max = 21000,
     .run_min = 21000,
     .run_max = 21000,
     .run_versions = "0.21.0 (npm @dimforge/rapier3d-compat, node 20)",
     .law = NULL,
     .clamp_default = 1,
     .inputs = rp_inputs,
     .n_inputs = IMPACTFIT__COUNT(rp_inputs),
     .integrators = rp_integrators,
     .n_integrators = IMPACTFIT__COUNT(rp_integrators),
     .dt_default = 1.0 / 60.0,
     .solver = IMPACTFIT_CODE_SOLVE_MEAN,
     .param = "restitution",
     .param_unit = "-",
     .param_input = "restitution",
     .param_index = 0,
     .param_takes_zero = 1, /* the engine's default restitution is 0 (collider.rs:686-700) */
     .takes_e = 0,
     .ops = &rp_ops,
     .law_text = "a point while the gap is below the prediction distance (0.02 m); per substep (dt/4): warm start, "
                 "a rigid speculative row max(dist, 0)/h at a gap, a soft row (60 Hz against a fixed body, else 30 Hz, "
                 "zeta 10; bias dist erp_inv_dt, at most 3 m/s) in penetration, x += h v, a relax solve; after the "
                 "substeps the restitution pass drives the separation speed to r u0 (u0 the approach speed at the "
                 "step's start) when the point carried an impulse and is new (or r >= 1)",
     .end = "C (the impulses are >= 0)",
     .bodies = "one point through the centres; M = m1 m2/(m1 + m2), a fixed body has inverse mass 0 (and the static "
               "softness, 60 Hz)",
     .mixing = "restitution: CoefficientCombineRule::combine of the two colliders' values with the larger of their "
               "rules, Average (r1 + r2)/2 by default, Min, Multiply, Max, ClampedSum, GeometricMean "
               "(coefficient_combine_rule.rs:37-84); a collider's default restitution is 0 (collider.rs:686-700)",
     .traps = "the default rule Average with the ground's default 0 halves the restitution; two dynamic bodies pass "
              "through each other when v dt >= the prediction distance 0.02 m; a body below 0.1 m/s for 0.5 s sleeps "
              "(a slow approach may never arrive); for two dynamic bodies the broad phase may find the pair only "
              "once they overlap (e is still r: measured)",
     .assumes = "a frictionless head-on contact, no gravity, a HalfSpace ground (a cuboid ground adds CCD clamping at "
                "large v dt, measured e unchanged), awake bodies",
     .precision = "float64 model of a float32 engine: per phase within 1.9e-7 (tests/engines/rapier_impacts.c)",
     .source = "dimforge/rapier ccd01cd2 (rapier 0.35.2; npm 0.21.0 builds a later commit, measured): "
               "integration_parameters.rs, coefficient_combine_rule.rs, pair_update.rs, contact_pair.rs, "
               "staged_island_solver/worker.rs, contact_with_twist_friction.rs, contact_constraint_element.rs",
     .sources = rp_sources,
     .n_sources = IMPACTFIT__COUNT(rp_sources)},
};

const impactfit_code impactfit__code_rapier = {
    .name = "rapier",
    .display = "Rapier",
    .kind = "engine",
    .default_version = "0.21.0",
    .version_example = "0.21.0",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "0.21.0 (npm @dimforge/rapier3d-compat)",
    .models = rp_models,
    .n_models = IMPACTFIT__COUNT(rp_models),
};
