/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Engines' own time stepping of one head-on contact (include/impactfit/stepper.h): the built-in
 * steppers, one impact at a phase, the statistics over the phase, the inverse on the mean and the
 * largest stable step. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"
#include "impactfit/stepper.h"
#include "stepper_impl.h"

/* the built-in type objects have external linkage, under these names (stepper_impl.h) */
#define euler_type impactfit__stepper_euler_type
#define rk4_type impactfit__stepper_rk4_type
#define explicit_euler_type impactfit__stepper_explicit_euler_type
#define frozen_force_type impactfit__stepper_frozen_force_type

/* ---------------------------------------------------------------- helpers */

double impactfit_step_spectral_radius(double a11, double a12, double a21, double a22) {
  double tr = a11 + a22, det = a11 * a22 - a12 * a21;
  double disc = 0.25 * tr * tr - det;
  if (disc >= 0.0) {
    double r = sqrt(disc);
    return fmax(fabs(0.5 * tr + r), fabs(0.5 * tr - r));
  }
  return sqrt(fmax(det, 0.0)); /* complex pair: |λ|² = det */
}

/* The law's force at (x, u) with the stepper's clamp; *clamped = 1 when the clamp acted. */
double impactfit__step_law_force(const impactfit_stepper *st, double x, double u, int *clamped) {
  double f = st->law.type->force(st->law.p, x, u, NULL, NULL);
  int c = st->end != impactfit_transition_A && f < 0.0;
  if (clamped)
    *clamped = c;
  return c ? 0.0 : f;
}

unsigned impactfit__step_law_switches(const impactfit_stepper *st, double x, double u) {
  const impactfit_law_type *t = st->law.type;
  unsigned bits = 0;
  if (!t->switch_value)
    return 0;
  for (int i = 0; i < t->n_switches && i < IMPACTFIT_LAW_MAX_SWITCHES; i++)
    if (t->switch_value(st->law.p, i, x, u) > 0.0)
      bits |= 1u << i;
  return bits;
}

/* ---------------------------------------------------------------- euler */

static int euler_step(const impactfit_stepper *st, impactfit_step_state *s) {
  double f = 0.0;
  int clamped = 0;
  unsigned sw = 0;
  s->contact = s->x > 0.0;
  if (s->contact) {
    f = impactfit__step_law_force(st, s->x, s->u, &clamped);
    sw = impactfit__step_law_switches(st, s->x, s->u);
  }
  if (st->gravity != 0.0) /* MuJoCo: qacc = qacc_smooth (gravity) + M⁻¹ Jᵀ f, then qvel += h qacc */
    s->u += st->dt * (st->gravity - f / st->mass);
  else
    s->u -= st->dt * f / st->mass;
  s->x += st->dt * s->u;
  s->f = f;
  s->branch = (int)((unsigned)clamped | (sw & 0x3fffffffu) << 1);
  return 0;
}

/* u' = (1 − h b) u − h a x, x' = x + h u' with a = kl/M, b = bl/M */
static double euler_amp(const impactfit_stepper *st, double kl, double bl) {
  double h = st->dt, a = kl / st->mass, b = bl / st->mass;
  return impactfit_step_spectral_radius(1.0 - h * h * a, h * (1.0 - h * b), -h * a, 1.0 - h * b);
}

const impactfit_stepper_type euler_type = {
    .name = "euler",
    .summary = "semi-implicit Euler, force from the step's start (MuJoCo mjINT_EULER)",
    .n_params = 0,
    .param_names = NULL,
    .param_units = NULL,
    .needs_law = 1,
    .check = NULL,
    .step = euler_step,
    .reach = NULL,
    .amplification = euler_amp,
    .continuous = NULL,
};

/* ---------------------------------------------------------------- rk4 */

/* The acceleration at a stage. *code collects what the stage decided, 8 bits a stage: contact, the
 * clamp, and the sides of the law's first six switches. */
static double rk4_acc(const impactfit_stepper *st, double x, double u, unsigned long *code) {
  *code <<= 8;
  if (!(x > 0.0))
    return st->gravity;
  int c;
  double f = impactfit__step_law_force(st, x, u, &c);
  *code |= 1u | (unsigned)c << 1 | (impactfit__step_law_switches(st, x, u) & 0x3fu) << 2;
  return st->gravity != 0.0 ? st->gravity - f / st->mass : -f / st->mass;
}

static int rk4_step(const impactfit_stepper *st, impactfit_step_state *s) {
  double h = st->dt, x = s->x, u = s->u;
  unsigned long code = 0;
  double k1x = u, k1u = rk4_acc(st, x, u, &code);
  double k2x = u + 0.5 * h * k1u, k2u = rk4_acc(st, x + 0.5 * h * k1x, k2x, &code);
  double k3x = u + 0.5 * h * k2u, k3u = rk4_acc(st, x + 0.5 * h * k2x, k3x, &code);
  double k4x = u + h * k3u, k4u = rk4_acc(st, x + h * k3x, k4x, &code);
  s->x = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
  s->u = u + h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
  s->contact = (code & 0x01010101UL) != 0;
  /* the contact's mean force over the step (gravity's impulse taken out) */
  s->f = !s->contact ? 0.0 : st->gravity != 0.0 ? st->mass * ((u - s->u) / h + st->gravity) : st->mass * (u - s->u) / h;
  /* the four stages' codes (stage 1 in the top byte), folded into 31 bits */
  s->branch = (int)((code ^ (code >> 31)) & 0x7fffffffUL);
  return 0;
}

/* |R(hλ)|, R(z) = 1 + z + z²/2 + z³/6 + z⁴/24, over the eigenvalues λ of [[0, 1], [−a, −b]] */
static double rk4_amp(const impactfit_stepper *st, double kl, double bl) {
  double a = kl / st->mass, b = bl / st->mass, h = st->dt;
  double complex d = csqrt(b * b - 4.0 * a + 0.0 * I);
  double complex l[2] = {0.5 * (-b + d), 0.5 * (-b - d)};
  double r = 0.0;
  for (int i = 0; i < 2; i++) {
    double complex z = h * l[i];
    double complex R = 1.0 + z * (1.0 + z * (0.5 + z * (1.0 / 6.0 + z / 24.0)));
    r = fmax(r, cabs(R));
  }
  return r;
}

const impactfit_stepper_type rk4_type = {
    .name = "rk4",
    .summary = "classic Runge-Kutta 4, contact detected at every stage (MuJoCo mjINT_RK4)",
    .n_params = 0,
    .param_names = NULL,
    .param_units = NULL,
    .needs_law = 1,
    .check = NULL,
    .step = rk4_step,
    .reach = NULL,
    .amplification = rk4_amp,
    .continuous = NULL,
};

/* ---------------------------------------------------------------- explicit-euler, frozen-force */

/* Forward Euler with the force of the step's start: x' = x + h u, u' = u − h f(x, u)/M (Chrono's
 * EULER_EXPLICIT_I and _II). */
