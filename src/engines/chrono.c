/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Project Chrono's smooth (penalty, SMC) contact in the engine registry (include/impactfit/engines.h;
 * docs/engines/CHRONO.md). Formula only: Chrono is not packaged by Debian 12, nothing here is run.
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
 * Not modelled: SetContactStiff(true) (contact Jacobians), HHT, Newmark, Leapfrog, Trapezoidal. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../law/stepper_impl.h"
#include "engines_impl.h"

/* ---------------------------------------------------------------- the two extra step maps */

/* Forward Euler with the force of the step's start: x' = x + h u, u' = u − h f(x, u)/M (Chrono's
 * EULER_EXPLICIT_I and _II). */
static int fe_step(const impactfit_stepper *st, impactfit_step_state *s) {
  double f = 0.0;
  int clamped = 0;
  s->contact = s->x > 0.0;
  if (s->contact)
    f = impactfit__step_law_force(st, s->x, s->u, &clamped);
  s->x += st->dt * s->u;
  s->u -= st->dt * f / st->mass;
  s->f = f;
  s->branch = clamped;
  return 0;
}

/* [x', u'] = [[1, h], [−h a, 1 − h b]] [x, u] with a = kl/M, b = bl/M */
static double fe_amp(const impactfit_stepper *st, double kl, double bl) {
  double h = st->dt, a = kl / st->mass, b = bl / st->mass;
  return impactfit_step_spectral_radius(1.0, h, -h * a, 1.0 - h * b);
}

/* The exact motion under the force of the step's start, held over the step: x' = x + h u − h² f/(2M),
 * u' = u − h f/M (Chrono's RUNGE_KUTTA and HEUN, whose stages all see the contact force stored at the
 * step's start). */
static int ff_step(const impactfit_stepper *st, impactfit_step_state *s) {
  double f = 0.0;
  int clamped = 0;
  s->contact = s->x > 0.0;
  if (s->contact)
    f = impactfit__step_law_force(st, s->x, s->u, &clamped);
  double a = -f / st->mass, h = st->dt;
  s->x += h * s->u + 0.5 * h * h * a;
  s->u += h * a;
  s->f = f;
  s->branch = clamped;
  return 0;
}

static double ff_amp(const impactfit_stepper *st, double kl, double bl) {
  double h = st->dt, a = kl / st->mass, b = bl / st->mass;
  return impactfit_step_spectral_radius(1.0 - 0.5 * h * h * a, h - 0.5 * h * h * b, -h * a, 1.0 - h * b);
}

const impactfit_stepper_type impactfit__stepper_explicit_euler = {
    .name = "explicit-euler",
    .summary = "forward Euler, force from the step's start, position with the old velocity (Chrono EULER_EXPLICIT)",
    .needs_law = 1,
    .step = fe_step,
    .amplification = fe_amp,
    .affine = impactfit__step_law_affine,
};

const impactfit_stepper_type impactfit__stepper_frozen_force = {
    .name = "frozen-force",
    .summary = "the exact motion under the force of the step's start (Chrono RUNGE_KUTTA, HEUN with SMC contacts)",
    .needs_law = 1,
    .step = ff_step,
    .amplification = ff_amp,
    .affine = impactfit__step_law_affine,
};

/* ---------------------------------------------------------------- the models */

typedef enum { CH_HOOKE, CH_HERTZ, CH_COULOMB } ch_kind;

#define IN_E                                                                                                      \
  {                                                                                                               \
    .name = "young_modulus", .unit = "Pa, Pa",                                                                    \
    .help = "SetYoungModulus of the sphere's and the wall's (or other sphere's) material (Chrono's default 2e5)", \
    .count = 2, .def = {                                                                                          \
      2e5,                                                                                                        \
      2e5                                                                                                         \
    }                                                                                                             \
  }
#define IN_NU                                                                                                        \
  {                                                                                                                  \
    .name = "poisson_ratio", .unit = "-, -",                                                                         \
    .help = "SetPoissonRatio of the sphere's and the wall's (or other sphere's) material (default 0.3)", .count = 2, \
    .def = {                                                                                                         \
      0.3,                                                                                                           \
      0.3                                                                                                            \
    }                                                                                                                \
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
    .count = 1, .def = {                                                                                           \
      0.1                                                                                                          \
    }                                                                                                              \
  }
