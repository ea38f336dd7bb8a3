/* Uses the installed library: one Kelvin–Voigt impact, checked against the exact result. */
#include <math.h>
#include <stdio.h>

#include <impactfit/impactfit.h>

int main(void) {
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  impactfit_impact_params p = impactfit_impact_default_params();
  p.n = 1.0;
  p.c = 0.5; /* xi = 0.25 */
  impactfit_impact_result r;
  impactfit_error err;
  int st = impactfit_impact_solve(ws, &p, &r, &err);
  impactfit_impact_free(ws);
  double xi = 0.25, want = exp(-2 * xi * acos(xi) / sqrt(1 - xi * xi));
  printf("impactfit %s: e_out = %.15f (exact %.15f)\n", impactfit_version(), r.e_out, want);
  return (st == 0 && fabs(r.e_out - want) < 1e-12) ? 0 : 1;
}
