/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs of steps taken at once (include/impactfit/stepper.h, impactfit_step_affine): where a step map is affine
 * in (x, u) and keeps its branch, n steps are y_n = A^n y_0 with A = I + B, computed from the eigenvalues
 * 1 + μ of A with μ those of B (the increments kept apart from the identity: log1p, atan2 and the stable
 * sinc-type quotients below, so that A^n is exact to a few rounding errors for any n, also at critical damping
 * where the two eigenvalues meet). The forms that bound the branch's region are followed on the continuous
 * extension A^t: each is G2 + α(t) L0 + β(t) L1, a damped cosine (or two exponentials) plus a constant, with
 * at most one critical point in half a period, so its first zero is found from the critical point and a
 * safeguarded Newton iteration, never by stepping. The affine maps of the built-in law steppers (euler, rk4,
 * and Chrono's explicit-euler and frozen-force) for the laws that are linear in a region: the power law with
 * n = 1, m = 0 (f = k δ + c δ'), the impedance law beyond its width (d constant), and the clamped free flight
 * (f < 0 set to 0) of the laws whose clamp persists while δ falls at a constant δ' (the power law with n ≥ m,
 * the impedance law without g). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/stepper.h"
#include "step_internal.h"
#include "stepper_impl.h"

/* ---------------------------------------------------------------- stable quotients */

static double sinc(double z) { /* sin(z)/z */
  return fabs(z) < 1e-4 ? 1.0 - z * z / 6.0 : sin(z) / z;
}
static double shc(double z) { /* sinh(z)/z */
  return fabs(z) < 1e-4 ? 1.0 + z * z / 6.0 : sinh(z) / z;
}
static double atanc(double w) { /* atan(w)/w */
  return fabs(w) < 1e-4 ? 1.0 - w * w / 3.0 : atan(w) / w;
}
static double athc(double w) { /* atanh(w)/w */
  return fabs(w) < 1e-4 ? 1.0 + w * w / 3.0 : atanh(w) / w;
}

/* ---------------------------------------------------------------- powers of A = I + B */

/* A^t = α(t) I + β(t) B (Cayley–Hamilton) with, for the eigenvalues μ = p ± √D of B and c = 1 + p:
 * D < 0 (q = √−D): α = e^{mt} cos ζt − p β, β = e^{mt} t sinc(ζt) ζ/q, ζ = atan2(q, c);
 * D ≥ 0 (d = √D):  α = e^{mt} cosh ζt − p β, β = e^{mt} t shc(ζt) ζ/d, ζ = atanh(d/c);
 * m = ½ log1p(tr B + det B) = ½ log det A. */
typedef struct {
  double B[2][2];
  double p, c, m, zeta, zq; /* zq: ζ/q or ζ/d */
  int osc;                  /* 1: D < 0 */
} apow;

/* 0 when A has an eigenvalue ≤ 0 or a complex pair turning by more than a quarter turn a step (no continuous
 * extension to follow) */
static int apow_init(apow *P, const double B[2][2]) {
  memcpy(P->B, B, sizeof P->B);
  double tr = B[0][0] + B[1][1], det = B[0][0] * B[1][1] - B[0][1] * B[1][0];
  double hd = 0.5 * (B[0][0] - B[1][1]), D = hd * hd + B[0][1] * B[1][0];
  P->p = 0.5 * tr;
  P->c = 1.0 + P->p;
  if (!(P->c > 0.0) || !(tr + det > -1.0) || !isfinite(D))
    return 0;
  P->m = 0.5 * log1p(tr + det);
  if (D < 0.0) {
    double q = sqrt(-D);
    P->osc = 1;
    P->zeta = atan2(q, P->c);
    P->zq = atanc(q / P->c) / P->c;
    if (P->zeta > 0.5 * IMPACTFIT__PI)
      return 0;
  } else {
    double d = sqrt(D), w = d / P->c;
    P->osc = 0;
    if (!(w < 1.0))
      return 0;
    P->zeta = atanh(w);
    P->zq = athc(w) / P->c;
  }
  return 1;
}

static void apow_coef(const apow *P, double t, double *al, double *be) {
  double em = exp(P->m * t), z = P->zeta * t;
  double b = em * t * (P->osc ? sinc(z) : shc(z)) * P->zq;
  *be = b;
  *al = em * (P->osc ? cos(z) : cosh(z)) - P->p * b;
}

/* g(t) = g2 + α(t) L0 + β(t) L1 and g'(t) */
typedef struct {
  const apow *P;
  double L0, L1, g2;
  double U, V; /* g'(t) = e^{mt} (cos(ζt) U + t sinc(ζt) V) (cosh, shc where D ≥ 0) */
} form;

static void form_init(form *f, const apow *P, const double G[3], const double y[2], const double By[2]) {
  f->P = P;
  f->L0 = G[0] * y[0] + G[1] * y[1];
  f->L1 = G[0] * By[0] + G[1] * By[1];
  f->g2 = G[2];
  double K = f->L1 - P->p * f->L0;
  f->U = f->L0 * P->m + K * P->zq;
  f->V = (P->osc ? -1.0 : 1.0) * f->L0 * P->zeta * P->zeta + K * P->m * P->zq;
}

static double form_g(const form *f, double t) {
  double al, be;
  apow_coef(f->P, t, &al, &be);
  return f->g2 + al * f->L0 + be * f->L1;
}

static double form_dg(const form *f, double t) {
  const apow *P = f->P;
  double z = P->zeta * t;
  return exp(P->m * t) * ((P->osc ? cos(z) : cosh(z)) * f->U + t * (P->osc ? sinc(z) : shc(z)) * f->V);
}

/* The critical point of g in (0, T) (NaN: none there) */
static double form_crit(const form *f, double T) {
  if (f->V == 0.0)
    return NAN;
  const apow *P = f->P;
  double r = -f->U / f->V, z = r * P->zeta, t;
  if (P->osc) {
    t = r * atanc(z);
    if (!(t > 0.0))
      t += IMPACTFIT__PI / P->zeta;
  } else {
    if (!(fabs(z) < 1.0))
      return NAN;
    t = r * athc(z);
  }
  return t > 0.0 && t < T ? t : NAN;
}

/* The first zero of g on (0, T] given g(0) > 0, or +inf when g > 0 on [0, T] (g has at most one critical
 * point there: T is at most half a period) */
static double form_first_zero(const form *f, double T) {
  double tc = form_crit(f, T), a = 0.0, b;
  if (!isnan(tc) && form_g(f, tc) <= 0.0)
    b = tc; /* g falls from g(0) > 0 to its minimum at tc */
  else if (form_g(f, T) <= 0.0)
    a = isnan(tc) ? 0.0 : tc, b = T; /* monotone on [a, T] (a: the maximum) */
  else
    return INFINITY;
  /* Newton safeguarded by the bracket [a, b] (g(a) > 0 ≥ g(b)), to a thousandth of a step */
  double t = 0.5 * (a + b);
  for (int it = 0; it < 60 && b - a > 1e-3; it++) {
    double g = form_g(f, t);
    if (g > 0.0)
      a = t;
    else
      b = t;
    double d = form_dg(f, t), tn = t - g / d;
    t = d != 0.0 && tn > a && tn < b ? tn : 0.5 * (a + b);
  }
  return b;
}

/* The largest value of g on [0, T] */
static double form_max(const form *f, double T) {
  double m = fmax(form_g(f, 0.0), form_g(f, T)), tc = form_crit(f, T);
  return isnan(tc) ? m : fmax(m, form_g(f, tc));
}

/* ---------------------------------------------------------------- a run taken at once */

/* After a run of n steps under gravity (a: forms and force shifted to the fixed point; y, By the start's deviation
 * from it): 1 when the body rests there for good: the map contracts (its eigenvalues inside the unit circle), the
 * fixed point lies inside every form with the force above zero there, and
 *  - not oscillating: the run went the whole n_max (no form reached), and no form dips to zero later (each is its
 *    value at the fixed point plus two decaying exponentials: at most one critical point, checked beyond n_max);
 *  - oscillating (a run stops at half a period): the deviation left is below a relative 1e-15 of the fixed point's
 *    distance to every form. */
static int affine_rests(const impactfit_step_affine *a, const apow *P, const double y[2], const double By[2], long n,
                        long n_max) {
  if (!(P->osc ? P->m < 0.0 : P->m + P->zeta < 0.0) || (!P->osc && n != n_max))
    return 0;
  double al, be;
  apow_coef(P, (double)n, &al, &be);
  double d[2] = {al * y[0] + be * By[0], al * y[1] + be * By[1]};
  for (int i = 0; i <= a->n_forms; i++) {
    const double *G = i < a->n_forms ? a->G[i] : a->F;
    if (i == a->n_forms && G[0] == 0.0 && G[1] == 0.0 && G[2] == 0.0)
      break;
    if (!(G[2] > 0.0)) /* the fixed point (y = 0) outside the form, or no force there */
      return 0;
    if (P->osc) {
      if (!(fabs(G[0] * d[0]) + fabs(G[1] * d[1]) <= 1e-15 * G[2]))
        return 0;
    } else {
      form f;
      form_init(&f, P, G, y, By);
      double tc = form_crit(&f, INFINITY);
      if (!isnan(tc) && tc > (double)n && !(form_g(&f, tc) > 0.0))
        return 0;
    }
  }
  return 1;
}

/* A drift of exactly dx a step (impactfit_step_affine.dx): every form is linear in the step */
static long drift_run(const impactfit_step_affine *a, impactfit_step_state *s, long n_max, double *f_max) {
  double tz = (double)n_max + 2.0;
  for (int i = 0; i < a->n_forms; i++) {
    double g0 = a->G[i][0] * s->x + a->G[i][1] * s->u + a->G[i][2], slope = a->G[i][0] * a->dx;
    if (!(g0 > 0.0))
      return 0;
    if (slope < 0.0)
      tz = fmin(tz, -g0 / slope);
  }
  double nr = fmin((double)n_max, floor(tz) - 1.0);
  if (!(nr >= 1.0))
    return 0;
  long n = (long)nr;
  if (f_max)
    *f_max = 0.0;
  s->x += (double)n * a->dx;
  return n;
}

long impactfit__step_affine_run(const impactfit_step_affine *a, impactfit_step_state *s, long n_max, double f_tiny,
                                double *f_max) {
  return impactfit__step_affine_run_at(a, s, n_max, f_tiny, f_max, NULL);
}

/* The forms and the force in the coordinates y = (x, u) − X of the map's fixed point (a copy of a) */
static void affine_shifted(const impactfit_step_affine *a, impactfit_step_affine *b) {
  *b = *a;
  for (int i = 0; i < a->n_forms; i++)
    b->G[i][2] += a->G[i][0] * a->X[0] + a->G[i][1] * a->X[1];
  b->F[2] += a->F[0] * a->X[0] + a->F[1] * a->X[1];
}

long impactfit__step_affine_run_at(const impactfit_step_affine *a0, impactfit_step_state *s, long n_max, double f_tiny,
                                   double *f_max, int *rests) {
  if (rests)
    *rests = 0;
  if (a0->dx != 0.0)
    return n_max >= 1 && a0->n_forms >= 0 && a0->n_forms <= 4 ? drift_run(a0, s, n_max, f_max) : 0;
  apow P;
  if (n_max < 1 || a0->n_forms < 0 || a0->n_forms > 4 || !apow_init(&P, a0->B))
    return 0;
  impactfit_step_affine sa, *a = &sa;
  affine_shifted(a0, &sa);
  double y[2] = {s->x - a0->X[0], s->u - a0->X[1]};
  double By[2] = {a->B[0][0] * y[0] + a->B[0][1] * y[1], a->B[1][0] * y[0] + a->B[1][1] * y[1]};
  /* within half a period every form has at most one critical point */
  double T = (double)n_max;
  if (P.osc)
    T = fmin(T, floor(0.999 * IMPACTFIT__PI / P.zeta));
  double tz = T + 2.0;
  for (int i = 0; i <= a->n_forms; i++) {
    form f;
    double G[3];
    if (i < a->n_forms) {
      memcpy(G, a->G[i], sizeof G);
    } else { /* the force keeps its sign and stays above the level the signature leaves out (f_tiny) */
      double f0 = a->F[0] * y[0] + a->F[1] * y[1] + a->F[2], sg = f0 >= 0.0 ? 1.0 : -1.0;
      if (a->F[0] == 0.0 && a->F[1] == 0.0 && a->F[2] == 0.0)
        break;
      G[0] = sg * a->F[0], G[1] = sg * a->F[1], G[2] = sg * a->F[2] - f_tiny;
    }
    form_init(&f, &P, G, y, By);
    if (!(form_g(&f, 0.0) > 0.0))
      return 0;
    tz = fmin(tz, form_first_zero(&f, T));
  }
  /* the steps that start at t = 0, 1, ..., n − 1 lie inside with a margin: the last at least one step before
   * the first zero, and n steps land one step or more short of it (the caller steps across) */
  double nr = fmin(T, floor(tz) - 1.0);
  if (!(nr >= 1.0))
    return 0;
  long n = (long)nr;
  if (f_max) {
    form f;
    form_init(&f, &P, a->F, y, By);
    double hi = form_max(&f, (double)(n - 1));
    f.L0 = -f.L0, f.L1 = -f.L1, f.g2 = -f.g2, f.U = -f.U, f.V = -f.V;
    *f_max = fmax(hi, form_max(&f, (double)(n - 1)));
  }
  double al, be;
  apow_coef(&P, (double)n, &al, &be);
  s->x = al * y[0] + be * By[0] + a0->X[0];
  s->u = al * y[1] + be * By[1] + a0->X[1];
  if (rests && (a0->X[0] != 0.0 || a0->X[1] != 0.0))
    *rests = affine_rests(a, &P, y, By, n, n_max);
  return n;
}

/* ---------------------------------------------------------------- the built-in law steppers */

/* The law's force at (x, u) when it is linear there, f = kl x + bl u + f0 (f0: the impedance's gravity term M s g),
 * with the bounds in x of that region (the knots of the law around x): 1, or 0 when it is not linear at x.
 * *persist: 1 when a clamped force (f < 0) stays clamped while x falls at the constant u (the flight after the clamp). */
static int law_linear(const impactfit_law *law, double x, double *kl, double *bl, double *f0, double *x_lo,
                      double *x_hi, int *persist) {
  const impactfit_law_type *t = law->type;
  const double *p = law->p;
  *x_lo = 0.0;
  *x_hi = INFINITY;
  *kl = *bl = *f0 = 0.0;
  if (t == impactfit_law_power) { /* k, n, c, m */
    *persist = p[1] >= p[3] && p[2] >= 0.0 && p[0] > 0.0;
    *kl = p[0];
    *bl = p[2];
    return p[1] == 1.0 && p[3] == 0.0;
  }
  if (t == impactfit_law_impedance) { /* M, B, K, d0, dwidth, width, midpoint, power, rscale, g */
    *persist = p[9] == 0.0 && p[1] >= 0.0 && p[2] >= 0.0;
    double width = fmax(0.0, p[5]), mid = fmin(0.9999, fmax(0.0001, p[6])) * width;
    if (width > 1e-15) { /* impactfit_law_impedance_d: constant beyond width (and everywhere for width 0) */
      if (x > width)
        *x_lo = width;
      else if (x > mid)
        *x_lo = mid, *x_hi = width;
      else
        *x_hi = mid;
    }
    double d = impactfit_law_impedance_d(p + 3, *x_lo > 0.0 || width <= 1e-15 ? 2.0 * width + 1.0 : x, NULL);
    double s = p[8] == 1.0 ? d : d / (d + p[8] * (1.0 - d));
    *kl = p[0] * s * p[2] * d;
    *bl = p[0] * s * p[1];
    *f0 = p[0] * s * p[9]; /* M s g: MuJoCo's reference acceleration takes gravity's (-a0) */
    return width <= 1e-15 || x > width;
  }
  *persist = 0;
  return 0;
}

/* B = A − I of the step of type t for the linear force f = M (a x + b u) */
static void law_step_B(const impactfit_stepper_type *t, double h, double a, double b, double B[2][2]) {
  if (t ==
      impactfit_stepper_rk4) { /* A = Σ (hG)^k/k!, k ≤ 4, G = [[0, 1], [−a, −b]]: B = hG (I + hG/2 (I + hG/3 (I + hG/4))) */
    double G[2][2] = {{0.0, h}, {-h * a, -h * b}}, M[2][2] = {{1.0, 0.0}, {0.0, 1.0}};
    for (int k = 4; k >= 2; k--) {
      double N[2][2];
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
          N[i][j] = (i == j ? 1.0 : 0.0) + (G[i][0] * M[0][j] + G[i][1] * M[1][j]) / k;
      memcpy(M, N, sizeof M);
    }
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++)
        B[i][j] = G[i][0] * M[0][j] + G[i][1] * M[1][j];
  } else if (t == impactfit_stepper_explicit_euler) { /* x' = x + h u, u' = u − h (a x + b u) */
    B[0][0] = 0.0, B[0][1] = h, B[1][0] = -h * a, B[1][1] = -h * b;
  } else if (t == impactfit_stepper_frozen_force) { /* x' = x + h u − h²(a x + b u)/2 */
    B[0][0] = -0.5 * h * h * a, B[0][1] = h - 0.5 * h * h * b, B[1][0] = -h * a, B[1][1] = -h * b;
  } else { /* euler: u' = u − h (a x + b u), x' = x + h u' */
    B[0][0] = -h * h * a, B[0][1] = h - h * h * b, B[1][0] = -h * a, B[1][1] = -h * b;
  }
}

