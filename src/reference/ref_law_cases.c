/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The law engine's accuracy cases (ref_cases.h): impactfit_law_impact_solve (law.h) for three laws against
 * results that share no code with it:
 *  - a power law f = k δ^n + c δ^m δ' of a type defined here ("reference-power": law.h's generic engine
 *    whatever engine the built-in power type is given), against the reference integrator (ref_impact.c);
 *  - the approach-damper (f = k δ^n + c δ^m δ' while δ' > 0, k δ^n after): the reference's approach
 *    phase (up to δ_max, where the two laws agree), then the exact undamped return: e = x_max^((n+1)/2),
 *    t_contact = t_max + x_max^((1−n)/2) B(1/(n+1), 1/2)/(n+1) in the scaled units, f_max the power
 *    law's (after δ_max both forces stay below k δ_max^n);
 *  - MuJoCo's impedance law with d0 = dwidth (a constant impedance d): Kelvin–Voigt with k = M d² K and
 *    c = M d B, whose e, contact time and δ_max are closed forms (evaluated here in __float128).
 * Scaled units: k = (n+1)/2, mass = v = 1, so δ_m0 = 1 and c = ζ (the impedance: M = v = 1, d² K = 1). */
#include <math.h>
#include <quadmath.h>
#include <stdio.h>
#include <string.h>

#include "ref_cases.h"
#include "ref_impact.h"

const char *const ref_law_names[REF_LAW_N] = {"e_out", "t_contact", "delta_max", "f_max", "delta_sep"};

/* What every case must meet: the measured maxima over 1000 cases when the law engine was last changed
 * (issue 39: 1.0e-12, 3.4e-14, 1.9e-13, 1.8e-13, 1.0e-13), times 10. */
const double ref_law_ceiling[REF_LAW_N] = {1e-11, 1e-12, 2e-12, 2e-12, 1e-12};

/* ---- the law of this file: the power law, as a type of its own ------------------------------------ */

