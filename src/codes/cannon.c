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
#include "codes_impl.h"
#include "../law/stepper_impl.h"
#include "npm_engines_impl.h"
#include "friction_impl.h"

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

/* ---------------------------------------------------------------- the registry entry (include/impactfit/codes.h) */

static const impactfit_code_input cn_inputs[] = {
    {.name = "restitution",
     .unit = "-",
     .help = "the contact equation's restitution: the product of the two bodies' Material restitutions when both are "
             ">= 0, else the ContactMaterial's (world.defaultContactMaterial: 0)",
     .count = 1,
     .def = {NAN}},
    {.name = "contactEquationStiffness",
     .unit = "N/m",
     .help = "the ContactMaterial's contactEquationStiffness (SPOOK k)",
     .count = 1,
     .def = {1e7}},
    {.name = "contactEquationRelaxation",
     .unit = "steps",
     .help = "the ContactMaterial's contactEquationRelaxation (SPOOK d)",
     .count = 1,
     .def = {3.0}},
    {.name = "linearDamping",
     .unit = "1/s",
     .help = "Body.linearDamping of the dynamic bodies: v *= (1 - d)^dt each step",
     .count = 1,
     .def = {0.01}},
    IMPACTFIT__IN_FRICTION("friction", "the sphere's Material friction (cannon-es: -1, the ContactMaterial's 0.3)",
                           0.3),
};

static int cn_build(const impactfit_code_ctx *c, double r, impactfit_stepper *st, impactfit_error *err) {
  impactfit__cannon_stepper(st, c->M, c->dt, c->wall, r);
  st->p[IMPACTFIT__CANNON_STIFFNESS] = impactfit_code_value(c, "contactEquationStiffness")[0];
  st->p[IMPACTFIT__CANNON_RELAXATION] = impactfit_code_value(c, "contactEquationRelaxation")[0];
  st->p[IMPACTFIT__CANNON_DAMPING] = impactfit_code_value(c, "linearDamping")[0];
  return impactfit_stepper_check(st, err);
}

static int cn_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)c, (void)e, (void)err;
  *value = 0.0;
  impactfit_text_appendf(what, "new Material({restitution: e}) on the sphere only: without the other body's material "
                               "the world's defaultContactMaterial applies, restitution 0");
  return 0;
}

static void cn_input(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  impactfit_text_appendf(out, "sphere.material = new CANNON.Material({restitution: %.12g", r);
  if (impactfit__friction_given(c, "friction")) /* yours, as typed */
    impactfit_text_appendf(out, ", friction: %.12g", impactfit_code_value(c, "friction")[0]);
  impactfit_text_appendf(out,
                         "}); %s.material = new CANNON.Material({restitution: 1}); world.step(%.12g)   (the product of "
                         "the two is the contact's restitution)",
                         c->wall ? "ground" : "otherSphere", c->dt);
}

static void cn_note(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  (void)r;
  impactfit_text_appendf(out,
                         "cannon-es multiplies the two bodies' Material restitutions only when both are set (>= 0); "
                         "otherwise the ContactMaterial's restitution applies (the world's default: 0; a new "
                         "ContactMaterial's default: 0.3). Its SPOOK row adds 4 phi/(1 + 4d) of the speed (phi the "
                         "phase of the first contact step: the penetration over v dt) and removes 1/(1 + 4d) of the "
                         "restitution term: one impact lies within +-0.15 of the mean at the defaults, at every "
                         "speed and nearly every step; no restitution gives a mean below about 0.129 (restitution "
                         "0 still bounces: the Baumgarte term). ");
  if (!c->wall && c->v * c->dt > c->r1 + c->r2)
    impactfit_text_appendf(out, "v dt = %.4g m exceeds r1 + r2: the spheres can pass through each other. ",
                           c->v * c->dt);
}


/* the note, then the friction settings (yours) */
static void cn_note_all(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  cn_note(c, r, out);
  impactfit__friction_note(c, "Material friction", NULL, out);
}

static const impactfit_code_ops cn_ops = {
    .build = cn_build, .lo = 1e-6, .hi = 4.0, .naive = cn_naive, .input = cn_input, .note = cn_note_all};

