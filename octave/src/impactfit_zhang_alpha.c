/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_zhang_alpha(n, m, e, k, mass, v, ...): Zhang et al. (2021)'s alpha and lambda; help in
 * impactfit_zhang_alpha.m */
#include "impactfit_mex.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  static const char *const allowed[] = {"transition", "method", "tol", NULL};
  int npos = mex_positional(nrhs, prhs);
  if (npos < 3 || npos > 6) /* k, mass, v: all or none (the kernel says so for a part) */
    mex_input_error("expected (n, m, e [, k, mass, v] [, 'transition', X, "
                    "'method', M, 'tol', T])");
  kopts o;
  mex_options(nrhs, prhs, npos, &o, allowed, "impactfit_zhang_alpha");
  o.inv.damping_only = nlhs <= 4; /* no E_OUT asked for: the same ALPHA with less work (inverse.h) */
  const double defaults[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
  mxArray *out[7];
  mex_kernel("zhang_alpha", npos, prhs, defaults, 6, &o, out);
  /* alpha, lambda, lambda_star, zeta, e_out */
  static const int map[] = {0, 4, 1, 2, 3};
  mex_hand_out(nlhs, plhs, out, 7, map, 5, "impactfit_zhang_alpha");
}
