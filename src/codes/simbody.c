/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Simbody's compliant Hunt–Crossley contact in the code registry (include/impactfit/codes.h;
 * docs/engines/SIMBODY.md).
 *
 * Read in Simbody 3.7 (tag Simbody-3.7, Debian 12's libsimbody-dev 3.7+dfsg-3):
 *   Simbody/src/HuntCrossleyForce.cpp:101-171 (HuntCrossleyForceImpl::calcForce): s1 = k2/(k1 + k2),
 *     k = k1 s1, c = c1 s1 + c2 (1 − s1), fH = (4/3) k δ sqrt(R k δ), f = fH (1 + 1.5 c δ'), and
 *     `if (f <= 0) return;` (:144-145: no force, and the loop over the other contacts ends there too);
 *   Simbody/src/HuntCrossleyForceImpl.h:62-68: a surface's stiffness is stored as stiffness^(2/3); a
 *     surface without setBodyParameters has stiffness 1 and dissipation 0;
 *   Simbody/src/CompliantContactSubsystem.cpp:709-870 (calcHertzContactForce, used by the HertzCircular
 *     generator :879-905): the same combination of the ContactMaterials' stiffness^(2/3)
 *     (getStiffness23, :750) and dissipations (:765-766), fH (:768), fHC = 1.5 c δ' fH (:787), no force
 *     when fH + fHC <= 0 (:798);
 *   SimTKmath/Geometry/src/CollisionDetectionAlgorithm.cpp:106-160 and ContactTracker.cpp:526-567,
 *     :699-756: R = r for a sphere on a half space, r1 r2/(r1 + r2) for two spheres;
 *   Simbody/include/simbody/internal/ContactSurface.h:274-282: calcDissipationFromObservedRestitution
 *     gives c = (1 − e)/v.
 * For a head-on impact this is impactfit's power law f = K δ^n + λ δ^m δ' with K = (4/3) sqrt(R) k^(3/2),
 * n = m = 3/2, λ = (3/2) c K, clamped at zero (condition C): Hunt–Crossley, whose e depends on c v only.
 *
 * Simbody integrates it with error-controlled integrators (SimTKmath/Integrators/src/): no fixed step
 * decides e, so the integrators have no step map (continuous time: the law integrated by law.h) and how close the engine
 * comes to the continuous-time e at an accuracy is measured by tests/engines/simbody_impact.cpp. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "friction_impl.h"

static const impactfit_code_input hc_inputs[] = {
    {.name = "stiffness",
     .unit = "Pa",
     .help = "setBodyParameters stiffness of the sphere and of the plane (or the other sphere); Simbody's "
             "default 1 for a surface without parameters; e does not depend on it",
     .count = 1,
     .def = {1.0},
     .per_body = 1,
     .mix = IMPACTFIT_CODE_MIX_OWN},
    {.name = "dissipation",
     .unit = "s/m",
     .help = "the Hunt-Crossley dissipation c given to both surfaces (Simbody's default 0)",
     .count = 1,
     .def = {0.0}},
    {.name = "accuracy",
     .unit = "-",
     .help = "the integrator's accuracy (Integrator::setAccuracy; Simbody's default 1e-3); enters the note",
     .count = 1,
     .def = {1e-3}},
    IMPACTFIT__IN_FRICTION("staticFriction",
                           "the setBodyParameters static friction of both surfaces (Simbody's default 0)", 0.0),
    IMPACTFIT__IN_FRICTION("dynamicFriction",
                           "the setBodyParameters dynamic friction of both surfaces (Simbody's default 0)", 0.0),
    IMPACTFIT__IN_FRICTION("viscousFriction",
                           "the setBodyParameters viscous friction of both surfaces (Simbody's default 0)", 0.0),
};

static const impactfit_code_input cc_inputs[] = {
    {.name = "stiffness",
     .unit = "Pa",
     .help = "ContactMaterial stiffness (plane-strain modulus E/(1 - nu^2)) of the sphere and of the plane (or the "
             "other sphere); Simbody has no default; e does not depend on it",
     .count = 1,
     .def = {NAN},
     .per_body = 1,
     .mix = IMPACTFIT_CODE_MIX_OWN},
    {.name = "dissipation",
     .unit = "s/m",
     .help = "the ContactMaterial dissipation c given to both surfaces (Simbody's default 0)",
     .count = 1,
     .def = {0.0}},
    {.name = "accuracy",
     .unit = "-",
     .help = "the integrator's accuracy (Integrator::setAccuracy; Simbody's default 1e-3); enters the note",
     .count = 1,
     .def = {1e-3}},
    IMPACTFIT__IN_FRICTION("staticFriction",
                           "the ContactMaterial static friction of both surfaces (Simbody's default 0)", 0.0),
    IMPACTFIT__IN_FRICTION("dynamicFriction",
                           "the ContactMaterial dynamic friction of both surfaces (Simbody's default 0)", 0.0),
    IMPACTFIT__IN_FRICTION("viscousFriction",
                           "the ContactMaterial viscous friction of both surfaces (Simbody's default 0)", 0.0),
};

/* The combined stiffness k (Pa^(2/3)) of the two surfaces: each stiffness raised to 2/3, in series. */
static int combined_k(const impactfit_code_ctx *c, double *k, impactfit_error *err) {
  double s[2] = {impactfit_code_body_value(c, "stiffness", 1)[0], impactfit_code_body_value(c, "stiffness", 2)[0]};
  for (int i = 0; i < 2; i++)
    if (!(s[i] > 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "simbody %s: stiffness %d must be > 0 (Pa) (got %.17g)",
                             c->model->model, i + 1, s[i]);
  double k1 = pow(s[0], 2.0 / 3.0), k2 = pow(s[1], 2.0 / 3.0);
  double s1 = k2 / (k1 + k2);
  *k = k1 * s1;
  return 0;
}

/* Hunt–Crossley for dissipation c (s/m): the power law with K = (4/3) sqrt(R) k^(3/2), n = m = 3/2,
 * λ = 1.5 c K. */
static int build(const impactfit_code_ctx *c, double diss, impactfit_stepper *st, impactfit_error *err) {
  double k = NAN;
  int s = combined_k(c, &k, err);
  if (s)
    return s;
  if (!(isfinite(diss) && diss >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "simbody %s: dissipation must be >= 0 (s/m) (got %.17g)",
                           c->model->model, diss);
  double K = 4.0 / 3.0 * k * sqrt(c->R * k);
  memset(st, 0, sizeof *st);
  st->type = NULL; /* continuous time: Simbody's integrators control their error */
  st->law = impactfit_law_power_make(K, 1.5, 1.5 * diss * K, 1.5);
  st->end = impactfit_transition_C;
  st->mass = c->M;
  st->dt = c->dt;
  return 0;
}

/* Simbody's own helper, ContactMaterial::calcDissipationFromObservedRestitution(e, v) = (1 − e)/v: Hunt and
 * Crossley's α = 3(1 − e)/(2v) with Simbody's factor 3/2 taken out. */
static int naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)err;
  *value = (1.0 - e) / c->v;
  impactfit_text_appendf(what, "dissipation = (1 - e)/v (ContactMaterial::calcDissipationFromObservedRestitution; Hunt "
                               "and "
                               "Crossley's alpha = 3(1 - e)/(2 v) over the 3/2 of Simbody's law)");
  return 0;
}

/* the three friction arguments, the user's or placeholders (never a silent 0) */
static void sb_frictions(const impactfit_code_ctx *c, impactfit_text *out) {
  static const char *const names[] = {"staticFriction", "dynamicFriction", "viscousFriction"};
  for (int i = 0; i < 3; i++) {
    impactfit_text_appendf(out, ", ");
    impactfit__friction_value(c, names[i], out);
  }
}

static void hc_input(const impactfit_code_ctx *c, double diss, impactfit_text *out) {
  double s[2] = {impactfit_code_body_value(c, "stiffness", 1)[0], impactfit_code_body_value(c, "stiffness", 2)[0]};
  impactfit_text_appendf(out, "hc.setBodyParameters(ContactSurfaceIndex(0), %.12g, %.12g", s[0], diss);
  sb_frictions(c, out);
  impactfit_text_appendf(out, ");  // the sphere\nhc.setBodyParameters(ContactSurfaceIndex(1), %.12g, %.12g", s[1],
                         diss);
  sb_frictions(c, out);
  impactfit_text_appendf(out,
                         ");  // the %s\n(OpenSim, the same law, formula only: force.setStiffness(%.12g); "
                         "force.setDissipation(%.12g);)",
                         c->wall ? "plane" : "other sphere", s[0], diss);
}

static void cc_input(const impactfit_code_ctx *c, double diss, impactfit_text *out) {
  double s[2] = {impactfit_code_body_value(c, "stiffness", 1)[0], impactfit_code_body_value(c, "stiffness", 2)[0]};
  impactfit_text_appendf(out, "ContactMaterial(%.12g, %.12g", s[0], diss);
  sb_frictions(c, out);
  impactfit_text_appendf(out, ")  // the sphere's ContactSurface\nContactMaterial(%.12g, %.12g", s[1], diss);
  sb_frictions(c, out);
  impactfit_text_appendf(out, ")  // the %s's ContactSurface", c->wall ? "half space" : "other sphere");
}

/* Simbody's error-controlled integrators: no step map (continuous time) */
enum { SB_RKMERSON, SB_RK3, SB_RKFELDBERG, SB_CPODES, SB_RK2 };
static const impactfit_code_integrator sb_integrators[] = {
    [SB_RKMERSON] = {.name = "rkmerson", .stepper = NULL, .summary = "RungeKuttaMersonIntegrator (the default)"},
    [SB_RK3] = {.name = "rk3", .stepper = NULL, .summary = "RungeKutta3Integrator"},
    [SB_RKFELDBERG] = {.name = "rkfeldberg", .stepper = NULL, .summary = "RungeKuttaFeldbergIntegrator"},
    [SB_CPODES] = {.name = "cpodes", .stepper = NULL, .summary = "CPodesIntegrator"},
    [SB_RK2] = {.name = "rk2", .stepper = NULL, .summary = "RungeKutta2Integrator"},
};

/* What the integrator does with this contact: measured by tests/engines/simbody_impact.cpp (sphere on a plane
 * and two spheres, 0.3-3 m/s, e 0.1-0.9, several start gaps). */
static void note(const impactfit_code_ctx *c, double diss, impactfit_text *out) {
  impactfit_text_appendf(out, "e depends on dissipation*v only (Hunt-Crossley, m = n); give both surfaces this "
                              "dissipation. ");
  impactfit__friction_note(c, "staticFriction, dynamicFriction, viscousFriction", NULL, out);
  impactfit_stepper st;
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  impactfit_law_impact_result r;
  double tc = NAN;
  if (isfinite(diss) && build(c, diss, &st, NULL) == 0) {
    lp.law = st.law;
    lp.mass = st.mass;
    lp.v = c->v;
    lp.transition = impactfit_transition_C;
    if (impactfit_law_impact_solve(NULL, &lp, &r, NULL) == 0)
      tc = r.t_contact;
  }
  char hmax[32];
  if (isfinite(tc))
    snprintf(hmax, sizeof hmax, "%.3g", 0.1 * tc);
  else
    snprintf(hmax, sizeof hmax, "t_contact/10");
  impactfit_text_appendf(out,
                         "Use integ.setAccuracy(1e-8) and integ.setMaximumStepSize(%s) (a tenth of the contact "
                         "time): then RungeKuttaMerson, RungeKutta3, CPodes and RungeKuttaFeldberg gave this e "
                         "within "
                         "5e-6 in every run of tests/engines/simbody_impact. Simbody's defaults (accuracy 1e-3, "
                         "no maximum step) were off by up to 0.24 (RungeKuttaMerson), 0.038 (RungeKutta3), 0.019 "
                         "(CPodes), and an unbounded step carried two spheres through each other. ",
                         hmax);
  const double *acc = impactfit_code_value(c, "accuracy");
  if (acc[0] > 1e-8)
    impactfit_text_appendf(out, "Your accuracy %g is looser than 1e-8. ", acc[0]);
  if (c->integrator == &sb_integrators[SB_RKFELDBERG]) {
    impactfit_text_appendf(out, "RungeKuttaFeldberg without a maximum step accepts a step across the contact onset "
                                "when "
                                "only its second stage penetrates (weight 0 in both of its solutions): the body lands "
                                "deep inside and leaves at the speed where the force vanishes, e = 1/(1.5 c v)");
    if (diss > 0.0)
      impactfit_text_appendf(out, " = %.6g", 1.0 / (1.5 * diss * c->v));
    impactfit_text_appendf(out, ". ");
  } else if (c->integrator == &sb_integrators[SB_RK2]) {
    impactfit_text_appendf(out, "RungeKutta2 is second order: 2.3e-5 off at accuracy 1e-5, and 1e-8 takes about 1e6 "
                                "steps. ");
  }
}

static const impactfit_code_ops hc_ops = {
    .build = build, .lo = 1e-10, .hi = 1e8, .naive = naive, .input = hc_input, .note = note};
static const impactfit_code_ops cc_ops = {
    .build = build, .lo = 1e-10, .hi = 1e8, .naive = naive, .input = cc_input, .note = note};

#define SB_LAW                                                                                                      \
  "f = (4/3) sqrt(R) k^(3/2) delta^(3/2) (1 + (3/2) c delta'), no force where f <= 0; k = k1 k2/(k1 + k2) with ki " \
  "= stiffness_i^(2/3), c = (c1 k2 + c2 k1)/(k1 + k2): the power law K = (4/3) sqrt(R) k^(3/2), n = m = 3/2, "      \
  "lambda = (3/2) c K"
#define SB_BODIES                                                                                                  \
  "R = r (sphere on a half space), r1 r2/(r1 + r2) (two spheres); M = m1 (Ground is immovable), m1 m2/(m1 + m2); " \
  "e depends on c v only"
#define SB_TRAPS                                                                                                    \
  "stiffness enters as stiffness^(2/3) combined in series (equal surfaces: E/2^(3/2), not Hertz's E/2); a surface " \
  "left without parameters has stiffness 1 and dissipation 0, which makes the pair nearly elastic; at the default " \
  "accuracy 1e-3 e is off by up to 0.24; without a maximum step two spheres can pass through each other and "       \
  "RungeKuttaFeldberg returns e = 1/(1.5 c v)"

#define SB_ENTRY                                                                                                      \
  .code = &impactfit__code_simbody, .option = "", .versions = "3.7", .first_version = "3.7", .version_min = 3007000,  \
  .version_max = 3007000, .run_min = 3007000, .run_max = 3007000, .run_versions = "3.7 (Debian 12)",                  \
  .law = &impactfit__law_power_type, .n = 1.5, .m = 1.5, .clamp_default = 1, .integrators = sb_integrators,           \
  .n_integrators = IMPACTFIT__COUNT(sb_integrators), .dt_default = 0.0, .solver = IMPACTFIT_CODE_SOLVE_MEAN,          \
  .param = "dissipation", .param_unit = "s/m", .param_input = "dissipation", .param_index = 0,                        \
  .end = "C (no force where f <= 0: the bodies part there)", .bodies = SB_BODIES,                                     \
  .mixing = "k = k1 k2/(k1 + k2) of ki = stiffness_i^(2/3), c = (c1 k2 + c2 k1)/(k1 + k2) "                           \
            "(HuntCrossleyForce.cpp:101-171, CompliantContactSubsystem.cpp:750-766)",                                 \
  .traps = SB_TRAPS,                                                                                                  \
  .assumes = "a head-on impact with no tangential slip (the frictions are yours: with no slip they carry no force), " \
             "no gravity",                                                                                            \
  .precision = "float64"

static const impactfit_code_model models[] = {
    IMPACTFIT__ENTRY(SB_ENTRY, .model = "HuntCrossleyForce",
                     .law_text = SB_LAW " (HuntCrossleyForce returns from its loop over the contacts when f <= 0)",
                     .source = "Simbody 3.7 Simbody/src/HuntCrossleyForce.cpp:101-171 (calcForce; :144-145 f <= 0), "
                               "HuntCrossleyForceImpl.h:62-68 (stiffness^(2/3), defaults), SimTKmath/Geometry/src/"
                               "CollisionDetectionAlgorithm.cpp:106-160 (R)",
                     .inputs = hc_inputs, .n_inputs = IMPACTFIT__COUNT(hc_inputs), .ops = &hc_ops),
    IMPACTFIT__ENTRY(SB_ENTRY, .model = "CompliantContactSubsystem",
                     .law_text = SB_LAW " (the HertzCircular generator of a CompliantContactSubsystem)",
                     .source = "Simbody 3.7 Simbody/src/CompliantContactSubsystem.cpp:709-870 (calcHertzContactForce; "
                               ":798 "
                               "f <= 0), :879-905 (HertzCircular), include/simbody/internal/ContactSurface.h:186 "
                               "(stiffness^(2/3)), "
                               "SimTKmath/Geometry/src/ContactTracker.cpp:526-567, :699-756 (R)",
                     .inputs = cc_inputs, .n_inputs = IMPACTFIT__COUNT(cc_inputs), .ops = &cc_ops),
};

const impactfit_code impactfit__code_simbody = {
    .name = "simbody",
    .display = "Simbody",
    .kind = "engine",
    .default_version = "3.7",
    .version_example = "3.7",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "3.7 (Debian 12)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
