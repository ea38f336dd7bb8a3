/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Engines' own time stepping of one head-on contact (include/impactfit/stepper.h): the built-in
 * steppers, one impact at a phase, the statistics over the phase, the inverse on the mean and the
 * largest stable step. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"
#include "impactfit/stepper.h"
#include "stepper_impl.h"

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

/* ---------------------------------------------------------------- euler */

static int euler_step(const impactfit_stepper *st, impactfit_step_state *s) {
  double f = 0.0;
  int clamped = 0;
  s->contact = s->x > 0.0;
  if (s->contact)
    f = impactfit__step_law_force(st, s->x, s->u, &clamped);
  s->u -= st->dt * f / st->mass;
  s->x += st->dt * s->u;
  s->f = f;
  s->branch = clamped;
  return 0;
}

/* u' = (1 − h b) u − h a x, x' = x + h u' with a = kl/M, b = bl/M */
static double euler_amp(const impactfit_stepper *st, double kl, double bl) {
  double h = st->dt, a = kl / st->mass, b = bl / st->mass;
  return impactfit_step_spectral_radius(1.0 - h * h * a, h * (1.0 - h * b), -h * a, 1.0 - h * b);
}

static const impactfit_stepper_type euler_type = {
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

static double rk4_acc(const impactfit_stepper *st, double x, double u, int *contact, int *clamped) {
  if (!(x > 0.0))
    return 0.0;
  int c;
  double f = impactfit__step_law_force(st, x, u, &c);
  *contact = 1;
  *clamped |= c;
  return -f / st->mass;
}

static int rk4_step(const impactfit_stepper *st, impactfit_step_state *s) {
  double h = st->dt, x = s->x, u = s->u;
  int c1 = 0, c2 = 0, c3 = 0, c4 = 0, clamped = 0;
  double k1x = u, k1u = rk4_acc(st, x, u, &c1, &clamped);
  double k2x = u + 0.5 * h * k1u, k2u = rk4_acc(st, x + 0.5 * h * k1x, k2x, &c2, &clamped);
  double k3x = u + 0.5 * h * k2u, k3u = rk4_acc(st, x + 0.5 * h * k2x, k3x, &c3, &clamped);
  double k4x = u + h * k3u, k4u = rk4_acc(st, x + h * k3x, k4x, &c4, &clamped);
  s->x = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
  s->u = u + h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
  s->f = st->mass * (u - s->u) / h;
  if (!(c1 || c2 || c3 || c4))
    s->f = 0.0;
  s->contact = c1 || c2 || c3 || c4;
  s->branch = c1 | c2 << 1 | c3 << 2 | c4 << 3 | clamped << 4;
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

static const impactfit_stepper_type rk4_type = {
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

const impactfit_stepper_type *const impactfit_stepper_euler = &euler_type;
const impactfit_stepper_type *const impactfit_stepper_rk4 = &rk4_type;

/* the registry: the built-ins, then the engines' (stepper_impl.h) */
static const impactfit_stepper_type *const stepper_types[] = {&euler_type, &rk4_type,
#define X(sym) &sym,
                                                              IMPACTFIT__ENGINE_STEPPERS(X)
#undef X
};

size_t impactfit_stepper_type_count(void) { return sizeof stepper_types / sizeof stepper_types[0]; }

const impactfit_stepper_type *impactfit_stepper_type_at(size_t i) {
  return i < impactfit_stepper_type_count() ? stepper_types[i] : NULL;
}

const impactfit_stepper_type *impactfit_stepper_type_from_name(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < impactfit_stepper_type_count(); i++)
    if (strcmp(stepper_types[i]->name, name) == 0)
      return stepper_types[i];
  return NULL;
}

int impactfit_stepper_check(const impactfit_stepper *st, impactfit_error *err) {
  if (!st || !st->type || !st->type->step)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no stepper given");
  if (!(isfinite(st->mass) && st->mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: mass must be > 0 (kg) (got %.17g)", st->type->name,
                           st->mass);
  if (!(isfinite(st->dt) && st->dt > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: dt must be > 0 (s) (got %.17g)", st->type->name, st->dt);
  if (st->end && st->end != impactfit_transition_A && st->end != impactfit_transition_C)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the end condition must be A or C (got %s)",
                           st->type->name, st->end->name);
  if (st->type->n_params < 0 || st->type->n_params > IMPACTFIT_STEPPER_MAX_PARAMS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s declares %d parameters (at most %d)", st->type->name,
                           st->type->n_params, IMPACTFIT_STEPPER_MAX_PARAMS);
  for (int i = 0; i < st->type->n_params; i++)
    if (isnan(st->p[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: parameter %s is NaN", st->type->name,
                             st->type->param_names ? st->type->param_names[i] : "?");
  int s;
  if (st->type->needs_law && (s = impactfit_law_check(&st->law, err)))
    return s;
  return st->type->check ? st->type->check(st, err) : 0;
}

/* ---------------------------------------------------------------- one impact */

#define STEP_LIMIT 1000000L
#define LN2 0.69314718055994530942

/* lean: skip the linearisation (the spectral radius), for the inverse's search */
static int impact_at(const impactfit_stepper *st, double v, double phi, int lean, impactfit_step_impact *out,
                     impactfit_error *err) {
  memset(out, 0, sizeof *out);
  out->phi = phi;
  double vdt = v * st->dt;
  double reach = st->type->reach ? st->type->reach(st, v) : 0.0;
  if (!(isfinite(reach) && reach >= 0.0))
    reach = 0.0;
  double J = 2.0 + ceil(reach / vdt);
  if (J > 1e6)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: the engine acts %.6g m before touching, %.3g steps of v dt = %.6g m",
                           st->type->name, reach, J, vdt);
  impactfit_step_state s = {.x = (phi - J) * vdt, .u = v};
  int acting = 0, linear = !lean && st->type->needs_law && st->type->amplification;
  unsigned long sig = 1469598103934665603UL;
  for (long k = 0; k < STEP_LIMIT; k++) {
    double x0 = s.x, u0 = s.u;
    if (!out->x_first && x0 > 0.0)
      out->x_first = x0;
    if (linear && x0 > 0.0) {
      double fd, fr;
      double f = st->law.type->force(st->law.p, x0, u0, &fd, &fr);
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
    if (s.f != 0.0 || s.contact) {
      acting = 1;
      out->contact_steps += s.contact != 0;
      if (fabs(s.f) > out->f_max)
        out->f_max = fabs(s.f);
      sig = (sig ^ (unsigned long)(s.contact != 0) ^ ((unsigned long)(unsigned)s.branch << 1)) * 1099511628211UL;
    }
    if (acting) {
      out->steps++;
      sig = (sig ^ 0x5bUL) * 1099511628211UL;
      if (s.x <= 0.0 && s.u < 0.0 && s.f == 0.0) {
        out->e = -s.u / v;
        out->signature = sig;
        return 0;
      }
    } else if (s.x > reach + 10.0 * vdt && s.u > 0.0) {
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the body passed through the contact without a force",
                             st->type->name);
    }
  }
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
  int lean;
  impactfit_step_stats *S;
  impactfit_error *err;
  int status;
} phase_ctx;

static int eval(phase_ctx *c, double phi, double *e, unsigned long *sig) {
  impactfit_step_impact r;
  int s = impact_at(c->st, c->v, phi, c->lean, &r, c->err);
  if (s) {
    c->status = s;
    return s;
  }
  impactfit_step_stats *S = c->S;
  S->impacts++;
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
  return 0;
}

/* 8-point Gauss–Legendre on [a, b] */
static const double gl_x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
static const double gl_w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};

static int gl8(phase_ctx *c, double a, double b, double *out) {
  double m = 0.5 * (a + b), r = 0.5 * (b - a), sum = 0.0, e1, e2;
  for (int i = 0; i < 4; i++) {
    if (eval(c, m - r * gl_x[i], &e1, NULL) || eval(c, m + r * gl_x[i], &e2, NULL))
      return c->status;
    sum += gl_w[i] * (e1 + e2);
  }
  *out = r * sum;
  return 0;
}

static int adapt(phase_ctx *c, double a, double b, double whole, int depth, double *out) {
  double m = 0.5 * (a + b), l, r;
  if (gl8(c, a, m, &l) || gl8(c, m, b, &r))
    return c->status;
  if (depth >= 10 || fabs(l + r - whole) <= 1e-12 * (b - a)) {
    *out = l + r;
    return 0;
  }
  double L2, R2;
  if (adapt(c, a, m, l, depth + 1, &L2) || adapt(c, m, b, r, depth + 1, &R2))
    return c->status;
  *out = L2 + R2;
  return 0;
}

#define MAX_JUMPS 4096

typedef struct {
  double at[MAX_JUMPS];
  int n;
} jumps;

/* the jumps of the signature between a (sig sa) and b (sig sb), by bisection */
static int find_jumps(phase_ctx *c, double a, unsigned long sa, double b, unsigned long sb, int depth, jumps *J) {
  if (sa == sb)
    return 0;
  if (b - a <= 1e-13 || depth > 60) {
    if (J->n < MAX_JUMPS)
      J->at[J->n++] = 0.5 * (a + b);
    /* the values on both sides enter the extremes */
    double e;
    if (eval(c, a, &e, NULL) || eval(c, b, &e, NULL))
      return c->status;
    return 0;
  }
  double m = 0.5 * (a + b), e;
  unsigned long sm;
  if (eval(c, m, &e, &sm))
    return c->status;
  if (find_jumps(c, a, sa, m, sm, depth + 1, J))
    return c->status;
  return find_jumps(c, m, sm, b, sb, depth + 1, J);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* lean: the mean and extremes only (no stability, no continuous-time e): the inverse's search */
static int phase_stats(const impactfit_stepper *st, double v, int lean, impactfit_step_stats *out,
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
  phase_ctx c = {.st = st, .v = v, .lean = lean, .S = out, .err = err};
  enum { NS = 66 };
  double phi[NS], e[NS];
  unsigned long sig[NS];
  phi[0] = 0x1p-30;
  for (int i = 1; i < NS - 1; i++)
    phi[i] = (i - 0.5) / (NS - 2);
  phi[NS - 1] = 1.0;
  for (int i = 0; i < NS; i++)
    if (eval(&c, phi[i], &e[i], &sig[i]))
      return c.status;
  jumps *J = malloc(sizeof *J);
  if (!J)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "stepper: out of memory");
  J->n = 0;
  for (int i = 0; i + 1 < NS; i++)
    if (find_jumps(&c, phi[i], sig[i], phi[i + 1], sig[i + 1], 0, J)) {
      free(J);
      return c.status;
    }
  qsort(J->at, (size_t)J->n, sizeof J->at[0], cmp_double);
  double mean = 0.0, a = 0.0;
  for (int k = 0; k <= J->n; k++) {
    double b = k < J->n ? J->at[k] : 1.0;
    if (b > a) {
      double whole, part;
      if (gl8(&c, a, b, &whole) || adapt(&c, a, b, whole, 0, &part)) {
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
  int known = st->type->needs_law && st->type->amplification;
  out->stable = known ? out->rho_max <= 1.0 + 1e-9 : out->e_max <= 1.0;
  if (lean)
    return 0;
  /* the continuous-time limit */
  impactfit_law law;
  const impactfit_transition *end = st->end ? st->end : impactfit_transition_C;
  int have = 0;
  if (st->type->needs_law) {
    law = st->law;
    have = 1;
  } else if (st->type->continuous && st->type->continuous(st, &law, &end) == 0) {
    have = 1;
  }
  if (have) {
    impactfit_law_impact_params lp = impactfit_law_impact_default_params();
    lp.law = law;
    lp.mass = st->mass;
    lp.v = v;
    lp.transition = end;
    impactfit_law_impact_result r;
    impactfit_error e2;
    if (impactfit_law_impact_solve(NULL, &lp, &r, &e2) == 0)
      out->e_continuous = r.e_out;
  }
  return 0;
}

int impactfit_step_phase_stats(const impactfit_stepper *st, double v, impactfit_step_stats *out, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  return phase_stats(st, v, 0, out, err);
}

/* ---------------------------------------------------------------- the inverse on the mean */

typedef struct {
  impactfit_step_build_fn build;
  const void *ctx;
  double v, e;
  int status;
  int unstable; /* values met where the step blew up */
  impactfit_error *err;
  impactfit_step_stats S;
  /* the values already computed: Brent's method (GSL) asks again for the ends and for the point its
   * iteration just evaluated */
  double memo_x[16], memo_g[16];
  impactfit_step_stats memo_S[16];
  int memo_n;
} mean_ctx;

#define UNSTABLE 1e3 /* mean − e where the step blows up: "e = +inf" */

/* the range of the means met, the unstable values left out */
static void met(double g, double e, double *mmin, double *mmax) {
  if (g == UNSTABLE)
    return;
  *mmin = fmin(*mmin, g + e);
  *mmax = fmax(*mmax, g + e);
}

static double mean_fn_eval(double lnv, mean_ctx *c);

static double mean_fn(double lnv, void *params) {
  mean_ctx *c = params;
  int n = c->memo_n < 16 ? c->memo_n : 16;
  for (int i = 0; i < n; i++)
    if (c->memo_x[i] == lnv) {
      c->S = c->memo_S[i];
      return c->memo_g[i];
    }
  double g = mean_fn_eval(lnv, c);
  if (!c->status) {
    int k = c->memo_n++ % 16;
    c->memo_x[k] = lnv;
    c->memo_g[k] = g;
    c->memo_S[k] = c->S;
  }
  return g;
}

static double mean_fn_eval(double lnv, mean_ctx *c) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  int s = c->build(c->ctx, exp(lnv), &st, c->err);
  if (!s)
    s = phase_stats(&st, c->v, 1, &c->S, c->err);
  if (s == IMPACTFIT_ENOSEP) /* the bodies stick: e = 0 */
    return -c->e;
  if (s == IMPACTFIT_ENONFINITE) { /* the step is unstable there: the energy grows without bound */
    impactfit_error_clear(c->err);
    c->unstable++;
    return UNSTABLE;
  }
  if (s) {
    c->status = s;
    return 0.0;
  }
  return c->S.e_mean - c->e;
}

/* Brent's method (GSL) on ln(value) inside [xa, xb] where mean − e changes sign */
static int refine(mean_ctx *c, double xa, double xb, double tol, double *x) {
  gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!rs)
    return IMPACTFIT__FAIL(c->err, IMPACTFIT_ENOMEM, "stepper inverse: out of memory");
  gsl_function F = {mean_fn, c};
  gsl_root_fsolver_set(rs, &F, xa, xb);
  int conv = 0;
  for (int it = 0; it < 200; it++) {
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
  mean_ctx c = {.build = build, .ctx = ctx, .v = v, .e = e, .err = err};
  double a = log(lo), b = log(hi), mmin = INFINITY, mmax = -INFINITY, xa = 0.0, xb = 0.0, gb = 0.0;
  int found = 0, walked = 0;
  /* 1: walk from the guess by factors of 2 towards the target (the mean is monotone in the usual case) */
  if (isfinite(guess) && guess > lo && guess < hi) {
    double x0 = log(guess), g0 = mean_fn(x0, &c);
    if (c.status)
      return c.status;
    met(g0, e, &mmin, &mmax);
    if (g0 == UNSTABLE) {
      /* no direction to walk in: scan */
    } else if (fabs(g0) <= tol) {
      found = 2;
      xb = x0;
    } else {
      double x1 = fmin(b, x0 + LN2), g1 = mean_fn(x1, &c);
      if (c.status)
        return c.status;
      met(g1, e, &mmin, &mmax);
      if (g1 == UNSTABLE) {
        /* scan */
      } else if ((g0 > 0.0) != (g1 > 0.0)) {
        xa = x0, xb = x1, gb = g1, found = 1;
      } else {
        /* the direction in which |mean − e| shrinks */
        double dir = fabs(g1) < fabs(g0) ? 1.0 : -1.0, xp = dir > 0 ? x1 : x0, gp = dir > 0 ? g1 : g0;
        for (int i = 0; i < 40 && !found; i++) {
          double xn = dir > 0 ? fmin(b, xp + LN2) : fmax(a, xp - LN2);
          if (xn == xp) {
            walked = 1; /* at a bound, |mean − e| shrinking all the way: e lies beyond it */
            break;
          }
          double gn = mean_fn(xn, &c);
          if (c.status)
            return c.status;
          met(gn, e, &mmin, &mmax);
          if (gn == UNSTABLE)
            break; /* scan */
          if ((gn > 0.0) != (gp > 0.0)) {
            xa = xp, xb = xn, gb = gn, found = 1;
          } else if (fabs(gn) > fabs(gp)) {
            break; /* moving away: not monotone here; scan */
          }
          xp = xn, gp = gn;
        }
      }
    }
  }
  /* 2: a scan of the whole range */
  enum { NGRID = 25 };
  double ga = 0.0;
  for (int i = 0; i < NGRID && !found && !walked; i++) {
    double x = a + (b - a) * i / (NGRID - 1);
    double g = mean_fn(x, &c);
    if (c.status)
      return c.status;
    met(g, e, &mmin, &mmax);
    if (i > 0 && ga != UNSTABLE && g != UNSTABLE && ((ga > 0.0) != (g > 0.0) || g == 0.0)) {
      xa = a + (b - a) * (i - 1) / (NGRID - 1);
      xb = x;
      gb = g;
      found = 1;
    }
    ga = g;
  }
  if (!found) {
    if (stats) {
      memset(stats, 0, sizeof *stats);
      stats->e_min = mmin;
      stats->e_max = mmax;
      stats->e_mean = NAN;
      stats->e_continuous = NAN;
    }
    if (!(mmin <= mmax))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                             "no value in [%.6g, %.6g] gives a mean e of %.17g at this step: the step is unstable at "
                             "every value tried",
                             lo, hi, e);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                           "no value in [%.6g, %.6g] gives a mean e of %.17g at this step: the means found range "
                           "over [%.6g, %.6g]%s",
                           lo, hi, e, mmin, mmax, c.unstable ? " (values where the step is unstable left out)" : "");
  }
  double x = xb;
  if (found == 1 && fabs(gb) > tol) {
    int s = refine(&c, fmin(xa, xb), fmax(xa, xb), tol, &x);
    if (s)
      return s;
  } else {
    mean_fn(x, &c);
    if (c.status)
      return c.status;
  }
  *value = exp(x);
  if (stats)
    *stats = c.S;
  return 0;
}

/* ---------------------------------------------------------------- the largest stable step */

static int stable_at(const impactfit_stepper *st, double v, double dt, int *stable, impactfit_error *err) {
  impactfit_stepper s = *st;
  s.dt = dt;
  impactfit_step_stats S;
  int rc = impactfit_step_phase_stats(&s, v, &S, err);
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
    for (int i = 0;; i++) {
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
