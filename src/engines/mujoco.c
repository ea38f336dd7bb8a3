/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MuJoCo's soft contact in the engine registry (include/impactfit/engines.h; docs/engines/MUJOCO.md).
 *
 * Read in MuJoCo 2.2.2 (Debian 12's libmujoco-dev): src/engine/engine_core_constraint.c
 * (getsolparam: refsafe raises timeconst to 2·timestep, solimp clamped; getimpedance: the solimp
 * power-sigmoid; mj_makeImpedance: R = (1 − d)/d · diagApprox, K = 1/(dmax² timeconst² dampratio²),
 * B = 2/(dmax timeconst), direct form K = −solref[0]/dmax², B = −solref[1]/dmax; aref = −B v − K d r)
 * and src/engine/engine_forward.c (mj_Euler: velocity first, then positions; mj_RungeKutta: the
 * classic tableau with mj_forwardSkip, collision detection included, at every stage; mj_implicit:
 * implicit in the smooth forces' velocity derivatives only, the constraint force as in Euler).
 * For one frictionless contact of a free body whose constraint-space inverse inertia A equals its
 * diagonal approximation (a sphere's normal through its centre: A = 1/m1 + 1/m2), the solver's force
 * is f = M d (aref − a0) with M = 1/A: with no other force, f = M d(δ) (B δ' + K d(δ) δ), clamped at
 * zero by the cone — impactfit's law "impedance" under condition C. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "engines_impl.h"

static const impactfit_engine_input std_inputs[] = {
    {.name = "solref",
     .unit = "s, -",
     .help = "timeconst and dampratio (standard form, both > 0)",
     .count = 2,
     .def = {0.02, 1.0}},
    {.name = "solimp",
     .unit = "-, -, m, -, -",
     .help = "d0, dwidth, width, midpoint, power of the impedance",
     .count = 5,
     .def = {0.9, 0.95, 0.001, 0.5, 2.0}},
    {.name = "refsafe",
     .unit = "0 or 1",
     .help = "1: MuJoCo raises timeconst to 2 timestep (the default); 0: <flag refsafe=\"disable\"/>",
     .count = 1,
     .def = {1.0}},
};

static const impactfit_engine_input direct_inputs[] = {
    {.name = "solref",
     .unit = "N/m/kg, N s/m/kg",
     .help = "-stiffness and -damping (direct form, both < 0), per unit mass",
     .count = 2,
     .def = {NAN, NAN}},
    {.name = "solimp",
     .unit = "-, -, m, -, -",
     .help = "d0, dwidth, width, midpoint, power of the impedance",
     .count = 5,
     .def = {0.9, 0.95, 0.001, 0.5, 2.0}},
};

/* the law for (timeconst, dampratio) in standard form, or (−k, −b) in direct form */
static void law_of(const impactfit__engine_ctx *c, int direct, double r0, double r1, impactfit_law *law) {
  const double *imp = impactfit__engine_val(c, "solimp");
  double dmax = fmin(0.9999, fmax(0.0001, imp[1]));
  double K, B;
  if (!direct) {
    const double *rs = impactfit__engine_val(c, "refsafe");
    double tc = rs[0] != 0.0 ? fmax(r0, 2.0 * c->dt) : r0;
    K = 1.0 / fmax(1e-15, dmax * dmax * tc * tc * r1 * r1);
    B = 2.0 / fmax(1e-15, dmax * tc);
  } else {
    K = -r0 / fmax(1e-15, dmax * dmax);
    B = -r1 / fmax(1e-15, dmax);
  }
  memset(law, 0, sizeof *law);
  law->type = impactfit_law_impedance;
  law->p[0] = c->M;
  law->p[1] = B;
  law->p[2] = K;
  for (int i = 0; i < 5; i++)
    law->p[3 + i] = imp[i];
}

static int stepper_of(const impactfit__engine_ctx *c, const impactfit_law *law, impactfit_stepper *st) {
  memset(st, 0, sizeof *st);
  st->type = strcmp(c->integrator, "rk4") == 0 ? impactfit_stepper_rk4 : impactfit_stepper_euler;
  st->law = *law;
  st->end = impactfit_transition_C;
  st->mass = c->M;
  st->dt = c->dt;
  return 0;
}

static int std_build(const impactfit__engine_ctx *c, double dampratio, impactfit_stepper *st, impactfit_error *err) {
  const double *sr = impactfit__engine_val(c, "solref");
  if (!(sr[0] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "mujoco: solref timeconst must be > 0 in the standard form (got %.17g; the direct form is "
                           "the model 'soft contact direct')",
                           sr[0]);
  impactfit_law law;
  law_of(c, 0, sr[0], dampratio, &law);
  return stepper_of(c, &law, st);
}

static int direct_build(const impactfit__engine_ctx *c, double damping, impactfit_stepper *st, impactfit_error *err) {
  const double *sr = impactfit__engine_val(c, "solref");
  if (!(sr[0] < 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "mujoco: solref[0] must be -stiffness < 0 in the direct form (got %.17g)", sr[0]);
  impactfit_law law;
  law_of(c, 1, sr[0], -damping, &law);
  return stepper_of(c, &law, st);
}

/* the damping ratio of a linear spring-damper whose contact ends at δ = 0 with restitution e */
static double kv_ratio(double e) {
  double L = log(e);
  return -L / sqrt(IMPACTFIT__PI * IMPACTFIT__PI + L * L);
}

static int std_naive(const impactfit__engine_ctx *c, double e, impactfit_stepper *st, double *value, char *what,
                     size_t size, impactfit_error *err) {
  *value = kv_ratio(e);
  snprintf(what, size, "dampratio = -ln e/sqrt(pi^2 + ln^2 e) (linear spring-damper, contact to delta = 0)");
  return std_build(c, *value, st, err);
}

static int direct_naive(const impactfit__engine_ctx *c, double e, impactfit_stepper *st, double *value, char *what,
                        size_t size, impactfit_error *err) {
  const double *sr = impactfit__engine_val(c, "solref");
  *value = 2.0 * kv_ratio(e) * sqrt(-sr[0]);
  snprintf(what, size, "damping = 2 sqrt(stiffness) (-ln e)/sqrt(pi^2 + ln^2 e) (linear spring-damper)");
  return direct_build(c, *value, st, err);
}

static void imp_text(const impactfit__engine_ctx *c, char *buf, size_t size) {
  const double *imp = impactfit__engine_val(c, "solimp");
  impactfit__engine_appendf(buf, size, "solimp=\"%.12g %.12g %.12g %.12g %.12g\"", imp[0], imp[1], imp[2], imp[3],
                            imp[4]);
}

static void std_input(const impactfit__engine_ctx *c, double dampratio, char *buf, size_t size) {
  const double *sr = impactfit__engine_val(c, "solref");
  buf[0] = 0;
  impactfit__engine_appendf(buf, size, "<geom solref=\"%.12g %.12g\" ", sr[0], dampratio);
  imp_text(c, buf, size);
  impactfit__engine_appendf(buf, size, "/>   (Python: model.geom_solref[i] = [%.12g, %.12g])", sr[0], dampratio);
}

static void direct_input(const impactfit__engine_ctx *c, double damping, char *buf, size_t size) {
  const double *sr = impactfit__engine_val(c, "solref");
  buf[0] = 0;
  impactfit__engine_appendf(buf, size, "<geom solref=\"%.12g %.12g\" ", sr[0], -damping);
  imp_text(c, buf, size);
  impactfit__engine_appendf(buf, size, "/>   (Python: model.geom_solref[i] = [%.12g, %.12g])", sr[0], -damping);
}

static void std_note(const impactfit__engine_ctx *c, double value, char *buf, size_t size) {
  (void)value;
  const double *sr = impactfit__engine_val(c, "solref"), *rs = impactfit__engine_val(c, "refsafe");
  if (rs[0] != 0.0 && sr[0] < 2.0 * c->dt)
    impactfit__engine_appendf(buf, size,
                              "Refsafe raises timeconst %.6g s to 2 timestep = %.6g s (the law above uses that). ",
                              sr[0], 2.0 * c->dt);
  const double *imp = impactfit__engine_val(c, "solimp");
  if (imp[0] != imp[1] && imp[2] > 0.0)
    impactfit__engine_appendf(buf, size,
                              "With solimp d0 != dwidth the law is not scale-free: e depends on the impact speed. ");
  impactfit__engine_appendf(buf, size,
                            "Give both geoms the same solref/solimp (MuJoCo mixes them by solmix) or set them on a "
                            "<pair>. ");
}

static const impactfit__engine_ops std_ops = {
    .build = std_build, .lo = 1e-4, .hi = 1e3, .naive = std_naive, .input = std_input, .note = std_note};
static const impactfit__engine_ops direct_ops = {
    .build = direct_build, .lo = 1e-6, .hi = 1e9, .naive = direct_naive, .input = direct_input, .note = std_note};

#define MJ_SOURCE                                                                                                  \
  "MuJoCo 2.2.2 src/engine/engine_core_constraint.c: getsolparam (refsafe, solimp clamps), getimpedance, "         \
  "mj_makeImpedance (K, B), aref = -B vel - K imp pos; src/engine/engine_forward.c: mj_EulerSkip, mj_RungeKutta, " \
  "mj_implicitSkip"

const impactfit_engine_model impactfit__mujoco_models[] = {
    {.code = "mujoco",
     .model = "soft contact",
     .versions = "2.2.2",
     .version_min = 2002002,
     .version_max = 2002002,
     .param = "dampratio",
     .param_unit = "-",
     .param_input = "solref",
     .param_index = 1,
     .law = "f = M d(delta) (B delta' + K d(delta) delta), clamped at f >= 0; B = 2/(dwidth timeconst), "
            "K = 1/(dwidth^2 timeconst^2 dampratio^2), d(delta) the solimp impedance, M = 1/(1/m1 + 1/m2)",
     .end = "C (the constraint force is >= 0: the bodies part where it falls to zero)",
     .bodies = "mass-normalised: e does not depend on the masses; the radii enter only through the contact point",
     .source = MJ_SOURCE,
     .traps = "Refsafe raises timeconst to 2 timestep; the default solimp makes e depend on the speed; Euler takes "
              "the force from the step's start; RK4 re-detects contact at every stage",
     .integrators = "euler,rk4,implicit",
     .dt_default = 0.002,
     .run_here = 0,
     .n_inputs = 3,
     .inputs = std_inputs,
     .ops = &std_ops},
    {.code = "mujoco",
     .model = "soft contact direct",
     .versions = "2.2.2",
     .version_min = 2002002,
     .version_max = 2002002,
     .param = "damping",
     .param_unit = "N s/m/kg",
     .param_input = NULL,
     .param_index = 0,
     .law = "f = M d(delta) (B delta' + K d(delta) delta), clamped at f >= 0; K = stiffness/dwidth^2, "
            "B = damping/dwidth with solref = (-stiffness, -damping)",
     .end = "C (the constraint force is >= 0)",
     .bodies = "mass-normalised (stiffness and damping per unit effective mass)",
     .source = MJ_SOURCE,
     .traps = "refsafe does not apply to the direct form; the default solimp makes e depend on the speed",
     .integrators = "euler,rk4,implicit",
     .dt_default = 0.002,
     .run_here = 0,
     .n_inputs = 2,
     .inputs = direct_inputs,
     .ops = &direct_ops},
};

const size_t impactfit__mujoco_model_count = sizeof impactfit__mujoco_models / sizeof impactfit__mujoco_models[0];
