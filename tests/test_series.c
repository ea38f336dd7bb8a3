/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The generalised power series near δ = 0 (src/impact/series.c) against closed-form solutions.
 *
 * For n = 1, m = 0 the scaled equation x'' = γ − K x − ζ x' (K = 1) is linear with solution, for
 * x(0) = 0, x'(0) = w and ζ < 2:
 *     x(τ) = γ/ω0² + e^(−ζτ/2) [A cos(ω τ) + B sin(ω τ)],  ω0 = 1, ω = sqrt(1 − ζ²/4),
 *     A = −γ,  B = (w + ζ A / 2) / ω      (from x(0) = 0 and x'(0) = w),
 * and the damping work W = ζ ∫ x'^2 follows from the energy balance ½w² − ½x'² + γx − ½x² = W.
 * For ζ = 0, γ = 0 and general n, the velocity obeys x'^2 = w² − 2K x^(n+1)/(n+1) exactly.
 * The reversed-time series (ζ → −ζ) is checked through the same formula with ζ negative. */
#include <math.h>
#include <stdio.h>

#include "impact/series.h"
#include "testutil.h"

static void check_linear(impactfit__series *s, double zeta, double gamma, double w) {
  impactfit__series_set(s, 1.0, 0.0);
  impactfit__series_point pt;
  impactfit__series_point_set(&pt, s, 1.0, zeta, gamma, w);
  double R = impactfit__series_radius(s, &pt, 1e-17);
  double om = sqrt(1.0 - 0.25 * zeta * zeta), A = -gamma, B = (w + 0.5 * zeta * A) / om;
  for (int i = 1; i <= 10; i++) {
    double tau = R * i / 10.0;
    double x, xd, W;
    impactfit__series_eval(s, &pt, tau, &x, &xd, &W, NULL, NULL);
    double ex = exp(-0.5 * zeta * tau), c = cos(om * tau), sn = sin(om * tau);
    double xe = gamma + ex * (A * c + B * sn);
    double xde = ex * (-0.5 * zeta * (A * c + B * sn) + om * (-A * sn + B * c));
    /* W with |ζ| as prefactor: for ζ < 0 (reversed time) the series integrates |ζ| x^m x'^2. */
    double We = 0.5 * w * w - 0.5 * xde * xde + gamma * xe - 0.5 * xe * xe;
    if (zeta < 0.0)
      We = -We;
    CHECK_REL(x, xe, 1e-14, "linear x(tau=%g) zeta=%g gamma=%g w=%g", tau, zeta, gamma, w);
    CHECK_REL(xd, xde, 1e-13, "linear x'(tau=%g) zeta=%g gamma=%g w=%g", tau, zeta, gamma, w);
    if (zeta != 0.0)
      CHECK_REL(W, We, 1e-11, "linear W(tau=%g) zeta=%g gamma=%g w=%g", tau, zeta, gamma, w);
  }
}

static void check_undamped(impactfit__series *s, double n, double w) {
  impactfit__series_set(s, n, 0.0);
  double K = 0.5 * (n + 1.0);
  impactfit__series_point pt;
  impactfit__series_point_set(&pt, s, K, 0.0, 0.0, w);
  double R = impactfit__series_radius(s, &pt, 1e-17);
  CHECK(R > 0.05 * w, "undamped n=%g: series radius %g too small", n, R);
  for (int i = 1; i <= 8; i++) {
    double tau = R * i / 8.0, x, xd, dxw, dxdw;
    impactfit__series_eval(s, &pt, tau, &x, &xd, NULL, &dxw, &dxdw);
    double v2 = w * w - 2.0 * K * pow(x, n + 1.0) / (n + 1.0);
    CHECK_REL(xd * xd, v2, 1e-13, "undamped n=%g energy at tau=%g", n, tau);
    /* d/dw by finite differences of the series itself (central, step 1e-6 w). */
    double h = 1e-6 * w, xp, xm, xdp, xdm;
    impactfit__series_point q;
    impactfit__series_point_set(&q, s, K, 0.0, 0.0, w + h);
    impactfit__series_eval(s, &q, tau, &xp, &xdp, NULL, NULL, NULL);
    impactfit__series_point_set(&q, s, K, 0.0, 0.0, w - h);
    impactfit__series_eval(s, &q, tau, &xm, &xdm, NULL, NULL, NULL);
    CHECK_REL(dxw, (xp - xm) / (2 * h), 1e-7, "undamped n=%g dx/dw at tau=%g", n, tau);
    CHECK_REL(dxdw, (xdp - xdm) / (2 * h), 1e-7, "undamped n=%g dx'/dw at tau=%g", n, tau);
  }
}

int main(void) {
  impactfit__series *s2 = impactfit__series_alloc(12, 0), *s3 = impactfit__series_alloc(8, 1);
  if (!s2 || !s3)
    return 2;
  /* Known coefficients: n = 1, m = 0, no damping: x = w sin τ, so c_(j,0,0) = (−1)^j / (2j+1)!. */
  impactfit__series_set(s2, 1.0, 0.0);
  double fact = 1.0;
  for (size_t a = 0; a < s2->count; a++)
    if (s2->l[a] == 0 && s2->q[a] == 0) {
      int j = s2->j[a];
      fact = 1.0;
      for (int i = 2; i <= 2 * j + 1; i++)
        fact *= i;
      CHECK_REL(s2->c[a], ((j % 2) ? -1.0 : 1.0) / fact, 1e-15, "c_(%d,0,0) for n = 1", j);
    }
  double zetas[] = {0.0, 0.3, 1.2, 1.9, -0.7, -1.5};
  for (size_t i = 0; i < sizeof zetas / sizeof zetas[0]; i++) {
    check_linear(s2, zetas[i], 0.0, 1.0);
    check_linear(s2, zetas[i], 0.0, 0.37);
    check_linear(s3, zetas[i], 0.2, 1.0);
    check_linear(s3, zetas[i], 0.05, 0.3);
  }
  double ns[] = {0.5, 1.0, 1.25, 1.5, 2.0, 3.0};
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
    check_undamped(s2, ns[i], 1.0);
    check_undamped(s2, ns[i], 0.2);
  }
  impactfit__series_free(s2);
  impactfit__series_free(s3);
  impactfit__series_free(NULL);
  return tu_report("test_series");
}
