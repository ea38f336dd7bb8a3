/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Contact force laws as objects and one impact through any of them (include/impactfit/law.h).
 *
 * The engine integrates the scaled state y = (x, w, D, φ) (δ/L, δ'/v, the work of the rate-dependent
 * force, and in the end phase the force itself) in τ = t v/L with GSL's rk8pd under its own step
 * control (GSL's standard rule, the absolute tolerance on x and w scaled by the state's size). It is
 * split as impact.c is: law_impact (the problem's scales), run_contact and advance (one accepted step
 * and what cuts it), scan_cut and record_extrema (the events), finish (the end and the energy balance).
 * After every accepted step it looks for sign changes of the event
 * functions (the end of contact, the law's switches, δ' = 0, df/dt = 0) between the step's ends and
 * locates each root on single rk8pd steps of length s from the step's start (Brent's method on s,
 * GSL): an rk8pd step of any length s ≤ h is as accurate as the accepted one, so an event is found to
 * the integrator's accuracy without interpolation. A switch or the end of contact cuts the step there;
 * after a switch the integrator restarts, so no step straddles a point where the force is not smooth.
 *
 * Stages of the step that crosses δ = 0 at the end of a contact under A may look at δ < 0, where a
 * law is not defined; there the engine uses the odd extension f(δ, δ') = −f(−δ, −δ') (condition B's
 * extension of the power law), which is continuous at δ = 0 for every law here. Issue 39's audit
 * (docs/ACCURACY.md) found t_contact 3.8e-7 off under strong damping, an early force peak missed for
 * n < 1, and a law inverse 1.2e-9 (1 − e) off near e = 1; the end phase, the sign-keeping df/dt and
 * the energy balance below are the fixes, each measured against the reference (src/reference/
 * ref_law_cases.c, tests/test_truth.c). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>

#include "../common/common_impl.h"
#include "impactfit/law.h"
#include "law_impl.h"

/* the type objects have external linkage, under these names, for the code registry's constant tables */
#define power_type impactfit__law_power_type
#define approach_type impactfit__law_approach_type
#define impedance_type impactfit__law_impedance_type

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
  /* the powers the laws use most (Hertz's 3/2, its damping's 1/4) without pow: to an ulp of it, a fraction of its
   * cost in the engines' steps (a stepped contact evaluates the force at every step) */
  double r = a == 1.5 ? x * sqrt(x) : a == 0.25 ? sqrt(sqrt(x)) : a == 0.5 ? sqrt(x) : pow(x, a);
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

