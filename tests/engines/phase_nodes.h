/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The phases at which a harness runs an engine to integrate its e(φ) over φ ∈ (0, 1]: 8-point
 * Gauss–Legendre nodes on each smooth piece of impactfit's e(φ) for the same stepper (its jumps found from
 * the step signatures on 64 samples and by bisection to 1e-12, harness.h), each piece split into `sub`
 * parts. The engine's mean is then Σ w_i e_engine(φ_i): exact to the quadrature's error wherever the engine's
 * e(φ) has the pieces impactfit's has (which the per-phase checks establish), whatever the engine's e is.
 * For the harnesses that send every phase of a request at once (the node engines). */
#ifndef IMPACTFIT_TESTS_ENGINES_PHASE_NODES_H
#define IMPACTFIT_TESTS_ENGINES_PHASE_NODES_H

#include <math.h>
#include <stdlib.h>

#include "harness.h"

typedef struct pn_nodes {
  int n;
  double *phi, *w;
  int pieces;
} pn_nodes;

/* Fills *out (free with pn_free); returns 0, or 1 when impactfit's stepper fails at some phase. */
static inline int pn_make(const impactfit_stepper *st, double v, int sub, pn_nodes *out) {
  static const double gx[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
  static const double gw[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
  enum { NS = 64 };
  double jumps[HZ_MAX_JUMPS + 2], prev = 1e-12;
  unsigned long sp = 0, s = 0;
  int n = 0;
  out->n = 0;
  out->phi = out->w = NULL;
  if (isnan(hz_model_e(st, v, prev, &sp)))
    return 1;
  for (int i = 1; i <= NS; i++) {
    double phi = (double)i / NS;
    if (isnan(hz_model_e(st, v, phi, &s)))
      return 1;
    hz_jumps_between(st, v, prev, sp, phi, s, jumps, &n);
    prev = phi;
    sp = s;
  }
  out->pieces = n + 1;
  out->phi = (double *)malloc(sizeof(double) * (size_t)(8 * sub * (n + 1)));
  out->w = (double *)malloc(sizeof(double) * (size_t)(8 * sub * (n + 1)));
  if (!out->phi || !out->w)
    return 1;
  double a = 0.0;
  for (int k = 0; k <= n; k++) {
    double b = k < n ? jumps[k] : 1.0;
    for (int q = 0; q < sub && b - a > 1e-9; q++) {
      double lo = a + (b - a) * q / sub, hi = a + (b - a) * (q + 1) / sub, m = 0.5 * (lo + hi), r = 0.5 * (hi - lo);
      for (int i = 0; i < 4; i++) {
        out->phi[out->n] = m - r * gx[i];
        out->w[out->n++] = r * gw[i];
        out->phi[out->n] = m + r * gx[i];
        out->w[out->n++] = r * gw[i];
      }
    }
    a = b;
  }
  return 0;
}

static inline void pn_free(pn_nodes *p) {
  free(p->phi);
  free(p->w);
  p->phi = p->w = NULL;
  p->n = 0;
}

/* Σ w_i e_i (NaN when some e_i is NaN) */
static inline double pn_mean(const pn_nodes *p, const double *e) {
  double s = 0.0;
  for (int i = 0; i < p->n; i++)
    s += p->w[i] * e[i];
  return s;
}

#endif