static int fe_step(const impactfit_stepper *st, impactfit_step_state *s) {
  double f = 0.0;
  int clamped = 0;
  unsigned sw = 0;
  s->contact = s->x > 0.0;
  if (s->contact) {
    f = impactfit__step_law_force(st, s->x, s->u, &clamped);
    sw = impactfit__step_law_switches(st, s->x, s->u);
  }
  s->x += st->dt * s->u;
  s->u -= st->dt * f / st->mass;
  s->f = f;
  s->branch = (int)((unsigned)clamped | (sw & 0x3fffffffu) << 1);
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
  unsigned sw = 0;
  s->contact = s->x > 0.0;
  if (s->contact) {
    f = impactfit__step_law_force(st, s->x, s->u, &clamped);
    sw = impactfit__step_law_switches(st, s->x, s->u);
  }
  double a = -f / st->mass, h = st->dt;
  s->x += h * s->u + 0.5 * h * h * a;
  s->u += h * a;
  s->f = f;
  s->branch = (int)((unsigned)clamped | (sw & 0x3fffffffu) << 1);
  return 0;
}

static double ff_amp(const impactfit_stepper *st, double kl, double bl) {
  double h = st->dt, a = kl / st->mass, b = bl / st->mass;
  return impactfit_step_spectral_radius(1.0 - 0.5 * h * h * a, h - 0.5 * h * h * b, -h * a, 1.0 - h * b);
}

const impactfit_stepper_type explicit_euler_type = {
    .name = "explicit-euler",
    .summary = "forward Euler, force from the step's start, position with the old velocity (Chrono EULER_EXPLICIT)",
    .needs_law = 1,
    .step = fe_step,
    .amplification = fe_amp,
};

const impactfit_stepper_type frozen_force_type = {
    .name = "frozen-force",
    .summary = "the exact motion under the force of the step's start (Chrono RUNGE_KUTTA, HEUN with SMC contacts)",
    .needs_law = 1,
    .step = ff_step,
    .amplification = ff_amp,
};

const impactfit_stepper_type *const impactfit_stepper_euler = &euler_type;
const impactfit_stepper_type *const impactfit_stepper_rk4 = &rk4_type;
const impactfit_stepper_type *const impactfit_stepper_explicit_euler = &explicit_euler_type;
const impactfit_stepper_type *const impactfit_stepper_frozen_force = &frozen_force_type;

/* the built-ins (the codes' own step maps are listed by their integrator tables: codes.h) */
static const impactfit_stepper_type *const stepper_types[] = {&euler_type, &rk4_type, &explicit_euler_type,
                                                              &frozen_force_type};

size_t impactfit_stepper_type_count(void) { return sizeof stepper_types / sizeof stepper_types[0]; }

const impactfit_stepper_type *impactfit_stepper_type_at(size_t i) {
  return i < impactfit_stepper_type_count() ? stepper_types[i] : NULL;
}

const impactfit_stepper_type *impactfit_stepper_type_from_name(const char *name) {
  return impactfit_stepper_type_from_name_in(name, NULL, 0);
}

const impactfit_stepper_type *
impactfit_stepper_type_from_name_in(const char *name, const impactfit_stepper_type *const *extra, size_t n) {
  if (!name)
    return NULL;
  for (size_t i = 0; extra && i < n; i++)
    if (extra[i] && extra[i]->name && strcmp(extra[i]->name, name) == 0)
      return extra[i];
  for (size_t i = 0; i < impactfit_stepper_type_count(); i++)
    if (strcmp(stepper_types[i]->name, name) == 0)
      return stepper_types[i];
  return NULL;
}

/* the stepper's name in messages */
static const char *tname(const impactfit_stepper *st) { return st->type ? st->type->name : "continuous"; }

int impactfit_stepper_param_index(const impactfit_stepper_type *type, const char *name) {
  if (!type || !type->param_names || !name)
    return -1;
  for (int i = 0; i < type->n_params && i < IMPACTFIT_STEPPER_MAX_PARAMS; i++)
    if (type->param_names[i] && strcmp(type->param_names[i], name) == 0)
      return i;
  return -1;
}

static int no_stepper_param(const impactfit_stepper_type *type, const char *name, impactfit_error *err) {
  if (!type)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no stepper given");
  char list[256] = "";
  size_t used = 0;
  for (int i = 0; i < type->n_params && type->param_names && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", type->param_names[i]);
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper '%s' has no parameter '%s' (its parameters: %s)", type->name,
                         name ? name : "(null)", used ? list : "none");
}

int impactfit_stepper_set(impactfit_stepper *st, const char *name, double value, impactfit_error *err) {
  int i = st ? impactfit_stepper_param_index(st->type, name) : -1;
  if (i < 0)
    return no_stepper_param(st ? st->type : NULL, name, err);
  st->p[i] = value;
  return IMPACTFIT_OK;
}

int impactfit_stepper_get(const impactfit_stepper *st, const char *name, double *value, impactfit_error *err) {
  int i = st ? impactfit_stepper_param_index(st->type, name) : -1;
  if (i < 0 || !value)
    return no_stepper_param(st ? st->type : NULL, name, err);
  *value = st->p[i];
  return IMPACTFIT_OK;
}