const impactfit_law_type power_type = {
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

const impactfit_law_type approach_type = {
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

/* fmin(hi, fmax(lo, v)) and fmax(lo, v) by comparisons (NaN gives lo, as fmax does): libm's fmin and fmax are
 * calls that the compiler does not inline, 7 % of a MuJoCo contact's stepping at small dt */
static double imp_clamp(double v, double lo, double hi) { return v > hi ? hi : v >= lo ? v : lo; }
static double imp_atleast(double v, double lo) { return v >= lo ? v : lo; }

/* impactfit_law_impedance_d's body, inlined into the law's force (the exported function itself cannot be: a
 * shared library's exported symbol may be interposed, so every stage of a MuJoCo contact's step called it
 * through the PLT, a quarter of a contact's stepping at small dt) */
static inline double imp_d(const double s[5], double delta, double *dd) {
  /* the solimp values as MuJoCo enforces them (getsolparam) */
  double d0 = imp_clamp(s[0], IMP_MIN, IMP_MAX), dw = imp_clamp(s[1], IMP_MIN, IMP_MAX);
  double width = imp_atleast(s[2], 0.0), mid = imp_clamp(s[3], IMP_MIN, IMP_MAX), pw = imp_atleast(s[4], 1.0);
  if (dd)
    *dd = 0.0;
  if (d0 == dw || width <= 1e-15) /* mjMINVAL */
    return 0.5 * (d0 + dw);
  double x = fabs(delta) / width;
  if (x >= 1.0)
    return dw;
  if (x <= 0.0)
    return d0;
  /* y, and its slope yp only where it is asked for (the force alone: every stage of a step) */
  double y, yp;
  if (pw == 1.0) {
    y = x;
    yp = 1.0;
  } else if (x <= mid) {
    double a = 1.0 / imp_pow(mid, pw - 1.0);
    y = a * imp_pow(x, pw);
    yp = dd ? pw * a * imp_pow(x, pw - 1.0) : 0.0;
  } else {
    double b = 1.0 / imp_pow(1.0 - mid, pw - 1.0);
    y = 1.0 - b * imp_pow(1.0 - x, pw);
    yp = dd ? pw * b * imp_pow(1.0 - x, pw - 1.0) : 0.0;
  }
  if (dd)
    *dd = yp * (delta < 0.0 ? -1.0 : 1.0) * (dw - d0) / width;
  return d0 + y * (dw - d0);
}

double impactfit_law_impedance_d(const double s[5], double delta, double *dd) { return imp_d(s, delta, dd); }

/* Every finite solimp value is accepted and used as MuJoCo uses it: getsolparam clamps d0, dwidth and
 * midpoint to [mjMINIMP, mjMAXIMP] = [0.0001, 0.9999], width to >= 0 and power to >= 1 before any use
 * (MuJoCo 2.2.2 src/engine/engine_core_constraint.c:1023-1028; the same lines in 3.0.0 :1271-1276 and
 * 3.12.0 :2042-2047), and impactfit_law_impedance_d and the switches do the same. */
static int imp_check(const double *p, impactfit_error *err) {
  int st;
  if ((st = need_positive("impedance", "M", p[I_M], err)) || (st = need_nonneg("impedance", "B", p[I_B], err)) ||
      (st = need_nonneg("impedance", "K", p[I_K], err)))
    return st;
  for (int i = I_D0; i <= I_POW; i++)
    if (!isfinite(p[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impedance law: %s must be finite (got %.17g)", imp_names[i], p[i]);
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
  double dd = 0.0;
  double d = imp_d(p + I_D0, delta, fd ? &dd : NULL);
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
  double width = imp_atleast(p[I_W], 0.0);
  double mid = imp_clamp(p[I_MID], IMP_MIN, IMP_MAX);
  return i == 0 ? delta - width : delta - mid * width;
}

/* the switches through the law's type (a function of its own: the impedance's path then needs no frame) */
static unsigned switch_bits_of_type(const impactfit_law *law, double delta, double rate) {
  const impactfit_law_type *t = law->type;
  unsigned bits = 0;
  if (!t->switch_value)
    return 0;
  for (int i = 0; i < t->n_switches && i < IMPACTFIT_LAW_MAX_SWITCHES; i++)
    if (t->switch_value(law->p, i, delta, rate) > 0.0)
      bits |= 1u << i;
  return bits;
}

unsigned impactfit__law_switch_bits(const impactfit_law *law, double delta, double rate) {
  if (law->type != &impedance_type)
    return switch_bits_of_type(law, delta, rate);
  /* imp_switch's two values */
  double width = imp_atleast(law->p[I_W], 0.0), mid = imp_clamp(law->p[I_MID], IMP_MIN, IMP_MAX);
  return (delta - width > 0.0 ? 1u : 0u) | (delta - mid * width > 0.0 ? 2u : 0u);
}

/* The undamped penetration of the stiffest part of the law: ½ v² = ½ K dwidth² L² (dwidth as MuJoCo clamps it). */
static double imp_length(const double *p, double mass, double v) {
  (void)mass;
  /* the stiffness per unit mass at full impedance, K dwidth s(dwidth) (K dwidth² for rscale 1), dwidth as
   * MuJoCo clamps it */
  double dw = fmin(IMP_MAX, fmax(IMP_MIN, p[I_DW])), kk = p[I_K] * dw * dw;
  if (p[I_RS] != 1.0)
    kk /= dw + p[I_RS] * (1.0 - dw);
  if (kk > 0.0)
    return v / sqrt(kk);
  return p[I_B] > 0.0 ? v / (p[I_B] * dw) : 1.0;
}

/* B's scale, the critical damping 2√K of the law at a constant impedance (d cancels): B over it is
 * the damping ratio, MuJoCo's dampratio when M is the body's mass */
static double imp_scale(const double *p, int i, double mass, double v) {
  (void)mass, (void)v;
  return i == I_B ? 2.0 * sqrt(p[I_K]) : NAN;
}

const impactfit_law_type impedance_type = {
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

/* The state: x = δ/L, w = δ'/v, D = the work of the force's rate-dependent part f(δ, δ') − f(δ, 0) per
 * ½ M v² (for the energy balance), and in the end phase φ = f/F, the force integrated as a state. */
enum { Y_X, Y_W, Y_D, Y_F, NY };

struct impactfit_law_workspace {
  gsl_odeiv2_step *step;
  gsl_odeiv2_control *control;
  gsl_odeiv2_evolve *evolve;
  gsl_root_fsolver *root;
  gsl_integration_workspace *quad;
  gsl_odeiv2_system sys;
  /* the problem being solved */
  const impactfit_law *law;
  double mass, v, L, g; /* g = L/(M v²): scaled acceleration per newton */
  double rtol;          /* the integrator's tolerance */
  int end_phase;        /* φ = f/F is integrated (condition C, after δ_max, once f cancels) */
  double F;             /* its scale: 1e-3 of the force's parts where the phase began, N */
  long evals;
  impactfit_impact_workspace *impact; /* impact.h's engine, for the power law (allocated when first used) */
};

#define QUAD_LIMIT 200

/* The step-size control: the standard rule of GSL's control (the largest ratio r = |error_i| /
 * (eps_abs s_i + eps_rel |y_i|) over the components; r > 1.1: h × max(0.2, 0.9 r^(−1/q)); r < 0.5:
 * h × min(5, max(1, 0.9 r^(−1/(q+1)))); q the method's order), with an absolute scale s_i per component
 * that the engine moves with the contact: for x and w the size of the state, max(|x|, |w|), so that
 * the rebound of a heavily damped impact (x and w ≪ 1) and the slow end of a contact are integrated to
 * rtol relative to their own size rather than to L and v (e_out of a contact that creeps back at
 * 0.0036 v had 1.6e-13 of absolute error, 4.5e-11 of e). */
typedef struct {
  double eps_abs, eps_rel, scale[NY];
} law_control;

static void *lc_alloc(void) {
  law_control *c = calloc(1, sizeof *c);
  if (c)
    for (int i = 0; i < NY; i++)
      c->scale[i] = 1.0;
  return c;
}

static int lc_init(void *vs, double eps_abs, double eps_rel, double a_y, double a_dydt) {
  (void)a_y, (void)a_dydt;
  law_control *c = vs;
  c->eps_abs = eps_abs;
  c->eps_rel = eps_rel;
  for (int i = 0; i < NY; i++)
    c->scale[i] = 1.0;
  return GSL_SUCCESS;
}

static int lc_hadjust(void *vs, size_t dim, unsigned int ord, const double y[], const double yerr[], const double yp[],
                      double *h) {
  (void)yp;
  const law_control *c = vs;
  double rmax = DBL_MIN;
  for (size_t i = 0; i < dim && i < NY; i++)
    rmax = fmax(rmax, fabs(yerr[i]) / (c->eps_abs * c->scale[i] + c->eps_rel * fabs(y[i])));
  if (rmax > 1.1) {
    *h *= fmax(0.2, 0.9 / pow(rmax, 1.0 / ord));
    return GSL_ODEIV_HADJ_DEC;
  }
  if (rmax < 0.5) {
    *h *= fmin(5.0, fmax(1.0, 0.9 / pow(rmax, 1.0 / (ord + 1.0))));
    return GSL_ODEIV_HADJ_INC;
  }
  return GSL_ODEIV_HADJ_NIL;
}

static int lc_errlevel(void *vs, const double y, const double dydt, const double h, const size_t i, double *errlev) {
  (void)dydt, (void)h;
  const law_control *c = vs;
  *errlev = c->eps_abs * c->scale[i < NY ? i : 0] + c->eps_rel * fabs(y);
  return *errlev > 0.0 ? GSL_SUCCESS : GSL_ESANITY;
}

static int lc_set_driver(void *vs, const gsl_odeiv2_driver *d) {
  (void)vs, (void)d;
  return GSL_SUCCESS;
}

static void lc_free(void *vs) { free(vs); }

static const gsl_odeiv2_control_type law_control_type = {.name = "impactfit-law",
                                                         .alloc = lc_alloc,
                                                         .init = lc_init,
                                                         .hadjust = lc_hadjust,
                                                         .errlevel = lc_errlevel,
                                                         .set_driver = lc_set_driver,
                                                         .free = lc_free};

/* the absolute scale of x and w: the state's size (at least 1e-12) */
static void scale_control(impactfit_law_workspace *ws, const double y[]) {
  law_control *c = ws->control->state;
  c->scale[Y_X] = c->scale[Y_W] = fmax(1e-12, fmax(fabs(y[Y_X]), fabs(y[Y_W])));
}

impactfit_law_workspace *impactfit_law_alloc(void) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_law_workspace *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->step = gsl_odeiv2_step_alloc(gsl_odeiv2_step_rk8pd, NY);
  /* absolute and relative tolerance rtol, the absolute one on x and w scaled by the state's size (law_control),
   * on D (≤ 1) and φ not (φ's scale makes its absolute tolerance 1e-3 rtol of the force's parts: enter_end_phase) */
  ws->control = gsl_odeiv2_control_alloc(&law_control_type);
  if (ws->control)
    gsl_odeiv2_control_init(ws->control, 1e-13, 1e-13, 1.0, 0.0);
  ws->evolve = gsl_odeiv2_evolve_alloc(NY);
  ws->root = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  ws->quad = gsl_integration_workspace_alloc(QUAD_LIMIT);
  if (!ws->step || !ws->control || !ws->evolve || !ws->root || !ws->quad) {
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
  if (ws->quad)
    gsl_integration_workspace_free(ws->quad);
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

/* The law's force at the scaled state, with the odd extension for δ < 0. At δ = 0 itself the law is
 * evaluated at the smallest positive double, its limit as far as double precision can see: a factor δ^m
 * with small m > 0 is 0 at δ = 0 but 0.9996 at 5e-324 for m = 5e-7 and about 1 at every δ the
 * integrator reaches, so the force at first touch taken at δ = 0 was a jump the first step did not
 * see (e_out 2e-7 off for m = 5.4e-7 before). */
static double law_f(impactfit_law_workspace *ws, double x, double w, double *fd, double *fr) {
  const impactfit_law *law = ws->law;
  ws->evals++;
  if (x == 0.0)
    return law->type->force(law->p, DBL_TRUE_MIN, ws->v * w, fd, fr);
  if (x > 0.0)
    return law->type->force(law->p, ws->L * x, ws->v * w, fd, fr);
  double f = -law->type->force(law->p, -ws->L * x, -ws->v * w, fd, fr);
  /* d/dδ of −f(−δ, −u) = f_δ(−δ, −u); d/du = f_u(−δ, −u): the derivatives carry over unchanged */
  return f;
}

/* df/dτ in newtons per unit τ, f_δ L w − f_u v g f, from the law's derivatives at the state and the
 * force f; a non-finite value (f_δ = ∞ at δ = 0 for a law like δ^n with n < 1) keeps its sign as
 * ±DBL_MAX, so that the rise of the force at first touch is seen (NaN: 0) */
static double force_rate(const impactfit_law_workspace *ws, double fd, double fr, double w, double f) {
  double r = fd * ws->L * w - fr * ws->v * ws->g * f;
  if (isnan(r))
    return 0.0;
  return isinf(r) ? copysign(DBL_MAX, r) : r;
}

static int rhs(double t, const double y[], double dydt[], void *params) {
  (void)t;
  impactfit_law_workspace *ws = params;
  double fd = 0.0, fr = 0.0;
  double f = law_f(ws, y[Y_X], y[Y_W], ws->end_phase ? &fd : NULL, ws->end_phase ? &fr : NULL);
  double fe = law_f(ws, y[Y_X], 0.0, NULL, NULL);
  dydt[Y_X] = y[Y_W];
  dydt[Y_W] = -ws->g * f;
  dydt[Y_D] = 2.0 * ws->g * (f - fe) * y[Y_W];
  /* φ' = (f_δ L w − f_u v g F φ)/F: a linear relaxation of φ at the rate f_u v g, so an error made in φ
   * decays, where f computed from the state cancels (k δ^n against c δ^m |δ'|) */
  dydt[Y_F] = ws->end_phase ? force_rate(ws, fd, fr, y[Y_W], ws->F * y[Y_F]) / ws->F : 0.0;
  return isfinite(dydt[Y_W]) && isfinite(dydt[Y_D]) && isfinite(dydt[Y_F]) ? GSL_SUCCESS : GSL_EBADFUNC;
}

/* events */
enum { EV_END_X, EV_END_F, EV_VMAX, EV_FMAX, EV_SWITCH0, EV_MAX = EV_SWITCH0 + IMPACTFIT_LAW_MAX_SWITCHES };

typedef struct {
  impactfit_law_workspace *ws;
  double t0, y0[NY], dydt0[NY];
  int ev;
  int ok;
} root_ctx;

/* one rk8pd step of length s from the step's start */
static int step_to(root_ctx *c, double s, double y[NY]) {
  double yerr[NY];
  memcpy(y, c->y0, sizeof c->y0);
  if (s == 0.0)
    return GSL_SUCCESS;
  gsl_odeiv2_step_reset(c->ws->step);
  return gsl_odeiv2_step_apply(c->ws->step, c->t0, s, y, yerr, c->dydt0, NULL, &c->ws->sys);
}

/* The force relative to the size of its parts, f/(|f − f(δ, 0)| + |f(δ, 0)|), the end-of-contact event
 * outside the end phase: its zero where the contact ends is then not confused with the zero of both
 * parts at δ = 0 (Brent's method slid into that one for m > 0, where f ∝ δ^m near δ = 0, and reported
 * δ_sep = 0 for a contact that ended at δ > 0), and its rounding is of the order of the state's
 * relative error. */
static double force_ratio(impactfit_law_workspace *ws, const double y[NY]) {
  double f = law_f(ws, y[Y_X], y[Y_W], NULL, NULL), fe = law_f(ws, y[Y_X], 0.0, NULL, NULL);
  double scale = fabs(f - fe) + fabs(fe);
  return scale > 0.0 && isfinite(scale) ? f / scale : f;
}

static double event_value(impactfit_law_workspace *ws, int ev, const double y[NY]) {
  const impactfit_law *law = ws->law;
  switch (ev) {
  case EV_END_X:
    return y[Y_X];
  case EV_END_F:
    return ws->end_phase ? y[Y_F] : force_ratio(ws, y);
  case EV_VMAX:
    return y[Y_W];
  case EV_FMAX: {
    double fd, fr;
    double f = law_f(ws, y[Y_X], y[Y_W], &fd, &fr);
    return force_rate(ws, fd, fr, y[Y_W], ws->end_phase ? ws->F * y[Y_F] : f);
  }
  default:
    return law->type->switch_value(law->p, ev - EV_SWITCH0, ws->L * y[Y_X], ws->v * y[Y_W]);
  }
}

static double root_fn(double s, void *params) {
  root_ctx *c = params;
  double y[NY];
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

/* One contact being integrated: the problem, the loop's state and what it has recorded. */
typedef struct contact {
  impactfit_law_workspace *ws;
  impactfit_law_impact_result *res;
  double one_minus; /* 1 − e_out from the energy balance (NaN when not available) */
  int clampC, nev, vmax_found;
  int no_end_phase; /* φ drifted once: the force from the state for the rest of the contact */
  int pending;      /* a zero of the force not yet confirmed (at pend_t, pend_y) */
  double t, tmax, h, y[NY];
  double pend_t, pend_y[NY];
} contact;

/* A zero of the force is the end of contact (condition C) when the force then becomes clearly negative:
 * below −FORCE_CLEAR times the size of its parts (force_ratio), far beyond its rounding and the
 * state's error. A force that decays to zero without changing sign (f ∝ δ^m (k δ^(n−m) + c δ'), m ≥ n,
 * near δ = 0) reaches zero by rounding only; such a zero stays pending and is dropped when the force is
 * clearly positive again, or when δ reaches 0 first (the contact then ends there). */
#define FORCE_CLEAR 1e-10
#define PHI_CLEAR 1e3
/* At a zero of φ the force from the state must not be clearly positive: above FORCE_DRIFT of its
 * parts, φ has drifted (its relaxation is too slow where f decays towards δ = 0, m ≥ n), and the end
 * phase is left for the rest of the contact. */
#define FORCE_DRIFT 1e-6
/* The end phase is worth it where f relaxes fast: its relaxation rate f_u v g times the time |x/w| the
 * bodies need to reach δ = 0 at least END_RELAX (f then crosses zero at δ_sep > 0, driven by the state);
 * where it falls below half that (f decays with δ towards δ = 0, m ≥ n), the phase is left: φ ∝ δ^m
 * would need steps ∝ δ under its relative tolerance and never reach δ = 0. */
#define END_RELAX 20.0

/* f_u v g |x/w| at the state (−1 when not defined) */
static double relax_ratio(impactfit_law_workspace *ws, const double y[NY]) {
  double fd, fr;
  law_f(ws, y[Y_X], y[Y_W], &fd, &fr);
  double r = fr * ws->v * ws->g * fabs(y[Y_X] / y[Y_W]);
  return isfinite(r) ? r : -1.0;
}

/* The penetration where the elastic work reaches ½ M v² (a scale: 2 digits are plenty), for a law
 * without length_scale. */
static double search_length(const impactfit_law_impact_params *p) {
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
  return d < 1e6 ? d : 1.0;
}

/* The checks of impactfit_law_impact_solve, with the transition and tolerance in effect. */
static int check_impact(const impactfit_law_impact_params *p, const impactfit_transition **tr, double *rtol,
                        impactfit_error *err) {
  int st = impactfit_law_check(&p->law, err);
  if (st)
    return st;
  if (!(isfinite(p->mass) && p->mass > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: mass must be > 0 (got %.17g)", p->mass);
  if (!(isfinite(p->v) && p->v > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: v must be > 0 (got %.17g)", p->v);
  *tr = p->transition ? p->transition : impactfit_transition_C;
  if (*tr != impactfit_transition_A && *tr != impactfit_transition_C)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "law impact: transition %s is not available for general force laws (A or C)", (*tr)->name);
  *rtol = p->rtol > 0.0 ? p->rtol : 1e-13;
  if (!(*rtol >= 1e-15 && *rtol <= 1e-3))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: rtol must lie in [1e-15, 1e-3] (got %.17g)", *rtol);
  return 0;
}

/* The elastic energy (2/(M v²)) ∫₀^δ f(s, 0) ds left at penetration δ, by GSL's QAGS (the integrand
 * may be singular in its derivatives at 0 and at the law's knots); NaN when it does not converge. */
typedef struct {
  impactfit_law_workspace *ws;
} quad_ctx;

static double elastic_fn(double s, void *params) {
  impactfit_law_workspace *ws = ((quad_ctx *)params)->ws;
  return ws->law->type->force(ws->law->p, s, 0.0, NULL, NULL);
}

static double elastic_energy(impactfit_law_workspace *ws, double delta) {
  if (!(delta > 0.0))
    return 0.0;
  quad_ctx q = {ws};
  gsl_function F = {elastic_fn, &q};
  double r = NAN, abserr = 0.0;
  int st = gsl_integration_qags(&F, 0.0, delta, 0.0, 1e-14, QUAD_LIMIT, ws->quad, &r, &abserr);
  if ((st != GSL_SUCCESS && st != GSL_EROUND) || !(abserr <= 1e-12 * fabs(r)))
    return NAN;
  return 2.0 * r / (ws->mass * ws->v * ws->v);
}

/* The end phase (condition C): after δ_max, once the force has fallen below its rate-dependent part
 * (f < −(f − f(δ, 0)): from there on f computed from the state is a difference of larger terms, and
 * its rounding and the integrator's error in δ' move the zero of f by that error over the slow rate
 * at which f crosses it, 3.8e-7 of t_contact at ζ/e ~ 2e7 before this phase existed), f is
 * integrated as the state φ = f/F from φ' = (f_δ L w − f_u v g F φ)/F, a relaxation towards the value
 * the state drives it to, so that its error decays at the rate f_u v g. F is 1e-3 of the force's parts
 * at entry, so that the integrator's tolerance on φ is 1e-3 rtol of them, below which f is rounding; the
 * end of contact and the force's extremum are then located on φ. Entered only where that relaxation is
 * fast (relax_ratio ≥ END_RELAX); left at a switch (where the law's derivatives jump) and re-entered
 * after it. */
static void enter_end_phase(contact *c) {
  impactfit_law_workspace *ws = c->ws;
  const double *y = c->y;
  if (!c->clampC || ws->end_phase || c->no_end_phase || c->pending || !c->vmax_found || !(y[Y_X] > 0.0) ||
      !(y[Y_W] < 0.0))
    return;
  double fd, fr;
  double f = law_f(ws, y[Y_X], y[Y_W], &fd, &fr), fe = law_f(ws, y[Y_X], 0.0, NULL, NULL);
  if (!(f > 0.0) || !(f < -(f - fe)) || !(fr > 0.0) || !isfinite(fd) || !(relax_ratio(ws, y) >= END_RELAX))
    return;
  ws->F = 1e-3 * (fabs(f - fe) + fabs(fe));
  ws->end_phase = 1;
  c->y[Y_F] = f / ws->F;
  gsl_odeiv2_evolve_reset(ws->evolve);
}

static void leave_end_phase(contact *c) {
  c->ws->end_phase = 0;
  c->y[Y_F] = 0.0;
  gsl_odeiv2_evolve_reset(c->ws->evolve);
}

/* The earliest event that cuts the step [0, hs] of rc (the end of contact or a switch): its index in
 * *cut (−1: none) and *s_cut; y1 is the step's end, ga the events' values at its start. */
static int scan_cut(contact *c, root_ctx *rc, double hs, const double *ga, const double y1[NY], int *cut, double *s_cut,
                    impactfit_error *err) {
  *cut = -1;
  *s_cut = hs;
  for (int e = 0; e < c->nev; e++) {
    if (e == EV_VMAX || e == EV_FMAX || (e == EV_END_F && (!c->clampC || c->pending)))
      continue;
    double gb = event_value(c->ws, e, y1);
    int crossed = is_down(e) ? ga[e] > 0.0 && gb <= 0.0 : (ga[e] > 0.0 && gb <= 0.0) || (ga[e] < 0.0 && gb >= 0.0);
    if (e == EV_END_F && ga[e] <= 0.0) /* a force that starts at 0 (first touch) has not ended */
      crossed = 0;
    if (!crossed)
      continue;
    double s = locate(rc, e, hs, ga[e], gb);
    if (!rc->ok)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ESTEP, "law impact: event location failed");
    if (s <= *s_cut) {
      *s_cut = s;
      *cut = e;
    }
  }
  return 0;
}

/* The events that only record (δ_max and its time, f_max) on [0, s_cut] of the step, yc its state at
 * s_cut. */
static void record_extrema(contact *c, root_ctx *rc, const double *ga, double s_cut, const double yc[NY]) {
  impactfit_law_workspace *ws = c->ws;
  impactfit_law_impact_result *res = c->res;
  double tv = ws->L / ws->v;
  if (ws->L * yc[Y_X] > res->delta_max) {
    res->delta_max = ws->L * yc[Y_X];
    res->t_delta_max = (c->t + s_cut) * tv;
  }
  if (!c->vmax_found && ga[EV_VMAX] > 0.0 && yc[Y_W] <= 0.0) {
    double s = locate(rc, EV_VMAX, s_cut, ga[EV_VMAX], yc[Y_W]), ym[NY];
    step_to(rc, s, ym);
    if (ws->L * ym[Y_X] >= res->delta_max) {
      res->delta_max = ws->L * ym[Y_X];
      res->t_delta_max = (c->t + s) * tv;
    }
    c->vmax_found = 1;
  }
  double fa = ga[EV_FMAX], fb = event_value(ws, EV_FMAX, yc);
  if (fa > 0.0 && fb <= 0.0) {
    double s = locate(rc, EV_FMAX, s_cut, fa, fb), ym[NY];
    step_to(rc, s, ym);
    double f = law_f(ws, ym[Y_X], ym[Y_W], NULL, NULL);
    if (f > res->f_max)
      res->f_max = f;
  }
  double fe = law_f(ws, yc[Y_X], yc[Y_W], NULL, NULL);
  if (fe > res->f_max && yc[Y_X] >= 0.0)
    res->f_max = fe;
}

/* The end of contact at the cut `cut` (EV_END_X or EV_END_F) with the state c->y there: 0, or ENOSEP for
 * a creep back to δ = 0 under A. */
static int finish(contact *c, int cut, impactfit_error *err) {
  impactfit_law_workspace *ws = c->ws;
  impactfit_law_impact_result *res = c->res;
  double *y = c->y;
  if (cut == EV_END_X && y[Y_W] > -1e-9)
    /* under A an overdamped contact creeps back to δ = 0 and reaches it only by rounding */
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                           "law impact: the bodies creep back to delta = 0 at %.3g v: they do not separate", -y[Y_W]);
  res->e_out = -y[Y_W];
  res->t_contact = c->t * ws->L / ws->v;
  res->ended_on_force = cut == EV_END_F;
  res->delta_sep = cut == EV_END_F ? fmax(0.0, ws->L * y[Y_X]) : 0.0;
  res->f_end = cut == EV_END_F ? 0.0 : law_f(ws, 0.0, y[Y_W], NULL, NULL);
  /* 1 − e² = D + the elastic energy left at the end: both ≥ 0 for a dissipative law, no cancellation */
  double u = elastic_energy(ws, res->delta_sep);
  c->one_minus = (y[Y_D] + u) / (1.0 + res->e_out);
  if (!(isfinite(c->one_minus) && c->one_minus >= 0.0))
    c->one_minus = NAN;
  return 0;
}

/* The sign function of the force at y (φ in the end phase, else force_ratio) and, in *clear, the size
 * beyond which its sign is certain (FORCE_CLEAR of the force's parts). */
static double force_sign(impactfit_law_workspace *ws, const double y[NY], double *clear) {
  /* φ is integrated to rtol absolute (1e-3 rtol of the force's parts): its sign is certain beyond
   * PHI_CLEAR rtol, far below what the state's force resolves (a contact creeping off at 1e-12 v under
   * heavy damping has f/its parts = −3e-12 at the end: a threshold of FORCE_CLEAR left that zero
   * pending, and the engine crept on for 4e6 steps) */
  *clear = ws->end_phase ? PHI_CLEAR * ws->rtol : FORCE_CLEAR;
  return event_value(ws, EV_END_F, y);
}

/* Whether a zero of the force found at s_cut (state yc) of a step ending at y1 is the end of contact: 1
 * (cut there), or 0 after setting the contact up to look again (the step is scanned again: φ had
 * drifted, or the zero is pending until the force's sign is certain). */
static int confirm_force_zero(contact *c, double *ga, const double yc[NY], const double y1[NY], double s_cut) {
  impactfit_law_workspace *ws = c->ws;
  if (ws->end_phase && force_ratio(ws, yc) > FORCE_DRIFT) {
    leave_end_phase(c);
    c->no_end_phase = 1;
    ga[EV_END_F] = event_value(ws, EV_END_F, c->y);
    return 0;
  }
  double clear, g = force_sign(ws, y1, &clear);
  if (g <= -clear)
    return 1;
  c->pending = 1;
  c->pend_t = c->t + s_cut;
  memcpy(c->pend_y, yc, sizeof c->pend_y);
  return 0;
}

/* A pending zero of the force against the state reached: 1 when the force is now clearly negative (the
 * contact ended at the pending zero: c->t and c->y are set back there), else 0 (dropped when the force is
 * clearly positive again). */
static int resolve_pending(contact *c) {
  if (!c->pending)
    return 0;
  double clear, g = force_sign(c->ws, c->y, &clear);
  if (g >= clear)
    c->pending = 0;
  if (!(g <= -clear))
    return 0;
  c->pending = 0;
  c->t = c->pend_t;
  memcpy(c->y, c->pend_y, sizeof c->y);
  return 1;
}

/* The arrival at δ = 0: a step that would cross δ = 0 from x > ARRIVAL_X (in units of L) is cut at
 * 1 − ARRIVAL_Q of the way, so that δ = 0 is reached in steps that shorten geometrically and the last
 * one starts within ARRIVAL_X of it (or within 1e-12 of τ, where a step no longer moves the time). A
 * law that is not smooth at δ = 0 (δ^n with n < 1: f_δ = ∞ there; δ^m with a small m, which still
 * changes far below 1e-10) makes a step across it inaccurate, a step towards it from x is not (the
 * force is smooth on [x/8, x]): e_out of the approach-damper with n = 0.9 was 1.7e-11 relative off, of
 * the power law with m = 2.8e-5 under A 3.4e-12 with a coarser arrival; both below 1e-14 now. About 25
 * steps more per contact that ends at δ = 0. */
#define ARRIVAL_X 1e-20
#define ARRIVAL_Q 0.125

/* One accepted step from (c->t, c->y), cut at the earliest event: 1 when the contact ended there, 0 to
 * go on, or a failure. */
static int advance(contact *c, impactfit_error *err) {
  impactfit_law_workspace *ws = c->ws;
  root_ctx rc = {.ws = ws, .t0 = c->t};
  memcpy(rc.y0, c->y, sizeof rc.y0);
  double ga[EV_MAX];
  for (int e = 0; e < c->nev; e++)
    ga[e] = event_value(ws, e, c->y);
  if (rhs(c->t, c->y, rc.dydt0, ws) != GSL_SUCCESS)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "law impact: non-finite force at delta = %.17g m",
                           ws->L * c->y[Y_X]);
  double t1 = c->t, y1[NY];
  memcpy(y1, c->y, sizeof y1);
  scale_control(ws, c->y);
  int gst = gsl_odeiv2_evolve_apply(ws->evolve, ws->control, ws->step, &ws->sys, &t1, c->tmax, &c->h, y1);
  if (gst != GSL_SUCCESS || !isfinite(y1[Y_X]) || !isfinite(y1[Y_W]))
    return IMPACTFIT__FAIL(err, gst == GSL_EBADFUNC ? IMPACTFIT_ENONFINITE : IMPACTFIT_ESTEP,
                           "law impact: integrator step failed at tau = %.17g (%s)", c->t, gsl_strerror(gst));
  c->res->steps++;
  double s_cut, yc[NY];
  int cut, st;
  do {
    if ((st = scan_cut(c, &rc, t1 - c->t, ga, y1, &cut, &s_cut, err)))
      return st;
    if (cut >= 0)
      step_to(&rc, s_cut, yc);
    else
      memcpy(yc, y1, sizeof yc);
  } while (cut == EV_END_F && !confirm_force_zero(c, ga, yc, y1, s_cut));
  int arrival = cut == EV_END_X && c->y[Y_X] > ARRIVAL_X && s_cut > 1e-12 * fmax(1.0, c->t);
  if (arrival) { /* δ = 0 is approached in steps that shorten geometrically */
    s_cut *= 1.0 - ARRIVAL_Q;
    step_to(&rc, s_cut, yc);
    cut = -1;
    c->h = s_cut;
    gsl_odeiv2_evolve_reset(ws->evolve); /* it would start from the derivative at the uncut step's end */
  }
  record_extrema(c, &rc, ga, s_cut, yc);
  c->t = cut >= 0 || arrival ? c->t + s_cut : t1;
  memcpy(c->y, yc, sizeof yc);
  if (cut != EV_END_X && resolve_pending(c))
    cut = EV_END_F;
  else if (cut == EV_END_X)
    c->pending = 0;
  if (cut < 0) {
    if (ws->end_phase && !(relax_ratio(ws, c->y) >= 0.5 * END_RELAX)) {
      leave_end_phase(c);
      c->no_end_phase = 1;
    }
    enter_end_phase(c);
    return 0;
  }
  if (cut == EV_END_X || cut == EV_END_F) {
    st = finish(c, cut, err);
    if (cut == EV_END_X)
      c->y[Y_X] = 0.0;
    return st ? st : 1;
  }
  /* a switch: restart the integrator on the far side, f from the law there */
  c->res->switches++;
  leave_end_phase(c);
  gsl_odeiv2_evolve_reset(ws->evolve);
  gsl_odeiv2_step_reset(ws->step);
  if (s_cut < 1e-300) /* the same switch again at once: step a hair past it */
    c->h = fmax(c->h, 1e-12);
  return 0;
}

/* The contact from first touch to its end (or a failure). */
static int run_contact(contact *c, impactfit_error *err) {
  impactfit_law_workspace *ws = c->ws;
  double f0 = law_f(ws, 0.0, 1.0, NULL, NULL);
  if (c->clampC && f0 < 0.0)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: the law pulls at first touch (f(0, v) = %.17g N)", f0);
  c->res->f_max = fmax(0.0, f0);
  gsl_odeiv2_evolve_reset(ws->evolve);
  gsl_odeiv2_step_reset(ws->step);
  for (long nstep = 0;; nstep++) {
    if (nstep > 4000000 || c->t >= c->tmax)
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOSEP,
                             "law impact: the contact did not end within %.3g L/v (%ld steps; L = %.6g m): the "
                             "bodies stick or creep",
                             c->tmax, nstep, ws->L);
    int st = advance(c, err);
    if (st < 0 || st > 1)
      return st;
    if (st == 1)
      return 0;
  }
}

/* The engine with 1 − e_out from the energy balance (*one_minus, NaN when not available). */
static int law_impact(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                      impactfit_law_impact_result *res, double *one_minus, impactfit_error *err) {
  impactfit_error_clear(err);
  *one_minus = NAN;
  if (!p || !res)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law impact: NULL argument");
  memset(res, 0, sizeof *res);
  const impactfit_transition *tr = NULL;
  double rtol = 0.0;
  int st = check_impact(p, &tr, &rtol, err);
  if (st)
    return st;
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
  ws->end_phase = 0;
  double L = p->law.type->length_scale ? p->law.type->length_scale(p->law.p, p->mass, p->v) : 0.0;
  ws->L = (isfinite(L) && L > 0.0) ? L : search_length(p);
  ws->g = ws->L / (p->mass * p->v * p->v);
  res->length = ws->L;
  ws->sys = (gsl_odeiv2_system){rhs, NULL, NY, ws};
  ws->rtol = rtol;
  gsl_odeiv2_control_init(ws->control, rtol, rtol, 1.0, 0.0);
  int nsw = p->law.type->switch_value ? p->law.type->n_switches : 0;
  contact c = {.ws = ws,
               .res = res,
               .one_minus = NAN,
               .clampC = tr == impactfit_transition_C,
               .nev = EV_SWITCH0 + nsw,
               .t = 0.0,
               .tmax = p->t_max > 0.0 ? p->t_max : 1e5,
               .h = 1e-12,
               .y = {0.0, 1.0, 0.0, 0.0}};
  st = run_contact(&c, err);
  *one_minus = c.one_minus;
  res->rhs_evals = ws->evals;
  if (own)
    impactfit_law_free(ws);
  return st;
}

int impactfit__law_impact_solve_general(impactfit_law_workspace *ws, const impactfit_law_impact_params *p,
                                        impactfit_law_impact_result *res, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  double one_minus;
  return law_impact(ws, p, res, &one_minus, err);
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

#define MEMO 8

typedef struct {
  impactfit_law_workspace *ws;
  impactfit_law_impact_params p;
  int index;
  double e;
  int upper; /* e > 1/2: the misfit on 1 − e_out from the energy balance */
  int st;
  impactfit_error err;
  impactfit_law_impact_result res;
  double one_minus;                  /* of res */
  double memo_x[MEMO], memo_g[MEMO]; /* Brent's method (GSL) asks again for points it has evaluated */
  double memo_om[MEMO];
  impactfit_law_impact_result memo_r[MEMO];
  int memo_n;
} inv_ctx;

/* The misfit at ln(value), > 0 when e_out is too large: e_out − e, or above e = 1/2 (1 − e) − (1 − e_out)
 * with 1 − e_out from the energy balance (law_impact), which has no cancellation as e → 1 (the simulated
 * e_out has an absolute error of some 1e-15, which is 1e-11 of 1 − e at e = 0.9999; the tolerance is
 * tol·(1 − e)). A contact that never ends counts as e_out = 0. */
static double inv_fn_eval(double lnv, inv_ctx *c) {
  c->p.law.p[c->index] = exp(lnv);
  int st = law_impact(c->ws, &c->p, &c->res, &c->one_minus, &c->err);
  if (st == IMPACTFIT_ENOSEP) {
    c->res.e_out = 0.0;
    c->one_minus = 1.0;
    return -c->e;
  }
  if (st) {
    c->st = st;
    return 0.0;
  }
  if (!isfinite(c->one_minus))
    c->one_minus = 1.0 - c->res.e_out;
  return c->upper ? (1.0 - c->e) - c->one_minus : c->res.e_out - c->e;
}

static double inv_fn(double lnv, void *params) {
  inv_ctx *c = params;
  int n = c->memo_n < MEMO ? c->memo_n : MEMO;
  for (int i = 0; i < n; i++)
    if (c->memo_x[i] == lnv) {
      c->res = c->memo_r[i];
      c->one_minus = c->memo_om[i];
      c->p.law.p[c->index] = exp(lnv);
      return c->memo_g[i];
    }
  double g = inv_fn_eval(lnv, c);
  if (!c->st) {
    int k = c->memo_n++ % MEMO;
    c->memo_x[k] = lnv;
    c->memo_g[k] = g;
    c->memo_om[k] = c->one_minus;
    c->memo_r[k] = c->res;
  }
  return g;
}

static int check_inverse(const impactfit_law_impact_params *p, int index, double e, double lo, double hi, double *tol,
                         const double *value, impactfit_error *err) {
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
  if (*tol == 0.0)
    *tol = 1e-10;
  if (!(*tol >= 1e-12 && *tol < 0.1))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "law inverse: tol must lie in [1e-12, 0.1) (got %.17g)", *tol);
  return 0;
}

/* The first bracket of the target on NGRID points of [ln lo, ln hi]: 1 with [*xa, *xb] and the misfit *gb
 * at xb, 0 with the range of e met (*emin, *emax) when there is none, or a failure (c->st). */
static int grid_bracket(inv_ctx *c, double a, double b, double *xa, double *xb, double *gb, double *emin,
                        double *emax) {
  enum { NGRID = 33 };
  double ga = 0.0;
  *emin = INFINITY;
  *emax = -INFINITY;
  for (int i = 0; i < NGRID; i++) {
    double x = a + (b - a) * i / (NGRID - 1);
    double g = inv_fn(x, c);
    if (c->st)
      return c->st;
    *emin = fmin(*emin, c->res.e_out);
    *emax = fmax(*emax, c->res.e_out);
    if (i > 0 && ((ga > 0.0) != (g > 0.0) || g == 0.0)) {
      *xa = a + (b - a) * (i - 1) / (NGRID - 1);
      *xb = x;
      *gb = g;
      return 1;
    }
    ga = g;
  }
  return 0;
}

/* Brent's method (GSL) on [xa, xb] until the misfit is within want: 0 with *x, ENOCONV, or a failure. */
static int refine(inv_ctx *c, double xa, double xb, double want, double *x, impactfit_error *err) {
  /* its own root solver: the simulations use the workspace's for their events */
  gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!rs)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "law inverse: out of memory");
  gsl_function F = {inv_fn, c};
  gsl_root_fsolver_set(rs, &F, xa, xb);
  *x = xb;
  int conv = 0;
  for (int it = 0; it < 200; it++) {
    if (gsl_root_fsolver_iterate(rs) != GSL_SUCCESS || c->st)
      break;
    *x = gsl_root_fsolver_root(rs);
    double g = inv_fn(*x, c);
    if (c->st)
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
  if (c->st) {
    if (err)
      *err = c->err;
    return c->st;
  }
  if (!conv)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOCONV,
                           "law inverse: e_out within %.3g of e not reached (e jumps there, or the tolerance is "
                           "below the simulation's accuracy)",
                           want);
  return 0;
}

int impactfit_law_solve_param(impactfit_law_workspace *ws, const impactfit_law_impact_params *p, int index, double e,
                              double lo, double hi, double tol, double *value, impactfit_law_impact_result *res,
                              impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_error_clear(err);
  int st = check_inverse(p, index, e, lo, hi, &tol, value, err);
  if (st)
    return st;
  int own = 0;
  if (!ws) {
    if (!(ws = impactfit_law_alloc()))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "law inverse: out of memory");
    own = 1;
  }
  inv_ctx c = {.ws = ws, .p = *p, .index = index, .e = e, .upper = e > 0.5};
  c.p.rtol = p->rtol > 0.0 ? fmin(p->rtol, tol * 1e-3) : fmin(1e-13, tol * 1e-3);
  if (c.p.rtol < 1e-15)
    c.p.rtol = 1e-15;
  double a = log(lo), b = log(hi), xa = a, xb = b, gb = 0.0, emin, emax, x = b;
  int found = grid_bracket(&c, a, b, &xa, &xb, &gb, &emin, &emax);
  if (found < 0) {
    if (err)
      *err = c.err;
    st = found;
    goto out;
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
    x = xb;
    inv_fn(xb, &c);
  } else if ((st = refine(&c, xa, xb, want, &x, err))) {
    goto out;
  }
  *value = exp(x);
  if (res) {
    *res = c.res;
    if (c.upper) /* 1 − (1 − e_out) from the energy balance: the tolerance was met on it */
      res->e_out = 1.0 - c.one_minus;
  }
  st = 0;
out:
  if (own)
    impactfit_law_free(ws);
  return st;
}
