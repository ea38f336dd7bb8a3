/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Uses an installed (or add_subdirectory'd) impactfit from C: one Kelvin-Voigt impact checked
 * against the exact result, then c_opt of a Hertz spring with a linear damper, printed with %.17g
 * for run.sh to compare with `impactfit copt ... --json` to the last digit.
 * usage: consumer [N E K MASS V]   (default 1.5 0.7 1e9 0.5 2) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <impactfit/impactfit.h>

int main(int argc, char **argv) {
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.0;
  p.c = 0.5; /* xi = 0.25 */
  impactfit_impact_result r;
  impactfit_error err;
  int st = impactfit_impact_solve(ws, &p, &r, &err);
  impactfit_impact_free(ws);
  double xi = 0.25, want = exp(-2 * xi * acos(xi) / sqrt(1 - xi * xi));
  printf("impactfit %s (C): e_out = %.15f (exact %.15f)\n", impactfit_version(), r.e_out, want);
  if (st != 0 || !(fabs(r.e_out - want) < 1e-12))
    return 1;

  double a[5] = {1.5, 0.7, 1e9, 0.5, 2.0};
  for (int i = 1; i < argc && i <= 5; i++)
    a[i - 1] = strtod(argv[i], NULL);
  impactfit_inverse_workspace *iw = impactfit_inverse_alloc();
  impactfit_inverse_params ip = impactfit_inverse_default_params();
  ip.n = a[0];
  impactfit_copt_result cr;
  st = iw ? impactfit_copt_solve(iw, &ip, a[1], a[2], a[3], a[4], 0, &cr, &err) : IMPACTFIT_ENOMEM;
  impactfit_inverse_free(iw);
  if (st) {
    fprintf(stderr, "consumer: copt: %s\n", err.message);
    return 1;
  }
  printf("c_opt %.17g\n", cr.c_opt);
  return 0;
}
