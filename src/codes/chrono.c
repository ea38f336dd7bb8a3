/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Project Chrono's smooth (penalty, SMC) contact in the code registry (include/impactfit/codes.h;
 * docs/engines/CHRONO.md): one set of models for both questions, the continuous-time e (integrator
 * "continuous", the power law solved by impact.h) and the e at Chrono's time step. Formula only: Chrono is
 * not packaged by Debian 12, nothing here is run.
 *
 * Read in Chrono 10.0.0 (2026-04-07) and its development source of 2026-08-18 (7689fbc02d), and walked
 * back through the tags to 4.0.0:
 *   src/chrono/physics/ChContactSMC.cpp:23-201 (10.0.0; src/chrono/physics/ChContactSMC.h:40-222 in
 *     8.0.0-9.0.1, the template ChContactSMC<Ta, Tb>::CalculateForce in ChContactSMC.h in 4.0.0-7.0.3):
 *     ChDefaultContactForceTorqueSMC::CalculateForceTorque. eff_mass = m1 m2/(m1 + m2) of the two
 *     contactables' GetContactableMass() (:58; a fixed ChBody still reports its mass, 1 kg unless set:
 *     ChBody.h:617, ChVariablesBodyOwnMass.cpp:22); Fn = kn δ − gn v_n with, per model (:70-153):
 *       Hooke (mat. props.)  kn = (16/15) √R E (M V²/((16/15) √R E))^(1/5), gn = √(4 M kn/(1 + (π/ln cr)²)),
 *                            ln cr clamped to [ln ε, ln(1 − ε)];
 *       Hooke (kn, gn)       kn, gn M;
 *       Flores               falls through to Hooke (6.0.0 on; 5.0.x: no case, no normal force);
 *       Hertz (mat. props.)  kn = (2/3) Sn, gn = −2 √(5/6) β √(Sn M), Sn = 2 E √(R δ), β = ln cr/√(ln² cr + π²),
 *                            ln cr ≥ ln ε (no upper clamp: cr > 1 gives a negative damper);
 *       Hertz (kn, gn)       kn R √δ, gn M R √δ (R, not √R);
 *       PlainCoulomb         as Hertz with √δ for √(R δ) (no R), and gn √δ without M when kn, gn are given;
 *     Fn < 0 is set to 0 (:134, :175), then the adhesion (default 0) is subtracted.
 *   ChContactMaterialSMC.cpp:105-130: E = 1/((1 − ν1²)/E1 + (1 − ν2²)/E2), cr = min(cr1, cr2), kn and gn the
 *     means; every material property and composite is a float. Defaults E 2e5 Pa, ν 0.3, kn 2e5, gn 40
 *     (:28-40), restitution 0.4 (ChContactMaterial.cpp:32).
 *   ChCollisionInfo.cpp:19: eff_radius = 0.1 m unless the collision system sets it; the Bullet system (the
 *     usual one) never does, so every contact has R = 0.1 m; the Multicore system (ChNarrowphasePRIMS.cpp)
 *     gives r1 r2/(r1 + r2) and r for a sphere on a box face.
 *   ChSystemSMC.cpp:33-54: Hertz, material properties, characteristic velocity 1 m/s by default.
 *   ChSystem.cpp:83 (default timestepper EULER_IMPLICIT_LINEARIZED), :1598 (collision detection at the step's
 *     start, where ChContactSMC::Reset computes the force once, ChContactSMC.cpp:217-243), :1636 (the step);
 *     ChContactSMC.cpp:405-414 loads that stored force into every residual of the step, whatever the
 *     timestepper (ChContactContainerSMC::Update recomputes nothing). ChTimestepperImplicit.cpp:467-519
 *     (linearized implicit Euler: v' = v + h f/M with f from the step's start, then x' = x + h v'),
 *     :362-440 (EULER_IMPLICIT: the same fixed point), :551-590 (PROJECTED), ChTimestepperExplicit.cpp:130-147
 *     (EULER_EXPLICIT_II: x' = x + h v, v' = v + h a), :183-200 (EULER_SEMI_IMPLICIT), RUNGE_KUTTA and HEUN
 *     (their stages see the same stored force: the exact motion under that force over the step).
 * Not modelled: SetContactStiff(true) (contact Jacobians), HHT, Newmark, Leapfrog, Trapezoidal.
 *
 * One mass convention: the damper carries Chrono's eff_mass, a fixed wall's own mass included (the input
 * wall_mass, default 1 kg, Chrono's default body), while the motion is the sphere's; two spheres: both the
 * true reduced mass. Hence the smallest e of Hertz, at Chrono's clamp cr = ε (scale-free: any E, R, v):
 * 0.136019 for two spheres and 0.136138 for a sphere of 1.309 g on the default wall. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "impactfit/inverse.h"

/* ---------------------------------------------------------------- the family of a model */

typedef enum { CH_HOOKE, CH_HERTZ, CH_COULOMB } ch_kind;

/* the ops' data: the law's family, material properties or kn/gn, and Chrono's enum name */
typedef struct ch_model {
  ch_kind kind;
  int mat;           /* 1: UseMaterialProperties(true) (restitution); 0: kn, gn */
  const char *enum_; /* ChSystemSMC::ContactForceModel */
} ch_model;

static const ch_model *family(const impactfit_code_ctx *c) { return c->model->ops->data; }

/* ---------------------------------------------------------------- the integrators */

static const impactfit_code_integrator ch_integrators[] = {
    {.name = "euler-implicit-linearized",
     .stepper = &impactfit__stepper_euler_type,
     .summary = "EULER_IMPLICIT_LINEARIZED (the default): v' = v + h f/M with the force of the step's start, x' = x + "
                "h v'"},
    {.name = "euler-implicit",
     .stepper = &impactfit__stepper_euler_type,
     .summary = "EULER_IMPLICIT: the same fixed point"},
    {.name = "euler-implicit-projected",
     .stepper = &impactfit__stepper_euler_type,
     .summary = "EULER_IMPLICIT_PROJECTED: the same update"},
    {.name = "euler-semi-implicit",
     .stepper = &impactfit__stepper_euler_type,
     .summary = "EULER_SEMI_IMPLICIT: velocity first, then position"},
    {.name = "euler-explicit",
     .stepper = &impactfit__stepper_explicit_euler_type,
     .summary = "EULER_EXPLICIT_II: x' = x + h v, v' = v + h a"},
    {.name = "runge-kutta",
     .stepper = &impactfit__stepper_frozen_force_type,
     .summary = "RUNGE_KUTTA: every stage sees the force stored at the step's start"},
    {.name = "heun", .stepper = &impactfit__stepper_frozen_force_type, .summary = "HEUN: as RUNGE_KUTTA"},
    {.name = "continuous",
     .stepper = NULL,
     .summary = "continuous time (a step small enough not to matter): the power law solved by impact.h"},
};
/* Chrono's ChTimestepper::Type of each integrator above */
static const char *const ch_types[] = {"EULER_IMPLICIT_LINEARIZED",
                                       "EULER_IMPLICIT",
                                       "EULER_IMPLICIT_PROJECTED",
                                       "EULER_SEMI_IMPLICIT",
                                       "EULER_EXPLICIT_II",
                                       "RUNGE_KUTTA",
                                       "HEUN",
                                       NULL};

/* ---------------------------------------------------------------- the settings */

#define IN_E                                                                                                      \
  {                                                                                                               \
    .name = "young_modulus", .alias = "E", .unit = "Pa",                                                          \
    .help = "SetYoungModulus of the sphere's and the wall's (or other sphere's) material (Chrono's default 2e5)", \
    .count = 1, .def = {2e5}, .per_body = 1, .mix = IMPACTFIT_CODE_MIX_OWN                                        \
  }
#define IN_NU                                                                                                        \
  {                                                                                                                  \
    .name = "poisson_ratio", .alias = "nu", .unit = "-",                                                             \
    .help = "SetPoissonRatio of the sphere's and the wall's (or other sphere's) material (default 0.3)", .count = 1, \
    .def = {0.3}, .per_body = 1, .mix = IMPACTFIT_CODE_MIX_OWN                                                       \
  }
#define IN_CR                                                                                                  \
  {                                                                                                            \
    .name = "restitution", .unit = "-",                                                                        \
    .help = "SetRestitution of both materials (Chrono takes the smaller of the two; default 0.4)", .count = 1, \
    .def = {                                                                                                   \
      0.4                                                                                                      \
    }                                                                                                          \
  }
#define IN_MW                                                                                                   \
  {                                                                                                             \
    .name = "wall_mass", .unit = "kg",                                                                          \
    .help = "the fixed wall's own mass, which Chrono puts into the effective mass (ChBody default 1; spheres: " \
            "unused)",                                                                                          \
    .count = 1, .def = {                                                                                        \
      1.0                                                                                                       \
    }                                                                                                           \
  }
#define IN_R                                                                                                       \
  {                                                                                                                \
    .name = "eff_radius", .unit = "m",                                                                             \
    .help = "the contact's effective radius as Chrono sets it: 0.1 (ChCollisionInfo's default) for every contact " \
            "of the Bullet collision system; the Multicore system: r (wall) or r1 r2/(r1 + r2)",                   \
    .count = 1, .def = {0.1}, .contact_radius = 1                                                                  \
  }
#define IN_V                                                                                                         \
  {                                                                                                                  \
    .name = "impact_velocity", .alias = "vchar", .unit = "m/s",                                                      \
    .help = "SetCharacteristicImpactVelocity (Hooke's stiffness from the material; default 1)", .count = 1, .def = { \
      1.0                                                                                                            \
    }                                                                                                                \
  }
#define IN_KN(unit_)                                                                                        \
  {                                                                                                         \
    .name = "kn", .unit = unit_,                                                                            \
    .help = "SetKn of both materials (UseMaterialProperties(false); Chrono averages the two; default 2e5)", \
    .count = 1, .def = {                                                                                    \
      2e5                                                                                                   \
    }                                                                                                       \
  }
#define IN_GN(unit_)                                                                                                   \
  {                                                                                                                    \
    .name = "gn", .unit = unit_,                                                                                       \
    .help = "SetGn of both materials (UseMaterialProperties(false); Chrono averages the two; default 40)", .count = 1, \
    .def = {                                                                                                           \
      40.0                                                                                                             \
    }                                                                                                                  \
  }

/* the materials' friction (SetFriction; Chrono's composite takes the smaller): yours, kept in the pasted lines */
#define IN_MU                                                                                                         \
  {                                                                                                                   \
    .name = "friction", .unit = "-",                                                                                  \
    .help = "SetFriction of one or each material (the composite takes the smaller; yours: kept in the pasted lines; " \
            "a head-on normal law does not read it)",                                                                 \
    .count = 1, .def = {NAN}, .per_body = 1, .mix = IMPACTFIT_CODE_MIX_MIN, .optional = 1                             \
  }
static const impactfit_code_input in_hertz[] = {IN_E, IN_NU, IN_CR, IN_MW, IN_R, IN_MU};
static const impactfit_code_input in_hooke[] = {IN_E, IN_NU, IN_CR, IN_MW, IN_R, IN_V, IN_MU};
static const impactfit_code_input in_coulomb[] = {IN_E, IN_NU, IN_CR, IN_MW, IN_MU};
static const impactfit_code_input in_hertz_kn[] = {IN_KN("N/m^2.5"), IN_GN("1/(m^1.5 s)"), IN_MW, IN_R, IN_MU};
static const impactfit_code_input in_hooke_kn[] = {IN_KN("N/m"), IN_GN("1/s"), IN_MW, IN_MU};
static const impactfit_code_input in_coulomb_kn[] = {IN_KN("N/m^1.5"), IN_GN("N s/m^1.5"), IN_MW, IN_MU};

/* ---------------------------------------------------------------- the law */

/* The effective mass the force law sees: the contactables' masses, the fixed wall's included. */
static double code_mass(const impactfit_code_ctx *c) {
  if (!c->wall)
    return c->M;
  double mw = impactfit_code_value(c, "wall_mass")[0];
  return c->M * mw / (c->M + mw);
}

/* ln cr as Chrono clamps it: ≥ ln ε always, ≤ ln(1 − ε) for Hooke */
static double log_cr(double cr, int hooke) {
  double L = cr < DBL_EPSILON ? log(DBL_EPSILON) : log(cr);
  if (hooke && cr > 1.0 - DBL_EPSILON)
    L = log(1.0 - DBL_EPSILON);
  return L;
}

static int check_inputs(const impactfit_code_ctx *c, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (strcmp(in->name, "restitution") == 0 || strcmp(in->name, "gn") == 0)
      continue;         /* the free parameter: checked by the build */
    if (in->optional) { /* the user's friction: not read by the normal law, but not negative */
      for (int b = 1; b <= 2; b++)
        if (impactfit_code_given(c, in->name) && !(impactfit_code_body_value(c, in->name, b)[0] >= 0.0))
          return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "chrono %s: %s must be >= 0 (got %.17g)", md->model, in->name,
                                 impactfit_code_body_value(c, in->name, b)[0]);
      continue;
    }
    int poisson = strcmp(in->name, "poisson_ratio") == 0;
    for (int b = 1; b <= (in->per_body ? 2 : 1); b++) {
      double x = impactfit_code_body_value(c, in->name, b)[0];
      if (poisson ? !(x > -1.0 && x < 1.0) : !(x > 0.0))
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "chrono %s: %s value %d is out of range (got %.17g)", md->model,
                               in->name, b, x);
    }
  }
  return 0;
}