int impactfit_stepper_check(const impactfit_stepper *st, impactfit_error *err) {
  if (!st || (st->type && !st->type->step))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no stepper given");
  if (!(isfinite(st->mass) && st->mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: mass must be > 0 (kg) (got %.17g)", tname(st), st->mass);
  if (!st->type && !st->law.type)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper continuous: continuous time needs a law");
  if (!isfinite(st->gravity))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: gravity must be finite (got %.17g)", tname(st),
                           st->gravity);
  if (!st->type && st->gravity != 0.0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper continuous: gravity is not modelled in continuous time");
  if (st->type && !(isfinite(st->dt) && st->dt > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: dt must be > 0 (s) (got %.17g)", tname(st), st->dt);
  if (st->end && st->end != impactfit_transition_A && st->end != impactfit_transition_C)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the end condition must be A or C (got %s)", tname(st),
                           st->end->name);
  int n_params = st->type ? st->type->n_params : 0;
  if (n_params < 0 || n_params > IMPACTFIT_STEPPER_MAX_PARAMS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s declares %d parameters (at most %d)", tname(st), n_params,
                           IMPACTFIT_STEPPER_MAX_PARAMS);
  for (int i = 0; i < n_params; i++)
    if (isnan(st->p[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: parameter %s is NaN", tname(st),
                             st->type->param_names ? st->type->param_names[i] : "?");
  int s;
  if ((!st->type || st->type->needs_law) && (s = impactfit_law_check(&st->law, err)))
    return s;
  return st->type && st->type->check ? st->type->check(st, err) : 0;
}

/* ---------------------------------------------------------------- one impact */

#define STEP_LIMIT 1000000L
#define LN2 0.69314718055994530942

/* A continuous-time stepper's impact (type NULL): the law's, solved by law.h (the same at every phase). */
static int adaptive_impact(const impactfit_stepper *st, double v, impactfit_law_impact_result *r,
                           impactfit_error *err) {
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  lp.law = st->law;
  lp.mass = st->mass;
  lp.v = v;
  lp.transition = st->end ? st->end : impactfit_transition_C;
  return impactfit_law_impact_solve(NULL, &lp, r, err);
}

/* Under gravity, the state J steps before the first step start with x > 0, so that this start has x = φ Δx and
 * u = v exactly, Δx the travel of that last free step: the stepper's own free flight (a probe step far from
 * the contact: x' = x + dt u + c, u' = u + c' for Euler-type and RK4 steps) run backwards. Returns 0, 1 when that
 * flight would cross the contact (v below about g dt: no approach from free flight), 2 when the flight is not of
 * that form. */
static int gravity_start(const impactfit_stepper *st, double v, double phi, int J, double reach,
                         impactfit_step_state *s) {
  double far = -(reach + 100.0 * v * st->dt + 1.0);
  impactfit_step_state p0 = {.x = far, .u = 0.0}, p1 = {.x = far, .u = v};
  if (st->type->step(st, &p0) || st->type->step(st, &p1) || p0.contact || p1.contact || p0.f != 0.0 || p1.f != 0.0)
    return 2;
  double c = p0.x - far, cu = p0.u;
  /* the flight must be affine with slope dt in u (to rounding) */
  if (!(fabs((p1.x - far) - (c + st->dt * v)) <= 1e-9 * (fabs(far) + v * st->dt)) ||
      !(fabs(p1.u - v - cu) <= 1e-12 * v))
    return IMPACTFIT_EINVAL;
  double u = v, x = phi * (st->dt * (v - cu) + c);
  for (int k = 0; k < J; k++) {
    u -= cu;
    x -= st->dt * u + c;
    if (!(u > 0.0 && x <= 0.0)) /* the flight before would cross the contact: not an approach from free flight */
      return 1;
  }
  memset(s, 0, sizeof *s);
  s->x = x;
  s->u = u;
  return 0;
}

/* gravity_start with the message of its failure */
static int gravity_start_or_fail(const impactfit_stepper *st, double v, double phi, int J, double reach,
                                 impactfit_step_state *s, impactfit_error *err) {
  int rc = gravity_start(st, v, phi, J, reach, s);
  if (rc == 1)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: v = %.6g m/s is too slow for one impact under gravity %.6g m/s^2 at dt = %.6g "
                           "s: "
                           "the free flight of the %d steps before contact would cross the surface (use a drop test, "
                           "drop.h)",
                           st->type->name, v, st->gravity, st->dt, J);
  if (rc)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: its free flight under gravity is not x' = x + dt u + c, u' = u + c'",
                           st->type->name);
  return 0;
}

/* lean: skip the linearisation (the spectral radius), for the inverse's search */
static int impact_at_limit(const impactfit_stepper *st, double v, double phi, int lean, long limit,
                           impactfit_step_impact *out, impactfit_error *err);
static int impact_at(const impactfit_stepper *st, double v, double phi, int lean, impactfit_step_impact *out,
                     impactfit_error *err) {
  return impact_at_limit(st, v, phi, lean, STEP_LIMIT, out, err);
}

/* one impact, at most `limit` steps (ENOSEP with out->steps = limit beyond) */
static int impact_at_limit(const impactfit_stepper *st, double v, double phi, int lean, long limit,
                           impactfit_step_impact *out, impactfit_error *err) {
  memset(out, 0, sizeof *out);
  out->phi = phi;
  if (!st->type) {
    impactfit_law_impact_result r;
    int s = adaptive_impact(st, v, &r, err);
    if (s)
      return s;
    out->e = r.e_out;
    out->f_max = r.f_max;
    out->steps = out->contact_steps = r.steps;
    return 0;
  }
  double vdt = v * st->dt;
  double reach = st->type->reach ? st->type->reach(st, v) : 0.0;
  if (!(isfinite(reach) && reach >= 0.0))
    reach = 0.0;
  double J = 2.0 + ceil(reach / vdt);
  int rc0;
  if (J > 1e6)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: the engine acts %.6g m before touching, %.3g steps of v dt = %.6g m",
                           st->type->name, reach, J, vdt);
  impactfit_step_state s = {.x = (phi - J) * vdt, .u = v};
  if (st->gravity != 0.0 && (rc0 = gravity_start_or_fail(st, v, phi, (int)J, reach, &s, err)))
    return rc0;
  int acting = 0, linear = !lean && st->type->needs_law && st->type->amplification;
  uint64_t sig = UINT64_C(1469598103934665603); /* FNV-1a, 64 bits also where long has 32 */
  for (long k = 0; k < limit; k++) {
    double x0 = s.x, u0 = s.u, mem0[4];
    memcpy(mem0, s.mem, sizeof mem0);
    if (!out->x_first && x0 > 0.0)
      out->x_first = x0;
    if (linear && x0 > 0.0) {
      double fd, fr;
      double f = st->law.type->force(st->law.p, x0, u0, &fd, &fr);
      /* within one step's travel of the onset, a ∂f/∂δ that exceeds the slope over that travel tenfold
       * (unbounded at δ = 0: δ^m δ' with m < 1) is not what the step sees: the secant instead */
      if (x0 < vdt) {
        double sec = (st->law.type->force(st->law.p, x0 + vdt, u0, NULL, NULL) - f) / vdt;
        if (isfinite(sec) && !(fabs(fd) <= 10.0 * fabs(sec)))
          fd = sec;
      }
      if ((f >= 0.0 || st->end == impactfit_transition_A) && isfinite(fd) && isfinite(fr)) {
        double r = st->type->amplification(st, fd, fr);
        if (r > out->rho_max)
          out->rho_max = r;
      }
    }
    int rc = st->type->step(st, &s);
    if (rc)
      return IMPACTFIT__FAIL(err, rc, "stepper %s: step %ld failed", st->type->name, k);
    if (!isfinite(s.x) || !isfinite(s.u) || fabs(s.u) > 1e4 * v)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE,
                             "stepper %s: the state blew up after %ld steps (|u| > 1e4 v: dt = %.6g s is unstable for "
                             "this contact)",
                             st->type->name, k + 1, st->dt);
    /* the signature counts every step that acted except those whose impulse changed the speed by 1e-12 v or
     * less (rounding-level impulses, e.g. of a body at rest on a constraint, do not change e nor mark a jump) */
    int tiny = s.f != 0.0 && fabs(s.f) * st->dt / st->mass <= 1e-12 * v;
    if (s.f != 0.0 || s.contact) {
      acting = 1;
      out->contact_steps += s.contact != 0;
      if (fabs(s.f) > out->f_max)
        out->f_max = fabs(s.f);
      if (!tiny)
        sig = (sig ^ (uint64_t)(s.contact != 0) ^ ((uint64_t)(unsigned)s.branch << 1)) * UINT64_C(1099511628211);
    }
    if (acting) {
      out->steps++;
      if (!tiny)
        sig = (sig ^ UINT64_C(0x5b)) * UINT64_C(1099511628211);
      if (s.x <= 0.0 && s.u < 0.0 && s.f == 0.0) {
        out->e = -s.u / v;
        out->signature = sig;
        return 0;
      }
      /* at rest: the step left the state unchanged with no force, so every later step will (a fixed point of
       * the map: e.g. Bullet's rows stop the body at the surface, where a speed of 1e-15 m/s no longer moves
       * the stored coordinate): e = 0, or the speed it leaves with */
      int fixed = s.u == u0 && s.x == x0 && memcmp(mem0, s.mem, sizeof mem0) == 0;
      /* or, stopped short of the surface by a row that acts before touching, the body creeps with no force so
       * slowly that it would not close the gap within 1e4 steps: the bodies stick, e = 0 (the rebound when it
       * arrives, if any, is of the order of a creeping speed below gap/(1e4 dt)) */
      int creeps = s.x < 0.0 && s.u > 0.0 && -s.x > 0.01 * (double)STEP_LIMIT * s.u * st->dt;
      /* (under gravity a body at rest on the contact keeps a constant force: the same fixed point) */
      int rests = fixed && st->gravity != 0.0 && s.contact;
      if (rests || (s.f == 0.0 && (fixed || creeps))) {
        out->e = s.u < 0.0 ? -s.u / v : 0.0;
        /* one signature for every impact that ends at rest: e is 0 (to rounding) whatever steps led there, so
         * the phases between two such impacts hold no jump */
        out->signature = UINT64_C(0x7e);
        return 0;
      }
    } else if (s.x > reach + 10.0 * vdt && s.u > 0.0) {
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the body passed through the contact without a force",
                             st->type->name);
    }
  }
  out->steps = limit; /* the mark of this end (phase_stats tells a sticking contact from a too small dt) */
  return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                         "stepper %s: no separation within %ld steps of %.6g s (the bodies stick at this step)",
                         st->type->name, STEP_LIMIT, st->dt);
}

