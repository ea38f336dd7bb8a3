/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cannon-es 0.20.0 (npm cannon-es; plain JavaScript, float64): its time step of one frictionless contact
 * as a stepper (src/codes/npm_engines_impl.h), and its registry entry (docs/engines/CANNON.md).
 *
 * Read in pmndrs/cannon-es at v0.20.0 (987f3b1e; the npm package's dist/cannon-es.js is the same code):
 *   src/world/World.ts
 *     248-251  defaultContactMaterial: friction 0.3, restitution 0.0
 *     486-493  step(dt) without timeSinceLastCalled: one internalStep(dt)
 *     527-869  internalStep: gravity into the forces (556-567), broadphase and narrowphase at the step's
 *              start (580, 620-628), the equations into the solver (640-686; 670-678: the bodies'
 *              materials' restitutions multiply when both are >= 0), solve (801), velocity damping
 *              v *= (1 - linearDamping)^dt (810-825), integrate (839-841), sleeping only with
 *              world.allowSleep (216: false by default; 857-867)
 *   src/world/Narrowphase.ts
 *     171-206  createContactEquation: restitution = the contact material's (192), SPOOK parameters from its
 *              contactEquationStiffness and contactEquationRelaxation at world.dt (194), the product of the
 *              two materials' restitutions when both are >= 0 (196-200: shape material, else body material)
 *     370      a pair of shapes is skipped when the centres are farther apart than the bounding radii
 *     408-447  sphereSphere: one equation, normal along the centres (touching or overlapping)
 *     449-495  spherePlane: one equation when the centre is at most r from the plane (479)
 *   src/collision/Broadphase.ts:81-91  the bounding-sphere broadphase: a pair when |Δx|² < (R1 + R2)²
 *     (strict: two spheres exactly touching are no pair; a plane's bounding radius is Number.MAX_VALUE)
 *   src/equations/Equation.ts
 *     47-62    minForce, maxForce; the constructor's SPOOK parameters (1e7, 4, 1/60), overwritten by
 *              createContactEquation
 *     72-79    setSpookParams: a = 4/(h(1 + 4d)), b = 4d/(1 + 4d), eps = 4/(h² k (1 + 4d))
 *     207-209  computeC = G M⁻¹ Gᵀ + eps
 *   src/equations/ContactEquation.ts
 *     26-33    minForce 0, maxForce 1e6, restitution 0
 *     35-84    computeB: g = n·(xj + rj − xi − ri) (< 0 in penetration), GW = (1 + e) n·(vj − vi) (+ the
 *              angular terms, zero for a normal through the centres), B = −g a − GW b − h G M⁻¹ f
 *   src/solver/GSSolver.ts
 *     27-28    iterations 10, tolerance 1e-7
 *     67-72    B and 1/C once per step, λ from 0 (no warm start)
 *     85-116   Δλ = (B − G Wλ − eps λ)/C, clamped to [minForce, maxForce]; stops when Σ|Δλ| < tolerance
 *     119-129  v += Wλ (the impulse's velocity change)
 *   src/material/ContactMaterial.ts:88-95  a ContactMaterial's defaults: friction 0.3, restitution 0.3,
 *     contactEquationStiffness 1e7, contactEquationRelaxation 3
 *   src/material/Material.ts:55-56  a Material's friction and restitution default to -1 ("use the contact
 *     material's")
 *   src/objects/Body.ts
 *     464-474  linearDamping 0.01, allowSleep true (inert unless world.allowSleep), sleepSpeedLimit 0.1
 *     939-991  integrate: v += f/m dt, then x += v dt (the new velocity)
 * One equation through the centres, effective mass M (1/M = 1/m1 + 1/m2; a plane has inverse mass 0),
 * penetration x = −g, approach speed u = n·(vi − vj) > 0: GW = −(1 + e) u, so without forces
 *   B = a x + b (1 + e) u,  λ = clamp(B/(1/M + eps), 0, maxForce)  (the first Gauss–Seidel iteration solves
 *   one equation exactly; the second finds Δλ = 0 and stops),
 *   u ← (u − λ/M)·(1 − linearDamping)^h,  x ← x + h u.
 * The impulse is λ (a velocity change λ/M): eps is 4/(h² k (1 + 4d)). With x = φ v h at the first contact
 * step, B/v = 4φ/(1 + 4d) + b(1 + e): e is the same at every speed (cannon-es has no speed threshold) and
 * nearly the same at every step (only eps M changes with h); it depends on the phase φ. */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../law/stepper_impl.h"
#include "npm_engines_impl.h"

static const char *const cannon_names[IMPACTFIT__CANNON_NPARAMS] = {
    "restitution", "contactEquationStiffness", "contactEquationRelaxation", "linearDamping", "plane", "maxForce"};
static const char *const cannon_units[IMPACTFIT__CANNON_NPARAMS] = {"-", "N/m", "steps", "1/s", "0/1", "N s"};

enum { B_CLAMP = 1, B_MAX = 2 };

static int cannon_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  if (!(p[IMPACTFIT__CANNON_RESTITUTION] >= 0.0 && isfinite(p[IMPACTFIT__CANNON_RESTITUTION])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper cannon-gs: the restitution must be >= 0 (got %.17g)",
                           p[IMPACTFIT__CANNON_RESTITUTION]);
  if (!(p[IMPACTFIT__CANNON_STIFFNESS] > 0.0 && isfinite(p[IMPACTFIT__CANNON_STIFFNESS])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper cannon-gs: contactEquationStiffness must be > 0 (N/m) (got %.17g)",
                           p[IMPACTFIT__CANNON_STIFFNESS]);
  if (!(p[IMPACTFIT__CANNON_RELAXATION] >= 0.0 && isfinite(p[IMPACTFIT__CANNON_RELAXATION])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper cannon-gs: contactEquationRelaxation must be >= 0 (got %.17g)",
                           p[IMPACTFIT__CANNON_RELAXATION]);
  if (!(p[IMPACTFIT__CANNON_DAMPING] >= 0.0 && p[IMPACTFIT__CANNON_DAMPING] < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper cannon-gs: linearDamping must lie in [0, 1) (got %.17g)",
                           p[IMPACTFIT__CANNON_DAMPING]);
  if (!(p[IMPACTFIT__CANNON_MAXFORCE] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper cannon-gs: maxForce must be > 0 (N s) (got %.17g)",
                           p[IMPACTFIT__CANNON_MAXFORCE]);
  return 0;
}

static int cannon_step(const impactfit_stepper *st, impactfit_step_state *s) {
  const double *p = st->p;
  double h = st->dt, d = p[IMPACTFIT__CANNON_RELAXATION], k = p[IMPACTFIT__CANNON_STIFFNESS];
  double x = s->x, u = s->u, lam = 0.0;
  /* the narrowphase at the step's start: a plane at a distance <= r, two spheres only when overlapping
   * (the broadphase's strict |Δx|² < (r1 + r2)²) */
  int contact = p[IMPACTFIT__CANNON_PLANE] != 0.0 ? x >= 0.0 : x > 0.0;
  s->branch = 0;
  if (contact) {
    double a = 4.0 / (h * (1.0 + 4.0 * d)), b = (4.0 * d) / (1.0 + 4.0 * d);
    double eps = 4.0 / (h * h * k * (1.0 + 4.0 * d));
    double ePlusOne = p[IMPACTFIT__CANNON_RESTITUTION] + 1.0;
    double B = x * a + ePlusOne * u * b; /* −g a − GW b with g = −x, GW = −(1 + e) u */
    double invC = 1.0 / (1.0 / st->mass + eps);
    lam = invC * B;
    if (lam < 0.0) {
      lam = 0.0;
      s->branch |= B_CLAMP;
    } else if (lam > p[IMPACTFIT__CANNON_MAXFORCE]) {
      lam = p[IMPACTFIT__CANNON_MAXFORCE];
      s->branch |= B_MAX;
    }
  }
  u = (u - lam / st->mass) * pow(1.0 - p[IMPACTFIT__CANNON_DAMPING], h);
  s->u = u;
  s->x = x + h * u;
  s->f = lam / h;
  s->contact = contact;
  return 0;
}

const impactfit_stepper_type impactfit__stepper_cannon = {
    .name = "cannon-gs",
    .summary = "cannon-es 0.20.0 GSSolver on one SPOOK contact equation (a = 4/(h(1+4d)), b = 4d/(1+4d), eps = "
               "4/(h^2 k (1+4d)), B = a x + b (1+e) u, impulse max(0, B/(1/M + eps))), then v *= (1 - "
               "linearDamping)^h and x += h v",
    .n_params = IMPACTFIT__CANNON_NPARAMS,
    .param_names = cannon_names,
    .param_units = cannon_units,
    .needs_law = 0,
    .check = cannon_check,
    .step = cannon_step,
    .reach = NULL,
    .amplification = NULL,
    .continuous = NULL,
};

void impactfit__cannon_stepper(impactfit_stepper *st, double M, double dt, int plane, double restitution) {
  memset(st, 0, sizeof *st);
  st->type = &impactfit__stepper_cannon;
  st->end = impactfit_transition_C;
  st->mass = M;
  st->dt = dt;
  st->p[IMPACTFIT__CANNON_RESTITUTION] = restitution;
  st->p[IMPACTFIT__CANNON_STIFFNESS] = 1e7;
  st->p[IMPACTFIT__CANNON_RELAXATION] = 3.0;
  st->p[IMPACTFIT__CANNON_DAMPING] = 0.01;
  st->p[IMPACTFIT__CANNON_PLANE] = plane ? 1.0 : 0.0;
  st->p[IMPACTFIT__CANNON_MAXFORCE] = 1e6;
}
