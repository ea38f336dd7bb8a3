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
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"
#include "impactfit/stepper.h"
#include "law_impl.h"
#include "step_internal.h"
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
  return impactfit__law_switch_bits(&st->law, x, u);
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
    .affine = impactfit__step_law_affine,
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

/* a step's branch from its four stages' codes (stage 1 in the top byte), folded into 31 bits */
static int rk4_branch(unsigned long code) { return (int)((code ^ (code >> 31)) & 0x7fffffffUL); }

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
  s->branch = rk4_branch(code);
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
    .affine = impactfit__step_law_affine,
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
    .affine = impactfit__step_law_affine,
};

const impactfit_stepper_type frozen_force_type = {
    .name = "frozen-force",
    .summary = "the exact motion under the force of the step's start (Chrono RUNGE_KUTTA, HEUN with SMC contacts)",
    .needs_law = 1,
    .step = ff_step,
    .amplification = ff_amp,
    .affine = impactfit__step_law_affine,
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

/* A continuous-time stepper's impact (type NULL): the law's, solved by law.h (the same at every phase). */
int impactfit__step_adaptive_impact(const impactfit_stepper *st, double v, impactfit_law_impact_result *r,
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

/* The signature: FNV-1a (64 bits also where long has 32) over the runs of the sequence of symbols of the steps
 * since the first that acted, each run hashed as its symbol and its length: a step whose impulse changed the
 * speed by 1e-12 v or less has none (rounding-level impulses, e.g. of a body at rest on a constraint, change
 * neither e nor a jump), a step that acted 1 + (contact | branch << 1), one that did not 0. A run of steps taken
 * at once adds its length to its run: the same signature as stepping it. */
typedef struct {
  uint64_t h, sym;
  long n;
} sig_runs;

#define FNV_PRIME UINT64_C(1099511628211)

static void runs_flush(sig_runs *r) {
  if (r->n) {
    r->h = (r->h ^ r->sym) * FNV_PRIME;
    r->h = (r->h ^ (uint64_t)r->n) * FNV_PRIME;
    r->n = 0;
  }
}

static void runs_add(sig_runs *r, uint64_t sym, long n) {
  if (r->n && sym != r->sym)
    runs_flush(r);
  r->sym = sym;
  r->n += n;
}

/* The spectral radius of the map linearised at (x0, u0) into out->rho_max (stepper.h's rule near δ = 0) */
static void linearise(const impactfit_stepper *st, double x0, double u0, double vdt, impactfit_step_impact *out) {
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

/* ---------------------------------------------------------------- long smooth runs by the flow */

/* A run of one symbol keeps every evaluation of the force in its steps on one side of the contact, the clamp and
 * each of the law's switches (rk4: every stage, rk4_acc's codes; Euler: the step's start): the force is smooth
 * along it, and the step map over n steps is the flow of a field over n dt, to the method's error, at most about n
 * times its local error at dt.
 * - rk4: the law's own field (x, u)' = (u, a): rk4 is of order 4, its local error about dt⁵.
 * - Euler (u += dt a(x, u), then x += dt u): its steps are, to dt⁴ a step, the flow of the modified field
 *   (x, u)' = (u, a) + dt (a/2, −D/2) + dt² (−D/6, S/12 + a_u D/3 − a a_x/6), D = a_x u + a_u a (a's derivative along
 *   (u, a)) and S = a_xx u² + 2 a_xu u a + a_uu a² (its second): the map's Taylor series matched to dt³
 *   (docs/ARCHITECTURE.md). a_x and a_u are the law's own derivatives; S is the forward difference of D's gradient
 *   along (u, a) over dt/16 (its term is dt² times the field: an error of 1e-6 relative in S is below 1e-17 at the
 *   steps where the flow is taken).
 * Where n times the local error is below 1e-16 of the state's scale (steps of 1e-6 s and below on MuJoCo's soft
 * contact at 0.1 m/s for rk4, the local error about 1e-31; of 1e-7 s for Euler), the run is taken at once by that
 * flow, integrated by GSL's rk8pd to 1e-15 of the scale, up to FLOW_MARGIN steps before the first state where an
 * evaluation would see another symbol; the steps from there are stepped as before (the run's end, the knot, the
 * exit). The local error is estimated from steps of H = 4^j dt ≫ dt at the first H where the difference stands
 * above rounding: rk4's one step of H against two of H/2 (the difference 15/16 of the local error at H, which scales
 * as H⁵); Euler's 8 steps of H against the modified field's flow (with dt = H) over 8 H (8 local errors, which scale
 * as H⁴). The work counts the force's evaluations as the step does: rk4 four a step, Euler one (two for each
 * evaluation of the modified field). */
#define FLOW_MIN 4096    /* the fewest steps worth taking by the flow (it costs 100-300 steps' work) */
#define FLOW_MARGIN 16   /* steps left before the first state of another symbol the flow finds */
#define FLOW_POINTS 2048 /* the flow's accepted steps followed */
#define FLOW_TOL 1e-15   /* rk8pd's tolerance on x/xs and u/v */

typedef struct {
  const impactfit_stepper *st;
  double xs, us;
  double h;               /* Euler's modified field for steps of h (0: the law's own field, rk4's) */
  unsigned long code;     /* the run's stage code */
  int off;                /* an evaluation saw another code */
  double t_off;           /* the earliest time an evaluation saw it (INFINITY: none) */
  unsigned long code_off; /* the code it saw there */
  long evals;
} flow_ctx;

static unsigned long stage_code(const impactfit_stepper *st, double x, double u) {
  unsigned long c = 0;
  (void)rk4_acc(st, x, u, &c);
  return c;
}

/* The acceleration at (x, u) and its derivatives in x and u (the clamp's side: none), the stage's code into *code;
 * 0 where the law's derivatives are not finite */
static int acc_grad(const impactfit_stepper *st, double x, double u, double g[3], unsigned long *code) {
  double fd = 0.0, fr = 0.0, f = st->law.type->force(st->law.p, x, u, &fd, &fr);
  *code = stage_code(st, x, u);
  if (!(*code & 1u)) /* no contact: gravity alone */
    f = fd = fr = 0.0;
  else if (st->end != impactfit_transition_A && f < 0.0)
    f = fd = fr = 0.0;
  g[0] = st->gravity - f / st->mass, g[1] = -fd / st->mass, g[2] = -fr / st->mass;
  return isfinite(g[0]) && isfinite(g[1]) && isfinite(g[2]);
}

/* The field at (x, u) (h = 0: the law's own; else Euler's modified field for steps of h, the gradient's derivative
 * along (u, a) by a forward difference over eps): (x', u') into d; 0 where not finite. *code: the code of (x, u);
 * *off set where the difference's point sees another. */
static int flow_field(const impactfit_stepper *st, double h, double eps, double x, double u, double d[2],
                      unsigned long *code, int *off) {
  double g[3], g2[3];
  if (h == 0.0) {
    *code = 0;
    d[0] = u, d[1] = rk4_acc(st, x, u, code);
    return isfinite(d[1]);
  }
  unsigned long c2, c3;
  double g3[3];
  if (!acc_grad(st, x, u, g, code) || !acc_grad(st, x + eps * u, u + eps * g[0], g2, &c2) ||
      !acc_grad(st, x - eps * u, u - eps * g[0], g3, &c3))
    return 0;
  *off |= c2 != *code || c3 != *code;
  double a = g[0], ax = g[1], au = g[2], D = ax * u + au * a;
  /* (a_xx u + a_xu a, a_xu u + a_uu a): the central difference */
  double Tx = (g2[1] - g3[1]) / (2.0 * eps), Tu = (g2[2] - g3[2]) / (2.0 * eps), S = Tx * u + Tu * a;
  double f2x = -D / 6.0, f2u = S / 12.0 + au * D / 3.0 - a * ax / 6.0;
  double f3x = (au * D - a * ax) / 12.0;
  double f3u = -au * (S + a * Tu) / 12.0 - ax * u * Tu / 12.0 + a * Tx / 12.0 - au * au * D / 4.0 + u * ax * ax / 12.0 +
               a * au * ax / 6.0;
  d[0] = u + h * (0.5 * a + h * (f2x + h * f3x));
  d[1] = a + h * (-0.5 * D + h * (f2u + h * f3u));
  return isfinite(d[0]) && isfinite(d[1]);
}

static int flow_rhs(double t, const double y[], double dydt[], void *p) {
  flow_ctx *c = p;
  unsigned long code = 0;
  double d[2] = {0.0, 0.0};
  int off = 0, ok = flow_field(c->st, c->h, 1e-5 * c->xs / c->us, y[0] * c->xs, y[1] * c->us, d, &code, &off);
  c->evals++;
  if (off || code != c->code) {
    c->off = 1;
    if (t < c->t_off)
      c->t_off = t, c->code_off = code;
  }
  dydt[0] = d[0] / c->xs;
  dydt[1] = d[1] / c->us;
  return ok ? GSL_SUCCESS : GSL_EBADFUNC;
}

/* rk4's local error at dt from s, relative to (xs, us); INFINITY where even a step of 16 dt leaves the run */
static double rk4_local_error(const impactfit_stepper *st, const impactfit_step_state *s, double xs, double us) {
  impactfit_stepper big = *st;
  double est = INFINITY;
  for (int j = 2; j <= 12; j++) {
    double H = ldexp(st->dt, 2 * j);
    impactfit_step_state a = *s, b = *s;
    big.dt = H;
    rk4_step(&big, &a);
    big.dt = 0.5 * H;
    rk4_step(&big, &b);
    int left = b.branch != s->branch;
    rk4_step(&big, &b);
    if (left || a.branch != s->branch || b.branch != s->branch)
      return est; /* the last H inside the run: its difference (below 1e-11) bounds the local error */
    double d = 16.0 / 15.0 * (fabs(a.x - b.x) / xs + fabs(a.u - b.u) / us);
    est = fmax(d, 1e-11) * ldexp(1.0, -10 * j);
    if (d > 1e-11)
      break;
  }
  return est;
}

#define EULER_PROBE 8 /* the steps of H Euler's local error is estimated over */

/* Euler's local error at dt from s (against the modified field's flow), relative to (xs, us); INFINITY where even 8
 * steps of 16 dt leave the run or the flow fails. The flow over 8 H by rk8pd to 1e-15 (its work into *evals). */
static double euler_local_error(const impactfit_stepper *st, const impactfit_step_state *s, double xs, double us,
                                gsl_odeiv2_evolve *ge, gsl_odeiv2_control *gc, gsl_odeiv2_step *gs, long *evals) {
  impactfit_stepper big = *st;
  double est = INFINITY;
  unsigned long b = stage_code(st, s->x, s->u);
  for (int j = 2; j <= 12; j++) {
    double H = ldexp(st->dt, 2 * j);
    impactfit_step_state a = *s;
    big.dt = H;
    int left = 0;
    for (int i = 0; i < EULER_PROBE && !left; i++) {
      left = stage_code(st, a.x, a.u) != b;
      euler_step(&big, &a);
    }
    flow_ctx c = {.st = st, .xs = xs, .us = us, .h = H, .code = b, .t_off = INFINITY};
    gsl_odeiv2_system sys = {flow_rhs, NULL, 2, &c};
    double t = 0.0, T = EULER_PROBE * H, hh = T, y[2] = {s->x / xs, s->u / us};
    gsl_odeiv2_evolve_reset(ge);
    gsl_odeiv2_step_reset(gs);
    for (int it = 0; t < T && !left; it++) /* another symbol seen, or a flow that will not end: no estimate */
      left = c.off || it == 256 || gsl_odeiv2_evolve_apply(ge, gc, gs, &sys, &t, T, &hh, y) != GSL_SUCCESS;
    *evals += c.evals;
    if (left || c.off || stage_code(st, a.x, a.u) != b)
      return est; /* the last H inside the run: its difference (below 1e-11) bounds the local error */
    double d = (fabs(a.x / xs - y[0]) + fabs(a.u / us - y[1])) / EULER_PROBE;
    est = fmax(d, 1e-11) * ldexp(1.0, -10 * j);
    if (d > 1e-11)
      break;
  }
  return est;
}

/* The functions whose signs stage_code's bits are (rk4_acc): 0 the penetration, 1 the force (the clamp's side),
 * 2.. the law's switches; NaN where not defined */
static int n_switch_fns(const impactfit_stepper *st) {
  const impactfit_law_type *t = st->law.type;
  return 2 + (t->switch_value ? (t->n_switches < 6 ? t->n_switches : 6) : 0);
}

static double switch_fn(const impactfit_stepper *st, int i, double x, double u) {
  if (i == 0)
    return x;
  if (i == 1)
    return st->end != impactfit_transition_A ? st->law.type->force(st->law.p, x, u, NULL, NULL) : NAN;
  return st->law.type->switch_value(st->law.p, i - 2, x, u);
}

/* The one switching function that changed sign from (xa, ua) to (xb, ub), both finite at the two: its index, -1
 * where none or more than one did */
static int flipped_switch(const impactfit_stepper *st, double xa, double ua, double xb, double ub) {
  int j = -1;
  for (int i = 0; i < n_switch_fns(st); i++) {
    double ga = switch_fn(st, i, xa, ua), gb = switch_fn(st, i, xb, ub);
    if (isfinite(ga) && isfinite(gb) && (ga > 0.0) != (gb > 0.0)) {
      if (j >= 0)
        return -1;
      j = i;
    }
  }
  return j;
}

/* The switching function whose sign made code differ from the run's code b (switch_fn's index; the contact's
 * where that differs): -1 where none does */
static int off_switch(const impactfit_stepper *st, unsigned long b, unsigned long code) {
  unsigned long d = (b ^ code) & 0xffUL;
  for (int i = 0; i < n_switch_fns(st); i++)
    if (d >> i & 1UL)
      return i;
  return -1;
}

/* The walk of the flow along a run (flow_run): GSL's objects, the system and its context, the scales, the run's
 * code, and the points accepted (pt[i] = (t, x/xs, u/us), np of them) */
typedef struct {
  const impactfit_stepper *st;
  gsl_odeiv2_evolve *ge;
  gsl_odeiv2_control *gc;
  gsl_odeiv2_step *gs;
  gsl_odeiv2_system *sys;
  flow_ctx *c;
  double xs, us, dt;
  unsigned long b;
  double (*pt)[3];
  int np;
} flow_walk;

/* one rk8pd step from (t, y) to m into ym: 0 in the run's symbol (every stage too), 1 not, -1 where GSL failed */
static int walk_step(flow_walk *w, double t, double m, const double y[2], double ym[2]) {
  double yerr[2];
  ym[0] = y[0], ym[1] = y[1];
  w->c->off = 0;
  gsl_odeiv2_step_reset(w->gs);
  if (gsl_odeiv2_step_apply(w->gs, t, m - t, ym, yerr, NULL, NULL, w->sys) != GSL_SUCCESS)
    return -1;
  return w->c->off || stage_code(w->st, ym[0] * w->xs, ym[1] * w->us) != w->b;
}

/* (t, y) kept as a point of the walk: 0, or -1 when the points are full */
static int walk_keep(flow_walk *w, double t, const double y[2]) {
  if (w->np == FLOW_POINTS)
    return -1;
  w->pt[w->np][0] = t, w->pt[w->np][1] = y[0], w->pt[w->np][2] = y[1];
  w->np++;
  return 0;
}

/* After the step accepted to (t, y) from t0, a rejected trial that crossed a switch after t (its code code_off):
 * the crossing approached by single steps, each aimed 2 steps short of the root of that switch's function on the
 * secant through the last two points (4 steps on where the root is that close), none longer than the step
 * accepted, instead of the controller's tries (each crossing the switch, rejected, shorter: 13 evaluations each).
 * 1 with the bracket [*ta, *tb] (the state past it in yo), 0 where the walk goes on from (*t, y), -1 on failure. */
static int walk_approach(flow_walk *w, double t0, double *t, double y[2], double t_end, double *ta, double *tb,
                         double yo[2]) {
  const impactfit_stepper *st = w->st;
  int sw = off_switch(st, w->b, w->c->code_off);
  if (sw < 0)
    return 0;
  double hl = *t - t0, dt = w->dt, tp = t0,
         gp = switch_fn(st, sw, w->pt[w->np - 2][1] * w->xs, w->pt[w->np - 2][2] * w->us);
  for (int it = 0; it < 8 && *t < t_end; it++) {
    double gb = switch_fn(st, sw, y[0] * w->xs, y[1] * w->us);
    if (!(isfinite(gp) && isfinite(gb) && gp != gb))
      return 0;
    double r = *t + (*t - tp) * gb / (gp - gb), ym[2];
    if (!(r > *t))
      return 0; /* not approaching it */
    double m = fmin(fmin(r - *t <= 3.0 * dt ? *t + 4.0 * dt : r - 2.0 * dt, *t + hl), t_end);
    int off = walk_step(w, *t, m, y, ym);
    if (off < 0)
      return -1;
    if (off) {
      *ta = *t, *tb = m, yo[0] = ym[0], yo[1] = ym[1];
      return 1;
    }
    tp = *t, gp = gb; /* the secant's older point: the one just left */
    *t = m, y[0] = ym[0], y[1] = ym[1];
    if (walk_keep(w, *t, y))
      return -1;
  }
  return 0;
}

/* The bracket [*ta, tb] of the switch (y at *ta; yo past it) narrowed to 4 steps by single rk8pd steps from its
 * start (each shorter than the step accepted): where one switching function changed sign across it, each point 2
 * steps before the secant's root of that function, or 4 steps after the start once the root is that close (fewer
 * steps than bisection's halvings of a long bracket); else, or when a point does not move the bracket as the
 * function says, bisection. 0, or -1 on failure. */
static int walk_narrow(flow_walk *w, double *ta, double tb, double y[2], const double yo[2]) {
  const impactfit_stepper *st = w->st;
  double xs = w->xs, us = w->us, dt = w->dt;
  int sw = flipped_switch(st, y[0] * xs, y[1] * us, yo[0] * xs, yo[1] * us);
  double ga = sw >= 0 ? switch_fn(st, sw, y[0] * xs, y[1] * us) : NAN;
  double gb = sw >= 0 ? switch_fn(st, sw, yo[0] * xs, yo[1] * us) : NAN;
  for (int it = 0; tb - *ta > 4.0 * dt; it++) {
    double m = 0.5 * (*ta + tb), ym[2];
    if (sw >= 0 && it < 12) {
      double r = *ta + (tb - *ta) * ga / (ga - gb);
      m = r - *ta <= 3.0 * dt ? *ta + 4.0 * dt : r - 2.0 * dt;
      m = fmin(fmax(m, *ta + dt), tb - dt);
    }
    int off = walk_step(w, *ta, m, y, ym);
    if (off < 0)
      return -1;
    double gm = sw >= 0 ? switch_fn(st, sw, ym[0] * xs, ym[1] * us) : NAN;
    if (off) {
      tb = m;
      if (sw >= 0 && (gm > 0.0) == (ga > 0.0))
        sw = -1; /* off before that function's root: another switch, or a stage's */
      gb = gm;
    } else {
      *ta = m, y[0] = ym[0], y[1] = ym[1];
      if (sw >= 0 && (gm > 0.0) != (ga > 0.0))
        sw = -1;
      ga = gm;
      if (walk_keep(w, *ta, y))
        return -1;
    }
    if (sw >= 0 && !(isfinite(ga) && isfinite(gb) && ga != gb))
      sw = -1;
  }
  return 0;
}

/* The walk from (0, y) to t_end by rk8pd's accepted steps (none longer than hmax), stopped at the first switch:
 * *ta the last time known inside the run (y the state there), *tb the bracket's end past the switch (-1: none, *ta
 * = t_end). 0, or -1 where GSL failed or the points are full. */
static int walk(flow_walk *w, double hmax, double t_end, double y[2], double *ta, double *tb) {
  flow_ctx *c = w->c;
  const impactfit_stepper *st = w->st;
  double t = 0.0, h = 16.0 * w->dt, yo[2] = {NAN, NAN};
  *ta = t_end, *tb = -1.0;
  w->np = 0;
  walk_keep(w, t, y);
  while (t < t_end) {
    double t0 = t, y0[2] = {y[0], y[1]}, y1[2];
    c->off = 0;
    c->t_off = INFINITY;
    h = fmin(h, hmax);
    if (gsl_odeiv2_evolve_apply(w->ge, w->gc, w->gs, w->sys, &t, t_end, &h, y) != GSL_SUCCESS)
      return -1;
    int off = stage_code(st, y[0] * w->xs, y[1] * w->us) != w->b;
    /* a stage at or before t saw another symbol: that of a rejected trial, or of the step accepted, which is taken
     * again alone, its own stages checked (a stage after t is a rejected trial's) */
    if (!off && c->off && c->t_off <= t && (off = walk_step(w, t0, t, y0, y1)) < 0)
      return -1;
    if (off) { /* another symbol within (t0, t] */
      *ta = t0, *tb = t, yo[0] = y[0], yo[1] = y[1], y[0] = y0[0], y[1] = y0[1];
      break;
    }
    if (walk_keep(w, t, y))
      return -1;
    if (c->off && c->t_off > t) {
      int r = walk_approach(w, t0, &t, y, t_end, ta, tb, yo);
      if (r < 0)
        return -1;
      if (r)
        break;
      gsl_odeiv2_step_reset(w->gs);
      h = fmin(h, t - t0);
    }
  }
  return *tb > 0.0 ? walk_narrow(w, ta, *tb, y, yo) : 0;
}

/* The flow over the steps of the run from s (the state a step of the run just left): the steps taken (s
 * advanced by them), 0 when not taken (another stepper, a short run, too large a local error) */
static long flow_run(const impactfit_stepper *st, impactfit_step_state *s, double v, long n_max, int linear,
                     double *rho, impactfit_step_impact *out) {
  int euler = st->type == &euler_type;
  if ((!euler && st->type != &rk4_type) || n_max < FLOW_MIN + FLOW_MARGIN)
    return 0;
  /* the step into s of the run's symbol: rk4's four stages, Euler's one at its start */
  unsigned long b = stage_code(st, s->x, s->u), b4 = b << 24 | b << 16 | b << 8 | b;
  if (!(b & 1u) || (euler ? (int)(b >> 1) : rk4_branch(b4)) != s->branch)
    return 0;
  double L = st->law.type->length_scale ? st->law.type->length_scale(st->law.p, st->mass, v) : 0.0;
  double xs = fmax(fabs(s->x), isfinite(L) ? L : 0.0), us = v, dt = st->dt;
  if (!(xs > 0.0))
    return 0;
  /* Euler's local error is about (ω dt)⁵ (ω² = |a_x|, plus |a_u|): no estimate where that is beyond 1e-19 (the
   * flow would need it below 1e-21 to take FLOW_MIN steps: MuJoCo's soft contact at 0.1 m/s, 1e-6 s: 3e-19) */
  double g[3];
  unsigned long cg;
  if (euler && !(acc_grad(st, s->x, s->u, g, &cg) && pow((sqrt(fabs(g[1])) + fabs(g[2])) * dt, 5) <= 1e-19))
    return 0;
  /* 10 n × the local error ≤ 1e-16; rk4's estimate (a few of its steps, most often out of the run at once) before
   * rk8pd's objects are allocated (an impact tries the flow at every doubling of each run's length) */
  double n_ok = euler ? INFINITY : 1e-17 / rk4_local_error(st, s, xs, us);
  long n_lim = n_max - FLOW_MARGIN;
  if (!euler && !(n_ok >= FLOW_MIN && n_lim >= FLOW_MIN))
    return 0;
  IMPACTFIT__GSL_SCOPE;
  gsl_odeiv2_step *gs = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 2);
  gsl_odeiv2_control *gc = gsl_odeiv2_control_standard_new(FLOW_TOL, FLOW_TOL, 1.0, 0.0);
  gsl_odeiv2_evolve *ge = gsl_odeiv2_evolve_alloc(2);
  double(*pt)[3] = malloc(FLOW_POINTS * sizeof *pt);
  long n = 0, probe = 0;
  if (!gs || !gc || !ge || !pt)
    goto done;
  if (euler)
    n_ok = 1e-17 / euler_local_error(st, s, xs, us, ge, gc, gs, &probe);
  if (n_ok < (double)n_lim)
    n_lim = (long)n_ok;
  if (!(n_lim >= FLOW_MIN))
    goto done;
  gsl_odeiv2_evolve_reset(ge);
  gsl_odeiv2_step_reset(gs);
  flow_ctx c = {.st = st, .xs = xs, .us = us, .h = euler ? dt : 0.0, .code = b, .t_off = INFINITY};
  gsl_odeiv2_system sys = {flow_rhs, NULL, 2, &c};
  flow_walk w = {
      .st = st, .ge = ge, .gc = gc, .gs = gs, .sys = &sys, .c = &c, .xs = xs, .us = us, .dt = dt, .b = b, .pt = pt};
  /* the longest step an eighth of the time the law's length takes at v: a switch crossed and crossed back within
   * one step is not missed (every stage is checked too) */
  double y[2] = {s->x / xs, s->u / us}, ta, tb;
  if (walk(&w, 0.125 * xs / us, (double)n_lim * dt, y, &ta, &tb))
    goto done;
  int np = w.np;
  long k = (long)floor(ta / dt) - (tb > 0.0 ? FLOW_MARGIN : 0);
  if (k < FLOW_MIN)
    goto done;
  double T = (double)k * dt;
  int i = np - 1;
  while (i > 0 && pt[i][0] > T)
    i--;
  double yT[2] = {pt[i][1], pt[i][2]}, yerr[2];
  if (T > pt[i][0]) {
    gsl_odeiv2_step_reset(gs);
    if (gsl_odeiv2_step_apply(gs, pt[i][0], T - pt[i][0], yT, yerr, NULL, NULL, &sys) != GSL_SUCCESS)
      goto done;
  }
  if (!(isfinite(yT[0]) && isfinite(yT[1])) || stage_code(st, yT[0] * xs, yT[1] * us) != b)
    goto done;
  impactfit_step_impact lin = {.rho_max = 0.0};
  for (int j = 0; j <= i; j++) {
    double x = pt[j][1] * xs, u = pt[j][2] * us;
    if (linear || rho)
      linearise(st, x, u, v * dt, &lin);
    double f = impactfit__step_law_force(st, x, u, NULL);
    if (fabs(f) > out->f_max)
      out->f_max = fabs(f);
  }
  if (linear && lin.rho_max > out->rho_max)
    out->rho_max = lin.rho_max;
  if (rho)
    *rho = lin.rho_max;
  s->x = yT[0] * xs;
  s->u = yT[1] * us;
  s->f = impactfit__step_law_force(st, s->x, s->u, NULL);
  s->contact = 1;
  out->work += euler ? 3 * (c.evals + probe) : c.evals / 4;
  n = k;
done:
  free(pt);
  if (ge)
    gsl_odeiv2_evolve_free(ge);
  if (gc)
    gsl_odeiv2_control_free(gc);
  if (gs)
    gsl_odeiv2_step_free(gs);
  return n;
}

/* Steps of one symbol in a row before a run is taken at once (the step map's `affine`), and the factor by which
 * a run that could not be taken grows before the next try */
#define RUN_MIN 8

/* After a step from pre that left s with a run of *run steps of one symbol: the run continued at once where the
 * step map is affine there (its steps, force and linearisation into out). Returns the steps taken, 0 when none. */
static long run_at_once(const impactfit_stepper *st, const impactfit_step_state *pre, impactfit_step_state *s, double v,
                        long n_max, long n_free, int linear, int *flow, double *flow_rho, impactfit_step_impact *out,
                        int *free, int *rests) {
  impactfit_step_affine a;
  memset(&a, 0, sizeof a); /* a type that fills no fixed point: X = 0 (no gravity) */
  *free = 0;
  *rests = 0;
  int by_flow = *flow;
  *flow = 0;
  if (!st->type->affine || !st->type->affine(st, pre, &a)) {
    long n = st->type->run && s->f == 0.0 ? st->type->run(st, s, n_max) : 0;
    if (n <= 0 && by_flow)
      *flow = (n = flow_run(st, s, v, n_max, linear, flow_rho, out)) > 0;
    return n > 0 ? n : 0;
  }
  /* a run with no force (a predictive contact's point on the approach, e.g. PhysX's speculative distance of
   * 0.04 m: 4e6 steps of 0.1 m/s at 1e-7 s) costs one evaluation however long: not counted against the step
   * limit (n_free, as the free flight before the engine acts) */
  *free = a.F[0] == 0.0 && a.F[1] == 0.0 && a.F[2] == 0.0;
  double fm = 0.0;
  long n = impactfit__step_affine_run_at(&a, s, *free ? n_free : n_max, 1e-12 * v * st->mass / st->dt, &fm, rests);
  if (n <= 0)
    return 0;
  if (fm > out->f_max)
    out->f_max = fm;
  if (linear && s->contact && (a.F[0] != 0.0 || a.F[1] != 0.0)) {
    double r = st->type->amplification(st, a.F[0], a.F[1]);
    if (r > out->rho_max)
      out->rho_max = r;
  }
  return n;
}

/* The free flight before the engine acts (the step from pre left s without a force or contact): its rest at once
 * where the step map is affine there (a predictive contact's reach of many steps, e.g. Rapier's prediction
 * distance): the steps taken, 0 when none. */
static long flight_at_once(const impactfit_stepper *st, const impactfit_step_state *pre, impactfit_step_state *s,
                           double v, long n_max) {
  impactfit_step_affine a;
  memset(&a, 0, sizeof a);
  if (!st->type->affine || !st->type->affine(st, pre, &a) || a.F[0] != 0.0 || a.F[1] != 0.0 || a.F[2] != 0.0)
    return 0;
  long n = impactfit__step_affine_run(&a, s, n_max, 1e-12 * v * st->mass / st->dt, NULL);
  return n > 0 ? n : 0;
}

/* the settled rule of at_rest */
static int settled(const impactfit_stepper *st, const impactfit_step_state *pre, const impactfit_step_state *s,
                   double v, int pushed) {
  return pushed && s->x > 0.0 && s->f == 0.0 && pre->f == 0.0 && s->u == pre->u && s->u <= 0.0 && -s->u <= 1e-12 * v &&
         st->gravity == 0.0;
}

/* At rest after a step from pre (the impact's end, e into out): the step left the state unchanged with no
 * force, so every later step will (a fixed point of the map: e.g. Bullet's rows stop the body at the surface,
 * where a speed of 1e-15 m/s no longer moves the stored coordinate): e = 0, or the speed it leaves with; or,
 * stopped short of the surface by a row that acts before touching (pushed: a step of this impact had an
 * impulse above the signature's rounding level), the body creeps with no force so slowly that it would not
 * close the gap within 1e4 steps: the bodies stick, e = 0 (the rebound when it arrives, if any, is of the order
 * of a creeping speed below gap/(1e4 dt)); a body that no impulse has slowed is still on its approach, however
 * far the row reaches (Jolt's speculative distance of 0.02 m is 1.3e4 steps of 1.5 m/s at dt = 1e-6 s); under
 * gravity a body at rest on the contact keeps a constant force: the same fixed point, or a cycle of two states
 * (rest_cycle: Bullet's rows under gravity alternate a speed of 0 and -2^-66 m/s at the surface, the step limit's
 * 1e6 steps a phase before). Settled: in penetration after
 * an impulse slowed the body, two steps in a row without force left the speed as it was, leaving at a rounding
 * level (at most 1e-12 v): a contact that corrects only the position (Rapier's soft row, whose relax solve takes
 * back the speed it gave: with restitution 0 a penetration of 3e-37 m decays by 3e-4 a step at dt 1e-4 s, 1.3e5
 * steps to the surface, 1.3e7 at 1e-5 s, beyond the step limit, while the speed stays at 1.7e-52 m/s): e is that
 * speed's. The settled state lasts: it is asked at every 64th step k only (its test was 8 % of an answer whose steps
 * are cheap, DART's at 1e-6 s). */
static int same_state(const impactfit_step_state *a, const impactfit_step_state *b) {
  return a->u == b->u && a->x == b->x && memcmp(a->mem, b->mem, sizeof a->mem) == 0;
}

static int at_rest(const impactfit_stepper *st, const impactfit_step_state *pre, const impactfit_step_state *s,
                   double v, int pushed, long k, impactfit_step_impact *out) {
  int fixed = same_state(pre, s);
  int creeps = pushed && s->x < 0.0 && s->u > 0.0 && -s->x > 0.01 * (double)STEP_LIMIT * s->u * st->dt;
  int rests = fixed && st->gravity != 0.0 && s->contact;
  if (!(rests || (s->f == 0.0 && (fixed || creeps))) && ((k & 63) != 0 || !settled(st, pre, s, v, pushed)))
    return 0;
  out->e = s->u < 0.0 && !rests ? -s->u / v : 0.0; /* resting on the contact: no rebound (a cycle's -2^-66 m/s) */
  /* one signature for every impact that ends at rest: e is 0 (to rounding) whatever steps led there, so the
   * phases between two such impacts hold no jump */
  out->signature = UINT64_C(0x7e);
  return 1;
}

/* Under gravity, at rest on the contact in a cycle of two states (back: the state one step before pre; see
 * at_rest): e = 0 */
static int rest_cycle(const impactfit_step_state *back, const impactfit_step_state *s, impactfit_step_impact *out) {
  if (!(s->contact && same_state(back, s)))
    return 0;
  out->e = 0.0;
  out->signature = UINT64_C(0x7e);
  return 1;
}

/* What pass_run needs of the step just taken. */
typedef struct pass_ctx {
  const impactfit_stepper *st;
  const impactfit_step_state *pre;
  double v;
  long left;      /* steps left before the limit */
  long left_free; /* the same for a run with no force, which is not counted (run_at_once) */
  int linear;
  impactfit__step_hooks *hooks;
  int run;
  long run_k0, idx;
  uint64_t sym;
  long *flowed; /* the steps taken by the flow, added to */
  int *rests;   /* set when a run under gravity left the body at rest on the contact for good */
} pass_ctx;

/* A long run of one symbol after the step into s: the rest of it at once where the step map is affine
 * (run_at_once), or passed over by the observer (hooks->skip: the family of reference impacts). Returns the
 * steps passed (0: none), counted into out and the signature; *free: a run with no force (not counted against
 * the step limit). */
static long pass_run(const pass_ctx *c, impactfit_step_state *s, sig_runs *sig, long *next_try,
                     impactfit_step_impact *out, int *free) {
  long n = 0;
  *free = 0;
  if (sig->n >= *next_try) {
    /* the flow for an impact no family observes, or where the observer allows it (a family's reference once its
     * section's states are kept; its members are passed over) */
    int flow = !c->hooks || (c->hooks->may_flow && c->hooks->may_flow(c->hooks, c->run, c->run_k0, c->idx));
    double rho = 0.0;
    n = run_at_once(c->st, c->pre, s, c->v, c->left, c->left_free, c->linear, &flow, c->hooks ? &rho : NULL, out, free,
                    c->rests);
    if (n > 0 && c->hooks && flow && c->hooks->flowed)
      c->hooks->flowed(c->hooks, out->steps, n, c->run, rho);
    else if (n > 0 && c->hooks && c->hooks->jumped)
      c->hooks->jumped(c->hooks, out->steps, n, c->run);
    /* a run taken stops short of the symbol's end where the flow's local error bounds its steps, where the steps
     * an affine run may take end (a run without force: 1e6 steps a call: MuJoCo's direct model at 1e-7 s, 5 m/s
     * and damping 123, a clamped flight of 1.19e6 steps, its last 1.9e5 were stepped one by one) or where its
     * affine region ends inside the symbol (Bullet's rows at contact stiffness 1000 and damping 229, dt 1e-7 s: the
     * impulse's clamp to 0 keeps the symbol, and the drift out of 5235 steps after it was stepped one by one):
     * tried again soon, at doubling lengths once a try takes none */
    *next_try = n > 0 ? sig->n + n + RUN_MIN : 2 * sig->n;
    if (flow && n > 0)
      *c->flowed += n;
  }
  if (n == 0 && c->hooks && c->hooks->skip) {
    double rho = 0.0;
    n = c->hooks->skip(c->hooks, c->run, c->run_k0, c->idx, s, c->sym, &rho);
    n = n < c->left ? n : 0;
    if (n > 0 && rho > out->rho_max && c->linear)
      out->rho_max = rho;
  }
  if (n > 0) {
    out->steps += n;
    out->work++;
    out->contact_steps += s->contact ? n : 0;
    runs_add(sig, sig->sym, n);
  }
  return n;
}

/* The approach of J steps before the engine acts is too long to step one by one */
static int approach_too_long(const impactfit_stepper *st, double reach, double J, double vdt, impactfit_error *err) {
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                         "stepper %s: the engine acts %.6g m before touching, %.3g steps of v dt = %.6g m (more than "
                         "1e6 steps stepped one by one%s)",
                         st->type->name, reach, J, vdt,
                         !st->type->affine    ? ": this step map has no affine approach"
                         : st->gravity != 0.0 ? ": the approach under gravity is stepped"
                                              : "");
}

int impactfit__step_impact(const impactfit_stepper *st, double v, double phi, int lean, long limit,
                           impactfit__step_hooks *hooks, impactfit_step_impact *out, impactfit_error *err) {
  return impactfit__step_impact_flowed(st, v, phi, lean, limit, hooks, out, NULL, err);
}

int impactfit__step_impact_flowed(const impactfit_stepper *st, double v, double phi, int lean, long limit,
                                  impactfit__step_hooks *hooks, impactfit_step_impact *out, long *flowed,
                                  impactfit_error *err) {
  long flowed_here = 0;
  if (!flowed)
    flowed = &flowed_here;
  *flowed = 0;
  memset(out, 0, sizeof *out);
  out->phi = phi;
  if (!st->type) {
    impactfit_law_impact_result r;
    int s = impactfit__step_adaptive_impact(st, v, &r, err);
    if (s)
      return s;
    out->e = r.e_out;
    out->f_max = r.f_max;
    out->steps = out->contact_steps = out->work = r.steps;
    return 0;
  }
  double vdt = v * st->dt;
  double reach = st->type->reach ? st->type->reach(st, v) : 0.0;
  if (!(isfinite(reach) && reach >= 0.0))
    reach = 0.0;
  double J = 2.0 + ceil(reach / vdt);
  int rc0;
  /* an approach of more than 1e6 steps only where the flight is taken at once (flight_at_once: an affine step map
   * without gravity), not counted against the step limit */
  int flies = st->type->affine && st->gravity == 0.0;
  if (J > 1e6 && !flies)
    return approach_too_long(st, reach, J, vdt, err);
  impactfit_step_state s = {.x = (phi - J) * vdt, .u = v};
  if (st->gravity != 0.0 && (rc0 = gravity_start_or_fail(st, v, phi, (int)J, reach, &s, err)))
    return rc0;
  int acting = 0, pushed = 0, linear = !lean && st->type->needs_law && st->type->amplification;
  sig_runs sig = {.h = UINT64_C(1469598103934665603)};
  long next_try = RUN_MIN; /* the run's length at which it is next taken at once */
  int run = -1;            /* the run of the last step with a symbol, and its first step */
  long run_k0 = 0;
  impactfit_step_state back; /* under gravity: the state one step before pre (have_back: the last step was one) */
  int have_back = 0, grav = st->gravity != 0.0;
  for (long k = 0; k < STEP_LIMIT && out->work < limit; k++) {
    impactfit_step_state pre = s;
    double x0 = s.x, u0 = s.u;
    if (!out->x_first && x0 > 0.0)
      out->x_first = x0;
    if (linear && x0 > 0.0)
      linearise(st, x0, u0, vdt, out);
    int rc = st->type->step(st, &s);
    if (rc)
      return IMPACTFIT__FAIL(err, rc, "stepper %s: step %ld failed", st->type->name, k);
    if (!isfinite(s.x) || !isfinite(s.u) || fabs(s.u) > 1e4 * v)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE,
                             "stepper %s: the state blew up after %ld steps (|u| > 1e4 v: dt = %.6g s is unstable for "
                             "this contact)",
                             st->type->name, k + 1, st->dt);
    int tiny = s.f != 0.0 && fabs(s.f) * st->dt / st->mass <= 1e-12 * v;
    int acts = s.f != 0.0 || s.contact;
    pushed |= s.f != 0.0 && !tiny;
    if (acts) {
      acting = 1;
      out->contact_steps += s.contact != 0;
      if (fabs(s.f) > out->f_max)
        out->f_max = fabs(s.f);
    }
    if (acting) {
      long idx = out->steps++;
      out->work++;
      uint64_t sym = 0;
      if (!tiny) {
        sym = acts ? 1u + ((uint64_t)(s.contact != 0) | (uint64_t)(unsigned)s.branch << 1) : 0u;
        if (!sig.n || sym != sig.sym) {
          next_try = RUN_MIN;
          run++;
          run_k0 = idx;
        }
        runs_add(&sig, sym, 1);
      }
      if (hooks && hooks->stepped)
        hooks->stepped(hooks, idx, &pre, &s, sym, run);
      if (s.x <= 0.0 && s.u < 0.0 && s.f == 0.0) {
        out->e = -s.u / v;
        runs_flush(&sig);
        out->signature = sig.h;
        return 0;
      }
      if (at_rest(st, &pre, &s, v, pushed, k, out))
        return 0;
      long ran = 0;
      /* a long run of one symbol: the rest of it at once where the step map is affine, or passed over by the
       * observer (the family of reference impacts) */
      if (!tiny && acts) {
        int free, rests = 0;
        pass_ctx pc = {.st = st,
                       .pre = &pre,
                       .v = v,
                       .left = STEP_LIMIT - k - 1,
                       .left_free = 16 * (long)J + STEP_LIMIT,
                       .linear = linear,
                       .hooks = hooks,
                       .run = run,
                       .run_k0 = run_k0,
                       .idx = idx,
                       .sym = sym,
                       .flowed = flowed,
                       .rests = &rests};
        long n = pass_run(&pc, &s, &sig, &next_try, out, &free);
        k += free ? 0 : n;
        ran = n;
        if (rests) { /* at rest on the contact for good (the affine map's fixed point, gravity): no rebound */
          out->e = 0.0;
          out->signature = UINT64_C(0x7e);
          return 0;
        }
      }
      if (grav) { /* under gravity only (the loop without it stays as it was): the cycle of two states at rest */
        if (!ran && have_back && rest_cycle(&back, &s, out))
          return 0;
        back = pre;
        have_back = !ran;
      }
    } else if (s.x > reach + 10.0 * vdt && s.u > 0.0) {
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the body passed through the contact without a force",
                             st->type->name);
    } else if (k + 1 == next_try) {
      /* a long approach before the engine acts (a predictive contact's reach of many steps): the rest of the free
       * flight at once where the step map is affine there (tried after RUN_MIN steps, then at doubling lengths);
       * not counted as steps (none acted) */
      flight_at_once(st, &pre, &s, v, 16 * (long)J + STEP_LIMIT);
      next_try = 2 * (k + 1);
    }
  }
  if (!acting) /* the approach never reached the engine's reach: stepped one by one, the affine map refused it */
    return approach_too_long(st, reach, J, vdt, err);
  /* the marks of this end (phase_stats tells a sticking contact from a too small dt): the steps at the step
   * limit, or the work at the caller's limit */
  if (out->work < limit)
    out->steps = STEP_LIMIT;
  else
    out->work = limit;
  /* under gravity a body that sticks rests on the contact (at_rest, or its speed gone and the force gravity's
   * weight); one still moving there ran out of steps, not of rebound: MuJoCo's direct model at stiffness 1000 and
   * 1e-7 s has contacts of more than 1e6 steps, which read as "stick" sent the inverse to a damping of 1.6e7, where
   * the step's own overshoot gave the asked mean (the continuous-time check of phase_stats has no gravity) */
  if (st->gravity != 0.0 && out->work < limit &&
      !(s.contact && fabs(s.u) <= 1e-6 * v &&
        fabs(s.f - st->mass * st->gravity) <= 1e-3 * st->mass * fabs(st->gravity)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                           "stepper %s: dt = %.6g s is too small to step through under gravity: after %ld steps the "
                           "body still moves in the contact (%.3g m/s, penetration %.3g m), beyond the steps one "
                           "impact "
                           "is followed for; a larger dt",
                           st->type->name, st->dt, STEP_LIMIT, s.u, s.x);
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
  return impactfit__step_impact(st, v, phi, 0, STEP_LIMIT, NULL, out, err);
}
