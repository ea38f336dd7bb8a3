/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Generalised power series of the scaled impact equation near δ = 0 (internal).
 *
 * The scaled equation of motion in contact is
 *     x'' = γ − K x^n − ζ x^m x',   K = (n+1)/2,
 * and the right-hand side is not smooth at x = 0 when n or m is not an integer, so a Runge–Kutta
 * method takes many tiny steps there. Started at x(0) = 0 with speed x'(0) = w, the solution is a
 * generalised power series
 *     x(τ) = w τ Σ_a c_a u1^j u2^l u3^q,   a = (j, l, q),
 *     u1 = K w^(n−1) τ^(n+1),  u2 = ζ w^m τ^(m+1),  u3 = γ τ / w,
 * with universal coefficients c_a that depend on n and m only (the equation is homogeneous in the
 * three generators). Derivation: substitute x = wτV, V = Σ c_a u1^j u2^l u3^q into the equation and
 * match the coefficients of τ^(e_a − 1), e_a = j(n+1) + l(m+1) + q:
 *     (1 + e_a) e_a c_a = −P_(a−(1,0,0)) − R_(a−(0,1,0)) + [a = (0,0,1)],
 * where P = V^n, Q = V^m (by J.C.P. Miller's power recurrence with the Euler operator
 * θ = Σ u_i ∂/∂u_i) and R = Q · D, D_a = (1 + e_a) c_a (so that x' = w Σ D_a u^a).
 * Arrival at x = 0 (end of a contact) is the same series in reversed time σ with ζ → −ζ.
 * The series is truncated at total degree |a| = j + l + q ≤ order and used only where the terms of
 * the highest degree are below a tolerance (impactfit__series_radius).
 */
#ifndef IMPACTFIT_SERIES_H
#define IMPACTFIT_SERIES_H

#include <stddef.h>

typedef struct impactfit__series {
  double n, m;    /* exponents the coefficients were computed for */
  int order;      /* maximal total degree */
  int qmax;       /* 0 when the series has no γ terms, else = order */
  size_t count;   /* number of terms */
  int *j, *l, *q; /* multi-indices, sorted by total degree */
  double *e;      /* exponents e_a */
  double *c;      /* coefficients of V */
  double *s;      /* coefficients of S = V^m D^2 (damping work) */
  double *ope;    /* 1 + e_a */
  double *kap;    /* 1 + κ_a, κ_a = j(n−1) + l m − q = d log(u^a) / d log w */
  double *ibe;    /* 1 / (m + 1 + e_a) */
  int *top;       /* indices of the terms of the highest degree */
  double *ltop;   /* log(|c_a| (1 + e_a)) of those terms (−inf where c_a = 0) */
  size_t ntop;
  int *index; /* (order+1)^3 map from (j,l,q) to term index, −1 outside the simplex */
  /* for each term a, the pairs (b, a − b) of terms whose indices add up to a: pair_b[k], pair_r[k]
   * for k in [pair_start[a], pair_start[a+1]); pair_db[k] = |b| (total degree of b) */
  int *pair_start, *pair_b, *pair_r, *pair_db;
  double *work; /* scratch for P, Q, D, R and products, 6 * count */
} impactfit__series;

/* Allocates storage for series of total degree `order` with (with_gamma != 0) or without γ terms.
 * Returns NULL when out of memory. */
impactfit__series *impactfit__series_alloc(int order, int with_gamma);
void impactfit__series_free(impactfit__series *s);
/* Computes the universal coefficients for exponents n > 0, m ≥ 0 (cached: cheap when unchanged). */
void impactfit__series_set(impactfit__series *s, double n, double m);

/* The generators' prefactors for a given speed w > 0:
 * g[0] = K w^(n−1), g[1] = ζ w^m (ζ may be negative: reversed time), g[2] = γ / w. */
typedef struct impactfit__series_point {
  double w; /* speed at x = 0 */
  double g[3];
  double zeta_abs; /* |ζ| of the physical damper, for the damping work */
} impactfit__series_point;

void impactfit__series_point_set(impactfit__series_point *pt, const impactfit__series *s, double K, double zeta,
                                 double gamma, double w);

/* Largest τ at which every term of the highest degree (times 1 + e_a) is below tol. */
double impactfit__series_radius(const impactfit__series *s, const impactfit__series_point *pt, double tol);
/* The same radius, with the index of the top term that set it (0 for series beyond the engine's). */
double impactfit__series_radius_arg(const impactfit__series *s, const impactfit__series_point *pt, double tol,
                                    size_t *term);
/* 1 when x (> 0) is at least an upper bound on impactfit__series_radius of the point
 * impactfit__series_point_set(K, zeta, gamma, w) would set, from the top term `term` alone: the radius
 * is exp of the smallest term's ln τ, chosen within a margin of 1e-9 (1 + |ln τ|), so exp of this
 * term's ln τ plus four times that margin bounds it, and the margin covers the rounding of computing
 * the point's ln g from lk = ln K, lz = ln|zeta|, lg = ln|gamma|, lw = ln w (no pow) and comparing
 * lx = ln x (ltol = ln tol). 0 where nothing is proved (the term gives no bound, a g outside the
 * normal doubles, a NaN). So 1 implies x >= the radius, and a caller that tests x against the radius
 * (or a fraction of it, scaled into lx) reaches the same decision at two logarithms (ln w, ln x)
 * instead of a pass over every top term. */
int impactfit__series_beyond_bound(const impactfit__series *s, double lk, double lz, double lg, double lw, double ltol,
                                   double lx, size_t term);

/* Evaluates x, x' and the damping work W = |ζ| ∫_0^τ x^m x'^2 at τ ≥ 0; any output may be NULL.
 * Also returns, in dx_dw and dxd_dw (if non-NULL), the derivatives of x and x' with respect to w. */
void impactfit__series_eval(const impactfit__series *s, const impactfit__series_point *pt, double tau, double *x,
                            double *xd, double *work, double *dx_dw, double *dxd_dw);

#endif