int impactfit_step_impact_at(const impactfit_stepper *st, double v, double phi, impactfit_step_impact *out,
                             impactfit_error *err) {
  impactfit_error_clear(err);
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: NULL result");
  int s = impactfit_stepper_check(st, err);
  if (s)
    return s;
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: v must be > 0 (m/s) (got %.17g)", v);
  if (!(phi > 0.0 && phi <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: the phase must lie in (0, 1] (got %.17g)", phi);
  return impact_at(st, v, phi, 0, out, err);
}

/* ---------------------------------------------------------------- statistics over the phase */

typedef struct {
  const impactfit_stepper *st;
  double v;
  int lean; /* no linearisation: the inverse's search */
  impactfit_step_stats *S;
  impactfit_error *err;
  int status;
  int until_unstable;      /* stop at the first impact that shows the step unstable (STATS_STABILITY) */
  double piece_a, piece_w; /* the smooth piece the quadrature integrates: [piece_a, piece_a + piece_w] */
  int sidi;                /* 1: in Sidi's variable t (gl8) */
} phase_ctx;

#define STOP_UNSTABLE 1 /* eval's status when it stopped there (not an error) */

static int step_limit_verdict(const impactfit_stepper *st, double v, impactfit_error *err);
static int continuous_impact(const impactfit_stepper *st, double v, impactfit_law_impact_result *r);

static int eval(phase_ctx *c, double phi, double *e, uint64_t *sig) {
  impactfit_step_impact r;
  int s = impact_at(c->st, c->v, phi, c->lean, &r, c->err);
  if (s == IMPACTFIT_ENOSEP && r.steps >= STEP_LIMIT)
    s = step_limit_verdict(c->st, c->v, c->err);
  /* the rule of phase_stats' check before stepping, for the modes without it (the inverse's quick means) */
  if (!s && r.steps > STEP_LIMIT / 4 && step_limit_verdict(c->st, c->v, c->err) == IMPACTFIT_ENOCONV)
    s = IMPACTFIT_ENOCONV;
  if (s) {
    c->status = s;
    return s;
  }
  impactfit_step_stats *S = c->S;
  S->impacts++;
  S->steps += r.steps;
  if (r.steps > S->steps_max)
    S->steps_max = r.steps;
  if (r.rho_max > S->rho_max)
    S->rho_max = r.rho_max;
  if (r.e < S->e_min) {
    S->e_min = r.e;
    S->phi_min = phi;
  }
  if (r.e > S->e_max) {
    S->e_max = r.e;
    S->phi_max = phi;
  }
  *e = r.e;
  if (sig)
    *sig = r.signature;
  if (c->until_unstable && (r.e > 1.0 || r.rho_max > 1.0 + 1e-9)) {
    c->status = STOP_UNSTABLE;
    return STOP_UNSTABLE;
  }
  return 0;
}

/* 8-point Gauss–Legendre on [a, b] */
static const double gl_x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
static const double gl_w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

/* The quadrature of a smooth piece [a, a + w] of e(φ) runs in t ∈ [0, 1] with φ = a + w s(t), s(t) = t⁴(35 − 84t
 * + 70t² − 20t³), s'(t) = 140 t³(1 − t)³ (Sidi's polynomial transformation): e(φ) has a fractional power of
 * φ − a at a piece's ends wherever the first or last contact step starts at a penetration → 0 in a law with
 * δ^p, p < 1 (Chrono's PlainCoulomb and Hertz dampings δ^(1/2) δ', δ^(1/4) δ'), which Gauss–Legendre in φ
 * integrates to only ~1e-10 (issue 39 item 5: 2.0e-10 off); in t the integrand is smooth (t³ and higher). */
static double sidi(double t) { return t * t * t * t * (35.0 + t * (-84.0 + t * (70.0 - 20.0 * t))); }
static double sidi_d(double t) {
  double u = t * (1.0 - t);
  return 140.0 * u * u * u;
}

/* 8-point Gauss–Legendre on [ta, tb] of the piece's integrand in t (φ = a + w t where c->sidi is 0) */
static int gl8(phase_ctx *c, double ta, double tb, double *out) {
  double m = 0.5 * (ta + tb), r = 0.5 * (tb - ta), sum = 0.0, e1, e2;
  for (int i = 0; i < 4; i++) {
    double t1 = m - r * gl_x[i], t2 = m + r * gl_x[i];
    double s1 = c->sidi ? sidi(t1) : t1, s2 = c->sidi ? sidi(t2) : t2;
    if (eval(c, c->piece_a + c->piece_w * s1, &e1, NULL) || eval(c, c->piece_a + c->piece_w * s2, &e2, NULL))
      return c->status;
    sum += c->sidi ? gl_w[i] * (e1 * sidi_d(t1) + e2 * sidi_d(t2)) : gl_w[i] * (e1 + e2);
  }
  *out = c->piece_w * r * sum;
  return 0;
}

static int adapt(phase_ctx *c, double a, double b, double whole, int depth, double *out) {
  double m = 0.5 * (a + b), l, r;
  if (gl8(c, a, m, &l) || gl8(c, m, b, &r))
    return c->status;
  if (depth >= 10 || fabs(l + r - whole) <= 1e-12 * (b - a) * c->piece_w) {
    *out = l + r;
    return 0;
  }
  double L2, R2;
  if (adapt(c, a, m, l, depth + 1, &L2) || adapt(c, m, b, r, depth + 1, &R2))
    return c->status;
  *out = L2 + R2;
  return 0;
}

/* A piece's integral: Gauss–Legendre in φ on the piece and its halves (24 impacts) where they agree to the
 * tolerance, as for a smooth e(φ); else adaptively in Sidi's t (a fractional power at an end). */
static int piece_integral(phase_ctx *c, double a, double b, double *out) {
  double whole, l, r;
  c->piece_a = a;
  c->piece_w = b - a;
  c->sidi = 0;
  if (gl8(c, 0.0, 1.0, &whole) || gl8(c, 0.0, 0.5, &l) || gl8(c, 0.5, 1.0, &r))
    return c->status;
  if (fabs(l + r - whole) <= 1e-12 * c->piece_w) {
    *out = l + r;
    return 0;
  }
  c->sidi = 1;
  if (gl8(c, 0.0, 1.0, &whole))
    return c->status;
  return adapt(c, 0.0, 1.0, whole, 0, out);
}

#define MAX_JUMPS 4096

typedef struct {
  double at[MAX_JUMPS];
  int n;
} jumps;

/* A side of a bracket: the phase, the signature and e there (every e evaluated enters the extremes). */
typedef struct {
  double phi, e;
  uint64_t sig;
} side;

/* The jumps of the signature between l and r, by bisection. A change of signature is a point where
 * e(φ) or one of its derivatives may jump. Placing the break at the bracket's midpoint errs in the
 * mean by at most (r − l)/2 · |e(r) − e(l)| (plus (r − l)² times the slope): bisection stops when that
 * is below 1e-16, or at r − l ≤ 1e-13. A jump of e is thus located to 1e-13/|jump|, a point where
 * only a derivative jumps (e continuous: a clamp or a knot of the law acting) to about 1e-8, in ~25
 * instead of ~37 evaluations. */
static int find_jumps(phase_ctx *c, side l, side r, int depth, jumps *J) {
  if (l.sig == r.sig)
    return 0;
  double w = r.phi - l.phi;
  if (w <= 1e-13 || depth > 60 || (w <= 1e-7 && w * (fabs(r.e - l.e) + w) <= 1e-16)) {
    if (J->n < MAX_JUMPS)
      J->at[J->n++] = 0.5 * (l.phi + r.phi);
    return 0;
  }
  side m = {.phi = 0.5 * (l.phi + r.phi)};
  if (eval(c, m.phi, &m.e, &m.sig))
    return c->status;
  if (find_jumps(c, l, m, depth + 1, J))
    return c->status;
  return find_jumps(c, m, r, depth + 1, J);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The continuous-time impact of the stepper's law (or of its `continuous` law): 0 with *r, or a status
 * (EINVAL when it has none). */
static int continuous_impact(const impactfit_stepper *st, double v, impactfit_law_impact_result *r) {
  if (st->gravity != 0.0) /* law.h's impact has no gravity */
    return IMPACTFIT_EINVAL;
  impactfit_law law;
  const impactfit_transition *end = st->end ? st->end : impactfit_transition_C;
  if (!st->type || st->type->needs_law)
    law = st->law;
  else if (!(st->type->continuous && st->type->continuous(st, &law, &end) == 0))
    return IMPACTFIT_EINVAL;
  impactfit_law_impact_params lp = impactfit_law_impact_default_params();
  lp.law = law;
  lp.mass = st->mass;
  lp.v = v;
  lp.transition = end;
  impactfit_error e2;
  return impactfit_law_impact_solve(NULL, &lp, r, &e2);
}

/* The continuous-time e (NaN when the stepper has none or the law's engine fails). */
static double continuous_e(const impactfit_stepper *st, double v) {
  impactfit_law_impact_result r;
  return continuous_impact(st, v, &r) == 0 ? r.e_out : NAN;
}

/* An impact that ran into the step limit: the bodies stick (ENOSEP, as the message says), unless the
 * continuous-time contact separates after more than a quarter of the limit's steps, so that the limit and not
 * the contact ended it: then ENOCONV saying that dt is too small to be stepped through (not a NaN nor a false
 * "stick"). */
static int step_limit_verdict(const impactfit_stepper *st, double v, impactfit_error *err) {
  impactfit_law_impact_result r;
  if (continuous_impact(st, v, &r) != 0 || !(r.t_contact / st->dt > 0.25 * (double)STEP_LIMIT))
    return IMPACTFIT_ENOSEP;
  impactfit_error_clear(err);
  return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                         "stepper %s: dt = %.6g s is too small to step through: the contact lasts %.6g s in continuous "
                         "time, %.3g steps, beyond the %ld steps one impact is followed for; as dt -> 0 e tends to the "
                         "continuous-time e = %.10g (its error is of first order in dt/t_contact = %.2g)",
                         st->type->name, st->dt, r.t_contact, r.t_contact / st->dt, STEP_LIMIT, r.e_out,
                         st->dt / r.t_contact);
}

/* What phase_stats computes: everything; everything but the continuous-time e (the stability search);
 * the mean and extremes only, without the linearisation (the inverse's search: stable is then decided
 * by e ≤ 1 alone); or only the midpoint rule on QUICK_PHASES cells of φ, without the linearisation
 * (within about the largest jump/QUICK_PHASES of the exact mean: enough to bracket a root cheaply). */
enum { STATS_FULL, STATS_NO_CONTINUOUS, STATS_SEARCH, STATS_QUICK, STATS_STABILITY };
#ifndef QUICK_PHASES
#define QUICK_PHASES 16
#endif

static int phase_stats(const impactfit_stepper *st, double v, impactfit_step_stats *out, int mode,
                       impactfit_error *err) {
  impactfit_error_clear(err);
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: NULL result");
  memset(out, 0, sizeof *out);
  int s = impactfit_stepper_check(st, err);
  if (s)
    return s;
  if (!(isfinite(v) && v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: v must be > 0 (m/s) (got %.17g)", v);
  out->e_min = INFINITY;
  out->e_max = -INFINITY;
  out->e_continuous = NAN;
  if (!st->type) {
    impactfit_law_impact_result r;
    if ((s = adaptive_impact(st, v, &r, err)))
      return s;
    out->e_mean = out->e_min = out->e_max = out->e_continuous = r.e_out;
    out->phi_min = out->phi_max = 1.0;
    out->stable = 1;
    out->pieces = 1;
    out->impacts = 1;
    out->steps_max = out->steps = r.steps;
    return 0;
  }
  /* a contact longer than a quarter of the step limit: refused at once (the law solve costs about one
   * impact of 1e3 steps), not after the first impact ran into the limit */
  /* a contact longer than a quarter of the step limit is refused before it is stepped through: where one
   * impact takes more than 4096 steps, the continuous-time contact decides (a law solve, ~50 us, skipped
   * for the short contacts of the usual steps) */
  impactfit_law_impact_result cr;
  int have_cr = 0;
  if (mode != STATS_QUICK) {
    impactfit_step_impact probe;
    impactfit_error e5;
    int ps = impact_at_limit(st, v, 0.5, 1, 4096, &probe, &e5);
    out->impacts++; /* the work counts it */
    out->steps += probe.steps;
    if (ps == IMPACTFIT_ENOSEP && probe.steps >= 4096) {
      have_cr = continuous_impact(st, v, &cr) == 0;
      if (have_cr && cr.t_contact / st->dt > 0.25 * (double)STEP_LIMIT)
        return step_limit_verdict(st, v, err);
    }
  }
  int lean = mode == STATS_SEARCH || mode == STATS_QUICK;
  phase_ctx c = {.st = st, .v = v, .lean = lean, .S = out, .err = err};
  int known = !lean && st->type->needs_law && st->type->amplification;
  if (mode == STATS_QUICK) {
    enum { NQ = QUICK_PHASES };
    double sum = 0.0, eq;
    for (int i = 0; i < NQ; i++) {
      if (eval(&c, (i + 0.5) / NQ, &eq, NULL))
        return c.status;
      sum += eq;
    }
    out->e_mean = sum / NQ;
    out->pieces = 0;
    out->stable = (!known || out->rho_max <= 1.0 + 1e-9) && out->e_max <= 1.0;
    return 0;
  }
  enum { NS = 66 };
  double phi[NS], e[NS];
  uint64_t sig[NS];
  phi[0] = 0x1p-30;
  for (int i = 1; i < NS - 1; i++)
    phi[i] = (i - 0.5) / (NS - 2);
  phi[NS - 1] = 1.0;
  c.until_unstable = mode == STATS_STABILITY;
  double e_end;
  for (int i = 0; i < NS; i++)
    if (eval(&c, phi[i], &e[i], &sig[i]))
      return c.status == STOP_UNSTABLE ? 0 : c.status;
  /* e just below φ = 1, for the extremes: the limit φ → 1⁻ may differ from e(1) (Bullet's ERP term erp2 φ v
   * at a rebound: the supremum R + erp2 is approached there, while e(1) starts the next step's sequence) */
  if (eval(&c, 1.0 - 0x1p-40, &e_end, NULL))
    return c.status == STOP_UNSTABLE ? 0 : c.status;
  /* the linearisation (the spectral radius, for `stable`) at these 67 phases only: the bisection's and the
   * quadrature's impacts shift the same steps by less than 1/64 of a step */
  c.lean = 1;
  jumps *J = malloc(sizeof *J);
  if (!J)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "stepper: out of memory");
  J->n = 0;
  for (int i = 0; i + 1 < NS; i++)
    if (find_jumps(&c, (side){phi[i], e[i], sig[i]}, (side){phi[i + 1], e[i + 1], sig[i + 1]}, 0, J)) {
      free(J);
      return c.status == STOP_UNSTABLE ? 0 : c.status;
    }
  if (mode == STATS_STABILITY) { /* no impact showed the step unstable: the mean is not needed */
    free(J);
    out->e_mean = NAN;
    out->stable = (!known || out->rho_max <= 1.0 + 1e-9) && out->e_max <= 1.0;
    return 0;
  }
  qsort(J->at, (size_t)J->n, sizeof J->at[0], cmp_double);
  double mean = 0.0, a = 0.0;
  for (int k = 0; k <= J->n; k++) {
    double b = k < J->n ? J->at[k] : 1.0;
    if (b > a) {
      double part;
      if (piece_integral(&c, a, b, &part)) {
        free(J);
        return c.status;
      }
      mean += part;
    }
    a = b;
  }
  out->pieces = J->n + 1;
  free(J);
  out->e_mean = mean;
  out->stable = (!known || out->rho_max <= 1.0 + 1e-9) && out->e_max <= 1.0;
  if (mode == STATS_FULL)
    out->e_continuous = have_cr ? cr.e_out : continuous_e(st, v);
  return 0;
}

/* ---------------------------------------------------------------- extremes inside a smooth piece */

typedef struct {
  phase_ctx *c;
  double sign; /* +1: the maximum, -1: the minimum */
} extreme_ctx;

static double extreme_fn(double phi, void *p) {
  extreme_ctx *x = p;
  double e;
  if (x->c->status || eval(x->c, phi, &e, NULL))
    return 0.0;
  return -x->sign * e;
}

/* The phase's e and signature (eval's, so that the extremes see it); 0 or a status. */
static int eval_sig(phase_ctx *c, double phi, double *e, uint64_t *sig) { return eval(c, phi, e, sig); }

/* The extreme at *phi0 refined where it lies inside a smooth piece (the samples and the quadrature's nodes
 * leave an interior extremum up to ~1e-8 off: Chrono's Hertz law at dt 1e-5, e_min 5.7e-9 above it): a bracket
 * of ±1/128 around it, halved until both ends have its signature and lie below (above) it, then Brent's
 * minimisation (GSL) to 1e-12 in φ; every e evaluated enters the extremes. 0, or a status. */
static int refine_extreme(phase_ctx *c, double phi0, double sign) {
  double e0, el, er, w = 1.0 / 128.0;
  uint64_t s0, sl, sr;
  if (!(phi0 > 0.0 && phi0 < 1.0) || eval_sig(c, phi0, &e0, &s0))
    return c->status;
  for (int k = 0; k < 12; k++, w *= 0.5) {
    double l = fmax(phi0 - w, 0.5 * phi0), r = fmin(phi0 + w, 0.5 * (phi0 + 1.0));
    if (eval_sig(c, l, &el, &sl) || eval_sig(c, r, &er, &sr))
      return c->status;
    if (sl != s0 || sr != s0)
      continue; /* a break inside: closer */
    if (!(sign * e0 > sign * el && sign * e0 > sign * er))
      return 0; /* monotone here: the extreme is a piece's end, which the samples and bisection hold */
    gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!m)
      return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper: out of memory");
    extreme_ctx x = {c, sign};
    gsl_function F = {extreme_fn, &x};
    if (gsl_min_fminimizer_set_with_values(m, &F, phi0, -sign * e0, l, -sign * el, r, -sign * er) == GSL_SUCCESS)
      for (int it = 0; it < 60 && !c->status; it++) {
        if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS)
          break;
        if (gsl_min_fminimizer_x_upper(m) - gsl_min_fminimizer_x_lower(m) <= 1e-12)
          break;
      }
    gsl_min_fminimizer_free(m);
    return c->status;
  }
  return 0;
}

/* e_min and e_max refined inside their pieces (the answer's statistics: forward mode, the inverse's answer) */
static int refine_extremes(const impactfit_stepper *st, double v, impactfit_step_stats *S, impactfit_error *err) {
  if (!st->type || !(S->e_min <= S->e_max))
    return 0;
  phase_ctx c = {.st = st, .v = v, .lean = 1, .S = S, .err = err};
  double pmin = S->phi_min, pmax = S->phi_max;
  if (refine_extreme(&c, pmax, 1.0) || refine_extreme(&c, pmin, -1.0))
    return c.status;
  return 0;
}

int impactfit_step_phase_stats(const impactfit_stepper *st, double v, impactfit_step_stats *out, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  int s = phase_stats(st, v, out, STATS_FULL, err);
  if (!s)
    s = refine_extremes(st, v, out, err);
  if (!s)
    out->stable = out->stable && out->e_max <= 1.0;
  return s;
}

/* ---------------------------------------------------------------- the inverse on the mean */

/* The evaluations of the exact mean that the inverse keeps: GSL's Brent evaluates the bracket's ends
 * again. */
#define MEAN_CACHE 8
#define UNSTABLE 1e3 /* mean − e where the step blows up: "e = +inf" */

typedef struct {
  impactfit_step_build_fn build;
  const void *ctx;
  double v, e;
  int status, mode;
  int unstable; /* values met where the step blew up */
  impactfit_error *err;
  impactfit_step_stats S; /* of the last evaluation */
  long evals, impacts;    /* phase statistics computed, impacts simulated (all modes) */
  long steps;             /* their steps */
  double mmin, mmax;      /* the range of the exact means met, the unstable values left out */
  int n_cache;
  double cache_x[MEAN_CACHE], cache_g[MEAN_CACHE];
  int cache_mode[MEAN_CACHE];
  impactfit_step_stats cache_S[MEAN_CACHE];
  int S_mode; /* the mode c->S was computed in */
} mean_ctx;

/* mean e − asked e at ln(value), exact unless c->mode is STATS_QUICK; the bodies stick: e = 0; the step
 * blows up: UNSTABLE */
static double mean_fn(double lnv, void *params) {
  mean_ctx *c = params;
  int quick = c->mode == STATS_QUICK;
  if (!quick)
    for (int i = 0; i < c->n_cache; i++)
      if (c->cache_x[i] == lnv) {
        c->S = c->cache_S[i];
        c->S_mode = c->cache_mode[i];
        return c->cache_g[i];
      }
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  int s = c->build(c->ctx, exp(lnv), &st, c->err);
  if (!s)
    s = phase_stats(&st, c->v, &c->S, c->mode, c->err);
  c->evals++;
  c->impacts += c->S.impacts;
  c->steps += c->S.steps;
  c->S_mode = c->mode;
  double g;
  if (s == IMPACTFIT_ENOSEP || s == IMPACTFIT_ENONFINITE) {
    impactfit_error_clear(c->err);
    memset(&c->S, 0, sizeof c->S);
    c->S.e_continuous = NAN;
    if (s == IMPACTFIT_ENONFINITE) { /* the step is unstable there: the energy grows without bound */
      c->unstable += !quick;
      c->S.e_mean = c->S.e_min = c->S.e_max = INFINITY;
      g = UNSTABLE;
    } else {
      g = -c->e; /* the bodies stick: e = 0 */
    }
  } else if (s) {
    c->status = s;
    return 0.0;
  } else {
    g = c->S.e_mean - c->e;
  }
  if (!quick) {
    if (g != UNSTABLE) {
      c->mmin = fmin(c->mmin, g + c->e);
      c->mmax = fmax(c->mmax, g + c->e);
    }
    int k = c->n_cache < MEAN_CACHE ? c->n_cache++ : (int)(c->evals % MEAN_CACHE);
    c->cache_x[k] = lnv;
    c->cache_g[k] = g;
    c->cache_mode[k] = c->mode;
    c->cache_S[k] = c->S;
  }
  return g;
}

/* Brent's method (GSL) on ln(value) inside [xa, xb] where mean − e changes sign, until |g| ≤ tol */
static int refine(mean_ctx *c, double xa, double xb, double tol, double *x) {
  gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!rs)
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper inverse: out of memory");
  gsl_function F = {mean_fn, c};
  gsl_root_fsolver_set(rs, &F, xa, xb);
  int conv = 0;
  for (int it = 0; it < 200 && !c->status; it++) {
    if (gsl_root_fsolver_iterate(rs) != GSL_SUCCESS || c->status)
      break;
    *x = gsl_root_fsolver_root(rs);
    double g = mean_fn(*x, c);
    if (c->status)
      break;
    if (fabs(g) <= tol) {
      conv = 1;
      break;
    }
    double l = gsl_root_fsolver_x_lower(rs), u = gsl_root_fsolver_x_upper(rs);
    if (u - l <= 4.0 * DBL_EPSILON * fmax(1.0, fabs(u)))
      break;
  }
  gsl_root_fsolver_free(rs);
  if (c->status)
    return c->status;
  if (!conv)
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOCONV,
                           "stepper inverse: the mean e jumps across %.17g near the value %.17g (not reached to %.3g)",
                           c->e, exp(*x), tol);
  return 0;
}

