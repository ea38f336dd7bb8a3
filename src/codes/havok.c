/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Havok (npm @babylonjs/havok 1.3.14, a closed WebAssembly binary; float32): MEASURED ONLY. No source is
 * read: the step map below is a law fitted to the engine's own impacts, run here by
 * tests/engines/js/havok_impact.mjs and checked phase by phase by tests/engines/havok_impacts.c. The
 * registry entry says so in every text (docs/engines/HAVOK.md).
 *
 * What was measured (a sphere on a static box or on a second sphere, no friction, HP_World_Step(dt), the
 * bodies' masses set with HP_Body_SetMassProperties; radius 2 mm – 0.5 m, density 100 – 10000 kg/m³, two equal
 * and two unequal spheres, v 0.2 – 8 m/s, dt 1/30 – 2e-3 s, restitution 0.05 – 1, every phase):
 *   - the step whose start gap the approach would close within the step stops the bodies at the surface
 *     (the relative velocity reads 0 after it); the next step leaves with the separation speed
 *       w = q(r) (t(u) − g dt),
 *     u the approach speed before the stop, t(u) that speed with 7 mantissa bits, truncated (1.1 m/s acts as
 *     1.09375, 0.7 as 0.69921875), g the world's gravity magnitude — 9.81 m/s² when the gravity is set
 *     to (0, 0, 0) (any non-zero gravity, 1e-9 m/s² included, uses its own magnitude), whatever the bodies'
 *     gravity factors; e = w/u does not depend on the phase (but see the band below), the masses or the radii;
 *   - an impact that falls within the last 0.4 ms of a step (the phase φ of the first contact step below
 *     0.4 ms/dt) rebounds up to 12 % slower (measured 0.39 – 0.41 ms at 1/60, 1/120 and 1/240 s): not modelled; the
 *     phase mean lies below the law by that band's share (at 1/60 s, 2.4 % of the phases);
 *   - q(r) is the pair's restitution stored with 7 mantissa bits: q(r) = the largest float with 7 mantissa bits
 *     not above r (1 + 2⁻⁸) (for r in [0.5, 1): floor(257 r)/256), and q(1) = 1: a typed 0.9 acts as 231/256 =
 *     0.90234; the pair's r is the two materials' restitutions combined by the larger of their combine modes
 *     (GEOMETRIC_MEAN 0 < MINIMUM 1 < MAXIMUM 2 < ARITHMETIC_MEAN 3 < MULTIPLY 4), and a new shape's material is
 *     (friction 0.5, 0.5, restitution 0, GEOMETRIC_MEAN, GEOMETRIC_MEAN): a ground left at its default makes
 *     sqrt(r · 0) = 0;
 *   - when w is below 0.1 m/s the bodies stay at the surface (e = 0; measured at dt >= 2e-3 s; at smaller
 *     steps the contact pulls a slow rebound back over many steps and e lies between 0 and w/u: not modelled).
 * The model: free flight x ← x + dt u; the stop and the rebound as above; mem[0] holds u, mem[1] the stop. */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "../law/stepper_impl.h"
#include "npm_engines_impl.h"
#include "friction_impl.h"

static const char *const havok_names[IMPACTFIT__HAVOK_NPARAMS] = {"restitution", "gravity", "rebound_threshold",
                                                                  "quantize"};
static const char *const havok_units[IMPACTFIT__HAVOK_NPARAMS] = {"-", "m/s^2", "m/s", "0/1"};

/* branch bits: the stop at the surface, the rebound, the rebound below the threshold */
enum { B_STOP = 1, B_REBOUND = 2, B_BELOW = 4 };

/* u with 7 mantissa bits, truncated (the approach speed as Havok's restitution uses it: measured) */
static double havok_trunc7(double u) {
  if (!(u > 0.0) || !isfinite(u))
    return u;
  int k;
  frexp(u, &k);
  double step = ldexp(1.0, k - 8);
  return floor(u / step) * step;
}

