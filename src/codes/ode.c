/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Open Dynamics Engine's contact joint in the code registry (include/impactfit/codes.h;
 * docs/engines/ODE.md): its time step as two steppers (dWorldStep's exact LCP, dWorldQuickStep's
 * SOR-LCP) and three models (ERP/CFM from a spring and a damper, ERP/CFM as typed, the default hard
 * contact with `bounce`).
 *
 * Read in ODE 0.16.2 (Debian 12's libode-dev, double precision: /usr/include/ode/precision.h
 * defines dDOUBLE):
 *   ode/src/joints/contact.cpp:141-213  dxJointContact::getInfo2: erp = soft_erp (dContactSoftERP) or
 *       the world's; depth = geom.depth − contactp.min_depth, clamped at 0; rhs c = fps·erp·depth
 *       capped at contactp.max_vel; dContactBounce (with bounce_vel ≥ 0): when the approach speed
 *       u > bounce_vel, c = max(c, bounce·u), u taken from the bodies' velocities at the step start;
 *       cfm = soft_cfm (dContactSoftCFM) or the world's; the normal force within [0, ∞).
 *   ode/src/objects.cpp:37-42, 72-79   world ERP 0.2, world CFM 1e-5 in single and 1e-10 in double
 *       precision, quickstep 20 iterations with w = 1.3, max_vel = dInfinity, min_depth = 0.
 *   ode/src/step.cpp:1098-1103, 1236-1249, 1459, 1560-1578   dWorldStep: rhs and cfm scaled by 1/h,
 *       A = J M⁻¹ Jᵀ + cfm/h, rhs = c/h − J (v/h + M⁻¹ f_ext), the LCP solved exactly (dxSolveLCP),
 *       then v ← v + h M⁻¹ (Jᵀ λ + f_ext) and x ← x + h v (dxStepBody): velocities first.
 *   ode/src/quickstep.cpp:48, 1508-1513, 1631, 2180-2192, 2790-2858, 2940-2953   dWorldQuickStep:
 *       rhs and cfm scaled by 1/h as above, Ad = w/(J M⁻¹ Jᵀ + cfm/h), λ starts at 0 (WARM_STARTING is
 *       commented out at line 48), each iteration λ ← clamp(λ + Ad (rhs − (cfm/h) λ − A λ)) to [0, ∞),
 *       then the same velocity-then-position update. The random reordering of rows does nothing to a
 *       single row.
 *   ode/src/sphere.cpp:238-249, ode/src/collision_util.cpp:44-65   dCollideSpherePlane and
 *       dCollideSpheres: a contact when depth ≥ 0 (touching counts), depth from the positions at the
 *       step start (the user's loop collides, then steps), the contact point on the line of centres.
 * For one frictionless contact through the centres, A = 1/m1 + 1/m2 = 1/M and the impulse of a step
 * is P = h λ = max(0, (c + u)/(1/M + cfm/h)): with erp = h k/(h k + c_d), cfm = 1/(h k + c_d) this is
 * backward Euler of f = k δ + c_d δ' clamped at f ≥ 0 (docs/engines/ODE.md derives it). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "friction_impl.h"

/* ---------------------------------------------------------------- the steppers */

enum { P_ERP, P_CFM, P_BOUNCE, P_BVEL, P_MAXVEL, P_LAYER, P_ITER, P_W, P_COUNT };

static const char *const ode_names[P_COUNT] = {"erp",     "cfm",           "bounce",     "bounce_vel",
                                               "max_vel", "surface_layer", "iterations", "w"};
static const char *const ode_units[P_COUNT] = {"-", "m/N (s/kg)", "-", "m/s", "m/s", "m", "-", "-"};

/* branch bits of a step */
enum { B_CLAMP = 1, B_MAXVEL = 2, B_BOUNCE = 4, B_LAYER = 8 };

static int ode_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  if (!(p[P_ERP] >= 0.0 && p[P_ERP] <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: erp must lie in [0, 1] (got %.17g)", st->type->name,
                           p[P_ERP]);
  if (!(p[P_CFM] >= 0.0 && isfinite(p[P_CFM])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: cfm must be >= 0 (got %.17g)", st->type->name, p[P_CFM]);
  if (!(p[P_BOUNCE] >= 0.0 && isfinite(p[P_BOUNCE])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: bounce must be >= 0 (got %.17g)", st->type->name,
                           p[P_BOUNCE]);
  if (!(p[P_MAXVEL] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: max_vel must be >= 0 (got %.17g)", st->type->name,
                           p[P_MAXVEL]);
  if (!(p[P_LAYER] >= 0.0 && isfinite(p[P_LAYER])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: surface_layer must be >= 0 (got %.17g)", st->type->name,
                           p[P_LAYER]);
  if (st->type->n_params > P_ITER) {
    if (!(p[P_ITER] >= 1.0 && p[P_ITER] <= 1e6 && p[P_ITER] == floor(p[P_ITER])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: iterations must be a whole number >= 1 (got %.17g)",
                             st->type->name, p[P_ITER]);
    if (!(p[P_W] > 0.0 && p[P_W] < 2.0))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: w must lie in (0, 2) (got %.17g)", st->type->name,
                             p[P_W]);
  }
  return 0;
}

/* The contact row of one step at penetration x ≥ 0 and approach speed u (getInfo2): the velocity the
 * row asks for, c (m/s), with the branch bits it took. */
static double ode_rhs(const double *p, double h, double x, double u, int *branch) {
  double depth = x - p[P_LAYER];
  if (depth < 0.0) {
    depth = 0.0;
    *branch |= B_LAYER;
  }
  double pushout = p[P_ERP] / h * depth, c = pushout;
  if (pushout > p[P_MAXVEL]) {
    c = p[P_MAXVEL];
    *branch |= B_MAXVEL;
  }
  if (p[P_BVEL] >= 0.0 && u > p[P_BVEL]) {
    double newc = p[P_BOUNCE] * u;
    if (newc > c) {
      c = newc;
      *branch |= B_BOUNCE;
    }
  }
  return c;
}

/* One step: the LCP of the single row solved exactly (iterations 0) or by `iterations` SOR sweeps
 * from λ = 0 with relaxation w. λ is the force (N). */
static int ode_step_n(const impactfit_stepper *st, impactfit_step_state *s, int iterations, double w) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u;
  s->contact = x >= 0.0;
  s->branch = 0;
  double lambda = 0.0;
  if (s->contact) {
    double c = ode_rhs(p, h, x, u, &s->branch);
    double A = 1.0 / st->mass + p[P_CFM] / h; /* J M⁻¹ Jᵀ + cfm/h */
    double b = c / h + u / h;                 /* rhs: c/h − J v/h, J v = −u */
    double gh = st->gravity * h;
    if (st->gravity != 0.0)
      b += st->gravity; /* − J M⁻¹ f_ext (step.cpp:1239-1247; facc += m g at :587-620) */
    double star = b / A;
    if (c + u + gh < -1e-9 * (fabs(c) + fabs(u) + fabs(gh))) /* banded: rounding at a coincidence keeps the label */
      s->branch |= B_CLAMP;
    if (iterations <= 0) {
      lambda = star > 0.0 ? star : 0.0;
    } else {
      double Ad = w / A;
      for (int k = 0; k < iterations; k++) {
        double next = lambda + (Ad * b - lambda * Ad * (p[P_CFM] / h) - Ad * (1.0 / st->mass) * lambda);
        lambda = next < 0.0 ? 0.0 : next;
      }
    }
  }
  s->u = u - h * lambda / st->mass;
  if (st->gravity != 0.0) /* v ← v + h M⁻¹ (Jᵀ λ + f_ext) (step.cpp:1559-1563) */
    s->u += h * st->gravity;
  s->x = x + h * s->u;
  s->f = lambda;
  return 0;
}

static int ode_step(const impactfit_stepper *st, impactfit_step_state *s) { return ode_step_n(st, s, 0, 0.0); }

/* The step's affine map (stepper.h: impactfit_step_affine) in contact (x > 0) without a surface layer or an
 * active bounce, below max_vel: the impulse h λ = γ (erp x/h + u + g h)/A, γ = 1 for the exact LCP and
 * 1 − (1 − w)^iterations for SOR from 0 (every sweep stays positive), or λ = 0 where erp x/h + u < 0 (the flight:
 * it stays so as x falls; under gravity it does not: not affine). Under gravity g (ode_step_n) u' = u − q (erp x/h
 * + u) + g h (1 − q), x' = x + h u': the fixed point u = 0, x = g h² (1 − q)/(q erp), the body at rest on the row. */
static int ode_affine(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u, erp = p[P_ERP], gh = st->gravity * h;
  int bounce = p[P_BVEL] >= 0.0 && p[P_BOUNCE] > 0.0;
  if (!(x > 0.0) || p[P_LAYER] != 0.0 || (bounce && !(u < p[P_BVEL])))
    return 0;
  memset(a, 0, sizeof *a);
  a->G[0][0] = 1.0; /* in contact */
  a->n_forms = 1;
  if (bounce) { /* u < bounce_vel: no bounce */
    a->G[1][1] = -1.0, a->G[1][2] = p[P_BVEL];
    a->n_forms = 2;
  }
  if (isfinite(p[P_MAXVEL])) { /* erp x/h < max_vel */
    int i = a->n_forms++;
    a->G[i][0] = -erp / h, a->G[i][2] = p[P_MAXVEL];
    if (!(erp / h * x < p[P_MAXVEL]))
      return 0;
  }
  double r = erp / h * x + u;
  int i = a->n_forms++;
  if (r + gh < 0.0) { /* the flight: no impulse while erp x/h + u < 0, below the clamp label's band (ode_step_n) */
    if (!(u < 0.0) || gh != 0.0)
      return 0;
    a->G[i][0] = -(1.0 + 1e-9) * erp / h, a->G[i][1] = -(1.0 - 1e-9);
    a->B[0][1] = h;
    return 1;
  }
  a->G[i][0] = erp / h, a->G[i][1] = 1.0, a->G[i][2] = gh;
  double A = 1.0 / st->mass + p[P_CFM] / h;
  double g = st->type->n_params > P_ITER ? 1.0 - pow(1.0 - p[P_W], p[P_ITER]) : 1.0, q = g / (st->mass * A);
  /* u' = u − q (erp x/h + u) (+ g h (1 − q)), x' = x + h u' */
  a->B[1][0] = -q * erp / h, a->B[1][1] = -q;
  a->B[0][0] = -q * erp, a->B[0][1] = h * (1.0 - q);
  a->F[0] = g * erp / (h * h * A), a->F[1] = g / (h * A), a->F[2] = g * gh / (h * A);
  if (gh != 0.0) {
    if (!(q > 0.0 && erp > 0.0))
      return 0;
    a->X[0] = gh * h * (1.0 - q) / (q * erp);
  }
  return 1;
}

static int ode_quick_step(const impactfit_stepper *st, impactfit_step_state *s) {
  return ode_step_n(st, s, (int)st->p[P_ITER], st->p[P_W]);
}

/* As dt → 0 with the spring and damper that erp and cfm stand for at this dt (k = erp/(h cfm),
 * c = (1 − erp)/cfm): Kelvin–Voigt clamped at zero (condition C). None with bounce, a finite max_vel
 * or a surface layer (rules that are not a force law), or cfm = 0 (a rigid constraint). */
static int ode_continuous(const impactfit_stepper *st, impactfit_law *law, const impactfit_transition **end) {
  const double *p = st->p;
  if (!(p[P_CFM] > 0.0) || !(p[P_ERP] > 0.0) || (p[P_BVEL] >= 0.0 && p[P_BOUNCE] > 0.0) || isfinite(p[P_MAXVEL]) ||
      p[P_LAYER] > 0.0)
    return IMPACTFIT_EINVAL;
  double k = p[P_ERP] / (st->dt * p[P_CFM]), c = (1.0 - p[P_ERP]) / p[P_CFM];
  /* a damping ratio above 1e3 is a rigid constraint, not a spring: no continuous law */
  if (c > 2e3 * sqrt(k * st->mass))
    return IMPACTFIT_EINVAL;
  impactfit__row_kv_limit(k, c, law, end);
  return 0;
}

static const impactfit_stepper_type ode_soft = {
    .name = "ode-soft",
    .summary = "ODE 0.16.2 dWorldStep: one contact row with ERP/CFM (backward Euler of clamped k delta + c delta'), "
               "bounce, max_vel, surface layer",
    .n_params = P_ITER,
    .param_names = ode_names,
    .param_units = ode_units,
    .needs_law = 0,
    .check = ode_check,
    .step = ode_step,
    .reach = NULL,
    .amplification = NULL,
    .continuous = ode_continuous,
    .affine = ode_affine,
};

static const impactfit_stepper_type ode_quickstep = {
    .name = "ode-quickstep",
    .summary = "ODE 0.16.2 dWorldQuickStep: as ode-soft, the row solved by `iterations` SOR sweeps (relaxation w) "
               "from zero",
    .n_params = P_COUNT,
    .param_names = ode_names,
    .param_units = ode_units,
    .needs_law = 0,
    .check = ode_check,
    .step = ode_quick_step,
    .reach = NULL,
    .amplification = NULL,
    .continuous = ode_continuous,
    .affine = ode_affine,
};

/* ---------------------------------------------------------------- the models */

#define ODE_BOUNCE_INPUT                                                                                            \
  {                                                                                                                 \
    .name = "bounce", .unit = "-, m/s",                                                                             \
    .help = "surface.bounce and surface.bounce_vel with dContactBounce (bounce 0: no effect; bounce_vel < 0: off)", \
    .count = 2, .def = {                                                                                            \
      0.0,                                                                                                          \
      0.0                                                                                                           \
    }                                                                                                               \
  }
#define ODE_COMMON_INPUTS                                                                                        \
  IMPACTFIT__IN_FRICTION("mu", "contact.surface.mu (ODE has no default: your near callback sets it)", INFINITY), \
      {.name = "max_vel",                                                                                        \
       .unit = "m/s",                                                                                            \
       .help = "dWorldSetContactMaxCorrectingVel (default: no cap)",                                             \
       .count = 1,                                                                                               \
       .def = {INFINITY}},                                                                                       \
      {.name = "surface_layer",                                                                                  \
       .unit = "m",                                                                                              \
       .help = "dWorldSetContactSurfaceLayer: the depth that is not corrected",                                  \
       .count = 1,                                                                                               \
       .def = {0.0}},                                                                                            \
  {                                                                                                              \
    .name = "quickstep", .unit = "-, -",                                                                         \
    .help = "dWorldSetQuickStepNumIterations and dWorldSetQuickStepW (integrator quickstep only)", .count = 2,   \
    .def = {                                                                                                     \
      20.0,                                                                                                      \
      1.3                                                                                                        \
    }                                                                                                            \
  }

static const impactfit_code_input kc_inputs[] = {
    {.name = "kp", .unit = "N/m", .help = "the contact spring k", .count = 1, .def = {NAN}},
    {.name = "kd",
     .unit = "N s/m",
     .help = "the contact damper c (erp = h k/(h k + c), cfm = 1/(h k + c))",
     .count = 1,
     .def = {NAN}},
    ODE_BOUNCE_INPUT,
    ODE_COMMON_INPUTS,
};

static const impactfit_code_input erp_inputs[] = {
    {.name = "erp", .unit = "-", .help = "surface.soft_erp (dContactSoftERP)", .count = 1, .def = {NAN}},
    {.name = "cfm", .unit = "m/N (s/kg)", .help = "surface.soft_cfm (dContactSoftCFM)", .count = 1, .def = {NAN}},
    ODE_BOUNCE_INPUT,
    ODE_COMMON_INPUTS,
};

static const impactfit_code_input bounce_inputs[] = {
    {.name = "bounce",
     .unit = "-, m/s",
     .help = "surface.bounce and surface.bounce_vel with dContactBounce",
     .count = 2,
     .def = {NAN, 0.0}},
    {.name = "erp",
     .unit = "-",
     .help = "the world's ERP (dWorldSetERP) or surface.soft_erp",
     .count = 1,
     .def = {0.2}},
    {.name = "cfm",
     .unit = "m/N (s/kg)",
     .help = "the world's CFM (dWorldSetCFM; 1e-10 in the double-precision build) or surface.soft_cfm",
     .count = 1,
     .def = {1e-10}},
    ODE_COMMON_INPUTS,
};

/* the stepper of the request for erp and cfm */
static int ode_stepper(const impactfit_code_ctx *c, double erp, double cfm, double bounce, double bvel,
                       impactfit_stepper *st, impactfit_error *err) {
  memset(st, 0, sizeof *st);
  st->type = c->integrator->stepper; /* ode-soft (dWorldStep) or ode-quickstep */
  st->end = impactfit_transition_C;
  st->mass = c->M;
  st->dt = c->dt;
  st->gravity = c->req->gravity; /* a sphere on a plane under gravity (drop tests) */
  const double *mv = impactfit_code_value(c, "max_vel"), *sl = impactfit_code_value(c, "surface_layer"),
               *qs = impactfit_code_value(c, "quickstep");
  st->p[P_ERP] = erp;
  st->p[P_CFM] = cfm;
  st->p[P_BOUNCE] = bounce;
  st->p[P_BVEL] = bvel;
  st->p[P_MAXVEL] = mv[0];
  st->p[P_LAYER] = sl[0];
  st->p[P_ITER] = qs[0];
  st->p[P_W] = qs[1];
  return impactfit_stepper_check(st, err);
}

static int kc_build(const impactfit_code_ctx *c, double kd, impactfit_stepper *st, impactfit_error *err) {
  double kp = impactfit_code_value(c, "kp")[0], erp, cfm;
  const double *bn = impactfit_code_value(c, "bounce");
  if (!(kp > 0.0 && isfinite(kp)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "ode spring-damper: kp must be > 0 (N/m) (got %.17g)", kp);
  if (!(kd >= 0.0 && isfinite(kd)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "ode spring-damper: kd must be >= 0 (N s/m) (got %.17g)", kd);
  impactfit__row_erp_cfm(c->dt, kp, kd, 0.0, &erp, &cfm); /* the manual's conversion */
  return ode_stepper(c, erp, cfm, bn[0], bn[1], st, err);
}

static int erp_build(const impactfit_code_ctx *c, double erp, impactfit_stepper *st, impactfit_error *err) {
  if (erp > 1.0 && erp < 1.0 + 1e-12) /* the end of the search range, exp(log(1)) rounded */
    erp = 1.0;
  const double *bn = impactfit_code_value(c, "bounce");
  return ode_stepper(c, erp, impactfit_code_value(c, "cfm")[0], bn[0], bn[1], st, err);
}

static int bounce_build(const impactfit_code_ctx *c, double bounce, impactfit_stepper *st, impactfit_error *err) {
  const double *bn = impactfit_code_value(c, "bounce");
  if (!(bn[1] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "ode bounce: bounce_vel must be >= 0 (m/s): ODE ignores dContactBounce otherwise (got "
                           "%.17g)",
                           bn[1]);
  return ode_stepper(c, impactfit_code_value(c, "erp")[0], impactfit_code_value(c, "cfm")[0], bounce, bn[1], st, err);
}

static int kc_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)err;
  return impactfit__naive_kd(c, e, impactfit_code_value(c, "kp")[0], value, what);
}

static int bounce_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                        impactfit_error *err) {
  (void)c, (void)err;
  *value = e;
  impactfit_text_appendf(what, "bounce = e (ODE's restitution parameter)");
  return 0;
}

/* the surface flags and fields for the paste text */
static void surface_text(const impactfit_code_ctx *c, double erp, double cfm, double bounce, double bvel, int soft,
                         impactfit_text *out) {
  int bounce_on = bvel >= 0.0 && bounce > 0.0, quick = c->integrator->stepper == &ode_quickstep;
  const char *mode = soft ? (bounce_on ? "dContactSoftERP | dContactSoftCFM | dContactBounce"
                                       : "dContactSoftERP | dContactSoftCFM")
                          : (bounce_on ? "dContactBounce" : "0");
  impactfit_text_appendf(out, "contact.surface.mode = %s; contact.surface.mu = ", mode);
  impactfit__friction_value(c, "mu", out); /* yours: never a silent 0 (docs/SCENE.md) */
  impactfit_text_appendf(out, "; ");
  if (soft)
    impactfit_text_appendf(out, "contact.surface.soft_erp = %.12g; contact.surface.soft_cfm = %.12g; ", erp, cfm);
  if (bounce_on)
    impactfit_text_appendf(out, "contact.surface.bounce = %.12g; contact.surface.bounce_vel = %.12g; ", bounce, bvel);
  const double *mv = impactfit_code_value(c, "max_vel"), *sl = impactfit_code_value(c, "surface_layer");
  if (isfinite(mv[0]))
    impactfit_text_appendf(out, "dWorldSetContactMaxCorrectingVel(world, %.12g); ", mv[0]);
  if (sl[0] > 0.0)
    impactfit_text_appendf(out, "dWorldSetContactSurfaceLayer(world, %.12g); ", sl[0]);
  if (quick) {
    const double *qs = impactfit_code_value(c, "quickstep");
    impactfit_text_appendf(out, "dWorldSetQuickStepNumIterations(world, %.0f); dWorldSetQuickStepW(world, %.12g); ",
                           qs[0], qs[1]);
  }
  impactfit_text_appendf(out, "%s(world, %.12g);", quick ? "dWorldQuickStep" : "dWorldStep", c->dt);
}

static void kc_input(const impactfit_code_ctx *c, double kd, impactfit_text *out) {
  double kp = impactfit_code_value(c, "kp")[0], erp, cfm;
  const double *bn = impactfit_code_value(c, "bounce");
  impactfit__row_erp_cfm(c->dt, kp, kd, 0.0, &erp, &cfm); /* the manual's conversion */
  impactfit_text_appendf(out, "/* kp = %.12g N/m, kd = %.12g N s/m at h = %.12g s */ ", kp, kd, c->dt);
  surface_text(c, erp, cfm, bn[0], bn[1], 1, out);
}

static void erp_input(const impactfit_code_ctx *c, double erp, impactfit_text *out) {
  const double *bn = impactfit_code_value(c, "bounce");
  surface_text(c, erp, impactfit_code_value(c, "cfm")[0], bn[0], bn[1], 1, out);
}

static void bounce_input(const impactfit_code_ctx *c, double bounce, impactfit_text *out) {
  const double *bn = impactfit_code_value(c, "bounce");
  double erp = impactfit_code_value(c, "erp")[0], cfm = impactfit_code_value(c, "cfm")[0];
  int soft = erp != 0.2 || cfm != 1e-10;
  surface_text(c, erp, cfm, bounce, bn[1], soft, out);
}

static void ode_note_common(const impactfit_code_ctx *c, impactfit_text *out) {
  impactfit__friction_note(c, "contact.surface.mu",
                           "measured in ODE 0.16.2: mu 0, 0.5, 1 and dInfinity, with the friction box or "
                           "dContactApprox1, give the same bounce heights bit for bit, tests/engines/ode_scene.c",
                           out);
  if (c->integrator->stepper == &ode_quickstep) {
    const double *qs = impactfit_code_value(c, "quickstep");
    double r = fabs(1.0 - qs[1]);
    impactfit_text_appendf(out,
                           "quickstep: the SOR sweeps leave a relative error |1 - w|^iterations = %.3g in a step's "
                           "contact force (modelled exactly). ",
                           pow(r, qs[0]));
  }
  impactfit_text_appendf(out,
                         "ODE takes the contact's ERP/CFM per contact joint, not per body: M = m1 m2/(m1 + m2) "
                         "enters "
                         "through the row (%s). ",
                         c->wall ? "sphere on a plane: M = m1" : "two spheres");
}

static void kc_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  double kp = impactfit_code_value(c, "kp")[0];
  double a = c->dt * c->dt * kp / c->M;
  impactfit_text_appendf(out,
                         "ERP/CFM depend on the step: recompute them when h changes. h^2 k/M = %.4g: backward "
                         "Euler damps the spring by itself (the largest e any kd gives falls as h^2 k/M grows). ",
                         a);
  (void)value;
  ode_note_common(c, out);
}

static void plain_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  (void)value;
  ode_note_common(c, out);
}

static void bounce_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  (void)value;
  const double *bn = impactfit_code_value(c, "bounce");
  impactfit_text_appendf(out,
                         "bounce acts only in steps whose approach speed exceeds bounce_vel = %g m/s, and only "
                         "where it asks for more than the ERP correction; without bounce this contact gives "
                         "e = erp phi (mean erp/2), and with bounce b < erp e = max(erp phi, b) (mean erp/2 + "
                         "b^2/(2 erp)): no bounce gives a mean below erp/2. ",
                         bn[1]);
  ode_note_common(c, out);
}

/* kd from 1e-6 to 10 times the critical 2 sqrt(kp M): a damping ratio of 10 gives e = 0.0024 in continuous
 * time (clamped Kelvin-Voigt), and beyond it the body creeps out for ages (the impact's steps grow as the
 * ratio squared) */
static void kc_range(const impactfit_code_ctx *c, double *lo, double *hi) {
  impactfit__range_critical(impactfit_code_value(c, "kp")[0], c->M, 1e-6, 10.0, lo, hi);
}

/* erp from where the damping ratio of the spring and damper it stands for, (1 - erp)/(2 sqrt(erp M cfm/h)),
 * is about 10 (erp = h/(4 10^2 M cfm)), to 1 */
static void erp_range(const impactfit_code_ctx *c, double *lo, double *hi) {
  double l = c->dt / (4e2 * c->M * impactfit_code_value(c, "cfm")[0]);
  *lo = isfinite(l) ? fmin(fmax(l, 1e-12), 0.5) : 1e-12;
  *hi = 1.0;
}

static const impactfit_code_ops kc_ops = {
    .build = kc_build, .lo = 1e-9, .hi = 1e9, .range = kc_range, .naive = kc_naive, .input = kc_input, .note = kc_note};
static const impactfit_code_ops erp_ops = {.build = erp_build,
                                           .lo = 1e-12,
                                           .hi = 1.0,
                                           .range = erp_range,
                                           .naive = NULL,
                                           .input = erp_input,
                                           .note = plain_note};
static const impactfit_code_ops bounce_ops = {
    .build = bounce_build, .lo = 1e-6, .hi = 1.0, .naive = bounce_naive, .input = bounce_input, .note = bounce_note};

#define ODE_SOURCE                                                                                            \
  "ODE 0.16.2 ode/src/joints/contact.cpp:141-213 (getInfo2: soft ERP/CFM, depth - min_depth, max_vel cap, "   \
  "bounce); ode/src/objects.cpp:37-42,72-79 (world ERP 0.2, CFM 1e-10 in double precision, quickstep 20, "    \
  "1.3); ode/src/step.cpp:1098-1103,1236-1249,1459,1560-1578 (dWorldStep: A = J M^-1 J' + cfm/h, exact LCP, " \
  "velocity then position); ode/src/quickstep.cpp:48,1508-1513,2180-2192,2790-2858,2940-2953 (SOR from "      \
  "zero, no warm start); ode/src/sphere.cpp:238-249, ode/src/collision_util.cpp:44-65 (contact when depth "   \
  ">= 0)"
#define ODE_BODIES                                                                                                \
  "one row along the line of centres: A = 1/m1 + 1/m2 (a sphere on a static plane: 1/m1), so e depends on M = "   \
  "m1 m2/(m1 + m2) through h^2 k/M and h c/M; radii do not enter; ERP/CFM/bounce are set per contact joint (the " \
  "user's near callback), not combined from the bodies"
#define ODE_COMMON_TRAPS                                                                                           \
  "world CFM is 1e-10 in Debian's double build (1e-5 in single); the depth is the one dCollide found at the step " \
  "start; touching (depth 0) already makes a contact; max_vel caps the ERP correction only (not bounce); the "     \
  "surface layer removes depth from the correction; quickstep starts from zero force each step"

static const impactfit_code_integrator ode_integrators[] = {
    {.name = "step", .stepper = &ode_soft, .summary = "dWorldStep: the LCP of the contact row solved exactly"},
    {.name = "quickstep",
     .stepper = &ode_quickstep,
     .summary = "dWorldQuickStep: the row solved by SOR sweeps from zero (iterations, w)"},
};

#define ODE_ENTRY                                                                                                    \
  .code = &impactfit__code_ode, .option = "", .versions = "0.16.2", .first_version = "0.16.2", .version_min = 16002, \
  .version_max = 16002, .run_min = 16002, .run_max = 16002, .run_versions = "0.16.2 (Debian 12)", .law = NULL,       \
  .clamp_default = 1, .integrators = ode_integrators, .n_integrators = IMPACTFIT__COUNT(ode_integrators),            \
  .dt_default = 0.0, .solver = IMPACTFIT_CODE_SOLVE_MEAN, .bodies = ODE_BODIES, .source = ODE_SOURCE,                \
  .mixing = "none: the user's near callback sets the contact joint's surface (mu, ERP, CFM, bounce)",                \
  .assumes = "a head-on impact with no tangential motion (surface.mu is yours: measured, it does not change the "    \
             "normal response), gravity along the normal as the request gives it (0: none)",                         \
  .precision = "float64 (Debian's double build, dDOUBLE)"

static const impactfit_code_model models[] = {
    IMPACTFIT__ENTRY(ODE_ENTRY, .model = "spring-damper", .param = "kd", .param_unit = "N s/m", .param_input = "kd",
                     .param_index = 0,
                     .law_text = "a contact row with erp = h kp/(h kp + kd), cfm = 1/(h kp + kd) (the manual's "
                                 "conversion): the "
                                 "impulse "
                                 "of a step P = max(0, (erp delta/h + u)/(1/M + cfm/h)), then u <- u - P/M, delta <- "
                                 "delta + h u: "
                                 "backward "
                                 "Euler of f = kp delta + kd delta' clamped at f >= 0",
                     .end = "C (the LCP's force is >= 0: the bodies part where it would pull)",
                     .traps = "backward Euler damps by itself: at h^2 kp/M of order 1 no kd reaches a high e (kp = 1e3 "
                              "N/m, "
                              "M = 1.309 g, h = 1e-3 s: mean e at most 0.4027, measured in ODE); the damping-ratio "
                              "formula assumes the "
                              "contact "
                              "ends at delta = 0; bounce with a soft contact lowers e; " ODE_COMMON_TRAPS,
                     .n_inputs = IMPACTFIT__COUNT(kc_inputs), .inputs = kc_inputs, .ops = &kc_ops),
    IMPACTFIT__ENTRY(ODE_ENTRY, .model = "erp-cfm", .param = "erp", .param_unit = "-", .param_input = "erp",
                     .param_index = 0,
                     .law_text = "a contact row with soft_erp and soft_cfm as typed: P = max(0, (erp delta/h + u)/(1/M "
                                 "+ cfm/h)), "
                                 "u <- u - P/M, delta <- delta + h u (a spring kp = erp/(h cfm) and damper kd = (1 - "
                                 "erp)/cfm at this "
                                 "h)",
                     .end = "C (the LCP's force is >= 0)",
                     .traps = "the same erp and cfm are a different spring and damper at another h; " ODE_COMMON_TRAPS,
                     .n_inputs = IMPACTFIT__COUNT(erp_inputs), .inputs = erp_inputs, .ops = &erp_ops),
    IMPACTFIT__ENTRY(
        ODE_ENTRY, .model = "bounce", .param = "bounce", .param_unit = "-", .param_input = "bounce", .param_index = 0,
        .param_takes_zero = 1,
        .law_text = "the default (hard) contact row, erp 0.2 and cfm 1e-10, with dContactBounce: the row asks for the "
                    "separating speed c = max(erp delta/h, bounce u) when u > bounce_vel (else erp delta/h); P = "
                    "max(0, "
                    "(c + u)/(1/M + cfm/h)); without bounce e = erp phi (0 to 0.2, mean 0.1)",
        .end = "C (the LCP's force is >= 0)",
        .traps = "without bounce the default contact gives e = 0.2 phi whatever the materials; bounce is ignored "
                 "unless "
                 "bounce_vel >= 0 and the approach speed exceeds it; below e = erp/2 the ERP correction, not bounce, "
                 "decides the mean; " ODE_COMMON_TRAPS,
        .n_inputs = IMPACTFIT__COUNT(bounce_inputs), .inputs = bounce_inputs, .ops = &bounce_ops),
};

const impactfit_code impactfit__code_ode = {
    .name = "ode",
    .display = "ODE",
    .kind = "engine",
    .default_version = "0.16.2",
    .version_example = "0.16.2",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "0.16.2 (Debian 12)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