static double xpow(double x, double a, double *d) {
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

static double rp_force(const double *p, double delta, double rate, double *fd, double *fr) {
  double dn, dm, sn = xpow(delta, p[1], &dn), sm = xpow(delta, p[3], &dm);
  if (fd)
    *fd = p[0] * dn + (p[2] != 0.0 ? p[2] * dm * rate : 0.0);
  if (fr)
    *fr = p[2] * sm;
  return p[0] * sn + p[2] * sm * rate;
}

static double rp_length(const double *p, double mass, double v) {
  return pow((p[1] + 1.0) * mass * v * v / (2.0 * p[0]), 1.0 / (p[1] + 1.0));
}

static const char *const rp_names[] = {"k", "n", "c", "m"};
static const char *const rp_units[] = {"N/m^n", "-", "N s m^-(m+1)", "-"};
static const impactfit_law_type reference_power = {
    .name = "reference-power",
    .summary = "f = k delta^n + c delta^m delta' (the reference cases' own type)",
    .n_params = 4,
    .param_names = rp_names,
    .param_units = rp_units,
    .check = NULL,
    .force = rp_force,
    .n_switches = 0,
    .switch_value = NULL,
    .length_scale = rp_length,
};

/* ---- one case ------------------------------------------------------------------------------------ */

static const impactfit_transition *tr_of(char c) { return c == 'A' ? impactfit_transition_A : impactfit_transition_C; }

/* the exact values of a case: e, t_contact, δ_max, f_max (NaN: not measured), δ_sep */
typedef struct want {
  double e, t, xmax, fmax, xsep;
} want;

static void measure(ref_law_case *c, const impactfit_law_impact_result *r, const want *w) {
  double got[REF_LAW_N] = {r->e_out, r->t_contact, r->delta_max, r->f_max, r->delta_sep};
  double ex[REF_LAW_N] = {w->e, w->t, w->xmax, w->fmax, w->xsep};
  memcpy(c->got, got, sizeof got);
  memcpy(c->want, ex, sizeof ex);
  c->err[REF_LAW_E_OUT] = fabs(r->e_out - w->e) / fmax(w->e, 0.01);
  /* the end at speed e v: a position error ε L moves it by ε L/(v e) */
  c->err[REF_LAW_T_CONTACT] = fabs(r->t_contact - w->t) / (w->t + r->length / w->e);
  c->err[REF_LAW_DELTA_MAX] = fabs(r->delta_max - w->xmax) / w->xmax;
  c->err[REF_LAW_F_MAX] = isnan(w->fmax) ? 0.0 : fabs(r->f_max - w->fmax) / w->fmax;
  c->err[REF_LAW_DELTA_SEP] = fabs(r->delta_sep - w->xsep) / w->xmax;
  c->outcome = REF_MEASURED;
}

/* the engine's impact for law at mass = v = 1; 0, or the case failed (message set) */
static int engine(impactfit_law_workspace *ws, const impactfit_law *law, char cond, impactfit_law_impact_result *r,
                  ref_law_case *c) {
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = *law;
  p.transition = tr_of(cond);
  impactfit_error err;
  int st = impactfit_law_impact_solve(ws, &p, r, &err);
  if (st)
    snprintf(c->message, sizeof c->message, "the law engine failed: %.400s", err.message);
  return st;
}

/* the power law through the generic engine against the reference */
static void power_case(impactfit_law_workspace *ws, double n, double m, double z, char cond, ref_law_case *c) {
  ref_result q;
  int rs = ref_impact(n, m, z, cond, REF_STEPS, &q);
  impactfit_law law = {.type = &reference_power, .p = {0.5 * (n + 1.0), n, z, m}};
  impactfit_law_impact_result r;
  if (rs != 0 || q.e_out < 1e-9) { /* a creep: no measure, nothing to hold the engine to (see ref_cases.h) */
    c->outcome = REF_AGREED;
    return;
  }
  c->outcome = REF_FAILED;
  if (engine(ws, &law, cond, &r, c))
    return;
  want w = {.e = q.e_out, .t = q.t_contact, .xmax = q.x_max, .fmax = q.f_max, .xsep = q.x_sep};
  measure(c, &r, &w);
}

/* the approach-damper: the reference's approach, the exact undamped return */
static void approach_case(impactfit_law_workspace *ws, double n, double m, double z, char cond, ref_law_case *c) {
  ref_result q;
  int rs = ref_impact(n, m, z, 'C', REF_STEPS, &q); /* up to δ_max every condition is the same */
  if (rs != 0 || !(q.x_max > 0.0)) {
    c->outcome = REF_FAILED;
    snprintf(c->message, sizeof c->message, "the reference failed (status %d)", rs);
    return;
  }
  impactfit_law law = {.type = impactfit_law_approach_damper, .p = {0.5 * (n + 1.0), n, z, m}};
  impactfit_law_impact_result r;
  c->outcome = REF_FAILED;
  if (engine(ws, &law, cond, &r, c))
    return;
  __float128 N = n, xm = (__float128)q.x_max + q.x_max_lo;
  __float128 beta = expq(lgammaq(1 / (N + 1)) + lgammaq(0.5Q) - lgammaq(1 / (N + 1) + 0.5Q));
  __float128 e = expq(0.5Q * (N + 1) * logq(xm));
  __float128 t = (__float128)q.t_xmax + expq(0.5Q * (1 - N) * logq(xm)) * beta / (N + 1);
  want w = {.e = (double)e, .t = (double)t, .xmax = (double)xm, .fmax = q.f_max, .xsep = 0.0};
  measure(c, &r, &w);
}

/* MuJoCo's impedance with a constant d: Kelvin–Voigt of damping ratio ξ and ω = d √K = 1 (M = v = 1) */
static void impedance_case(impactfit_law_workspace *ws, double xi, double d, char cond, ref_law_case *c) {
  if (cond == 'A' && !(xi < 1.0)) { /* no separation under A */
    c->outcome = REF_AGREED;
    return;
  }
  double K = 1.0 / (d * d), B = 2.0 * xi * sqrt(K);
  impactfit_law law = impactfit_law_make(impactfit_law_impedance); /* the defaults: rscale 1, no gravity */
  const char *const names[5] = {"M", "B", "K", "d0", "dwidth"};
  const double vals[5] = {1.0, B, K, d, d};
  for (int i = 0; i < 5; i++)
    impactfit_law_set(&law, names[i], vals[i], NULL);
  /* δ = (e^(r1 t) − e^(r2 t))/(r1 − r2), r1,2 = −ξ ± s; the closed forms of inverse.h (impactfit_kv_e) */
  __float128 X = xi, e, t, tm, xm;
  if (xi < 1.0) {
    __float128 s = sqrtq((1 - X) * (1 + X)), th = atan2q(s, X);
    e = cond == 'A' ? expq(-M_PIq * X / s) : expq(-2 * X * acosq(X) / s);
    t = cond == 'A' ? M_PIq / s : 2 * acosq(X) / s;
    tm = th / s;
    xm = expq(-X * tm) * sinq(s * tm) / s;
  } else if (xi == 1.0) {
    e = expq(-2.0Q);
    t = 2;
    tm = 1;
    xm = expq(-1.0Q);
  } else {
    __float128 s = sqrtq((X - 1) * (X + 1)), r1 = -X + s, r2 = -X - s;
    e = expq(-2 * X * acoshq(X) / s);
    t = 2 * acoshq(X) / s;
    tm = logq(r2 / r1) / (r1 - r2);
    xm = (expq(r1 * tm) - expq(r2 * tm)) / (r1 - r2);
  }
  /* under C the contact ends at the force's zero, where δ'' = 0: δ_sep = δ(t) there */
  __float128 xs = 0;
  if (cond == 'C') {
    if (xi < 1.0) {
      __float128 s = sqrtq((1 - X) * (1 + X));
      xs = expq(-X * t) * sinq(s * t) / s;
    } else if (xi == 1.0) {
      xs = t * expq(-t);
    } else {
      __float128 s = sqrtq((X - 1) * (X + 1)), r1 = -X + s, r2 = -X - s;
      xs = (expq(r1 * t) - expq(r2 * t)) / (r1 - r2);
    }
  }
  impactfit_law_impact_result r;
  c->outcome = REF_FAILED;
  if (engine(ws, &law, cond, &r, c)) {
    if (e < 1e-9) /* documented: reaching δ = 0 slower than 1e-9 v is no separation (ENOSEP) */
      c->outcome = REF_AGREED;
    return;
  }
  want w = {.e = (double)e, .t = (double)t, .xmax = (double)xm, .fmax = NAN, .xsep = (double)xs};
  measure(c, &r, &w);
}

/* ---- the random set and the directed cases ----------------------------------------------------- */

typedef struct rng {
  uint64_t s;
} rng;
static uint64_t rng_next(rng *g) {
  uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double urand(rng *g) { return (double)(rng_next(g) >> 11) * 0x1.0p-53; }
static double uniform(rng *g, double a, double b) { return a + (b - a) * urand(g); }

static void run(impactfit_law_workspace *ws, int kind, double n, double m, double z, char cond, ref_law_case *c) {
  c->kind = kind;
  c->n = n;
  c->m = m;
  c->zeta = z;
  c->cond = cond;
  if (kind == 0)
    power_case(ws, n, m, z, cond, c);
  else if (kind == 1)
    approach_case(ws, n, m, z, cond, c);
  else
    impedance_case(ws, z, m, cond, c); /* ξ in zeta, d in m */
}

void ref_law_run(impactfit_law_workspace *ws, uint64_t seed, ref_law_case *c) {
  memset(c, 0, sizeof *c);
  rng g = {seed};
  double pick = urand(&g);
  int kind = pick < 0.4 ? 0 : (pick < 0.75 ? 1 : 2);
  char cond = (rng_next(&g) & 1) ? 'A' : 'C';
  if (kind == 2) { /* ξ log-uniform in [1e-3, 100], d uniform in [0.0001, 0.9999] */
    run(ws, 2, 1.0, uniform(&g, 1e-4, 0.9999), pow(10.0, uniform(&g, -3.0, 2.0)), cond, c);
    return;
  }
  /* power: n ∈ [1, 3]; approach-damper: n ∈ [0.3, 3]; m as for the engine's cases */
  double n = kind == 0 ? uniform(&g, 1.0, 3.0) : uniform(&g, 0.3, 3.0), m, mp = urand(&g);
  if (mp < 0.2)
    m = pow(10.0, uniform(&g, -9.0, -2.0));
  else if (mp < 0.3)
    m = 0.0;
  else if (mp < 0.4)
    m = n;
  else
    m = uniform(&g, 0.0, 2.0);
  double z = pow(10.0, uniform(&g, -3.0, kind == 0 ? 3.0 : log10(300.0)));
  run(ws, kind, n, m, z, cond, c);
}

/* Directed: issue 39's cases (the end under strong damping, ζ/e ~ 2e7; the approach-damper's early force
 * maximum at n = 0.3; m → 0⁺ at the start; m = n under C, where the force decays to zero without changing
 * sign), then a grid at the box's edges. */
static const struct {
  int kind;
  double n, m, z;
  char cond;
} law_edges[] = {
    {.kind = 0,
     .n = 1.2257202637401574,
     .m = 0.0,
     .z = 199.21826472298201,
     .cond = 'C'},                                             /* simulate --law power, c = 189.87 */
    {.kind = 1, .n = 0.3, .m = 0.0, .z = 1000.0, .cond = 'C'}, /* simulate --law approach-damper --c 1000 --k 0.65 */
    {.kind = 1,
     .n = 2.3105623686011687,
     .m = 1.0397617515549824e-05,
     .z = 6.575096518376892e-4,
     .cond = 'A'}, /* the law inverse's e = 0.99944 */
    {.kind = 0, .n = 2.8297178205768754, .m = 5.4107681945205479e-07, .z = 0.0014415778974972637, .cond = 'A'},
    {.kind = 0, .n = 1.4915591926301781, .m = 1.4915591926301781, .z = 293.09547682882089, .cond = 'C'},
    {.kind = 0, .n = 2.7558346703710441, .m = 2.7558346703710441, .z = 7.8596756361912377, .cond = 'C'},
    {.kind = 0, .n = 2.0310397928229409, .m = 1.4275416056865278, .z = 0.0017362594021765401, .cond = 'C'},
    {.kind = 1, .n = 0.90428153440778125, .m = 0.0, .z = 87.725323340463817, .cond = 'A'},
};
static const double le_n[] = {0.3, 1.0, 2.0, 3.0}, le_z[] = {1e-3, 1.0, 300.0};
static const double le_xi[] = {1e-3, 0.5, 0.999, 1.0, 1.001, 50.0, 1000.0};
#define NE(a) (int)(sizeof a / sizeof a[0])
enum { LE_M = 3 };
#define LE_GRID (NE(le_n) * LE_M * NE(le_z) * 2 * 2)
#define LE_IMP (NE(le_xi) * 2)
const int ref_edge_law_count = NE(law_edges) + LE_GRID + LE_IMP;

void ref_edge_law_run(impactfit_law_workspace *ws, int index, ref_law_case *c) {
  memset(c, 0, sizeof *c);
  int i = index;
  if (i < NE(law_edges)) {
    run(ws, law_edges[i].kind, law_edges[i].n, law_edges[i].m, law_edges[i].z, law_edges[i].cond, c);
    return;
  }
  i -= NE(law_edges);
  if (i < LE_GRID) { /* kind (power for n ≥ 1 only) × n × m ∈ {0, 1e-9, n} × ζ × A, C */
    int ic = i % 2, iz = (i / 2) % NE(le_z), im = (i / (2 * NE(le_z))) % LE_M,
        in = (i / (2 * NE(le_z) * LE_M)) % NE(le_n), kind = i / (2 * NE(le_z) * LE_M * NE(le_n));
    double n = le_n[in], m = im == 0 ? 0.0 : (im == 1 ? 1e-9 : n);
    if (kind == 0 && n < 1.0) {
      c->outcome = REF_SKIPPED;
      return;
    }
    run(ws, kind, n, m, le_z[iz], "AC"[ic], c);
    return;
  }
  i -= LE_GRID; /* the impedance: ξ × A, C, d alternately 0.9 and 0.0001 */
  run(ws, 2, 1.0, (i / 2) % 2 ? 0.0001 : 0.9, le_xi[i / 2], "AC"[i % 2], c);
}