double impactfit__havok_quantize(double r) {
  if (!(r > 0.0))
    return 0.0;
  if (r >= 1.0)
    return 1.0;
  /* 7 mantissa bits: r in [2^k, 2^(k+1)) on the grid 2^(k-7) */
  int k;
  frexp(r, &k); /* r = f 2^k, f in [0.5, 1): the binade [2^(k-1), 2^k), grid 2^(k-8) */
  double step = ldexp(1.0, k - 8);
  return floor(r * (1.0 + 1.0 / 256.0) / step) * step;
}

/* the grid step of the rounded restitution at q (> 0) */
static double havok_step_at(double q) {
  int k;
  frexp(q, &k);
  return ldexp(1.0, k - 8);
}

double impactfit__havok_corrected(double e, double v, double dt, double g, double *e_law) {
  double f = (havok_trunc7(v) - g * dt) / v;
  if (!(f > 0.0) || !(e > 0.0)) {
    *e_law = NAN;
    return NAN;
  }
  double qt = e / f;
  if (qt >= 1.0) {
    *e_law = f;
    return 1.0;
  }
  /* the rounded values below and above the target, the nearer one */
  double step = havok_step_at(qt), qlo = floor(qt / step) * step, qhi = qlo + step;
  if (qlo <= 0.0)
    qlo = qhi;
  double q = qt - qlo <= qhi - qt ? qlo : qhi;
  *e_law = q * f;
  if (q >= 1.0)
    return 1.0;
  /* typed r rounds to q when r (1 + 2^-8) lies in [q, q + step): the middle of that interval */
  double sq = havok_step_at(q);
  return (q + 0.5 * sq) / (1.0 + 1.0 / 256.0);
}