/* An exact bracket of the root near x0, stepping towards it by the secant estimate from the slope k of
 * the cheap mean and widening the step fourfold, within [xl, xr]. Returns 1 with [*xa, *xb] (signs of g
 * opposite), 2 with *root when a point meets the tolerance, 0 when none was found there, -1 on a status. */
static int bracket_near(mean_ctx *c, double x0, double k, double xl, double xr, double tol, double *xa, double *xb,
                        double *root) {
  double g0 = mean_fn(x0, c);
  if (c->status)
    return -1;
  if (g0 == UNSTABLE)
    return 0;
  if (fabs(g0) <= tol) {
    *root = x0;
    return 2;
  }
  double d = isfinite(k) && k != 0.0 ? -1.5 * g0 / k : 0.0, span = xr - xl;
  double dir = d < 0.0 ? -1.0 : 1.0;
  d = fabs(d);
  if (!(d >= 1e-9 * span))
    d = 1e-9 * span;
  for (int i = 0; i < 16; i++) {
    double x1 = x0 + dir * d;
    if (x1 < xl || x1 > xr)
      return 0;
    double g1 = mean_fn(x1, c);
    if (c->status)
      return -1;
    if (g1 == UNSTABLE)
      return 0;
    if (fabs(g1) <= tol) {
      *root = x1;
      return 2;
    }
    if ((g1 > 0.0) != (g0 > 0.0)) {
      *xa = fmin(x0, x1);
      *xb = fmax(x0, x1);
      return 1;
    }
    x0 = x1;
    g0 = g1;
    d *= 4.0;
  }
  return 0;
}