/* The power law f = K δ^n + C δ^m δ' of the model for the free parameter p (restitution or gn). */
static int law_of(const impactfit_code_ctx *c, double p, impactfit_law *law, impactfit_error *err) {
  const impactfit_code_model *md = c->model;
  const ch_model *f = family(c);
  int s = check_inputs(c, err);
  if (s)
    return s;
  if (!(isfinite(p) && (f->mat ? p > 0.0 : p >= 0.0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "chrono %s: %s must be %s (got %.17g)", md->model, md->param,
                           f->mat ? "> 0" : ">= 0", p);
  double M = code_mass(c), K, C, n, m;
  const double *R = impactfit_code_value(c, "eff_radius");
  if (f->mat) {
    double E1 = impactfit_code_body_value(c, "young_modulus", 1)[0],
           E2 = impactfit_code_body_value(c, "young_modulus", 2)[0];
    double nu1 = impactfit_code_body_value(c, "poisson_ratio", 1)[0];
    double nu2 = impactfit_code_body_value(c, "poisson_ratio", 2)[0];
    double Eeff = 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
    double L = log_cr(p, f->kind == CH_HOOKE);
    if (f->kind == CH_HOOKE) {
      double V = impactfit_code_value(c, "impact_velocity")[0];
      double tk = 16.0 / 15.0 * sqrt(R[0]) * Eeff;
      K = tk * pow(M * V * V / tk, 0.2);
      C = sqrt(4.0 * M * K / (1.0 + (IMPACTFIT__PI / L) * (IMPACTFIT__PI / L)));
      n = 1.0;
      m = 0.0;
    } else {
      /* Sn = 2 E √(R δ) (PlainCoulomb: √δ), kn δ = (2/3) Sn δ, gn = −2 √(5/6) β √(Sn M) */
      double r = f->kind == CH_HERTZ ? R[0] : 1.0;
      double beta = L / sqrt(L * L + IMPACTFIT__PI * IMPACTFIT__PI);
      K = 2.0 / 3.0 * 2.0 * Eeff * sqrt(r);
      C = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(2.0 * Eeff * sqrt(r) * M);
      n = 1.5;
      m = 0.25;
    }
  } else {
    double kn = impactfit_code_value(c, "kn")[0];
    if (f->kind == CH_HOOKE) {
      K = kn;
      C = p * M;
      n = 1.0;
      m = 0.0;
    } else if (f->kind == CH_HERTZ) {
      K = R[0] * kn;
      C = R[0] * M * p;
      n = 1.5;
      m = 0.5;
    } else {
      K = kn;
      C = p;
      n = 1.5;
      m = 0.5;
    }
  }
  *law = impactfit_law_power_make(K, n, C, m);
  return 0;
}

static int build(const impactfit_code_ctx *c, double p, impactfit_stepper *st, impactfit_error *err) {
  impactfit_law law;
  int s = law_of(c, p, &law, err);
  if (s)
    return s;
  memset(st, 0, sizeof *st);
  st->type = c->integrator->stepper; /* NULL: continuous time */
  st->law = law;
  st->end = impactfit_transition_C;
  st->mass = c->M; /* the bodies' own dynamics: the wall does not move */
  st->dt = c->dt;
  return 0;
}

/* the typed restitution itself */
static int naive_cr(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what, impactfit_error *err) {
  (void)c, (void)err;
  *value = e;
  impactfit_text_appendf(what, "restitution = e (SetRestitution(e))");
  return 0;
}

/* Hooke with kn, gn: the linear spring-dashpot's damping per unit mass, gn = 2 |ln e| sqrt(kn/M)/sqrt(pi^2 +
 * ln^2 e), which is what Chrono computes from a restitution with material properties */
static int naive_hooke_kn(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                          impactfit_error *err) {
  (void)err;
  double L = log(e), kn = impactfit_code_value(c, "kn")[0];
  *value = 2.0 * fabs(L) * sqrt(kn / code_mass(c)) / sqrt(IMPACTFIT__PI * IMPACTFIT__PI + L * L);
  impactfit_text_appendf(what, "gn = 2 |ln e| sqrt(kn/M)/sqrt(pi^2 + ln^2 e) (linear spring-dashpot, contact to delta "
                               "= 0)");
  return 0;
}

/* ---------------------------------------------------------------- texts */

static void input(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const ch_model *f = family(c);
  impactfit_text_appendf(out, "sys.SetContactForceModel(ChSystemSMC::%s);\nsys.UseMaterialProperties(%s);\n", f->enum_,
                         f->mat ? "true" : "false");
  if (f->mat) {
    double E1 = impactfit_code_body_value(c, "young_modulus", 1)[0],
           E2 = impactfit_code_body_value(c, "young_modulus", 2)[0];
    double nu1 = impactfit_code_body_value(c, "poisson_ratio", 1)[0];
    double nu2 = impactfit_code_body_value(c, "poisson_ratio", 2)[0];
    impactfit_text_appendf(out,
                           "mat1->SetYoungModulus(%.9g); mat1->SetPoissonRatio(%.9g); mat1->SetRestitution(%.9g);\n"
                           "mat2->SetYoungModulus(%.9g); mat2->SetPoissonRatio(%.9g); mat2->SetRestitution(%.9g);\n",
                           E1, nu1, p, E2, nu2, p);
    if (f->kind == CH_HOOKE)
      impactfit_text_appendf(out, "sys.SetCharacteristicImpactVelocity(%.9g);\n",
                             impactfit_code_value(c, "impact_velocity")[0]);
  } else {
    double kn = impactfit_code_value(c, "kn")[0];
    impactfit_text_appendf(out, "mat1->SetKn(%.9g); mat1->SetGn(%.9g);\nmat2->SetKn(%.9g); mat2->SetGn(%.9g);\n", kn, p,
                           kn, p);
  }
  for (int b = 1; b <= 2; b++)
    if (impactfit_code_given(c, "friction"))
      impactfit_text_appendf(out, "mat%d->SetFriction(%.9g);\n", b, impactfit_code_body_value(c, "friction", b)[0]);
    else
      impactfit_text_appendf(out, "mat%d->SetFriction(<yours>);  // and SetRollingFriction, SetSpinningFriction\n", b);
  const double *R = impactfit_code_value(c, "eff_radius");
  if (R && R[0] != 0.1)
    impactfit_text_appendf(out,
                           "// Bullet: ChCollisionInfo::SetDefaultEffectiveCurvatureRadius(%.9g); (Multicore: its own "
                           "R)\n",
                           R[0]);
  if (c->wall)
    impactfit_text_appendf(out, "wall->SetMass(%.9g);  // enters the effective mass even when fixed\n",
                           impactfit_code_value(c, "wall_mass")[0]);
  const char *type = ch_types[c->integrator - ch_integrators];
  if (type)
    impactfit_text_appendf(out, "sys.SetTimestepperType(ChTimestepper::Type::%s);\nsys.DoStepDynamics(%.9g);", type,
                           c->dt);
  else
    impactfit_text_appendf(out, "// continuous time: any timestepper at a step small enough not to change e\n");
}

static void note(const impactfit_code_ctx *c, double p, impactfit_text *out) {
  const ch_model *f = family(c);
  (void)p;
  const double *R = impactfit_code_value(c, "eff_radius");
  if (R)
    impactfit_text_appendf(out,
                           "R = %g m: the Bullet collision system gives every contact ChCollisionInfo's default "
                           "effective radius (0.1 m) whatever the spheres; the Multicore system uses the true R. ",
                           R[0]);
  if (c->wall)
    impactfit_text_appendf(out,
                           "The fixed wall's mass (%g kg) enters Chrono's effective mass M = %.6g kg (the sphere: %.6g "
                           "kg). ",
                           impactfit_code_value(c, "wall_mass")[0], code_mass(c), c->M);
  if (f->mat) {
    /* the smallest e: cr at Chrono's clamp ε */
    impactfit_law law;
    if (law_of(c, DBL_EPSILON, &law, NULL) == 0) {
      impactfit_law_impact_params lp = impactfit_law_impact_default_params();
      impactfit_law_impact_result r;
      lp.law = law;
      lp.mass = c->M;
      lp.v = c->v;
      if (impactfit_law_impact_solve(NULL, &lp, &r, NULL) == 0)
        impactfit_text_appendf(out,
                               "No restitution gives less than e = %.6g in continuous time (Chrono clamps ln cr at ln "
                               "of the machine epsilon). ",
                               r.e_out);
    }
    impactfit_text_appendf(out, "Chrono stores the restitution and the moduli as float (7 digits). ");
  }
  if (strcmp(f->enum_, "Flores") == 0)
    impactfit_text_appendf(out, "Flores is not implemented: Chrono 6.0.0 on computes Hooke (5.0.x: no normal force). ");
  impactfit_text_appendf(out, "The contact force is computed once per step, at the collision detection of the step's "
                              "start. ");
  if (impactfit_code_given(c, "friction"))
    impactfit_text_appendf(out, "Your friction is kept (the composite takes the smaller of the two materials'); the "
                                "head-on normal law does not depend on it. ");
  else
    impactfit_text_appendf(out, "Friction is yours (SetFriction(<yours>) in the lines): the head-on normal law does "
                                "not depend on it. ");
  if (f->mat && isfinite(c->req->e) && (isfinite(c->req->e11) || isfinite(c->req->e22)))
    impactfit_text_appendf(out, "Chrono gives an unlike pair min(cr1, cr2) of the two materials' restitutions: a "
                                "restitution per type pair (e11, e22 and e) needs a custom "
                                "ChContactMaterialCompositionStrategy. ");
}

/* ---------------------------------------------------------------- the models */

#define CH_OPS(name, kind_, mat_, enum_name, naive_)                                    \
  static const ch_model name##_data = {.kind = kind_, .mat = mat_, .enum_ = enum_name}; \
  static const impactfit_code_ops name = {.build = build,                               \
                                          .lo = (mat_) ? DBL_EPSILON : 1e-12,           \
                                          .hi = (mat_) ? 1.0 - 1e-12 : 1e12,            \
                                          .naive = naive_,                              \
                                          .input = input,                               \
                                          .note = note,                                 \
                                          .data = &name##_data};
CH_OPS(o_hertz, CH_HERTZ, 1, "Hertz", naive_cr)
CH_OPS(o_hooke, CH_HOOKE, 1, "Hooke", naive_cr)
CH_OPS(o_flores, CH_HOOKE, 1, "Flores", naive_cr)
CH_OPS(o_coulomb, CH_COULOMB, 1, "PlainCoulomb", naive_cr)
CH_OPS(o_hertz_kn, CH_HERTZ, 0, "Hertz", NULL)
CH_OPS(o_hooke_kn, CH_HOOKE, 0, "Hooke", naive_hooke_kn)
CH_OPS(o_coulomb_kn, CH_COULOMB, 0, "PlainCoulomb", NULL)

#define CH_VERSIONS "4.0.0 to 10.0.0"
#define CH_SRC                                                                                                       \
  "Chrono 10.0.0 src/chrono/physics/ChContactSMC.cpp:23-201 (ChDefaultContactForceTorqueSMC::CalculateForceTorque; " \
  "ChContactSMC.h:40-222 in 8.0.0-9.0.1, ChContactSMC<Ta,Tb>::CalculateForce in ChContactSMC.h before), "            \
  "ChContactMaterialSMC.cpp:105-130, ChCollisionInfo.cpp:19, ChSystem.cpp:83, :1598, :1636, "                        \
  "timestepper/ChTimestepperImplicit.cpp:467-519"
#define CH_BODIES                                                                                                \
  "M = m1 m2/(m1 + m2) of the contactables' masses, a fixed wall's own mass included (ChBody default 1 kg), in " \
  "the damper; the motion is the sphere's (the wall does not move); R = eff_radius (Bullet: 0.1 m for every "    \
  "contact)"
#define CH_MIXING                                                                                           \
  "E = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2), cr = min(cr1, cr2), kn and gn the means of the two materials' " \
  "(ChContactMaterialSMC.cpp:105-130)"
#define CH_END "C (Fn < 0 is set to 0: the bodies part there)"
#define CH_TRAPS                                                                                                  \
  "Bullet's R = 0.1 m whatever the spheres; the fixed wall's mass enters M; the force is computed once per step " \
  "from the step's start; float material properties"

/* mat_: 1 for a restitution (UseMaterialProperties(true)), 0 for kn, gn */
#define CH_ENTRY(name_, option_, vers_, first_, vmin_, n_, m_, mat_, param_, unit_, law_, inputs_, ops_, traps_)      \
  {                                                                                                                   \
    .code = &impactfit__code_chrono, .model = name_, .option = option_, .versions = vers_, .first_version = first_,   \
    .version_min = vmin_, .version_max = 10000999, .law = &impactfit__law_power_type, .n = n_, .m = m_,               \
    .clamp_default = 1, .inputs = inputs_, .n_inputs = IMPACTFIT__COUNT(inputs_), .integrators = ch_integrators,      \
    .n_integrators = IMPACTFIT__COUNT(ch_integrators), .dt_default = 0.0,                                             \
    .solver = (mat_) ? IMPACTFIT_CODE_SOLVE_CONVERSION : IMPACTFIT_CODE_SOLVE_DAMPER, .param = param_,                \
    .param_unit = unit_, .param_input = param_, .param_index = 0, .takes_e = mat_, .ops = ops_, .law_text = law_,     \
    .end = CH_END, .bodies = CH_BODIES, .mixing = CH_MIXING, .traps = traps_,                                         \
    .assumes = "a head-on impact (no tangential motion: the friction, yours, does not enter the normal law), no "     \
               "gravity, no adhesion",                                                                                \
    .precision = "float material properties and composites (ChContactMaterialSMC), double dynamics", .source = CH_SRC \
  }

#define LAW_HERTZ                                                                                                  \
  "Fn = (4/3) E sqrt(R) delta^(3/2) + 2 sqrt(5/6) |beta| sqrt(2 E sqrt(R) M) delta^(1/4) delta', beta = ln cr/"    \
  "sqrt(ln^2 cr + pi^2), ln cr >= ln(eps) (UseMaterialProperties(true), the default model): K = (4/3) E sqrt(R), " \
  "C = sqrt(5) |beta| sqrt(M K)"
#define LAW_HOOKE                                                                                                  \
  "Fn = kn delta + gn delta', kn = (16/15) sqrt(R) E (M V^2/((16/15) sqrt(R) E))^(1/5) (V: characteristic impact " \
  "velocity), gn = sqrt(4 M kn/(1 + (pi/ln cr)^2)), ln cr in [ln eps, ln(1 - eps)]"
#define LAW_COULOMB                                                                                                  \
  "Fn = (4/3) E delta^(3/2) + 2 sqrt(5/6) |beta| sqrt(2 E M) delta^(1/4) delta' (Hertz with sqrt(delta) for sqrt(R " \
  "delta): no radius)"

static const impactfit_code_model models[] = {
    CH_ENTRY("hertz", "", CH_VERSIONS, "4.0.0", 4000000, 1.5, 0.25, 1, "restitution", "-", LAW_HERTZ, in_hertz,
             &o_hertz, CH_TRAPS),
    CH_ENTRY("hooke", "", CH_VERSIONS, "4.0.0", 4000000, 1.0, 0.0, 1, "restitution", "-", LAW_HOOKE, in_hooke, &o_hooke,
             CH_TRAPS),
    CH_ENTRY("flores", "", "6.0.0 to 10.0.0 (5.0.x: no normal force)", "6.0.0", 6000000, 1.0, 0.0, 1, "restitution",
             "-", "not implemented: falls through to Hooke (6.0.0 on; 5.0.x: no normal force): " LAW_HOOKE, in_hooke,
             &o_flores, "Flores computes Hooke; " CH_TRAPS),
    CH_ENTRY("plaincoulomb", "", CH_VERSIONS, "4.0.0", 4000000, 1.5, 0.25, 1, "restitution", "-", LAW_COULOMB,
             in_coulomb, &o_coulomb, "no radius in the normal force; " CH_TRAPS),
    CH_ENTRY("hertz", "gn", CH_VERSIONS, "4.0.0", 4000000, 1.5, 0.5, 0, "gn", "1/(m^1.5 s)",
             "Fn = R kn delta^(3/2) + R M gn delta^(1/2) delta' (UseMaterialProperties(false); R, not sqrt(R))",
             in_hertz_kn, &o_hertz_kn, "R multiplies kn (not sqrt(R)); " CH_TRAPS),
    CH_ENTRY("hooke", "gn", CH_VERSIONS, "4.0.0", 4000000, 1.0, 0.0, 0, "gn", "1/s",
             "Fn = kn delta + M gn delta' (UseMaterialProperties(false))", in_hooke_kn, &o_hooke_kn, CH_TRAPS),
    CH_ENTRY("plaincoulomb", "gn", CH_VERSIONS, "4.0.0", 4000000, 1.5, 0.5, 0, "gn", "N s/m^1.5",
             "Fn = kn delta^(3/2) + gn delta^(1/2) delta' (UseMaterialProperties(false); no mass, no radius)",
             in_coulomb_kn, &o_coulomb_kn, "gn is not multiplied by the mass; " CH_TRAPS),
};

const impactfit_code impactfit__code_chrono = {
    .name = "chrono",
    .display = "Chrono",
    .kind = "dem+engine",
    .default_version = "10.0.0",
    .version_example = "10.0.0",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = NULL,
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
