/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_hc_eps(e, k, v): exact Hunt-Crossley damping ratio; help in impactfit_hc_eps.m.
 * The pattern for a new vectorised function: a kernel in bindings/kernels.h, its defaults for the
 * optional arguments, and which outputs go out in which order. */
#include "impactfit_mex.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  static const char *const allowed[] = {NULL};
  int npos = mex_positional(nrhs, prhs);
  if (npos < 1 || npos > 3) /* k and v: both or neither (the kernel says so for (e, k)) */
    mex_input_error("expected (e) or (e, k, v)");
  kopts o;
  mex_options(nrhs, prhs, npos, &o, allowed, "impactfit_hc_eps");
  const double defaults[3] = {NAN, NAN, NAN};
  mxArray *out[2];
  mex_kernel("hc_eps", npos, prhs, defaults, 3, &o, out);
  static const int map[] = {0, 1}; /* eps, lambda */
  mex_hand_out(nlhs, plhs, out, 2, map, 2, "impactfit_hc_eps");
}
