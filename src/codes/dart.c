/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DART in the registry (docs/engines/DART.md): its time step as a stepper type, the operations of its registry
 * entry, and the entry itself (codes.h, issue 32).
 *
 * Read in DART 6.12.1 as Debian 12 builds it (libdart-dev 6.12.1+dfsg4-12: the upstream tree plus patches, none
 * of which touches the files below; 0008 changes FreeJoint's integration for a rotating body only). For one
 * frictionless contact (both shapes' friction coefficients <= 1e-3) between a free sphere and a fixed body, or
 * two free spheres, through their centres, no gravity:
 *
 *  - the step (dart/simulation/World.cpp:167-206): every skeleton's velocity is integrated with its forces
 *    (none here), the constraint solver detects the contacts at the step's start positions and applies the LCP's
 *    impulses, and the positions move with the new velocity (Skeleton::integratePositions, symplectic Euler);
 *    the default step is 0.001 s (World.cpp:67);
 *  - a contact becomes a row when its penetration depth is >= 0 (constraint/ConstraintSolver.cpp:528-533; the
 *    DART collision detector reports touching spheres, collision/dart/DARTCollide.cpp:1177-1369; the default
 *    detector is FCL with spheres made meshes, ConstraintSolver.cpp:62-79: see the traps);
 *  - the row (constraint/ContactConstraint.cpp:501-549, the frictionless case): b = the approach speed at the
 *    point (getRelVelocity, :738-745); the penetration correction min(ERP depth/h, maxERV) (ERP 0.01, maxERV
 *    1e-3 m/s, :46-47; the error allowance of this branch is the constant DART_ERROR_ALLOWANCE 0, :519, not
 *    setErrorAllowance's); restitution when the contact's coefficient r > 1e-3 (:110-113) and r b > 0.1 m/s
 *    (DART_BOUNCING_VELOCITY_THRESHOLD, :53): the bias is then max(r b, correction), at most 100 m/s (:532-545);
 *    b += bias;
 *  - the LCP (constraint/BoxedLcpConstraintSolver.cpp:147-310, Dantzig with PGS as a fallback): A = J M⁻¹ Jᵀ with
 *    its diagonal times 1 + CFM (CFM 1e-5, ContactConstraint.cpp:48, :642-645), x >= 0 with A x = b + w, w >= 0,
 *    x w = 0: for one row x = max(0, b/A); the impulse x changes the approach speed by x (1/m1 + 1/m2);
 *  - two shapes' restitution coefficients multiply (:107-109), the frictions take the smaller (:130-133); a
 *    shape's defaults are friction 1, restitution 0 (dynamics/ShapeFrame.cpp:56-66).
 * So above the threshold one step leaves the bodies parting at (r − CFM)/(1 + CFM) of their approach speed,
 * whatever the step and where it falls; below it, at the penetration correction's speed (0.01 of the first
 * contact step's depth per step, up to 1e-3 m/s). Double precision. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "dart_impl.h"
#include "friction_impl.h"

/* ---------------------------------------------------------------- the step map */

static const char *const dart_names[IMPACTFIT__DART_NPARAMS] = {"restitution",
                                                                "erp",
                                                                "max_error_reduction_velocity",
                                                                "cfm",
                                                                "bouncing_velocity_threshold",
                                                                "max_bouncing_velocity",
                                                                "restitution_coeff_threshold"};
static const char *const dart_units[IMPACTFIT__DART_NPARAMS] = {"-", "-", "m/s", "-", "m/s", "m/s", "-"};

/* branch bits */
enum { B_BOUNCE = 1, B_CORRECT = 2, B_CLAMP = 4 };

static int dart_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  for (int i = 0; i < IMPACTFIT__DART_NPARAMS; i++)
    if (!(isfinite(p[i]) && p[i] >= 0.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: %s must be finite and >= 0 (got %.17g)",
                             st->type->name, dart_names[i], p[i]);
  return 0;
}

/* the state: x the penetration depth (m), u the approach speed (m/s); no memory */
static int dart_step(const impactfit_stepper *st, impactfit_step_state *s) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u, a = 1.0 / st->mass;
  int row = x >= 0.0; /* ConstraintSolver.cpp:532: a contact with depth >= 0 */
  double lam = 0.0;
  s->branch = 0;
  s->contact = row;
  if (row) {
    double b = u; /* getRelVelocity: the approach speed */
    /* A. penetration correction */
    double bounce = x - 0.0;
    if (bounce < 0.0)
      bounce = 0.0;
    else {
      bounce *= p[IMPACTFIT__DART_ERP] * (1.0 / h);
      if (bounce > p[IMPACTFIT__DART_ERV])
        bounce = p[IMPACTFIT__DART_ERV];
      if (bounce > 0.0)
        s->branch |= B_CORRECT;
    }
    /* B. restitution */
    if (p[IMPACTFIT__DART_REST] > p[IMPACTFIT__DART_RMIN]) {
      double rv = b * p[IMPACTFIT__DART_REST];
      if (rv > p[IMPACTFIT__DART_VBOUNCE] && rv > bounce) {
        bounce = rv > p[IMPACTFIT__DART_VMAX] ? p[IMPACTFIT__DART_VMAX] : rv;
        s->branch |= B_BOUNCE;
      }
    }
    b += bounce;
    double A = a + a * p[IMPACTFIT__DART_CFM]; /* getVelocityChange with the CFM on the diagonal */
    if (b > 0.0)
      lam = b / A;
    else
      s->branch |= B_CLAMP;
    u -= a * lam;
  }
  s->u = u;
  s->x = x + h * u;
  s->f = lam / h;
  return 0;
}

const impactfit_stepper_type impactfit__stepper_dart = {
    .name = "dart",
    .summary = "DART 6.12.1: a hard contact row from penetration >= 0, restitution above r v > 0.1 m/s, the "
               "penetration "
               "correction min(ERP depth/h, maxERV), the LCP with CFM on its diagonal, symplectic Euler",
    .n_params = IMPACTFIT__DART_NPARAMS,
    .param_names = dart_names,
    .param_units = dart_units,
    .needs_law = 0,
    .check = dart_check,
    .step = dart_step,
    .reach = NULL,
    .amplification = NULL,
    .continuous = NULL,
};

/* ---------------------------------------------------------------- the entry's operations */

impactfit__dart_setup impactfit__dart_defaults(void) {
  impactfit__dart_setup ds = {.restitution2 = 1.0,
                              .erp = 0.01,
                              .erv = 1e-3,
                              .cfm = 1e-5,
                              .plane = 1,
                              .m1 = 4.0 / 3.0 * IMPACTFIT__PI * 0.005 * 0.005 * 0.005 * 2500.0,
                              .m2 = NAN,
                              .r1 = 0.005,
                              .r2 = NAN,
                              .dt = 0.001};
  return ds;
}

double impactfit__dart_combined(const impactfit__dart_setup *ds, double restitution1) {
  return restitution1 * ds->restitution2; /* ContactConstraint.cpp:109 */
}

int impactfit__dart_build(const impactfit__dart_setup *ds, double restitution1, impactfit_stepper *st,
                          impactfit_error *err) {
  memset(st, 0, sizeof *st);
  if (!(restitution1 >= 0.0 && isfinite(restitution1)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "dart: the restitution coefficient must be >= 0 (got %.17g)",
                           restitution1);
  if (!(ds->dt > 0.0 && isfinite(ds->dt)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "dart: the time step must be > 0 (s) (got %.17g)", ds->dt);
  if (!(ds->m1 > 0.0 && (ds->plane || ds->m2 > 0.0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "dart: the bodies' masses must be > 0");
  st->type = &impactfit__stepper_dart;
  st->end = impactfit_transition_C;
  st->mass = ds->plane ? ds->m1 : ds->m1 * ds->m2 / (ds->m1 + ds->m2);
  st->dt = ds->dt;
  double *p = st->p;
  p[IMPACTFIT__DART_REST] = impactfit__dart_combined(ds, restitution1);
  p[IMPACTFIT__DART_ERP] = ds->erp;
  p[IMPACTFIT__DART_ERV] = ds->erv;
  p[IMPACTFIT__DART_CFM] = ds->cfm;
  p[IMPACTFIT__DART_VBOUNCE] = 0.1;
  p[IMPACTFIT__DART_VMAX] = 100.0;
  p[IMPACTFIT__DART_RMIN] = 1e-3;
  return impactfit_stepper_check(st, err);
}

static void appendf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t size, const char *fmt, ...) {
  size_t n = strlen(buf);
  if (n + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, size - n, fmt, ap);
  va_end(ap);
}

void impactfit__dart_input(const impactfit__dart_setup *ds, double restitution1, char *buf, size_t size) {
  buf[0] = 0;
  appendf(buf, size,
          "sphereShapeNode->getDynamicsAspect()->setRestitutionCoeff(%.17g); "
          "groundShapeNode->getDynamicsAspect()->setRestitutionCoeff(%.17g); "
          "world->getConstraintSolver()->setCollisionDetector(dart::collision::DARTCollisionDetector::create());"
          "   (dartpy: sphere_node.getDynamicsAspect().setRestitutionCoeff(%.17g); "
          "ground_node.getDynamicsAspect().setRestitutionCoeff(%.17g))",
          restitution1, ds->restitution2, restitution1, ds->restitution2);
}

void impactfit__dart_note(const impactfit__dart_setup *ds, double restitution1, double v, char *buf, size_t size) {
  double r = impactfit__dart_combined(ds, restitution1);
  if (!(r * v > 0.1) || !(r > 1e-3))
    appendf(buf, size,
            "NO BOUNCE: DART applies restitution only when the contact's coefficient times the approach speed exceeds "
            "0.1 m/s (DART_BOUNCING_VELOCITY_THRESHOLD, a constant; here %.6g x %.6g m/s = %.6g m/s): below, the "
            "bodies part at the penetration correction's speed, min(ERP depth/dt, maxERV) <= %.6g m/s, e <= %.6g. ",
            r, v, r * v, ds->erv, ds->erv / v);
  if (ds->restitution2 == 0.0)
    appendf(buf, size,
            "The ground's restitution coefficient is 0 (DART's default): DART multiplies the two shapes' "
            "coefficients, so no value on the sphere bounces: set the ground's to 1. ");
  appendf(buf, size,
          "DART keeps the CFM %.6g on the contact row's diagonal: the bodies part at (r - CFM)/(1 + CFM) of the "
          "approach speed, so typing e gives %.9g for e = %.6g. ",
          ds->cfm, (r - ds->cfm) / (1.0 + ds->cfm), r);
  appendf(buf, size,
          "With DART's default collision detector (FCL, spheres as 59-vertex meshes) a sphere touches with several "
          "contact rows that share the CFM: e is then up to CFM (1 + r) = %.2g above this; the DART collision "
          "detector (the pasted line) gives one row. ",
          ds->cfm * (1.0 + r));
}

/* ---------------------------------------------------------------- the registry entry (include/impactfit/codes.h) */

static impactfit__dart_setup dart_setup_of(const impactfit_code_ctx *c) {
  impactfit__dart_setup ds = impactfit__dart_defaults();
  ds.restitution2 = impactfit_code_body_value(c, "restitutionCoeff", 2)[0];
  ds.erp = impactfit_code_value(c, "ERP")[0];
  ds.erv = impactfit_code_value(c, "maxERV")[0];
  ds.cfm = impactfit_code_value(c, "CFM")[0];
  ds.plane = c->wall || !isfinite(c->m2);
  ds.m1 = ds.plane ? c->M : c->m1;
  ds.m2 = ds.plane ? NAN : c->m2;
  ds.r1 = isfinite(c->r1) ? c->r1 : c->R;
  ds.r2 = ds.plane ? NAN : c->r2;
  ds.dt = c->dt;
  return ds;
}

static int dart_entry_build(const impactfit_code_ctx *c, double value, impactfit_stepper *st, impactfit_error *err) {
  impactfit__dart_setup ds = dart_setup_of(c);
  return impactfit__dart_build(&ds, value, st, err);
}

static int dart_entry_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                            impactfit_error *err) {
  (void)err;
  impactfit__dart_setup ds = dart_setup_of(c);
  *value = e / ds.restitution2;
  impactfit_text_appendf(what, "the sphere's restitution coefficient e/(the ground's %.6g): the product typed as e",
                         ds.restitution2);
  return 0;
}

static void dart_entry_input(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  impactfit__dart_setup ds = dart_setup_of(c);
  char buf[1024];
  impactfit__dart_input(&ds, value, buf, sizeof buf);
  impactfit_text_appendf(out, "%s", buf);
  if (impactfit__friction_given(c, "frictionCoeff")) /* yours, as typed */
    impactfit_text_appendf(out,
                           "   friction as you typed it: sphereShapeNode->getDynamicsAspect()->setFrictionCoeff(%.12g) "
                           "(dartpy: sphere_node.getDynamicsAspect().setFrictionCoeff(%.12g))",
                           impactfit_code_value(c, "frictionCoeff")[0], impactfit_code_value(c, "frictionCoeff")[0]);
}

static void dart_entry_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  impactfit__dart_setup ds = dart_setup_of(c);
  char buf[2048] = "";
  impactfit__dart_note(&ds, value, c->v, buf, sizeof buf);
  impactfit_text_appendf(out, "%s", buf);
  impactfit__friction_note(c, "setFrictionCoeff",
                           "measured in DART 6.12.1: friction 0.5, 1 and 100 give the same bounce heights bit for bit, "
                           "tests/engines/dart_scene.cpp",
                           out);
}

static const impactfit_code_ops dart_ops = {.build = dart_entry_build,
                                            .lo = 1e-6,
                                            .hi = 4.0,
                                            .range = NULL,
                                            .naive = dart_entry_naive,
                                            .input = dart_entry_input,
                                            .note = dart_entry_note,
                                            .data = NULL};

static const impactfit_code_input dart_inputs[] = {
    {.name = "restitutionCoeff",
     .unit = "-",
     .help = "DynamicsAspect::setRestitutionCoeff of each shape (DART's default 0; the ground's taken as 1 here and "
             "pasted); the contact takes the product",
     .count = 1,
     .def = {NAN},
     .def_body2 = (const double[]){1.0},
     .per_body = 1,
     .mix = IMPACTFIT_CODE_MIX_PRODUCT},
    {.name = "ERP",
     .unit = "-",
     .help = "ContactConstraint::setErrorReductionParameter (static, all worlds; default 0.01)",
     .count = 1,
     .def = {0.01}},
    {.name = "maxERV",
     .unit = "m/s",
     .help = "ContactConstraint::setMaxErrorReductionVelocity (default 1e-3)",
     .count = 1,
     .def = {1e-3}},
    {.name = "CFM",
     .unit = "-",
     .help = "ContactConstraint::setConstraintForceMixing (default 1e-5): the row's diagonal times 1 + CFM",
     .count = 1,
     .def = {1e-5}},
    IMPACTFIT__IN_FRICTION("frictionCoeff",
                           "DynamicsAspect::setFrictionCoeff of the sphere (DART's default 1; two shapes take the "
                           "smaller)",
                           1.0),
};

static const impactfit_code_integrator dart_integrators[] = {
    {.name = "euler",
     .stepper = &impactfit__stepper_dart,
     .summary = "World::step: velocities, the contact LCP from the step's start positions, positions with the new "
                "velocity (symplectic Euler); one contact row (DART's collision detector)"},
};

static const impactfit_code_source dart_sources[] = {
    {.where = "dart/constraint/ContactConstraint.cpp:44-63, :107-113, :130-133, :501-549, :642-645, :738-745",
     .version = "6.12.1 (Debian 12 6.12.1+dfsg4-12)"},
    {.where = "dart/constraint/ConstraintSolver.cpp:62-79, :453-575", .version = "6.12.1"},
    {.where = "dart/constraint/BoxedLcpConstraintSolver.cpp:64-73, :147-310", .version = "6.12.1"},
    {.where = "dart/simulation/World.cpp:67, :167-206", .version = "6.12.1"},
    {.where = "dart/collision/dart/DARTCollide.cpp:1177-1369", .version = "6.12.1"},
    {.where = "dart/collision/fcl/FCLCollisionDetector.cpp:274-330, :911-1030", .version = "6.12.1"},
    {.where = "dart/dynamics/ShapeFrame.cpp:56-66", .version = "6.12.1"},
};

static const impactfit_code_model dart_models[] = {
    {.code = &impactfit__code_dart,
     .model = "contact",
     .option = "",
     .default_option = 1,
     .versions = "6.12.1",
     .first_version = "6.12.1",
     .version_min = 6012001,
     .version_max = 6012001,
     .run_min = 6012001,
     .run_max = 6012001,
     .run_versions = "6.12.1 (Debian 12)",
     .law = NULL,
     .n = 0.0,
     .m = 0.0,
     .clamp_default = 1,
     .clamp_switch = NULL,
     .inputs = dart_inputs,
     .n_inputs = IMPACTFIT__COUNT(dart_inputs),
     .integrators = dart_integrators,
     .n_integrators = IMPACTFIT__COUNT(dart_integrators),
     .dt_default = 0.001,
     .solver = IMPACTFIT_CODE_SOLVE_MEAN,
     .param = "restitutionCoeff",
     .param_unit = "-",
     .param_input = "restitutionCoeff",
     .param_index = 0,
     .param_scale = 0.0,
     .param_floor = 0.0,
     .param_takes_zero = 1, /* a shape's default restitution is 0 (dynamics/ShapeFrame.cpp:56-66) */
     .takes_e = 0,
     .ops = &dart_ops,
     .law_text = "one LCP row from penetration >= 0: b = approach speed + max(r b if r b > 0.1 m/s, min(ERP depth/dt, "
                 "maxERV)), the diagonal J M^-1 J' (1 + CFM), impulse max(0, b/A); symplectic Euler. Above the "
                 "threshold e = (r - CFM)/(1 + CFM) at any step and phase; below it the bodies part at the "
                 "correction's "
                 "speed (ERP depth/dt, at most maxERV)",
     .end = "C (x >= 0: the row only pushes)",
     .bodies = "the relative motion along the line of centres: A = 1/m1 + 1/m2; e does not depend on the masses or "
               "radii",
     .mixing = "restitution: the product of the two shapes' coefficients (ContactConstraint.cpp:109); friction: the "
               "smaller (:130-133)",
     .traps = "the ground's default restitution 0 makes the product 0 (no bounce); restitution only when r v > 0.1 "
              "m/s (a constant); CFM 1e-5 lowers e to (r - CFM)/(1 + CFM); the default FCL collision detector makes "
              "spheres 59-vertex meshes (several rows: e up to CFM (1 + r) higher, phase-dependent); "
              "setErrorAllowance does not reach a frictionless row; the setters' range checks only warn",
     .assumes = "frictionless (or head-on: the friction rows carry nothing), no gravity, head-on through the centres, "
                "DART's collision detector (one row), the Dantzig LCP",
     .precision = "float64",
     .source = "DART 6.12.1 dart/constraint/ContactConstraint.cpp:44-63, :107-113, :501-549, :642-645, :738-745; "
               "ConstraintSolver.cpp:62-79, :528-533; BoxedLcpConstraintSolver.cpp:147-310; World.cpp:67, :167-206; "
               "collision/dart/DARTCollide.cpp:1177-1369; dynamics/ShapeFrame.cpp:56-66",
     .sources = dart_sources,
     .n_sources = IMPACTFIT__COUNT(dart_sources)},
};

const impactfit_code impactfit__code_dart = {.name = "dart",
                                             .display = "DART",
                                             .kind = "engine",
                                             .default_version = "6.12.1",
                                             .version_example = "6.12.1",
                                             .version_key = impactfit_code_version_dotted,
                                             .model_prefix = NULL,
                                             .run_versions = "6.12.1 (Debian 12 libdart-dev)",
                                             .models = dart_models,
                                             .n_models = sizeof dart_models / sizeof dart_models[0]};