/* Where the cheap mean crosses e: walking from the guess by factors of 2 (*walked = 1 when the walk
 * reached a bound with |mean − e| shrinking all the way, *bound then that bound), else scanning
 * [a, b] on 25 points. Returns 1 with the crossing cell [*x0, *x1] and the cheap values *q0, *q1 there,
 * 0 when none, -1 on a status. */
static int cheap_crossing(mean_ctx *c, double a, double b, double guess, double lo, double hi, double *x0, double *x1,
                          double *q0, double *q1, int *walked, double *bound) {
  c->mode = STATS_QUICK;
  *walked = 0;
  if (isfinite(guess) && guess > lo && guess < hi) {
    double xg = log(guess), g0 = mean_fn(xg, c);
    if (c->status)
      return -1;
    double xn = fmin(b, xg + LN2), gn = mean_fn(xn, c);
    if (c->status)
      return -1;
    if (g0 != UNSTABLE && gn != UNSTABLE) {
      if ((g0 > 0.0) != (gn > 0.0)) {
        *x0 = xg, *x1 = xn, *q0 = g0, *q1 = gn;
        return 1;
      }
      /* the direction in which |mean − e| shrinks */
      double dir = fabs(gn) < fabs(g0) ? 1.0 : -1.0, xp = dir > 0 ? xn : xg, gp = dir > 0 ? gn : g0;
      for (int i = 0; i < 40; i++) {
        double xq = dir > 0 ? fmin(b, xp + LN2) : fmax(a, xp - LN2);
        if (xq == xp) {
          *walked = 1;
          *bound = xp;
          return 0;
        }
        double gq = mean_fn(xq, c);
        if (c->status)
          return -1;
        if (gq == UNSTABLE || fabs(gq) > fabs(gp))
          break; /* not monotone here: scan */
        if ((gq > 0.0) != (gp > 0.0)) {
          *x0 = xp, *x1 = xq, *q0 = gp, *q1 = gq;
          return 1;
        }
        xp = xq, gp = gq;
      }
    }
  }
  enum { NGRID = 25 };
  double gp = 0.0;
  for (int i = 0; i < NGRID; i++) {
    double x = a + (b - a) * i / (NGRID - 1), g = mean_fn(x, c);
    if (c->status)
      return -1;
    if (i > 0 && gp != UNSTABLE && g != UNSTABLE && ((gp > 0.0) != (g > 0.0) || g == 0.0)) {
      *x0 = a + (b - a) * (i - 1) / (NGRID - 1), *x1 = x, *q0 = gp, *q1 = g;
      return 1;
    }
    gp = g;
  }
  return 0;
}