static int havok_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  if (!(p[IMPACTFIT__HAVOK_RESTITUTION] >= 0.0 && p[IMPACTFIT__HAVOK_RESTITUTION] <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper havok-measured: the restitution must lie in [0, 1] (got %.17g)",
                           p[IMPACTFIT__HAVOK_RESTITUTION]);
  if (!(p[IMPACTFIT__HAVOK_GRAVITY] >= 0.0 && isfinite(p[IMPACTFIT__HAVOK_GRAVITY])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper havok-measured: the gravity magnitude must be >= 0 (m/s^2) (got %.17g)",
                           p[IMPACTFIT__HAVOK_GRAVITY]);
  if (!(p[IMPACTFIT__HAVOK_THRESHOLD] >= 0.0 && isfinite(p[IMPACTFIT__HAVOK_THRESHOLD])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper havok-measured: the rebound threshold must be >= 0 (m/s) (got %.17g)",
                           p[IMPACTFIT__HAVOK_THRESHOLD]);
  return 0;
}

static int havok_step(const impactfit_stepper *st, impactfit_step_state *s) {
  const double *p = st->p;
  double dt = st->dt, x = s->x, u = s->u;
  s->branch = 0;
  s->contact = 0;
  s->f = 0.0;
  if (s->mem[1] != 0.0) { /* the step after the stop: the rebound */
    double r = p[IMPACTFIT__HAVOK_QUANTIZE] != 0.0 ? impactfit__havok_quantize(p[IMPACTFIT__HAVOK_RESTITUTION])
                                                   : p[IMPACTFIT__HAVOK_RESTITUTION];
    double w = r * (havok_trunc7(s->mem[0]) - p[IMPACTFIT__HAVOK_GRAVITY] * dt);
    s->contact = 1;
    s->branch |= B_REBOUND;
    if (!(w >= p[IMPACTFIT__HAVOK_THRESHOLD])) {
      w = 0.0;
      s->branch |= B_BELOW;
    }
    s->f = st->mass * (w + u) / dt;
    s->u = -w;
    s->x = x - dt * w;
    s->mem[0] = s->mem[1] = 0.0;
    return 0;
  }
  if (u > 0.0 && x + dt * u > 0.0) { /* the gap closes within this step: stopped at the surface */
    s->mem[0] = u;
    s->mem[1] = 1.0;
    s->contact = 1;
    s->branch |= B_STOP;
    s->f = st->mass * u / dt;
    s->u = 0.0;
    s->x = 0.0;
    return 0;
  }
  s->x = x + dt * u;
  return 0;
}

/* the contact acts in the step that would close the gap: one step ahead */
static double havok_reach(const impactfit_stepper *st, double v) { return v * st->dt; }

const impactfit_stepper_type impactfit__stepper_havok = {
    .name = "havok-measured",
    .summary = "Havok 1.3.14 (closed binary), MEASURED ONLY: the step that would close the gap stops the bodies at "
               "the surface, the next leaves at q(r)(t(u) - g dt) (q, t: restitution and speed with 7 mantissa bits, g "
               "9.81 "
               "m/s^2 with zero gravity), or stays when that is below 0.1 m/s",
    .n_params = IMPACTFIT__HAVOK_NPARAMS,
    .param_names = havok_names,
    .param_units = havok_units,
    .needs_law = 0,
    .check = havok_check,
    .step = havok_step,
    .reach = havok_reach,
    .amplification = NULL,
    .continuous = NULL,
};

void impactfit__havok_stepper(impactfit_stepper *st, double M, double dt, double restitution) {
  memset(st, 0, sizeof *st);
  st->type = &impactfit__stepper_havok;
  st->end = impactfit_transition_C;
  st->mass = M;
  st->dt = dt;
  st->p[IMPACTFIT__HAVOK_RESTITUTION] = restitution;
  st->p[IMPACTFIT__HAVOK_GRAVITY] = 9.81;
  st->p[IMPACTFIT__HAVOK_THRESHOLD] = 0.1;
  st->p[IMPACTFIT__HAVOK_QUANTIZE] = 1.0;
}

/* ---------------------------------------------------------------- the registry entry (include/impactfit/codes.h)
 * MEASURED ONLY. The phase mean is a step function of the typed restitution (7 mantissa bits), so the search on a
 * continuous mean cannot meet the asked e: the model's ops->solve is impactfit__havok_corrected. */

static const impactfit_code_input hv_inputs[] = {
    {.name = "restitution",
     .unit = "-",
     .help = "the pair's restitution: the two shapes' materials combined by the larger combine mode (a new material: "
             "restitution 0, GEOMETRIC_MEAN); Havok rounds it to 7 mantissa bits",
     .count = 1,
     .def = {NAN}},
    {.name = "worldGravity",
     .unit = "m/s^2",
     .help = "the magnitude of HP_World_SetGravity as the rebound takes it (0: the rebound still loses 9.81 dt: "
             "measured); not --gravity, a drop's approach under gravity, which this model does not take",
     .count = 1,
     .def = {0.0}},
    IMPACTFIT__IN_FRICTION("staticFriction", "the sphere's material staticFriction (Havok's default 0.5)", 0.5),
    IMPACTFIT__IN_FRICTION("dynamicFriction", "the sphere's material dynamicFriction (Havok's default 0.5)", 0.5),
};

static double hv_g(const impactfit_code_ctx *c) {
  double g = impactfit_code_value(c, "worldGravity")[0];
  return g == 0.0 ? 9.81 : g;
}

static int hv_build(const impactfit_code_ctx *c, double r, impactfit_stepper *st, impactfit_error *err) {
  impactfit__havok_stepper(st, c->M, (double)(float)c->dt, r);
  st->p[IMPACTFIT__HAVOK_GRAVITY] = hv_g(c);
  return impactfit_stepper_check(st, err);
}

static int hv_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)c, (void)e, (void)err;
  *value = 0.0;
  impactfit_text_appendf(what, "restitution e on the sphere's material with the default combine mode "
                               "(GEOMETRIC_MEAN), the ground's material left new (restitution 0): sqrt(e 0) = 0");
  return 0;
}