#define IN_V                                                                                                         \
  {                                                                                                                  \
    .name = "impact_velocity", .unit = "m/s",                                                                        \
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

static const impactfit_engine_input in_hertz[] = {IN_E, IN_NU, IN_CR, IN_MW, IN_R};
static const impactfit_engine_input in_hooke[] = {IN_E, IN_NU, IN_CR, IN_MW, IN_R, IN_V};
static const impactfit_engine_input in_coulomb[] = {IN_E, IN_NU, IN_CR, IN_MW};
static const impactfit_engine_input in_hertz_kn[] = {IN_KN("N/m^2.5"), IN_GN("1/(m^1.5 s)"), IN_MW, IN_R};
static const impactfit_engine_input in_hooke_kn[] = {IN_KN("N/m"), IN_GN("1/s"), IN_MW};
static const impactfit_engine_input in_coulomb_kn[] = {IN_KN("N/m^1.5"), IN_GN("N s/m^1.5"), IN_MW};

/* What the model is, from its registry entry. */
static ch_kind kind_of(const impactfit_engine_model *md) {
  if (strncmp(md->model, "Hertz", 5) == 0)
    return CH_HERTZ;
  if (strncmp(md->model, "PlainCoulomb", 12) == 0)
    return CH_COULOMB;
  return CH_HOOKE; /* Hooke, Flores */
}
static int uses_mat(const impactfit_engine_model *md) { return strstr(md->model, "kn/gn") == NULL; }

/* The effective mass the force law sees: the contactables' masses, the fixed wall's included. */
static double code_mass(const impactfit__engine_ctx *c) {
  const impactfit_engine_bodies *b = &c->req->bodies;
  if (!b->plane)
    return c->M;
  double mw = impactfit__engine_val(c, "wall_mass")[0];
  return b->m1 * mw / (b->m1 + mw);
}

/* ln cr as Chrono clamps it: ≥ ln ε always, ≤ ln(1 − ε) for Hooke */
static double log_cr(double cr, int hooke) {
  double L = cr < DBL_EPSILON ? log(DBL_EPSILON) : log(cr);
  if (hooke && cr > 1.0 - DBL_EPSILON)
    L = log(1.0 - DBL_EPSILON);
  return L;
}

static int check_inputs(const impactfit__engine_ctx *c, impactfit_error *err) {
  const impactfit_engine_model *md = c->md;
  for (int i = 0; i < md->n_inputs; i++) {
    const char *name = md->inputs[i].name;
    const double *x = c->vals[i];
    int poisson = strcmp(name, "poisson_ratio") == 0;
    for (int j = 0; j < md->inputs[i].count; j++) {
      int bad = poisson ? !(x[j] > -1.0 && x[j] < 1.0) : !(x[j] > 0.0);
      if (strcmp(name, "restitution") == 0 || strcmp(name, "gn") == 0)
        continue; /* the free parameter: checked by the build */
      if (bad)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "chrono %s: %s value %d is out of range (got %.17g)", md->model,
                               name, j + 1, x[j]);
    }
  }
  return 0;
}