/* The exact mean on 25 points of [a, b]: its first bracket. Returns 1 with it, 0 when none, -1. */
static int exact_scan(mean_ctx *c, double a, double b, double *xa, double *xb) {
  enum { NGRID = 25 };
  double gp = 0.0;
  for (int i = 0; i < NGRID; i++) {
    double x = a + (b - a) * i / (NGRID - 1), g = mean_fn(x, c);
    if (c->status)
      return -1;
    if (i > 0 && gp != UNSTABLE && g != UNSTABLE && ((gp > 0.0) != (g > 0.0) || g == 0.0)) {
      *xa = a + (b - a) * (i - 1) / (NGRID - 1);
      *xb = x;
      return 1;
    }
    gp = g;
  }
  return 0;
}

static int no_root(mean_ctx *c, double lo, double hi, impactfit_step_stats *stats) {
  if (stats) {
    memset(stats, 0, sizeof *stats);
    stats->e_min = c->mmin;
    stats->e_max = c->mmax;
    stats->e_mean = NAN;
    stats->e_continuous = NAN;
    stats->impacts = c->impacts;
    stats->steps = c->steps;
  }
  if (!(c->mmin <= c->mmax))
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOROOT,
                           "no value in [%.6g, %.6g] gives a mean e of %.17g at this step: the step is unstable at "
                           "every value tried",
                           lo, hi, c->e);
  return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOROOT,
                         "no value in [%.6g, %.6g] gives a mean e of %.17g at this step: the means found range "
                         "over [%.6g, %.6g]%s",
                         lo, hi, c->e, c->mmin, c->mmax,
                         c->unstable ? " (values where the step is unstable left out)" : "");
}

