/* SPDX-License-Identifier: GPL-3.0-or-later */
/* r = impactfit_dem(code, model, e, v, name, value, ...): the exact input for a DEM code's contact
 * model, a struct of arrays; help in impactfit_dem.m. The kernel is bindings/kernels.h's `dem`. */
#include <strings.h>

#include "impactfit_mex.h"

/* the numeric name/value inputs and the kernel input each fills (radius and density fill two) */
static const struct {
  const char *name;
  int in, in2;
} numeric[] = {{"value", 2, -1}, {"E", 3, -1},       {"nu", 4, -1},          {"r1", 5, -1}, {"r2", 6, -1},
               {"rho1", 7, -1},  {"rho2", 8, -1},    {"m1", 9, -1},          {"m2", 10, -1}, {"kn", 11, -1},
               {"vchar", 12, -1}, {"tc", 13, -1},    {"radius", 5, 6},       {"density", 7, 8}};
#define N_NUMERIC (sizeof numeric / sizeof numeric[0])

static void get_string(const mxArray *a, char *buf, size_t size, const char *what) {
  if (!mxIsChar(a) || mxGetString(a, buf, (mwSize)size))
    mex_input_error("%s: expected a string (at most %zu characters)", what, size - 1);
}

static int get_flag(const mxArray *a, const char *what) {
  char s[8];
  if (mxIsChar(a)) {
    get_string(a, s, sizeof s, what);
    if (!strcasecmp(s, "on"))
      return 1;
    if (!strcasecmp(s, "off"))
      return 0;
    mex_input_error("%s: expected 'on', 'off', true or false (got '%s')", what, s);
  }
  if ((!mxIsLogical(a) && !mxIsDouble(a)) || mxGetNumberOfElements(a) != 1)
    mex_input_error("%s: expected 'on', 'off', true or false", what);
  return mxGetScalar(a) != 0.0;
}

