/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The damping that makes a Hertz contact rebound with the restitution you want, then a check by
 * simulating the impact with it.
 *
 *   Hertz spring n = 1.5, k = 1e8 N/m^1.5, effective mass 0.05 kg, approach velocity 2 m/s,
 *   wanted e = 0.7, linear damper, contact ending at zero force (condition C).
 *
 * Build against an installed impactfit: see CMakeLists.txt beside this file, or
 *   cc -std=c11 copt.c $(pkg-config --cflags --libs impactfit) -lm
 * Usage: copt [e]    (prints c_opt in N s/m and the restitution of the simulated impact) */
#include <stdio.h>
#include <stdlib.h>

#include <impactfit/impactfit.h>

int main(int argc, char **argv) {
  const double n = 1.5, k = 1e8, mass = 0.05, v = 2.0;
  double e = argc > 1 ? atof(argv[1]) : 0.7;

  impactfit_error err;
  impactfit_inverse_workspace *iws = impactfit_inverse_alloc();
  impactfit_inverse_params ip = impactfit_inverse_default_params();
  ip.n = n; /* m = 0 (linear damper) and condition C are the defaults */
  impactfit_copt_result cr;
  int st = impactfit_copt_solve(iws, &ip, e, k, mass, v, 0, &cr, &err);
  impactfit_inverse_free(iws);
  if (st != IMPACTFIT_OK) {
    fprintf(stderr, "copt: %s\n", err.message);
    return 1;
  }

  /* check: one impact with that damping */
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = n;
  p.m = 0.0;
  p.k = k;
  p.c = cr.c_opt;
  p.mass = mass;
  p.v = v;
  impactfit_impact_result r;
  st = impactfit_impact_solve(ws, &p, &r, &err);
  impactfit_impact_free(ws);
  if (st != IMPACTFIT_OK) {
    fprintf(stderr, "simulate: %s\n", err.message);
    return 1;
  }
  printf("c_opt = %.17g N s/m\n", cr.c_opt);
  printf("simulated e_out = %.15f (wanted %g), contact %.6g s\n", r.e_out, e, r.t_contact);
  return 0;
}
