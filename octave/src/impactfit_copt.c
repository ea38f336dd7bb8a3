/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_copt(n, e, k, mass, v, ...): c_opt of Poursina & Nikravesh (2020); help in impactfit_copt.m */
#include "impactfit_mex.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  static const char *const allowed[] = {"method", "tol", NULL};
  int npos = mex_positional(nrhs, prhs);
  if (npos < 2 || npos > 5)
    mex_input_error("expected (n, e [, k, mass, v] [, 'method', M, 'tol', T])");
  kopts o;
  mex_options(nrhs, prhs, npos, &o, allowed, "impactfit_copt");
  o.inv.damping_only = nlhs <= 2; /* no E_OUT asked for: the same C with less work (inverse.h) */
  const double defaults[5] = {NAN, NAN, NAN, NAN, NAN}; /* k, mass, v: all or none (the kernel) */
  mxArray *out[7];
  mex_kernel("copt", npos, prhs, defaults, 5, &o, out);
  /* c_opt, zeta, e_out, delta_sep, t_contact */
  static const int map[] = {0, 1, 2, 3, 4};
  mex_hand_out(nlhs, plhs, out, 7, map, 5, "impactfit_copt");
}