/* The power law f = K δ^n + C δ^m δ' of the model for the free parameter p (restitution or gn). */
static int law_of(const impactfit__engine_ctx *c, double p, impactfit_law *law, impactfit_error *err) {
  const impactfit_engine_model *md = c->md;
  int s = check_inputs(c, err);
  if (s)
    return s;
  ch_kind kind = kind_of(md);
  int mat = uses_mat(md);
  if (!(isfinite(p) && (mat ? p > 0.0 : p >= 0.0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "chrono %s: %s must be %s (got %.17g)", md->model, md->param,
                           mat ? "> 0" : ">= 0", p);
  double M = code_mass(c), K, C, n, m;
  const double *R = impactfit__engine_val(c, "eff_radius");
  if (mat) {
    const double *E = impactfit__engine_val(c, "young_modulus"), *nu = impactfit__engine_val(c, "poisson_ratio");
    double Eeff = 1.0 / ((1.0 - nu[0] * nu[0]) / E[0] + (1.0 - nu[1] * nu[1]) / E[1]);
    double L = log_cr(p, kind == CH_HOOKE);
    if (kind == CH_HOOKE) {
      double V = impactfit__engine_val(c, "impact_velocity")[0];
      double tk = 16.0 / 15.0 * sqrt(R[0]) * Eeff;
      K = tk * pow(M * V * V / tk, 0.2);
      C = sqrt(4.0 * M * K / (1.0 + (IMPACTFIT__PI / L) * (IMPACTFIT__PI / L)));
      n = 1.0;
      m = 0.0;
    } else {
      /* Sn = 2 E √(R δ) (PlainCoulomb: √δ), kn δ = (2/3) Sn δ, gn = −2 √(5/6) β √(Sn M) */
      double r = kind == CH_HERTZ ? R[0] : 1.0;
      double beta = L / sqrt(L * L + IMPACTFIT__PI * IMPACTFIT__PI);
      K = 2.0 / 3.0 * 2.0 * Eeff * sqrt(r);
      C = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(2.0 * Eeff * sqrt(r) * M);
      n = 1.5;
      m = 0.25;
    }
  } else {
    double kn = impactfit__engine_val(c, "kn")[0];
    if (kind == CH_HOOKE) {
      K = kn;
      C = p * M;
      n = 1.0;
      m = 0.0;
    } else if (kind == CH_HERTZ) {
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

static int build(const impactfit__engine_ctx *c, double p, impactfit_stepper *st, impactfit_error *err) {
  impactfit_law law;
  int s = law_of(c, p, &law, err);
  if (s)
    return s;
  memset(st, 0, sizeof *st);
  const char *in = c->integrator;
  if (strcmp(in, "euler-explicit") == 0)
    st->type = &impactfit__stepper_explicit_euler;
  else if (strcmp(in, "runge-kutta") == 0 || strcmp(in, "heun") == 0)
    st->type = &impactfit__stepper_frozen_force;
  else
    st->type = impactfit_stepper_euler; /* the implicit Euler family and EULER_SEMI_IMPLICIT */
  st->law = law;
  st->end = impactfit_transition_C;
  st->mass = c->M; /* the bodies' own dynamics: the wall does not move */
  st->dt = c->dt;
  return 0;
}

/* the typed restitution itself */
static int naive_cr(const impactfit__engine_ctx *c, double e, impactfit_stepper *st, double *value, char *what,
                    size_t size, impactfit_error *err) {
  *value = e;
  snprintf(what, size, "restitution = e (SetRestitution(e))");
  return build(c, e, st, err);
}

/* Hooke with kn, gn: the linear spring-dashpot's damping per unit mass, gn = 2 |ln e| sqrt(kn/M)/sqrt(pi^2 +
 * ln^2 e), which is what Chrono computes from a restitution with material properties */
static int naive_hooke_kn(const impactfit__engine_ctx *c, double e, impactfit_stepper *st, double *value, char *what,
                          size_t size, impactfit_error *err) {
  double L = log(e), kn = impactfit__engine_val(c, "kn")[0];
  *value = 2.0 * fabs(L) * sqrt(kn / code_mass(c)) / sqrt(IMPACTFIT__PI * IMPACTFIT__PI + L * L);
  snprintf(what, size, "gn = 2 |ln e| sqrt(kn/M)/sqrt(pi^2 + ln^2 e) (linear spring-dashpot, contact to delta = 0)");
  return build(c, *value, st, err);
}

static const char *model_enum(const impactfit_engine_model *md) {
  switch (kind_of(md)) {
  case CH_HERTZ:
    return "Hertz";
  case CH_COULOMB:
    return "PlainCoulomb";
  default:
    return strncmp(md->model, "Flores", 6) == 0 ? "Flores" : "Hooke";
  }
}

static const char *stepper_enum(const char *in) {
  static const struct {
    const char *name, *type;
  } map[] = {{"euler-implicit-linearized", "EULER_IMPLICIT_LINEARIZED"},
             {"euler-implicit", "EULER_IMPLICIT"},
             {"euler-implicit-projected", "EULER_IMPLICIT_PROJECTED"},
             {"euler-semi-implicit", "EULER_SEMI_IMPLICIT"},
             {"euler-explicit", "EULER_EXPLICIT_II"},
             {"runge-kutta", "RUNGE_KUTTA"},
             {"heun", "HEUN"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i].name, in) == 0)
      return map[i].type;
  return "EULER_IMPLICIT_LINEARIZED";
}

static void input(const impactfit__engine_ctx *c, double p, char *buf, size_t size) {
  const impactfit_engine_model *md = c->md;
  int mat = uses_mat(md);
  buf[0] = 0;
  impactfit__engine_appendf(buf, size, "sys.SetContactForceModel(ChSystemSMC::%s);\nsys.UseMaterialProperties(%s);\n",
                            model_enum(md), mat ? "true" : "false");
  if (mat) {
    const double *E = impactfit__engine_val(c, "young_modulus"), *nu = impactfit__engine_val(c, "poisson_ratio");
    impactfit__engine_appendf(buf, size,
                              "mat1->SetYoungModulus(%.9g); mat1->SetPoissonRatio(%.9g); mat1->SetRestitution(%.9g);\n"
                              "mat2->SetYoungModulus(%.9g); mat2->SetPoissonRatio(%.9g); mat2->SetRestitution(%.9g);\n",
                              E[0], nu[0], p, E[1], nu[1], p);
    if (kind_of(md) == CH_HOOKE)
      impactfit__engine_appendf(buf, size, "sys.SetCharacteristicImpactVelocity(%.9g);\n",
                                impactfit__engine_val(c, "impact_velocity")[0]);
  } else {
    double kn = impactfit__engine_val(c, "kn")[0];
    impactfit__engine_appendf(
        buf, size, "mat1->SetKn(%.9g); mat1->SetGn(%.9g);\nmat2->SetKn(%.9g); mat2->SetGn(%.9g);\n", kn, p, kn, p);
  }
  const double *R = impactfit__engine_val(c, "eff_radius");
  if (R) {
    if (R[0] != 0.1)
      impactfit__engine_appendf(buf, size,
                                "// Bullet: ChCollisionInfo::SetDefaultEffectiveCurvatureRadius(%.9g); (Multicore: its "
                                "own R)\n",
                                R[0]);
  }
  if (c->req->bodies.plane)
    impactfit__engine_appendf(buf, size, "wall->SetMass(%.9g);  // enters the effective mass even when fixed\n",
                              impactfit__engine_val(c, "wall_mass")[0]);
  impactfit__engine_appendf(buf, size, "sys.SetTimestepperType(ChTimestepper::Type::%s);\nsys.DoStepDynamics(%.9g);",
                            stepper_enum(c->integrator), c->dt);
}

static void note(const impactfit__engine_ctx *c, double p, char *buf, size_t size) {
  const impactfit_engine_model *md = c->md;
  (void)p;
  const double *R = impactfit__engine_val(c, "eff_radius");
  if (R)
    impactfit__engine_appendf(buf, size,
                              "R = %g m: the Bullet collision system gives every contact ChCollisionInfo's default "
                              "effective radius (0.1 m) whatever the spheres; the Multicore system uses the true R. ",
                              R[0]);
  if (c->req->bodies.plane)
    impactfit__engine_appendf(buf, size,
                              "The fixed wall's mass (%g kg) enters Chrono's effective mass M = %.6g kg (the sphere: "
                              "%.6g kg). ",
                              impactfit__engine_val(c, "wall_mass")[0], code_mass(c), c->req->bodies.m1);
  if (uses_mat(md)) {
    /* the smallest e: cr at Chrono's clamp ε */
    impactfit_law law;
    if (law_of(c, DBL_EPSILON, &law, NULL) == 0) {
      impactfit_law_impact_params lp = impactfit_law_impact_default_params();
      impactfit_law_impact_result r;
      lp.law = law;
      lp.mass = c->M;
      lp.v = c->req->v;
      if (impactfit_law_impact_solve(NULL, &lp, &r, NULL) == 0)
        impactfit__engine_appendf(buf, size,
                                  "No restitution gives less than e = %.6g in continuous time (Chrono clamps ln cr at "
                                  "ln of the machine epsilon). ",
                                  r.e_out);
    }
    impactfit__engine_appendf(buf, size, "Chrono stores the restitution and the moduli as float (7 digits). ");
  }
  if (strncmp(md->model, "Flores", 6) == 0)
    impactfit__engine_appendf(buf, size,
                              "Flores is not implemented: Chrono 6.0.0 on computes Hooke (5.0.x: no normal force). ");
  impactfit__engine_appendf(buf, size,
                            "The contact force is computed once per step, at the collision detection of the step's "
                            "start. ");
}

static const impactfit__engine_ops ops_mat = {
    .build = build, .lo = DBL_EPSILON, .hi = 1.0 - 1e-12, .naive = naive_cr, .input = input, .note = note};
static const impactfit__engine_ops ops_kn = {.build = build, .lo = 1e-12, .hi = 1e12, .input = input, .note = note};
static const impactfit__engine_ops ops_hooke_kn = {
    .build = build, .lo = 1e-12, .hi = 1e12, .naive = naive_hooke_kn, .input = input, .note = note};

#define CH_INTEGRATORS                                                                                                \
  "euler-implicit-linearized,euler-implicit,euler-implicit-projected,euler-semi-implicit,euler-explicit,runge-kutta," \
  "heun"
#define CH_VERSIONS "4.0.0 - 10.0.0 and the development source of 2026-08-18 (formula only)"
#define CH_SRC                                                                                                       \
  "Chrono 10.0.0 src/chrono/physics/ChContactSMC.cpp:23-201 (ChDefaultContactForceTorqueSMC::CalculateForceTorque; " \
  "ChContactSMC.h:40-222 in 8.0.0-9.0.1, ChContactSMC<Ta,Tb>::CalculateForce in ChContactSMC.h before), "            \
  "ChContactMaterialSMC.cpp:105-130, ChCollisionInfo.cpp:19, ChSystem.cpp:83, :1598, :1636, "                        \
  "timestepper/ChTimestepperImplicit.cpp:467-519"
#define CH_BODIES                                                                                                 \
  "M = m1 m2/(m1 + m2) of the contactables' masses, a fixed wall's own mass included (ChBody default 1 kg); R = " \
  "eff_radius (Bullet: 0.1 m for every contact); E = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2), cr = min(cr1, cr2), "   \
  "kn and gn the means of the two materials'"
#define CH_END "C (Fn < 0 is set to 0: the bodies part there)"
#define CH_TRAPS                                                                                                  \
  "Bullet's R = 0.1 m whatever the spheres; the fixed wall's mass enters M; the force is computed once per step " \
  "from the step's start; float material properties"

#define CH_ENTRY(name_, vmin_, param_, unit_, pin_, law_, inputs_, ops_, traps_)                                \
  {                                                                                                             \
    .code = "chrono", .model = name_, .versions = CH_VERSIONS, .version_min = vmin_, .version_max = 10000999,   \
    .param = param_, .param_unit = unit_, .param_input = pin_, .param_index = 0, .law = law_, .end = CH_END,    \
    .bodies = CH_BODIES, .source = CH_SRC, .traps = traps_, .integrators = CH_INTEGRATORS, .adaptive = NULL,    \
    .dt_default = 0.0, .run_here = 0, .n_inputs = (int)(sizeof inputs_ / sizeof inputs_[0]), .inputs = inputs_, \
    .ops = ops_                                                                                                 \
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

const impactfit_engine_model impactfit__chrono_models[] = {
    CH_ENTRY("Hertz", 4000000, "restitution", "-", "restitution", LAW_HERTZ, in_hertz, &ops_mat, CH_TRAPS),
    CH_ENTRY("Hooke", 4000000, "restitution", "-", "restitution", LAW_HOOKE, in_hooke, &ops_mat, CH_TRAPS),
    CH_ENTRY("Flores", 6000000, "restitution", "-", "restitution",
             "not implemented: falls through to Hooke (6.0.0 on): " LAW_HOOKE, in_hooke, &ops_mat,
             "Flores computes Hooke; " CH_TRAPS),
    CH_ENTRY("PlainCoulomb", 4000000, "restitution", "-", "restitution", LAW_COULOMB, in_coulomb, &ops_mat,
             "no radius in the normal force; " CH_TRAPS),
    CH_ENTRY("Hertz kn/gn", 4000000, "gn", "1/(m^1.5 s)", "gn",
             "Fn = R kn delta^(3/2) + R M gn delta^(1/2) delta' (UseMaterialProperties(false); R, not sqrt(R))",
             in_hertz_kn, &ops_kn, "R multiplies kn (not sqrt(R)); " CH_TRAPS),
    CH_ENTRY("Hooke kn/gn", 4000000, "gn", "1/s", "gn", "Fn = kn delta + M gn delta' (UseMaterialProperties(false))",
             in_hooke_kn, &ops_hooke_kn, CH_TRAPS),
    CH_ENTRY("PlainCoulomb kn/gn", 4000000, "gn", "N s/m^1.5", "gn",
             "Fn = kn delta^(3/2) + gn delta^(1/2) delta' (UseMaterialProperties(false); no mass, no radius)",
             in_coulomb_kn, &ops_kn, "gn is not multiplied by the mass; " CH_TRAPS),
};

const size_t impactfit__chrono_model_count = sizeof impactfit__chrono_models / sizeof impactfit__chrono_models[0];
