/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit MEX functions (Octave's mkoctfile --mex, or MATLAB's mex): the common part.
 *
 * Each impactfit_NAME.c is a MEX file calling one kernel of bindings/kernels.h through mex_kernel():
 * numeric positional arguments (double, real), of which the non-scalar ones must all have the same
 * number of elements (the outputs take the shape of the first of them; scalars are expanded), then
 * options as name/value pairs. The points run in parallel (OpenMP) with one library workspace per
 * thread. Errors: mexErrMsgIdAndTxt with the identifier impactfit:invalidInput (bad input: the
 * library's message) or impactfit:numericalFailure (no separation, no root, no convergence, ...),
 * naming the (1-based, linear) index of the first failing element for array calls. */
#ifndef IMPACTFIT_MEX_H
#define IMPACTFIT_MEX_H

#include "mex.h"

#include "kernels.h"

#define MEX_MAX_IN 8

/* Number of leading arguments that are not char (the positional ones). */
static __attribute__((unused)) int mex_positional(int nrhs, const mxArray *prhs[]) {
  int i = 0;
  while (i < nrhs && !mxIsChar(prhs[i]))
    i++;
  return i;
}

static __attribute__((format(printf, 1, 2))) void mex_input_error(const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mexErrMsgIdAndTxt("impactfit:invalidInput", "%s", msg);
}

static double mex_scalar(const mxArray *a, const char *name) {
  if (!mxIsDouble(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != 1)
    mex_input_error("%s: expected a real scalar", name);
  return mxGetScalar(a);
}

/* Reads the name/value options from prhs[first..nrhs): names compared case-insensitively against
 * `allowed` (a NULL-terminated list of transition, method, tol, contacts, t_max, rtol). */
static __attribute__((unused)) void mex_options(int nrhs, const mxArray *prhs[], int first, kopts *o, const char *const *allowed,
                        const char *fn) {
  kopts_default(o);
  if ((nrhs - first) % 2)
    mex_input_error("options come in name/value pairs");
  for (int i = first; i < nrhs; i += 2) {
    char name[32], value[32];
    if (!mxIsChar(prhs[i]) || mxGetString(prhs[i], name, sizeof name))
      mex_input_error("expected an option name at argument %d", i + 1);
    for (char *c = name; *c; c++)
      if (*c >= 'A' && *c <= 'Z')
        *c = (char)(*c - 'A' + 'a');
    int ok = 0;
    for (int j = 0; allowed[j]; j++)
      ok |= !strcmp(name, allowed[j]);
    if (!ok)
      mex_input_error("unknown option '%s'", name);
    const mxArray *v = prhs[i + 1];
    if (!strcmp(name, "transition") || !strcmp(name, "method")) {
      if (!mxIsChar(v) || mxGetString(v, value, sizeof value))
        mex_input_error("option '%s' expects a string", name);
      if (!strcmp(name, "transition")) {
        if (!(o->tr = impactfit_transition_from_name(value)))
          mex_input_error("unknown transition condition '%s' (A, B, C, D)", value);
        o->sim.transition = o->tr;
      } else if (!(o->inv.method = impactfit_root_method_from_name(value))) {
        mex_input_error("method: expected bisect, fast or nlopt, got '%s'", value);
      }
    } else if (!strcmp(name, "tol")) {
      o->inv.tol = mex_scalar(v, "tol");
    } else if (!strcmp(name, "contacts")) {
      double c = mex_scalar(v, "contacts");
      if (!(c >= 1 && c <= IMPACTFIT_MAX_CONTACTS && c == floor(c)))
        mex_input_error("contacts: expected a whole number in 1..%d", IMPACTFIT_MAX_CONTACTS);
      o->sim.max_contacts = (int)c;
    } else if (!strcmp(name, "t_max")) {
      o->sim.t_max = mex_scalar(v, "t_max");
    } else if (!strcmp(name, "rtol")) {
      o->sim.rtol = mex_scalar(v, "rtol");
    }
  }
}

/* Runs kernel `name` with the positional arguments prhs[0..npos) for its first npos inputs and
 * defaults[j] for the others (NaN: "not given"); returns its n_out outputs in out[] (created here,
 * the shape of the first non-scalar input). */
static __attribute__((unused)) void mex_kernel(const char *name, int npos, const mxArray *prhs[], const double *defaults,
                       int n_defaults, const kopts *o, mxArray **out) {
  const kernel *kn = kernel_find(name);
  if (!kn)
    mexErrMsgIdAndTxt("impactfit:internal", "unknown kernel %s", name);
  mexAtExit(ws_pool_free_all); /* `clear` of the MEX file frees the pooled workspaces */
  size_t count = 1;
  const mxArray *shape = NULL;
  int shape_arg = 0;
  for (int j = 0; j < npos; j++) {
    if (!mxIsDouble(prhs[j]) || mxIsComplex(prhs[j]) || mxIsSparse(prhs[j]))
      mex_input_error("argument %d: expected real double values", j + 1);
    size_t nel = mxGetNumberOfElements(prhs[j]);
    if (nel != 1) {
      if (shape && nel != count)
        mex_input_error("argument %d has %zu elements, argument %d has %zu: non-scalar arguments must "
                        "have the same number of elements", j + 1, nel, shape_arg + 1, count);
      if (!shape) {
        shape = prhs[j];
        shape_arg = j;
        count = nel;
      }
    }
  }
  /* inputs: arrays as they are, scalars expanded into a buffer */
  const double *ip[MAX_IO];
  double *expanded = mxMalloc((kn->n_in ? kn->n_in : 1) * count * sizeof(double));
  for (int j = 0; j < kn->n_in; j++) {
    if (j < npos && mxGetNumberOfElements(prhs[j]) == count && count != 1) {
      ip[j] = mxGetPr(prhs[j]);
    } else {
      double x = j < npos ? mxGetScalar(prhs[j]) : j < n_defaults ? defaults[j] : NAN;
      double *b = expanded + (size_t)j * count;
      for (size_t i = 0; i < count; i++)
        b[i] = x;
      ip[j] = b;
    }
  }
  double *op[MAX_IO];
  for (int k = 0; k < kn->n_out; k++) {
    if (shape)
      out[k] = mxCreateNumericArray(mxGetNumberOfDimensions(shape), mxGetDimensions(shape), mxDOUBLE_CLASS, mxREAL);
    else
      out[k] = mxCreateDoubleMatrix(count == 0 ? 0 : 1, count == 0 ? 0 : 1, mxREAL);
    op[k] = mxGetPr(out[k]);
  }
  kfailure first;
  kernels_run(kn, o, count, ip, op, NULL, 0, &first);
  mxFree(expanded);
  if (first.index >= 0) {
    const char *id = impactfit_status_is_input_error(first.err.status) ? "impactfit:invalidInput"
                                                                       : "impactfit:numericalFailure";
    if (count > 1)
      mexErrMsgIdAndTxt(id, "%s (%s, at element %lld)", first.err.message,
                        impactfit_status_name(first.err.status), first.index + 1);
    mexErrMsgIdAndTxt(id, "%s (%s)", first.err.message, impactfit_status_name(first.err.status));
  }
}

/* Frees the outputs not asked for (plhs[0..nlhs) get out[map[0..nlhs)]). */
static __attribute__((unused)) void mex_hand_out(int nlhs, mxArray *plhs[], mxArray **out, int n_out, const int *map, int n_map,
                         const char *fn) {
  if (nlhs > n_map)
    mexErrMsgIdAndTxt("impactfit:invalidInput", "%s: at most %d outputs", fn, n_map);
  int used[MAX_IO] = {0};
  for (int i = 0; i < (nlhs > 0 ? nlhs : 1); i++) {
    plhs[i] = out[map[i]];
    used[map[i]] = 1;
  }
  for (int k = 0; k < n_out; k++)
    if (!used[k])
      mxDestroyArray(out[k]);
}

#endif /* IMPACTFIT_MEX_H */