int impactfit__step_law_affine(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  double x = s->x, u = s->u, kl, bl, f0, x_lo, x_hi, g = st->gravity;
  int persist;
  /* under gravity euler's and rk4's (the steppers that take it: a constant acceleration in every stage) */
  if (!(x > 0.0) || !st->type->needs_law ||
      (g != 0.0 && st->type != impactfit_stepper_euler && st->type != impactfit_stepper_rk4))
    return 0;
  int linear = law_linear(&st->law, x, &kl, &bl, &f0, &x_lo, &x_hi, &persist);
  if (f0 != 0.0 && g == 0.0)
    return 0;
  int clampable = st->end != impactfit_transition_A;
  double f = st->law.type->force(st->law.p, x, u, NULL, NULL), h = st->dt;
  memset(a, 0, sizeof *a);
  /* the region's bounds in x: above the knot below, below the knot above */
  a->G[0][0] = 1.0, a->G[0][2] = -x_lo;
  a->n_forms = 1;
  if (isfinite(x_hi)) {
    a->G[1][0] = -1.0, a->G[1][2] = x_hi;
    a->n_forms = 2;
  }
  if (clampable && f < 0.0) { /* the flight after the clamp: no force, x falls at u (under gravity: not affine) */
    if (!persist || !(u < 0.0) || g != 0.0)
      return 0;
    a->B[0][1] = h;
    return 1;
  }
  if (!linear || !(fabs(f - (kl * x + bl * u + f0)) <= 1e-12 * (fabs(kl * x) + fabs(bl * u) + fabs(f0))))
    return 0;
  if (g != 0.0) { /* the fixed point: the equilibrium of x'' = g − (kl x + bl u + f0)/M, which every stage keeps */
    if (!(kl > 0.0))
      return 0;
    a->X[0] = (st->mass * g - f0) / kl;
  }
  law_step_B(st->type, h, kl / st->mass, bl / st->mass, a->B);
  /* the clamp's side (the caller adds the force's level) */
  double sg = f >= 0.0 ? 1.0 : -1.0;
  if (clampable) {
    int i = a->n_forms++;
    a->G[i][0] = sg * kl, a->G[i][1] = sg * bl, a->G[i][2] = sg * f0;
  }
  a->F[0] = kl, a->F[1] = bl, a->F[2] = f0;
  return 1;
}
