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
#include "dart_impl.h"

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
  impactfit__dart_setup ds = {.restitution2 = NAN,
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
  return restitution1 * (isnan(ds->restitution2) ? 1.0 : ds->restitution2); /* ContactConstraint.cpp:109 */
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
  appendf(buf, size, "sphereShapeNode->getDynamicsAspect()->setRestitutionCoeff(%.17g);", restitution1);
  if (isnan(ds->restitution2))
    appendf(buf, size, " groundShapeNode->getDynamicsAspect()->setRestitutionCoeff(1.0);");
  appendf(buf, size,
          " world->getConstraintSolver()->setCollisionDetector(dart::collision::DARTCollisionDetector::create());"
          "   (dartpy: sphere_node.getDynamicsAspect().setRestitutionCoeff(%.17g)%s)",
          restitution1, isnan(ds->restitution2) ? "; ground_node.getDynamicsAspect().setRestitutionCoeff(1.0)" : "");
}

void impactfit__dart_note(const impactfit__dart_setup *ds, double restitution1, double v, char *buf, size_t size) {
  double r = impactfit__dart_combined(ds, restitution1);
  if (!(r * v > 0.1) || !(r > 1e-3))
    appendf(buf, size,
            "NO BOUNCE: DART applies restitution only when the contact's coefficient times the approach speed exceeds "
            "0.1 m/s (DART_BOUNCING_VELOCITY_THRESHOLD, a constant; here %.6g x %.6g m/s = %.6g m/s): below, the "
            "bodies part at the penetration correction's speed, min(ERP depth/dt, maxERV) <= %.6g m/s, e <= %.6g. ",
            r, v, r * v, ds->erv, ds->erv / v);
  if (!isnan(ds->restitution2) && ds->restitution2 == 0.0)
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
