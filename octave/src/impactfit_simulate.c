/* SPDX-License-Identifier: GPL-3.0-or-later */
/* r = impactfit_simulate(n, c, m, k, mass, v, accel, ...): one impact per element, a struct of arrays;
 * help in impactfit_simulate.m */
#include "impactfit_mex.h"

static const char *const fields[] = {"e_out", "t_contact", "f_max", "t_fmax", "f_min", "delta_max",
                                     "t_delta_max", "delta_start", "delta_sep", "f_start", "f_end",
                                     "damping_work", "energy_error", "zeta", "gamma", "delta_m0",
                                     "rhs_evals", "steps", "n_contacts"};

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  static const char *const allowed[] = {"transition", "contacts", "t_max", "rtol", NULL};
  int npos = mex_positional(nrhs, prhs);
  if (npos < 2 || npos > 7)
    mex_input_error("expected (n, c [, m, k, mass, v, accel] [, 'transition', X, "
                    "'contacts', N, 't_max', T, 'rtol', R])");
  if (nlhs > 1)
    mex_input_error("one output (a struct)");
  kopts o;
  mex_options(nrhs, prhs, npos, &o, allowed, "impactfit_simulate");
  /* the kernel's inputs are (n, m, k, c, mass, v, accel); ours are (n, c, m, k, mass, v, accel) */
  const mxArray *in[7];
  const double defaults[7] = {NAN, 0.0, NAN, NAN, NAN, NAN, 0.0}; /* k, mass, v: all or none */
  static const int order[7] = {0, 3, 1, 2, 4, 5, 6}; /* our argument j is kernel input order[j] */
  mxArray *filler[7] = {NULL};
  for (int j = 0; j < 7; j++) {
    int kj = order[j];
    if (j < npos) {
      in[kj] = prhs[j];
    } else {
      filler[kj] = mxCreateDoubleScalar(defaults[kj]);
      in[kj] = filler[kj];
    }
  }
  mxArray *out[19];
  mex_kernel("simulate", 7, in, defaults, 7, &o, out);
  for (int j = 0; j < 7; j++)
    if (filler[j])
      mxDestroyArray(filler[j]);
  mxArray *s = mxCreateStructMatrix(1, 1, 19, (const char **)fields);
  for (int k = 0; k < 19; k++)
    mxSetFieldByNumber(s, 0, k, out[k]);
  plhs[0] = s;
}