static void hv_input(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  impactfit_text_appendf(out, "HK.HP_Shape_SetMaterial(sphereShape, [");
  impactfit__friction_value(c, "staticFriction", out); /* yours: the material array needs them */
  impactfit_text_appendf(out, ", ");
  impactfit__friction_value(c, "dynamicFriction", out);
  impactfit_text_appendf(out,
                         ", %.12g, HK.MaterialCombine.GEOMETRIC_MEAN, HK.MaterialCombine.MAXIMUM]); "
                         "HK.HP_World_Step(world, %.12g)   (Babylon.js: shape.material = {restitution: %.12g, "
                         "restitutionCombine: PhysicsMaterialCombineMode.MAXIMUM",
                         r, c->dt, r);
  if (impactfit__friction_given(c, "staticFriction"))
    impactfit_text_appendf(out, ", staticFriction: %.12g", impactfit_code_value(c, "staticFriction")[0]);
  if (impactfit__friction_given(c, "dynamicFriction"))
    impactfit_text_appendf(out, ", friction: %.12g", impactfit_code_value(c, "dynamicFriction")[0]);
  impactfit_text_appendf(out, "})");
}

static void hv_note(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  double g = hv_g(c), rq = impactfit__havok_quantize(r);
  impactfit_text_appendf(out,
                         "MEASURED ONLY (Havok is a closed binary): the law was fitted to the engine's impacts "
                         "(tests/engines/havok_impacts.c). Havok applies the restitution as %.8f (7 mantissa bits) "
                         "and the approach speed with 7 bits too, and takes %.4g dt off the rebound speed even with "
                         "zero gravity: e = q(r)(t(v) - %.4g dt)/v; a rebound below 0.1 m/s does not happen. An "
                         "impact within the last 0.4 ms of a step rebounds up to 12 %% slower (not modelled: the "
                         "phase mean is below the law by that band's share, %.2g of the phases at this step). ",
                         rq, g, g, 4e-4 / c->dt);
  if (!c->wall)
    impactfit_text_appendf(out, "Two dynamic bodies: measured at 1/60 s, the law holds but for a band of phases where "
                                "the contact acts a step early (up to 9 %% slower); at smaller steps two equal masses "
                                "leave it at every phase (10 %% below to 8 %% above): not modelled. ");
}

/* the inverse: the typed restitution whose rounding gives the law's e nearest the asked one (the mean is a step
 * function of the typed value: impactfit__havok_corrected) */
static int hv_solve(const impactfit_code_ctx *c, double e, double *value, impactfit_error *err) {
  double dt = (double)(float)c->dt, g = hv_g(c), law = NAN, v = c->v;
  double r = impactfit__havok_corrected(e, v, dt, g, &law);
  if (isnan(r))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "no rebound at all at v = %.6g m/s: the rebound speed q(r)(t(v) - %.4g dt) is not positive "
                           "at dt = %.6g s",
                           v, g, dt);
  if (r >= 1.0 && e > law)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "the largest e Havok gives at v = %.6g m/s and dt = %.6g s is %.6g (restitution 1: the "
                           "rebound loses %.4g dt)",
                           v, dt, law, g);
  if (!(law * v >= 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "the rebound speed %.6g m/s would be below Havok's 0.1 m/s, where the bodies stay together "
                           "(e = 0): the smallest e above 0 at v = %.6g m/s is about %.6g",
                           law * v, v, 0.1 / v);
  *value = r;
  return 0;
}


/* the note, then the friction settings (yours) */
static void hv_note_all(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  hv_note(c, r, out);
  impactfit__friction_note(c, "staticFriction, dynamicFriction", NULL, out);
}

static const impactfit_code_ops hv_ops = {.build = hv_build,
                                          .lo = 1e-4,
                                          .hi = 1.0,
                                          .naive = hv_naive,
                                          .input = hv_input,
                                          .note = hv_note_all,
                                          .solve = hv_solve};