static mxArray *alternative_struct(const impactfit_dem_model *alt, const impactfit_dem_answer *a) {
  static const char *const f[] = {"model", "damping", "value", "input", "note", "end"};
  mxArray *s = mxCreateStructMatrix(1, 1, 6, (const char **)f);
  mxSetFieldByNumber(s, 0, 0, mxCreateString(alt->model));
  mxSetFieldByNumber(s, 0, 1, mxCreateString(alt->damping));
  mxSetFieldByNumber(s, 0, 2, mxCreateDoubleScalar(a->value));
  mxSetFieldByNumber(s, 0, 3, mxCreateString(a->input));
  mxSetFieldByNumber(s, 0, 4, mxCreateString(a->note));
  mxSetFieldByNumber(s, 0, 5, mxCreateString(a->transition->name));
  return s;
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  if (nrhs < 4 || (nrhs - 4) % 2)
    mex_input_error("expected (code, model, e, v [, name, value ...]) (help impactfit_dem)");
  if (nlhs > 1)
    mex_input_error("one output (a struct)");
  char code[32], model[64], version[64] = "", damping[64] = "", name[32];
  get_string(prhs[0], code, sizeof code, "code");
  get_string(prhs[1], model, sizeof model, "model");
  kopts o;
  kopts_default(&o);
  const mxArray *in[DEM_N_IN] = {prhs[2], prhs[3]};
  const char *given_as[DEM_N_IN] = {"e", "v"};
  for (int i = 4; i < nrhs; i += 2) {
    if (!mxIsChar(prhs[i]) || mxGetString(prhs[i], name, sizeof name))
      mex_input_error("expected an option name at argument %d", i + 1);
    const mxArray *v = prhs[i + 1];
    size_t j;
    for (j = 0; j < N_NUMERIC && strcasecmp(name, numeric[j].name); j++)
      ;
    if (j < N_NUMERIC) {
      for (int k = 0; k < 2; k++) {
        int ki = k ? numeric[j].in2 : numeric[j].in;
        if (ki < 0)
          continue;
        if (in[ki])
          mex_input_error("give %s or %s, not both", given_as[ki], numeric[j].name);
        in[ki] = v;
        given_as[ki] = numeric[j].name;
      }
    } else if (!strcasecmp(name, "version")) {
      get_string(v, version, sizeof version, "version");
    } else if (!strcasecmp(name, "damping")) {
      get_string(v, damping, sizeof damping, "damping");
    } else if (!strcasecmp(name, "limit")) {
      o.dem_clamp = get_flag(v, "limit");
    } else if (!strcasecmp(name, "wall")) {
      o.dem_wall = get_flag(v, "wall");
    } else {
      mex_input_error("unknown option '%s' (version, damping, limit, wall, E, nu, radius, r1, r2, "
                      "density, rho1, rho2, m1, m2, kn, vchar, tc, value)", name);
    }
  }
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_dem_model_find(code, *version ? version : NULL, model, damping, &o.dem, &err))
    mex_input_error("%s", err.message);
  int forward = in[2] != NULL;
  if (mxIsDouble(prhs[2]) && mxGetNumberOfElements(prhs[2]) == 0) {
    if (!forward)
      mex_input_error("e is empty: give 'value', X to see the e a typed value gives");
    in[0] = NULL;
  } else if (forward) {
    mex_input_error("give e (the restitution you want) or 'value' (what you type), not both: "
                    "impactfit_dem(code, model, [], v, 'value', X, ...)");
  }
  if ((in[9] || in[10]) && (in[7] || in[8]))
    mex_input_error("give densities or masses, not both");
  /* non-scalar inputs must have the same number of elements */
  size_t count = 1;
  int first = -1;
  for (int j = 0; j < DEM_N_IN; j++) {
    if (!in[j])
      continue;
    if (!mxIsDouble(in[j]) || mxIsComplex(in[j]) || mxIsSparse(in[j]))
      mex_input_error("%s: expected real double values", given_as[j]);
    size_t nel = mxGetNumberOfElements(in[j]);
    if (nel != 1 && first >= 0 && nel != count)
      mex_input_error("%s has %zu elements, %s has %zu: non-scalar inputs must have the same "
                      "number of elements", given_as[j], nel, given_as[first], count);
    if (nel != 1 && first < 0) {
      first = j;
      count = nel;
    }
  }
  mxArray *filler = mxCreateDoubleScalar(NAN);
  for (int j = 0; j < DEM_N_IN; j++)
    if (!in[j])
      in[j] = filler;
  mxArray *out[DEM_N_OUT];
  mex_kernel("dem", DEM_N_IN, in, NULL, 0, &o, out);
  /* solve: value, e_naive, reachable, zeta, C, K, R, M; forward: value, e_real, R, M */
  static const char *const solve_f[] = {"value", "e_naive", "reachable", "zeta", "C", "K", "R", "M"};
  static const int solve_k[] = {0, 1, 2, 3, 4, 5, 6, 7};
  static const char *const fwd_f[] = {"value", "e_real", "R", "M"};
  static const int fwd_k[] = {0, 8, 6, 7};
  const char *const *fields = forward ? fwd_f : solve_f;
  const int *keys = forward ? fwd_k : solve_k;
  int nf = forward ? 4 : 8, used[DEM_N_OUT] = {0};
  mxArray *s = mxCreateStructMatrix(1, 1, nf, (const char **)fields);
  for (int k = 0; k < nf; k++) {
    mxSetFieldByNumber(s, 0, k, out[keys[k]]);
    used[keys[k]] = 1;
  }
  for (int k = 0; k < DEM_N_OUT; k++)
    if (!used[k])
      mxDestroyArray(out[k]);
  if (count == 1) { /* a scalar call: the text to paste, the note, the alternative */
    double x[DEM_N_IN];
    for (int j = 0; j < DEM_N_IN; j++)
      x[j] = mxGetScalar(in[j]);
    char input[1024], note[1024];
    const impactfit_dem_model *alt;
    impactfit_dem_answer alt_a;
    int st = dem_describe(&o, x, input, sizeof input, note, sizeof note, &alt, &alt_a, &err);
    if (st) {
      mxDestroyArray(s);
      mxDestroyArray(filler);
      mexErrMsgIdAndTxt(impactfit_status_is_input_error(st) ? "impactfit:invalidInput" : "impactfit:numericalFailure",
                        "%s (%s)", err.message, impactfit_status_name(st));
    }
    mxAddField(s, "input");
    mxSetField(s, 0, "input", mxCreateString(input));
    if (!forward) {
      mxAddField(s, "note");
      mxSetField(s, 0, "note", mxCreateString(note));
      if (mxGetScalar(out[2]) == 0.0) {
        mxAddField(s, "alternative");
        mxSetField(s, 0, "alternative", alt ? alternative_struct(alt, &alt_a) : mxCreateDoubleMatrix(0, 0, mxREAL));
      }
    }
  }
  mxDestroyArray(filler);
  plhs[0] = s;
}