int impactfit_step_solve_mean(impactfit_step_build_fn build, const void *ctx, double v, double e, double lo, double hi,
                              double guess, double tol, double *value, impactfit_step_stats *stats,
                              impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!build || !value)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: NULL argument");
  if (!(isfinite(e) && e > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: e must be > 0 (got %.17g)", e);
  if (!(isfinite(lo) && isfinite(hi) && lo > 0.0 && hi > lo))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: need 0 < lo < hi (got %.17g, %.17g)", lo, hi);
  if (tol == 0.0)
    tol = 1e-10;
  if (!(tol >= 1e-13 && tol < 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper inverse: tol must lie in [1e-13, 0.1) (got %.17g)", tol);
  mean_ctx c = {.build = build, .ctx = ctx, .v = v, .e = e, .err = err, .mmin = INFINITY, .mmax = -INFINITY};
  double a = log(lo), b = log(hi), xa = a, xb = b, x = NAN, x0, x1, q0, q1, bound = a;
  int walked = 0, found = 0;
  /* 1. the cheap mean's crossing; 2. an exact bracket near its secant root */
  int r = cheap_crossing(&c, a, b, guess, lo, hi, &x0, &x1, &q0, &q1, &walked, &bound);
  if (r < 0)
    return c.status;
  c.mode = STATS_SEARCH;
  if (r == 1) {
    double k = (q1 - q0) / (x1 - x0), xs = x0 + (q1 != q0 ? -q0 / k : 0.5 * (x1 - x0)), w = fabs(x1 - x0);
    found = bracket_near(&c, fmin(fmax(xs, a), b), k, fmax(a, fmin(x0, x1) - w), fmin(b, fmax(x0, x1) + w), tol, &xa,
                         &xb, &x);
    if (found < 0)
      return c.status;
  } else if (walked) {
    /* the cheap walk reached a bound, the distance shrinking: the exact means at the guess and the bound */
    double gg = mean_fn(log(guess), &c), gb = mean_fn(bound, &c);
    if (c.status)
      return c.status;
    if (gg != UNSTABLE && gb != UNSTABLE && (gg > 0.0) == (gb > 0.0) && fabs(gb) < fabs(gg))
      return no_root(&c, lo, hi, stats);
  }
  /* 3. otherwise the exact mean on 25 points */
  if (!found) {
    int s = exact_scan(&c, a, b, &xa, &xb);
    if (s < 0)
      return c.status;
    if (s == 0)
      return no_root(&c, lo, hi, stats);
    found = 1;
  }
  /* 4. Brent on the exact bracket (unless a point already met the tolerance) */
  if (found == 1) {
    double ga = mean_fn(xa, &c), gb = mean_fn(xb, &c);
    if (c.status)
      return c.status;
    if (fabs(ga) <= tol || fabs(gb) <= tol) {
      x = fabs(gb) <= tol ? xb : xa;
    } else {
      c.mode = STATS_NO_CONTINUOUS; /* Brent's points near the root, with the linearisation: the answer's */
      int s = refine(&c, xa, xb, tol, &x);
      if (s)
        return s;
    }
  }
  /* the statistics at the answer, linearisation included (Brent's last point has it; a point the search
   * met the tolerance at without it is computed again), with the continuous-time e */
  *value = exp(x);
  c.mode = STATS_NO_CONTINUOUS;
  mean_fn(x, &c);
  if (c.status)
    return c.status;
  if (c.S_mode != STATS_NO_CONTINUOUS) {
    c.n_cache = 0;
    mean_fn(x, &c);
    if (c.status)
      return c.status;
  }
  if (stats) {
    impactfit_stepper st;
    memset(&st, 0, sizeof st);
    *stats = c.S;
    if (build(ctx, *value, &st, NULL) == 0) {
      stats->e_continuous = continuous_e(&st, v);
      long i0 = stats->impacts, s0 = stats->steps;
      int s = refine_extremes(&st, v, stats, err);
      if (s)
        return s;
      c.impacts += stats->impacts - i0;
      c.steps += stats->steps - s0;
      stats->stable = stats->stable && stats->e_max <= 1.0;
    }
    stats->impacts = c.impacts;
    stats->steps = c.steps;
  }
  return 0;
}

/* ---------------------------------------------------------------- the largest stable step */

static int stable_at(const impactfit_stepper *st, double v, double dt, int *stable, impactfit_error *err) {
  impactfit_stepper s = *st;
  s.dt = dt;
  impactfit_step_stats S;
  int rc = phase_stats(&s, v, &S, STATS_STABILITY, err);
  if (rc == IMPACTFIT_ENONFINITE || rc == IMPACTFIT_ENOSEP) {
    *stable = 0;
    return 0;
  }
  if (rc)
    return rc;
  *stable = S.stable;
  return 0;
}

int impactfit_step_max_stable_dt(const impactfit_stepper *st, double v, double *dt_max, impactfit_error *err) {
  impactfit_error_clear(err);
  if (!dt_max)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper: NULL result");
  int s = impactfit_stepper_check(st, err), ok;
  if (s)
    return s;
  if (!st->type) { /* no step to bound */
    *dt_max = INFINITY;
    return 0;
  }
  double lo, hi, dt = st->dt;
  if ((s = stable_at(st, v, dt, &ok, err)))
    return s;
  if (ok) {
    lo = dt;
    hi = dt;
    for (int i = 0;; i++) {
      if (i >= 20) { /* stable up to 1e6 dt */
        *dt_max = INFINITY;
        return 0;
      }
      hi *= 2.0;
      if ((s = stable_at(st, v, hi, &ok, err)))
        return s;
      if (!ok)
        break;
      lo = hi;
    }
  } else {
    hi = dt;
    lo = dt;
    /* a step so small that the contact takes more than 1e4 of them is not searched (each stable probe there
     * steps ~70 impacts through it): unstable at every step of practical size */
    impactfit_law_impact_result cr;
    double t_c = continuous_impact(st, v, &cr) == 0 ? cr.t_contact : NAN;
    for (int i = 0;; i++) {
      if (isfinite(t_c) && t_c / (0.5 * lo) > 1e4) {
        *dt_max = 0.0;
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                               "stepper %s: unstable at every step down to %.3g s (%.3g steps per contact of %.3g s)",
                               st->type->name, lo, t_c / lo, t_c);
      }
      if (i >= 60) {
        *dt_max = 0.0;
        return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT, "stepper %s: unstable at every step down to %.3g s",
                               st->type->name, lo);
      }
      lo *= 0.5;
      if ((s = stable_at(st, v, lo, &ok, err)))
        return s;
      if (ok)
        break;
      hi = lo;
    }
  }
  while (hi - lo > 1e-6 * lo) {
    double m = sqrt(lo * hi);
    if ((s = stable_at(st, v, m, &ok, err)))
      return s;
    if (ok)
      lo = m;
    else
      hi = m;
  }
  *dt_max = lo;
  return 0;
}