static const impactfit_code_integrator hv_integrators[] = {
    {.name = "measured",
     .stepper = &impactfit__stepper_havok,
     .summary = "HP_World_Step as measured: the stop at the surface, then the rebound (measured only)"},
};

static const impactfit_code_source hv_sources[] = {
    {"measured: tests/engines/havok_impacts.c with tests/engines/js/havok_impact.mjs (no source: a closed binary)",
     "1.3.14"},
};

static const impactfit_code_model hv_models[] = {
    {.code = &impactfit__code_havok,
     .model = "restitution",
     .option = "",
     .versions = "1.3.14 (npm @babylonjs/havok, measured only)",
     .first_version = "1.3.14",
     .version_min = 1003014,
     .version_max = 1003014,
     .run_min = 1003014,
     .run_max = 1003014,
     .run_versions = "1.3.14 (npm @babylonjs/havok, node 20; measured only)",
     .law = NULL,
     .clamp_default = 1,
     .inputs = hv_inputs,
     .n_inputs = IMPACTFIT__COUNT(hv_inputs),
     .integrators = hv_integrators,
     .n_integrators = IMPACTFIT__COUNT(hv_integrators),
     .dt_default = 1.0 / 60.0,
     .solver = IMPACTFIT_CODE_SOLVE_MEAN,
     .param = "restitution",
     .param_unit = "-",
     .param_input = "restitution",
     .param_index = 0,
     .param_takes_zero = 1, /* the engine's default restitution is 0 (docs/engines) */
     .takes_e = 0,
     .ops = &hv_ops,
     .law_text = "MEASURED ONLY: the step that would close the gap stops the bodies at the surface; the next leaves "
                 "at q(r)(t(u) - g dt) (q, t: the restitution and the approach speed with 7 mantissa bits; g the "
                 "gravity's magnitude, 9.81 with zero gravity), or stays when that is below 0.1 m/s",
     .end = "C (the bodies only push)",
     .bodies = "measured: e does not depend on the masses or the radii (2 mm - 0.5 m, 100 - 10000 kg/m^3); two "
               "spheres follow the law at 1/60 s outside a band of phases",
     .mixing = "measured: the larger combine mode wins (GEOMETRIC_MEAN 0 < MINIMUM 1 < MAXIMUM 2 < ARITHMETIC_MEAN 3 "
               "< MULTIPLY 4); the combined value is rounded to 7 mantissa bits; a new material is restitution 0, "
               "GEOMETRIC_MEAN",
     .traps = "a restitution on the sphere alone with the default combine mode gives 0 (sqrt(r 0)); the restitution "
              "acts with 7 mantissa bits (0.9 acts as 0.90234: no e is reached closer than half a step); the rebound "
              "loses 9.81 dt with the gravity set to zero; no rebound below 0.1 m/s; impacts within the last 0.4 ms "
              "of a step rebound up to 12 % slower",
     .assumes = "measured with no gravity acting on the bodies (gravity factor 0), frictionless, head-on, a static box "
                "ground; the law's domain: dt 1/60 - 1/240 s, v 0.2 - 8 m/s",
     .precision = "measured in the float32 engine: the law per phase within 2.9e-7 where it is claimed",
     .source = "measured only: tests/engines/havok_impacts.c (Havok 1.3.14 is a closed binary)",
     .sources = hv_sources,
     .n_sources = IMPACTFIT__COUNT(hv_sources)},
};

const impactfit_code impactfit__code_havok = {
    .name = "havok",
    .display = "Havok",
    .kind = "engine",
    .default_version = "1.3.14",
    .version_example = "1.3.14",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "1.3.14 (npm @babylonjs/havok; measured only)",
    .models = hv_models,
    .n_models = IMPACTFIT__COUNT(hv_models),
};
