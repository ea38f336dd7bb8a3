/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Contact force laws as objects and one impact through any of them (include/impactfit/law.h).
 *
 * The engine integrates the scaled state y = (x, w) = (δ/L, δ'/v) in τ = t v/L with GSL's rk8pd under
 * its standard error control. After every accepted step it looks for sign changes of the event
 * functions (the end of contact, the law's switches, δ' = 0, df/dt = 0) between the step's ends and
 * locates each root on single rk8pd steps of length s from the step's start (Brent's method on s,
 * GSL): an rk8pd step of any length s ≤ h is as accurate as the accepted one, so an event is found to
 * the integrator's accuracy without interpolation. A switch or the end of contact cuts the step there;
 * after a switch the integrator restarts, so no step straddles a point where the force is not smooth.
 *
 * Stages of the step that crosses δ = 0 at the end of a contact under A may look at δ < 0, where a
 * law is not defined; there the engine uses the odd extension f(δ, δ') = −f(−δ, −δ') (condition B's
 * extension of the power law), which is continuous at δ = 0 for every law here. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"
#include "impactfit/law.h"
#include "law_impl.h"

/* ---------------------------------------------------------------- helpers */

static int need_positive(const char *law, const char *name, double x, impactfit_error *err) {
  if (!(isfinite(x) && x > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s law: %s must be > 0 (got %.17g)", law, name, x);
  return 0;
}

static int need_nonneg(const char *law, const char *name, double x, impactfit_error *err) {
  if (!(isfinite(x) && x >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s law: %s must be >= 0 (got %.17g)", law, name, x);
  return 0;
}

/* x^a for x ≥ 0, with 0^0 = 1 and the derivative a x^(a−1) (0 at x = 0 for a > 1, inf for a < 1). */
static double powd(double x, double a, double *d) {
  if (a == 0.0) {
    if (d)
      *d = 0.0;
    return 1.0;
  }
  if (x <= 0.0) {
    if (d)
      *d = a == 1.0 ? 1.0 : (a > 1.0 ? 0.0 : INFINITY);
    return 0.0;
  }
  double r = pow(x, a);
  if (d)
    *d = a * r / x;
  return r;
}

/* ---------------------------------------------------------------- power: k δ^n + c δ^m δ' */

enum { P_K, P_N, P_C, P_M };
static const char *const power_names[] = {"k", "n", "c", "m"};
static const char *const power_units[] = {"N/m^n", "-", "N s m^-(m+1)", "-"};
static const char *const power_help[] = {"stiffness (> 0)", "spring exponent (> 0)",
                                         "damping coefficient (>= 0; Hunt-Crossley's lambda when m = n)",
                                         "damping exponent (>= 0)"};
static const double power_default[] = {1.0, NAN, NAN, 0.0};
static const int power_order[] = {P_N, P_M, P_C, P_K}; /* the columns impact.h's commands always had */

static int power_check(const double *p, impactfit_error *err) {
  int st;
  if ((st = need_positive("power", "k", p[P_K], err)) || (st = need_positive("power", "n", p[P_N], err)) ||
      (st = need_nonneg("power", "c", p[P_C], err)) || (st = need_nonneg("power", "m", p[P_M], err)))
    return st;
  return 0;
}

static double power_force(const double *p, double delta, double rate, double *fd, double *fr) {
  double dn, dm;
  double sn = powd(delta, p[P_N], &dn), sm = powd(delta, p[P_M], &dm);
  if (fd)
    *fd = p[P_K] * dn + (p[P_C] != 0.0 ? p[P_C] * dm * rate : 0.0);
  if (fr)
    *fr = p[P_C] * sm;
  return p[P_K] * sn + p[P_C] * sm * rate;
}

/* the undamped maximum penetration [(n+1) M v²/(2k)]^(1/(n+1)) */
static double power_length(const double *p, double mass, double v) {
  return pow((p[P_N] + 1.0) * mass * v * v / (2.0 * p[P_K]), 1.0 / (p[P_N] + 1.0));
}

/* c's scale M v/δ_m0^(m+1): c over it is impact.h's ζ */
static double power_scale(const double *p, int i, double mass, double v) {
  if (i != P_C)
    return NAN;
  return mass * v / pow(power_length(p, mass, v), p[P_M] + 1.0);
}

static int power_impact(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                        impactfit_law_impact_result *res, impactfit_error *err);

static const impactfit_law_type power_type = {
    .name = "power",
    .summary = "f = k delta^n + c delta^m delta'",
    .n_params = 4,
    .param_names = power_names,
    .param_units = power_units,
    .check = power_check,
    .force = power_force,
    .n_switches = 0,
    .switch_value = NULL,
    .length_scale = power_length,
    .param_help = power_help,
    .param_default = power_default,
    .param_order = power_order,
    .damping = "c",
    .unit_param = "k",
    .param_scale = power_scale,
    .impact = power_impact,
};

/* ---------------------------------------------------------------- approach-damper */

static double approach_force(const double *p, double delta, double rate, double *fd, double *fr) {
  if (rate > 0.0)
    return power_force(p, delta, rate, fd, fr);
  double dn;
  double sn = powd(delta, p[P_N], &dn);
  if (fd)
    *fd = p[P_K] * dn;
  if (fr)
    *fr = 0.0;
  return p[P_K] * sn;
}

static double approach_switch(const double *p, int i, double delta, double rate) {
  (void)p, (void)i, (void)delta;
  return rate;
}

static int approach_check(const double *p, impactfit_error *err) {
  int st;
  if ((st = need_positive("approach-damper", "k", p[P_K], err)) ||
      (st = need_positive("approach-damper", "n", p[P_N], err)) ||
      (st = need_nonneg("approach-damper", "c", p[P_C], err)) ||
      (st = need_nonneg("approach-damper", "m", p[P_M], err)))
    return st;
  return 0;
}

static const impactfit_law_type approach_type = {
    .name = "approach-damper",
    .summary = "f = k delta^n + c delta^m delta' while delta' > 0, k delta^n after",
    .n_params = 4,
    .param_names = power_names,
    .param_units = power_units,
    .check = approach_check,
    .force = approach_force,
    .n_switches = 1,
    .switch_value = approach_switch,
    .length_scale = power_length,
    .param_help = power_help,
    .param_default = power_default,
    .param_order = power_order,
    .damping = "c",
    .unit_param = "k",
    .param_scale = power_scale,
};

/* ---------------------------------------------------------------- impedance (MuJoCo) */

enum { I_M, I_B, I_K, I_D0, I_DW, I_W, I_MID, I_POW, I_RS, I_G, I_COUNT };
static const char *const imp_names[] = {"M", "B", "K", "d0", "dwidth", "width", "midpoint", "power", "rscale", "g"};
static const char *const imp_units[] = {"kg", "1/s", "1/s^2", "-", "-", "m", "-", "-", "-", "m/s^2"};
static const char *const imp_help[] = {"the constraint's mass (> 0): MuJoCo's 1/A, for a sphere on a plane its mass",
                                       "damping of the reference acceleration (>= 0); from solref: 2/(dwidth "
                                       "timeconst)",
                                       "stiffness of the reference acceleration (>= 0); from solref: 1/(dwidth^2 "
                                       "timeconst^2 dampratio^2)",
                                       "impedance at delta = 0, solimp[0] (in (0, 1))",
                                       "impedance at and beyond width, solimp[1] (in (0, 1))",
                                       "penetration where the impedance reaches dwidth, solimp[2] (>= 0)",
                                       "midpoint of the impedance sigmoid, solimp[3] (in (0, 1))",
                                       "power of the impedance sigmoid, solimp[4] (>= 1)",
                                       "scale of the regulariser (> 0): 1 for condim 1 and the elliptic cone, "
                                       "mu^2 (1 + mu^2)/(impratio (condim - 1)) for the pyramidal cone",
                                       "acceleration into the contact without it (gravity along the normal), m/s^2"};
/* M, B, K required; MuJoCo's default solimp (0.9, 0.95, 0.001, 0.5, 2); rscale 1, no gravity */
static const double imp_default[] = {NAN, NAN, NAN, 0.9, 0.95, 0.001, 0.5, 2.0, 1.0, 0.0};

/* MuJoCo's bounds on the impedance (mjMINIMP, mjMAXIMP in mujoco.h / engine_core_constraint.c) */
#define IMP_MIN 0.0001
#define IMP_MAX 0.9999

/* x^p for the impedance's powers: p = 2 (MuJoCo's default) and p − 1 = 1 without pow (the same doubles: glibc's pow
 * rounds x^2 and x^1 correctly, as x * x and x are) */
static double imp_pow(double x, double p) { return p == 2.0 ? x * x : p == 1.0 ? x : pow(x, p); }

double impactfit_law_impedance_d(const double s[5], double delta, double *dd) {
  /* the solimp values as MuJoCo enforces them (getsolparam) */
  double d0 = fmin(IMP_MAX, fmax(IMP_MIN, s[0])), dw = fmin(IMP_MAX, fmax(IMP_MIN, s[1]));
  double width = fmax(0.0, s[2]), mid = fmin(IMP_MAX, fmax(IMP_MIN, s[3])), pw = fmax(1.0, s[4]);
  if (dd)
    *dd = 0.0;
  if (d0 == dw || width <= 1e-15) /* mjMINVAL */
    return 0.5 * (d0 + dw);
  double x = fabs(delta) / width;
  if (x >= 1.0)
    return dw;
  if (x <= 0.0)
    return d0;
  double y, yp;
  if (pw == 1.0) {
    y = x;
    yp = 1.0;
  } else if (x <= mid) {
    double a = 1.0 / imp_pow(mid, pw - 1.0);
    y = a * imp_pow(x, pw);
    yp = pw * a * imp_pow(x, pw - 1.0);
  } else {
    double b = 1.0 / imp_pow(1.0 - mid, pw - 1.0);
    y = 1.0 - b * imp_pow(1.0 - x, pw);
    yp = pw * b * imp_pow(1.0 - x, pw - 1.0);
  }
  if (dd)
    *dd = yp * (delta < 0.0 ? -1.0 : 1.0) * (dw - d0) / width;
  return d0 + y * (dw - d0);
}

static int imp_check(const double *p, impactfit_error *err) {
  int st;
  if ((st = need_positive("impedance", "M", p[I_M], err)) || (st = need_nonneg("impedance", "B", p[I_B], err)) ||
      (st = need_nonneg("impedance", "K", p[I_K], err)) || (st = need_nonneg("impedance", "width", p[I_W], err)))
    return st;
  for (int i = I_D0; i <= I_POW; i++)
    if (!isfinite(p[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impedance law: %s must be finite (got %.17g)", imp_names[i], p[i]);
  if (!(p[I_D0] > 0.0 && p[I_D0] < 1.0 && p[I_DW] > 0.0 && p[I_DW] < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "impedance law: d0 and dwidth must lie in (0, 1) (got %.17g, %.17g; MuJoCo clamps "
                           "them to [0.0001, 0.9999])",
                           p[I_D0], p[I_DW]);
  if (!(p[I_MID] > 0.0 && p[I_MID] < 1.0 && p[I_POW] >= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "impedance law: midpoint must lie in (0, 1) and power be >= 1 (got %.17g, %.17g)", p[I_MID],
                           p[I_POW]);
  if (p[I_B] == 0.0 && p[I_K] == 0.0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impedance law: B and K are both 0 (no contact force)");
  if (!(p[I_RS] > 0.0 && isfinite(p[I_RS])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "impedance law: rscale must be > 0 (got %.17g; 1 for condim 1 and the elliptic cone, "
                           "mu^2 (1 + mu^2)/(impratio (condim - 1)) for the pyramidal cone)",
                           p[I_RS]);
  if (!isfinite(p[I_G]))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impedance law: g must be finite (got %.17g)", p[I_G]);
  return 0;
}

/* f = M s(δ) a(δ, δ') with a = B δ' + K d δ + g (MuJoCo's aref − a0) and s = d/(d + rscale (1 − d)) (the
 * solver's 1/(A + R) times A, R = rscale (1 − d)/d A); for rscale = 1, s = d */
static double imp_force(const double *p, double delta, double rate, double *fd, double *fr) {
  double dd;
  double d = impactfit_law_impedance_d(p + I_D0, delta, &dd);
  double M = p[I_M], B = p[I_B], K = p[I_K], rs = p[I_RS];
  double a = B * rate + K * d * delta + p[I_G];
  double den = d + rs * (1.0 - d), s = rs == 1.0 ? d : d / den;
  /* ds/dd = rs/den² */
  double sd = rs == 1.0 ? 1.0 : rs / (den * den);
  double f = M * s * a;
  if (fd)
    *fd = M * (sd * dd * a + s * K * (dd * delta + d));
  if (fr)
    *fr = M * s * B;
  return f;
}

/* where d(δ) is not smooth: δ = midpoint·width (for power > 1) and δ = width */
static double imp_switch(const double *p, int i, double delta, double rate) {
  (void)rate;
  double width = fmax(0.0, p[I_W]);
  double mid = fmin(IMP_MAX, fmax(IMP_MIN, p[I_MID]));
  return i == 0 ? delta - width : delta - mid * width;
}

/* The undamped penetration of the stiffest part of the law: ½ v² = ½ K dwidth² L². */
static double imp_length(const double *p, double mass, double v) {
  (void)mass;
  /* the stiffness per unit mass at full impedance, K dwidth s(dwidth) (K dwidth² for rscale 1) */
  double kk = p[I_K] * p[I_DW] * p[I_DW];
  if (p[I_RS] != 1.0)
    kk /= p[I_DW] + p[I_RS] * (1.0 - p[I_DW]);
  if (kk > 0.0)
    return v / sqrt(kk);
  return p[I_B] > 0.0 ? v / (p[I_B] * p[I_DW]) : 1.0;
}

/* B's scale, the critical damping 2√K of the law at a constant impedance (d cancels): B over it is
 * the damping ratio, MuJoCo's dampratio when M is the body's mass */
static double imp_scale(const double *p, int i, double mass, double v) {
  (void)mass, (void)v;
  return i == I_B ? 2.0 * sqrt(p[I_K]) : NAN;
}

static const impactfit_law_type impedance_type = {
    .name = "impedance",
    .summary = "f = M s(delta) (B delta' + K d(delta) delta + g), s = d/(d + rscale (1 - d)), d from MuJoCo's solimp",
    .n_params = I_COUNT,
    .param_names = imp_names,
    .param_units = imp_units,
    .check = imp_check,
    .force = imp_force,
    .n_switches = 2,
    .switch_value = imp_switch,
    .length_scale = imp_length,
    .param_help = imp_help,
    .param_default = imp_default,
    .damping = "B",
    .param_scale = imp_scale,
};

const impactfit_law_type *const impactfit_law_power = &power_type;
const impactfit_law_type *const impactfit_law_impedance = &impedance_type;
const impactfit_law_type *const impactfit_law_approach_damper = &approach_type;

static const impactfit_law_type *const law_types[] = {&power_type, &impedance_type, &approach_type};

size_t impactfit_law_type_count(void) { return sizeof law_types / sizeof law_types[0]; }

const impactfit_law_type *impactfit_law_type_at(size_t i) {
  return i < impactfit_law_type_count() ? law_types[i] : NULL;
}

const impactfit_law_type *impactfit_law_type_from_name(const char *name) {
  return impactfit_law_type_from_name_in(name, NULL, 0);
}

const impactfit_law_type *impactfit_law_type_from_name_in(const char *name, const impactfit_law_type *const *extra,
                                                          size_t n) {
  if (!name)
    return NULL;
  for (size_t i = 0; extra && i < n; i++)
    if (extra[i] && extra[i]->name && strcmp(extra[i]->name, name) == 0)
      return extra[i];
  for (size_t i = 0; i < impactfit_law_type_count(); i++)
    if (strcmp(law_types[i]->name, name) == 0)
      return law_types[i];
  return NULL;
}

int impactfit_law_type_find(const char *name, const impactfit_law_type *const *extra, size_t n,
                            const impactfit_law_type **out, impactfit_error *err) {
  const impactfit_law_type *t = impactfit_law_type_from_name_in(name, extra, n);
  if (out)
    *out = t;
  if (t)
    return IMPACTFIT_OK;
  const char *names[64];
  size_t k = 0;
  char list[512] = "";
  size_t used = 0;
  for (size_t i = 0; extra && i < n && k < 64; i++)
    if (extra[i] && extra[i]->name)
      names[k++] = extra[i]->name;
  for (size_t i = 0; i < impactfit_law_type_count() && k < 64; i++)
    names[k++] = law_types[i]->name;
  for (size_t i = 0; i < k && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
  const char *close = name ? impactfit_closest_name(name, names, k) : NULL;
  if (close)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown force law '%s' (known: %s; did you mean '%s'?)",
                           name ? name : "", list, close);
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown force law '%s' (known: %s)", name ? name : "", list);
}

/* ---------------------------------------------------------------- parameters by name */

int impactfit_law_param_index(const impactfit_law_type *type, const char *name) {
  if (!type || !type->param_names || !name)
    return -1;
  for (int i = 0; i < type->n_params && i < IMPACTFIT_LAW_MAX_PARAMS; i++)
    if (type->param_names[i] && strcmp(type->param_names[i], name) == 0)
      return i;
  return -1;
}

int impactfit_law_param_at(const impactfit_law_type *type, int i) {
  if (!type || i < 0 || i >= type->n_params || i >= IMPACTFIT_LAW_MAX_PARAMS)
    return -1;
  return type->param_order ? type->param_order[i] : i;
}

double impactfit_law_param_default(const impactfit_law_type *type, int i) {
  if (!type || !type->param_default || i < 0 || i >= type->n_params || i >= IMPACTFIT_LAW_MAX_PARAMS)
    return NAN;
  return type->param_default[i];
}

impactfit_law impactfit_law_make(const impactfit_law_type *type) {
  impactfit_law law = {.type = type};
  for (int i = 0; i < IMPACTFIT_LAW_MAX_PARAMS; i++)
    law.p[i] = type && i < type->n_params ? impactfit_law_param_default(type, i) : 0.0;
  return law;
}

/* EINVAL: type has no parameter name (the message lists its parameters) */
static int no_param(const impactfit_law_type *type, const char *name, impactfit_error *err) {
  if (!type)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no force law given");
  char list[256] = "";
  size_t used = 0;
  for (int i = 0; i < type->n_params && type->param_names && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                             type->param_names[impactfit_law_param_at(type, i)]);
  return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law '%s' has no parameter '%s' (its parameters: %s)", type->name,
                         name ? name : "(null)", list);
}

int impactfit_law_set(impactfit_law *law, const char *name, double value, impactfit_error *err) {
  int i = law ? impactfit_law_param_index(law->type, name) : -1;
  if (i < 0)
    return no_param(law ? law->type : NULL, name, err);
  law->p[i] = value;
  return IMPACTFIT_OK;
}

int impactfit_law_get(const impactfit_law *law, const char *name, double *value, impactfit_error *err) {
  int i = law ? impactfit_law_param_index(law->type, name) : -1;
  if (i < 0 || !value)
    return no_param(law ? law->type : NULL, name, err);
  *value = law->p[i];
  return IMPACTFIT_OK;
}

double impactfit_law_param_scale(const impactfit_law *law, int i, double mass, double v) {
  if (!law || !law->type || !law->type->param_scale || i < 0 || i >= law->type->n_params)
    return NAN;
  double s = law->type->param_scale(law->p, i, mass, v);
  return isfinite(s) && s > 0.0 ? s : NAN;
}

impactfit_law impactfit_law_power_make(double k, double n, double c, double m) {
  impactfit_law law = {.type = &power_type};
  law.p[P_K] = k;
  law.p[P_N] = n;
  law.p[P_C] = c;
  law.p[P_M] = m;
  return law;
}

double impactfit_law_force(const impactfit_law *law, double delta, double rate, int clamp) {
  double f = law->type->force(law->p, delta, rate, NULL, NULL);
  return clamp && f < 0.0 ? 0.0 : f;
}

int impactfit_law_check(const impactfit_law *law, impactfit_error *err) {
  if (!law || !law->type || !law->type->force)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no force law given");
  if (law->type->switch_value && (law->type->n_switches < 0 || law->type->n_switches > IMPACTFIT_LAW_MAX_SWITCHES))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law '%s' declares %d switches (at most %d)", law->type->name,
                           law->type->n_switches, IMPACTFIT_LAW_MAX_SWITCHES);
  if (law->type->n_params < 0 || law->type->n_params > IMPACTFIT_LAW_MAX_PARAMS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law '%s' declares %d parameters (at most %d)", law->type->name,
                           law->type->n_params, IMPACTFIT_LAW_MAX_PARAMS);
  for (int i = 0; i < law->type->n_params; i++)
    if (isnan(law->p[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law '%s': parameter %s is NaN", law->type->name,
                             law->type->param_names ? law->type->param_names[i] : "?");
  return law->type->check ? law->type->check(law->p, err) : 0;
}

/* ---------------------------------------------------------------- the engine */

struct impactfit_law_workspace {
  gsl_odeiv2_step *step;
  gsl_odeiv2_control *control;
  gsl_odeiv2_evolve *evolve;
  gsl_root_fsolver *root;
  gsl_odeiv2_system sys;
  /* the problem being solved */
  const impactfit_law *law;
  double mass, v, L, g; /* g = L/(M v²): scaled acceleration per newton */
  long evals;
  impactfit_impact_workspace *impact; /* impact.h's engine, for the power law (allocated when first used) */
};

impactfit_law_workspace *impactfit_law_alloc(void) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_law_workspace *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, 2);
  ws->control = gsl_odeiv2_control_standard_new(1e-13, 1e-13, 1.0, 0.0);
  ws->evolve = gsl_odeiv2_evolve_alloc(2);
  ws->root = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!ws->step || !ws->control || !ws->evolve || !ws->root) {
    impactfit_law_free(ws);
    return NULL;
  }
  return ws;
}

void impactfit_law_free(impactfit_law_workspace *ws) {
  if (!ws)
    return;
  if (ws->step)
    gsl_odeiv2_step_free(ws->step);
  if (ws->control)
    gsl_odeiv2_control_free(ws->control);
  if (ws->evolve)
    gsl_odeiv2_evolve_free(ws->evolve);
  if (ws->root)
    gsl_root_fsolver_free(ws->root);
  impactfit_impact_free(ws->impact);
  free(ws);
}

impactfit_law_impact_params impactfit_law_impact_default_params(void) {
  impactfit_law_impact_params p = {
      .law = impactfit_law_power_make(1.0, 1.5, 0.0, 0.0),
      .mass = 1.0,
      .v = 1.0,
      .transition = NULL,
      .rtol = 1e-13,
      .t_max = 0.0,
  };
  p.transition = impactfit_transition_C;
  return p;
}

/* the law's force at the scaled state, with the odd extension for δ < 0 */
static double law_f(impactfit_law_workspace *ws, double x, double w, double *fd, double *fr) {
  const impactfit_law *law = ws->law;
  ws->evals++;
  if (x >= 0.0)
    return law->type->force(law->p, ws->L * x, ws->v * w, fd, fr);
  double f = -law->type->force(law->p, -ws->L * x, -ws->v * w, fd, fr);
  /* d/dδ of −f(−δ, −u) = f_δ(−δ, −u); d/du = f_u(−δ, −u): the derivatives carry over unchanged */
  return f;
}

static int rhs(double t, const double y[], double dydt[], void *params) {
  (void)t;
  impactfit_law_workspace *ws = params;
  double f = law_f(ws, y[0], y[1], NULL, NULL);
  dydt[0] = y[1];
  dydt[1] = -ws->g * f;
  return isfinite(dydt[1]) ? GSL_SUCCESS : GSL_EBADFUNC;
}

/* events */
enum { EV_END_X, EV_END_F, EV_VMAX, EV_FMAX, EV_SWITCH0 };

typedef struct {
  impactfit_law_workspace *ws;
  double t0, y0[2], dydt0[2];
  int ev;
  int ok;
} root_ctx;

/* one rk8pd step of length s from the step's start */
static int step_to(root_ctx *c, double s, double y[2]) {
  double yerr[2];
  y[0] = c->y0[0];
  y[1] = c->y0[1];
  if (s == 0.0)
    return GSL_SUCCESS;
  gsl_odeiv2_step_reset(c->ws->step);
  return gsl_odeiv2_step_apply(c->ws->step, c->t0, s, y, yerr, c->dydt0, NULL, &c->ws->sys);
}

static double event_value(impactfit_law_workspace *ws, int ev, const double y[2]) {
  const impactfit_law *law = ws->law;
  switch (ev) {
  case EV_END_X:
    return y[0];
  case EV_END_F:
    return law_f(ws, y[0], y[1], NULL, NULL);
  case EV_VMAX:
    return y[1];
  case EV_FMAX: {
    double fd, fr;
    double f = law_f(ws, y[0], y[1], &fd, &fr);
    /* df/dτ in units of the force: f_δ L x' + f_u v w' */
    double r = fd * ws->L * y[1] - fr * ws->v * ws->g * f;
    return isfinite(r) ? r : 0.0;
  }
  default:
    return law->type->switch_value(law->p, ev - EV_SWITCH0, ws->L * y[0], ws->v * y[1]);
  }
}

static double root_fn(double s, void *params) {
  root_ctx *c = params;
  double y[2];
  if (step_to(c, s, y) != GSL_SUCCESS) {
    c->ok = 0;
    return 0.0;
  }
  return event_value(c->ws, c->ev, y);
}

/* The root in (0, h] of event ev, whose value changes sign between the step's start (ga) and end (gb). */
static double locate(root_ctx *c, int ev, double h, double ga, double gb) {
  c->ev = ev;
  c->ok = 1;
  if (gb == 0.0)
    return h;
  if (ga == 0.0)
    return 0.0;
  gsl_function F = {root_fn, c};
  if (gsl_root_fsolver_set(c->ws->root, &F, 0.0, h) != GSL_SUCCESS)
    return h;
  double lo = 0.0, hi = h;
  for (int it = 0; it < 200; it++) {
    if (gsl_root_fsolver_iterate(c->ws->root) != GSL_SUCCESS)
      break;
    lo = gsl_root_fsolver_x_lower(c->ws->root);
    hi = gsl_root_fsolver_x_upper(c->ws->root);
    if (gsl_root_test_interval(lo, hi, 0.0, 2.0 * DBL_EPSILON) == GSL_SUCCESS)
      break;
  }
  /* the side where the event has happened (the end of the bracket with the sign of gb) */
  double gl = root_fn(lo, c);
  return (gl > 0.0) == (gb > 0.0) || gl == 0.0 ? lo : hi;
}

static int is_down(int ev) { return ev == EV_END_X || ev == EV_END_F || ev == EV_VMAX || ev == EV_FMAX; }

int impactfit__law_impact_solve_general(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                                        impactfit_law_impact_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!p || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: NULL argument");
  memset(res, 0, sizeof *res);
  int st = impactfit_law_check(&p->law, err);
  if (st)
    return st;
  if (!(isfinite(p->mass) && p->mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: mass must be > 0 (got %.17g)", p->mass);
  if (!(isfinite(p->v) && p->v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: v must be > 0 (got %.17g)", p->v);
  const impactfit_transition *tr = p->transition ? p->transition : impactfit_transition_C;
  if (tr != impactfit_transition_A && tr != impactfit_transition_C)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "law impact: transition %s is not available for general force laws (A or C)", tr->name);
  double rtol = p->rtol > 0.0 ? p->rtol : 1e-13;
  if (!(rtol >= 1e-15 && rtol <= 1e-3))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: rtol must lie in [1e-15, 1e-3] (got %.17g)", rtol);
  int own = 0;
  if (!ws) {
    if (!(ws = impactfit_law_alloc()))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "law impact: out of memory");
    own = 1;
  }
  ws->law = &p->law;
  ws->mass = p->mass;
  ws->v = p->v;
  ws->evals = 0;
  double L = p->law.type->length_scale ? p->law.type->length_scale(p->law.p, p->mass, p->v) : 0.0;
  if (!(isfinite(L) && L > 0.0)) {
    /* the penetration where the elastic work reaches ½ M v² (a scale: 2 digits are plenty) */
    double half = 0.5 * p->mass * p->v * p->v, d = 1e-12, work = 0.0;
    for (; d < 1e6; d *= 2.0) {
      work = 0.0;
      for (int i = 0; i < 16; i++) {
        double s = d * (i + 0.5) / 16.0;
        work += p->law.type->force(p->law.p, s, 0.0, NULL, NULL) * d / 16.0;
      }
      if (work >= half)
        break;
    }
    L = d < 1e6 ? d : 1.0;
  }
  ws->L = L;
  ws->g = L / (p->mass * p->v * p->v);
  res->length = L;
  ws->sys = (gsl_odeiv2_system){rhs, NULL, 2, ws};
  gsl_odeiv2_control_free(ws->control);
  ws->control = gsl_odeiv2_control_standard_new(rtol, rtol, 1.0, 0.0);
  int clampC = tr == impactfit_transition_C;
  int nsw = p->law.type->switch_value ? p->law.type->n_switches : 0;
  int nev = EV_SWITCH0 + nsw;
  double t = 0.0, tmax = p->t_max > 0.0 ? p->t_max : 1e5, h = 1e-3;
  double y[2] = {0.0, 1.0};
  double f0 = law_f(ws, 0.0, 1.0, NULL, NULL);
  if (clampC && f0 < 0.0) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: the law pulls at first touch (f(0, v) = %.17g N)", f0);
    goto done;
  }
  res->f_max = fmax(0.0, f0);
  gsl_odeiv2_evolve_reset(ws->evolve);
  gsl_odeiv2_step_reset(ws->step);
  int vmax_found = 0;
  for (long nstep = 0;; nstep++) {
    if (nstep > 4000000 || t >= tmax) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                           "law impact: the contact did not end within %.3g L/v (%ld steps; L = %.6g m): the bodies "
                           "stick or creep",
                           tmax, nstep, L);
      goto done;
    }
    root_ctx c = {.ws = ws, .t0 = t, .y0 = {y[0], y[1]}};
    double ga[EV_SWITCH0 + IMPACTFIT_LAW_MAX_SWITCHES];
    for (int e = 0; e < nev && e < EV_SWITCH0 + IMPACTFIT_LAW_MAX_SWITCHES; e++)
      ga[e] = event_value(ws, e, y);
    if (rhs(t, y, c.dydt0, ws) != GSL_SUCCESS) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "law impact: non-finite force at delta = %.17g m", L * y[0]);
      goto done;
    }
    double t1 = t;
    int gst = gsl_odeiv2_evolve_apply(ws->evolve, ws->control, ws->step, &ws->sys, &t1, tmax, &h, y);
    if (gst != GSL_SUCCESS || !isfinite(y[0]) || !isfinite(y[1])) {
      st = IMPACTFIT__FAIL(err, gst == GSL_EBADFUNC ? IMPACTFIT_ENONFINITE : IMPACTFIT_ESTEP,
                           "law impact: integrator step failed at tau = %.17g (%s)", t, gsl_strerror(gst));
      goto done;
    }
    res->steps++;
    double hs = t1 - t;
    /* the earliest cutting event (end of contact or a switch) */
    int cut = -1;
    double s_cut = hs;
    for (int e = 0; e < nev && e < EV_SWITCH0 + IMPACTFIT_LAW_MAX_SWITCHES; e++) {
      if (e == EV_VMAX || e == EV_FMAX)
        continue;
      if (e == EV_END_F && !clampC)
        continue;
      double gb = event_value(ws, e, y);
      int crossed;
      if (is_down(e))
        crossed = ga[e] > 0.0 && gb <= 0.0;
      else
        crossed = (ga[e] > 0.0 && gb <= 0.0) || (ga[e] < 0.0 && gb >= 0.0);
      if (e == EV_END_F && ga[e] <= 0.0) /* a force that starts at 0 (first touch) has not ended */
        crossed = 0;
      if (!crossed)
        continue;
      double s = locate(&c, e, hs, ga[e], gb);
      if (!c.ok) {
        st = IMPACTFIT__FAIL(err, IMPACTFIT_ESTEP, "law impact: event location failed");
        goto done;
      }
      if (s <= s_cut) {
        s_cut = s;
        cut = e;
      }
    }
    /* the events that only record (δ_max, f_max) before the cut */
    double yc[2];
    if (cut >= 0) {
      step_to(&c, s_cut, yc);
    } else {
      yc[0] = y[0];
      yc[1] = y[1];
    }
    if (L * yc[0] > res->delta_max) {
      res->delta_max = L * yc[0];
      res->t_delta_max = (t + s_cut) * L / p->v;
    }
    if (!vmax_found && ga[EV_VMAX] > 0.0 && yc[1] <= 0.0) {
      double s = locate(&c, EV_VMAX, s_cut, ga[EV_VMAX], yc[1]);
      double ym[2];
      step_to(&c, s, ym);
      if (L * ym[0] >= res->delta_max) {
        res->delta_max = L * ym[0];
        res->t_delta_max = (t + s) * L / p->v;
      }
      vmax_found = 1;
    }
    {
      double fa = ga[EV_FMAX], fb = event_value(ws, EV_FMAX, yc);
      if (fa > 0.0 && fb <= 0.0) {
        double s = locate(&c, EV_FMAX, s_cut, fa, fb);
        double ym[2];
        step_to(&c, s, ym);
        double f = law_f(ws, ym[0], ym[1], NULL, NULL);
        if (f > res->f_max)
          res->f_max = f;
      }
      double fe = law_f(ws, yc[0], yc[1], NULL, NULL);
      if (fe > res->f_max && yc[0] >= 0.0)
        res->f_max = fe;
    }
    if (cut < 0) {
      t = t1;
      continue;
    }
    t += s_cut;
    y[0] = yc[0];
    y[1] = yc[1];
    if (cut == EV_END_X && y[1] > -1e-9) {
      /* under A an overdamped contact creeps back to δ = 0 and reaches it only by rounding */
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                           "law impact: the bodies creep back to delta = 0 at %.3g v: they do not separate", -y[1]);
      goto done;
    }
    if (cut == EV_END_X || cut == EV_END_F) {
      res->e_out = -y[1];
      res->t_contact = t * L / p->v;
      res->ended_on_force = cut == EV_END_F;
      res->delta_sep = cut == EV_END_F ? fmax(0.0, L * y[0]) : 0.0;
      res->f_end = cut == EV_END_F ? 0.0 : law_f(ws, 0.0, y[1], NULL, NULL);
      if (cut == EV_END_X)
        y[0] = 0.0;
      st = 0;
      break;
    }
    /* a switch: restart the integrator on the far side */
    res->switches++;
    gsl_odeiv2_evolve_reset(ws->evolve);
    gsl_odeiv2_step_reset(ws->step);
    if (s_cut < 1e-300) {
      /* the same switch again at once: step a hair past it */
      h = fmax(h, 1e-12);
    }
  }
done:
  res->rhs_evals = ws->evals;
  if (own)
    impactfit_law_free(ws);
  return st;
}

/* ---------------------------------------------------------------- one solver per law */

/* The arguments a law's own solver may rely on (what the general engine checks first). */
static int impact_args(const impactfit_law_impact_params *p, impactfit_error *err) {
  int st = impactfit_law_check(&p->law, err);
  if (st)
    return st;
  if (!(isfinite(p->mass) && p->mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: mass must be > 0 (got %.17g)", p->mass);
  if (!(isfinite(p->v) && p->v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: v must be > 0 (got %.17g)", p->v);
  const impactfit_transition *tr = p->transition ? p->transition : impactfit_transition_C;
  if (tr != impactfit_transition_A && tr != impactfit_transition_C)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "law impact: transition %s is not available for general force laws (A or C)", tr->name);
  double rtol = p->rtol > 0.0 ? p->rtol : 1e-13;
  if (!(rtol >= 1e-15 && rtol <= 1e-3))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: rtol must lie in [1e-15, 1e-3] (got %.17g)", rtol);
  return IMPACTFIT_OK;
}

int impactfit_law_impact_solve(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                               impactfit_law_impact_result *res, impactfit_error *err) {
  if (!p || !p->law.type || !p->law.type->impact)
    return impactfit__law_impact_solve_general(ws, p, res, err);
  impactfit_error_clear(err);
  if (!res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: NULL argument");
  memset(res, 0, sizeof *res);
  int st = impact_args(p, err);
  if (st)
    return st;
  impactfit_law_workspace *own = NULL;
  if (!ws && !(ws = own = impactfit_law_alloc()))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "law impact: out of memory");
  st = p->law.type->impact(ws, p, res, err);
  impactfit_law_free(own);
  return st;
}

/* The power law through impact.h's engine (series start at δ = 0, its own event location): the
 * result field by field as the general engine gives it; L is δ_m0, power_length. */
static int power_impact(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                        impactfit_law_impact_result *res, impactfit_error *err) {
  if (!ws->impact && !(ws->impact = impactfit_impact_alloc()))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "law impact: out of memory");
  impactfit_impact_params ip = impactfit_impact_default_params();
  ip.n = p->law.p[P_N];
  ip.m = p->law.p[P_M];
  ip.k = p->law.p[P_K];
  ip.c = p->law.p[P_C];
  ip.mass = p->mass;
  ip.v = p->v;
  ip.transition = p->transition ? p->transition : impactfit_transition_C;
  ip.rtol = p->rtol > 0.0 ? p->rtol : ip.rtol;
  ip.t_max = p->t_max > 0.0 ? p->t_max : 0.0;
  impactfit_impact_result ir;
  int st = impactfit_impact_solve(ws->impact, &ip, &ir, err);
  res->rhs_evals = ir.rhs_evals;
  res->steps = ir.steps;
  res->length = ir.delta_m0;
  if (st)
    return st;
  res->e_out = ir.e_out;
  res->t_contact = ir.t_contact;
  res->delta_max = ir.delta_max;
  res->t_delta_max = ir.t_delta_max;
  res->f_max = ir.f_max;
  res->delta_sep = ir.delta_sep;
  res->f_end = ir.f_end;
  res->ended_on_force = ip.transition == impactfit_transition_C && ir.delta_sep > 0.0;
  res->switches = 0;
  return IMPACTFIT_OK;
}

/* ---------------------------------------------------------------- the inverse */

typedef struct {
  impactfit_law_workspace *ws;
  impactfit_law_impact_params p;
  int index;
  double e;
  int st;
  impactfit_error err;
  impactfit_law_impact_result res;
  double memo_x[8], memo_g[8]; /* Brent's method (GSL) asks again for points it has evaluated */
  impactfit_law_impact_result memo_r[8];
  int memo_n;
} inv_ctx;

/* e_out − e at ln(value); a contact that never ends counts as e_out = 0 */
static double inv_fn_eval(double lnv, inv_ctx *c);

static double inv_fn(double lnv, void *params) {
  inv_ctx *c = params;
  int n = c->memo_n < 8 ? c->memo_n : 8;
  for (int i = 0; i < n; i++)
    if (c->memo_x[i] == lnv) {
      c->res = c->memo_r[i];
      c->p.law.p[c->index] = exp(lnv);
      return c->memo_g[i];
    }
  double g = inv_fn_eval(lnv, c);
  if (!c->st) {
    int k = c->memo_n++ % 8;
    c->memo_x[k] = lnv;
    c->memo_g[k] = g;
    c->memo_r[k] = c->res;
  }
  return g;
}

static double inv_fn_eval(double lnv, inv_ctx *c) {
  c->p.law.p[c->index] = exp(lnv);
  int st = impactfit_law_impact_solve(c->ws, &c->p, &c->res, &c->err);
  if (st == IMPACTFIT_ENOSEP)
    return -c->e;
  if (st) {
    c->st = st;
    return 0.0;
  }
  return c->res.e_out - c->e;
}

int impactfit_law_solve_param(impactfit_law_workspace *ws, const impactfit_law_impact_params *p, int index, double e,
                              double lo, double hi, double tol, double *value, impactfit_law_impact_result *res,
                              impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  if (!p || !value)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law inverse: NULL argument");
  int st = impactfit_law_check(&p->law, err);
  if (st)
    return st;
  if (index < 0 || index >= p->law.type->n_params)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law inverse: law '%s' has no parameter %d", p->law.type->name,
                           index);
  if (!(isfinite(e) && e > 0.0 && e < 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law inverse: e must lie in (0, 1) (got %.17g)", e);
  if (!(isfinite(lo) && isfinite(hi) && lo > 0.0 && hi > lo))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law inverse: need 0 < lo < hi (got %.17g, %.17g)", lo, hi);
  if (tol == 0.0)
    tol = 1e-10;
  if (!(tol >= 1e-12 && tol < 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law inverse: tol must lie in [1e-12, 0.1) (got %.17g)", tol);
  int own = 0;
  if (!ws) {
    if (!(ws = impactfit_law_alloc()))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "law inverse: out of memory");
    own = 1;
  }
  inv_ctx c = {.ws = ws, .p = *p, .index = index, .e = e};
  c.p.rtol = p->rtol > 0.0 ? fmin(p->rtol, tol * 1e-3) : fmin(1e-13, tol * 1e-3);
  if (c.p.rtol < 1e-15)
    c.p.rtol = 1e-15;
  enum { NGRID = 33 };
  double a = log(lo), b = log(hi), ga = 0.0, emin = INFINITY, emax = -INFINITY;
  double xa = a, xb = b, gb = 0.0;
  int found = 0;
  for (int i = 0; i < NGRID; i++) {
    double x = a + (b - a) * i / (NGRID - 1);
    double g = inv_fn(x, &c);
    if (c.st) {
      st = c.st;
      if (err)
        *err = c.err;
      goto out;
    }
    emin = fmin(emin, g + e);
    emax = fmax(emax, g + e);
    if (i > 0 && ((ga > 0.0) != (g > 0.0) || g == 0.0)) {
      xa = a + (b - a) * (i - 1) / (NGRID - 1);
      xb = x;
      gb = g;
      found = 1;
      break;
    }
    ga = g;
  }
  if (!found) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                         "law inverse: no value of %s in [%.6g, %.6g] gives e = %.17g: e ranges over [%.6g, %.6g] "
                         "there",
                         p->law.type->param_names ? p->law.type->param_names[index] : "?", lo, hi, e, emin, emax);
    goto out;
  }
  double want = 0.9 * tol * fmin(e, 1.0 - e);
  if (fabs(gb) <= want) {
    *value = exp(xb);
    inv_fn(xb, &c);
  } else {
    /* its own root solver: the simulations use the workspace's for their events */
    gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!rs) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "law inverse: out of memory");
      goto out;
    }
    gsl_function F = {inv_fn, &c};
    gsl_root_fsolver_set(rs, &F, xa, xb);
    double x = xb;
    int conv = 0;
    for (int it = 0; it < 200; it++) {
      if (gsl_root_fsolver_iterate(rs) != GSL_SUCCESS || c.st)
        break;
      x = gsl_root_fsolver_root(rs);
      double g = inv_fn(x, &c);
      if (c.st)
        break;
      if (fabs(g) <= want) {
        conv = 1;
        break;
      }
      double l = gsl_root_fsolver_x_lower(rs), u = gsl_root_fsolver_x_upper(rs);
      if (u - l <= 4.0 * DBL_EPSILON * fabs(u))
        break;
    }
    gsl_root_fsolver_free(rs);
    if (c.st) {
      st = c.st;
      if (err)
        *err = c.err;
      goto out;
    }
    if (!conv) {
      st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                           "law inverse: e_out within %.3g of e not reached (e jumps there, or the tolerance is "
                           "below the simulation's accuracy)",
                           want);
      goto out;
    }
    *value = exp(x);
  }
  if (res)
    *res = c.res;
  st = 0;
out:
  if (own)
    impactfit_law_free(ws);
  return st;
}