static const impactfit_code_integrator cn_integrators[] = {
    {.name = "gs",
     .stepper = &impactfit__stepper_cannon,
     .summary = "GSSolver (10 iterations, tolerance 1e-7: one equation converges in one), then damping and leap frog"},
};

static const impactfit_code_source cn_sources[] = {
    {"src/world/World.ts:216, 248-251, 486-493, 527-869", "v0.20.0"},
    {"src/world/Narrowphase.ts:171-206, 370, 408-495", "v0.20.0"},
    {"src/collision/Broadphase.ts:81-91", "v0.20.0"},
    {"src/equations/Equation.ts:47-79, 207-209", "v0.20.0"},
    {"src/equations/ContactEquation.ts:26-84", "v0.20.0"},
    {"src/solver/GSSolver.ts:27-129", "v0.20.0"},
    {"src/material/ContactMaterial.ts:88-95; src/material/Material.ts:55-56", "v0.20.0"},
    {"src/objects/Body.ts:464-474, 939-991", "v0.20.0"},
};

static const impactfit_code_model cn_models[] = {
    {.code = &impactfit__code_cannon,
     .model = "restitution",
     .option = "",
     .versions = "0.20.0",
     .first_version = "0.20.0",
     .version_min = 20000,
     .version_max = 20000,
     .run_min = 20000,
     .run_max = 20000,
     .run_versions = "0.20.0 (npm cannon-es, node 20)",
     .law = NULL,
     .clamp_default = 1,
     .inputs = cn_inputs,
     .n_inputs = IMPACTFIT__COUNT(cn_inputs),
     .integrators = cn_integrators,
     .n_integrators = IMPACTFIT__COUNT(cn_integrators),
     .dt_default = 1.0 / 60.0,
     .solver = IMPACTFIT_CODE_SOLVE_MEAN,
     .param = "restitution",
     .param_unit = "-",
     .param_input = "restitution",
     .param_index = 0,
     .param_takes_zero = 1, /* the engine's default restitution is 0 (docs/engines) */
     .takes_e = 0,
     .ops = &cn_ops,
     .law_text = "SPOOK: a = 4/(h(1 + 4d)), b = 4d/(1 + 4d), eps = 4/(h^2 k (1 + 4d)); while the bodies touch, "
                 "B = a x + b (1 + e) u, impulse max(0, B/(1/M + eps)), u -= impulse/M; then u *= (1 - "
                 "linearDamping)^h and x += h u",
     .end = "C (the impulse is >= 0)",
     .bodies = "one equation through the centres; 1/M = 1/m1 + 1/m2, a plane (mass 0) has inverse mass 0",
     .mixing = "restitution: the product of the two bodies' (or shapes') Material restitutions when both are >= 0, "
               "else the ContactMaterial's (Narrowphase.ts:190-200, World.ts:658-678); a Material's default is -1 "
               "(unset), the world's defaultContactMaterial's 0 (World.ts:248-251), a ContactMaterial's 0.3 "
               "(ContactMaterial.ts:88-95)",
     .traps = "a restitution set on the sphere's Material alone gives restitution 0 (the ground needs a Material "
              "too: set it to 1); restitution 0 still bounces (mean about 0.136 at the defaults) and no restitution "
              "reaches a mean below about 0.129; one impact's e spreads +-0.15 around the mean with the phase at "
              "every step; linearDamping 0.01 by default",
     .assumes = "a frictionless head-on contact, no gravity, world.allowSleep false (the default)",
     .precision = "float64 (cannon-es computes in JavaScript doubles): per phase within 1.7e-13",
     .source = "pmndrs/cannon-es v0.20.0: World.ts, Narrowphase.ts, Broadphase.ts, Equation.ts, ContactEquation.ts, "
               "GSSolver.ts, ContactMaterial.ts, Material.ts, Body.ts",
     .sources = cn_sources,
     .n_sources = IMPACTFIT__COUNT(cn_sources)},
};

const impactfit_code impactfit__code_cannon = {
    .name = "cannon",
    .display = "cannon-es",
    .kind = "engine",
    .default_version = "0.20.0",
    .version_example = "0.20.0",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "0.20.0 (npm cannon-es)",
    .models = cn_models,
    .n_models = IMPACTFIT__COUNT(cn_models),
};
