/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit_engine: the exact contact input for a multibody or robotics engine at the user's time step
 * (impactfit_engine_solve, include/impactfit/engines.h); help text in impactfit_engine.m. One request
 * per call (scalars), a struct with the fields of `impactfit engine --json`. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "impactfit_mex.h"

static void text_option(const mxArray *a, const char *name, char *buf, size_t size) {
  if (!mxIsChar(a) || mxGetString(a, buf, (mwSize)size))
    mex_input_error("option '%s' takes a string", name);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  if (nrhs < 1 || !mxIsChar(prhs[0]))
    mex_input_error("the first argument is the engine's name ('mujoco', ...)");
  if ((nrhs - 1) % 2)
    mex_input_error("options come in name/value pairs");
  char code[64], version[64] = "", model[128] = "", integrator[32] = "";
  mxGetString(prhs[0], code, sizeof code);
  impactfit_engine_request q = impactfit_engine_default_request();
  double mass = NAN, density = NAN, radius = 0.005, m2 = NAN, r2 = NAN;
  const mxArray *settings = NULL;
  for (int i = 1; i < nrhs; i += 2) {
    char name[32];
    if (!mxIsChar(prhs[i]) || mxGetString(prhs[i], name, sizeof name))
      mex_input_error("expected an option name at argument %d", i + 1);
    const mxArray *val = prhs[i + 1];
    if (!strcasecmp(name, "version"))
      text_option(val, name, version, sizeof version);
    else if (!strcasecmp(name, "model"))
      text_option(val, name, model, sizeof model);
    else if (!strcasecmp(name, "integrator"))
      text_option(val, name, integrator, sizeof integrator);
    else if (!strcasecmp(name, "settings")) {
      if (!mxIsStruct(val) || mxGetNumberOfElements(val) != 1)
        mex_input_error("'settings' takes a struct, e.g. struct('solref', [0.02 1])");
      settings = val;
    } else {
      double x = mex_scalar(val, name);
      if (!strcasecmp(name, "e"))
        q.e = x;
      else if (!strcasecmp(name, "v"))
        q.v = x;
      else if (!strcasecmp(name, "dt"))
        q.dt = x;
      else if (!strcasecmp(name, "value"))
        q.value = x;
      else if (!strcasecmp(name, "mass"))
        mass = x;
      else if (!strcasecmp(name, "density"))
        density = x;
      else if (!strcasecmp(name, "radius"))
        radius = x;
      else if (!strcasecmp(name, "m2"))
        m2 = x;
      else if (!strcasecmp(name, "r2"))
        r2 = x;
      else
        mex_input_error("unknown option '%s' (known: e, v, mass, density, radius, m2, r2, dt, "
                        "value, model, version, integrator, settings)",
                        name);
    }
  }
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_engine_model_find(code, version[0] ? version : NULL, model, &q.model, &err);
  if (st)
    mexErrMsgIdAndTxt("impactfit:invalidInput", "%s", err.message);
  if (isnan(mass) == isnan(density))
    mex_input_error("give the sphere's 'mass' (kg) or its 'density' (kg/m^3), one of them");
  q.bodies.r1 = radius;
  q.bodies.m1 = !isnan(mass) ? mass : impactfit_dem_sphere_mass(radius, density);
  if (!isnan(m2) || !isnan(r2)) {
    q.bodies.plane = 0;
    q.bodies.r2 = isnan(r2) ? radius : r2;
    q.bodies.m2 = !isnan(m2) ? m2 : (isnan(density) ? q.bodies.m1 : impactfit_dem_sphere_mass(q.bodies.r2, density));
  }
  q.integrator = integrator[0] ? integrator : NULL;
  char names[IMPACTFIT_ENGINE_MAX_SETTINGS][64];
  if (settings) {
    int nf = mxGetNumberOfFields(settings);
    if (nf > IMPACTFIT_ENGINE_MAX_SETTINGS)
      mex_input_error("too many settings");
    for (int k = 0; k < nf; k++) {
      const mxArray *f = mxGetFieldByNumber(settings, 0, k);
      snprintf(names[k], sizeof names[k], "%s", mxGetFieldNameByNumber(settings, k));
      if (!f || !mxIsDouble(f) || mxIsComplex(f) || mxGetNumberOfElements(f) < 1 ||
          mxGetNumberOfElements(f) > IMPACTFIT_ENGINE_MAX_VALUES)
        mex_input_error("setting '%s' takes 1 to %d real numbers", names[k], IMPACTFIT_ENGINE_MAX_VALUES);
      impactfit_engine_setting *s = &q.settings[q.n_settings++];
      s->name = names[k];
      s->count = (int)mxGetNumberOfElements(f);
      memcpy(s->values, mxGetPr(f), (size_t)s->count * sizeof(double));
    }
  }
  impactfit_engine_answer a;
  st = impactfit_engine_solve(&q, &a, &err);
  if (st)
    mexErrMsgIdAndTxt(impactfit_status_is_input_error(st) ? "impactfit:invalidInput" : "impactfit:numericalFailure",
                      "%s", err.message);
  static const char *fields[] = {"code",          "version",   "model",         "integrator", "dt",          "v",
                                 "mass",          "e_asked",   "param",         "value",      "input",       "e_mean",
                                 "e_min",         "e_max",     "e_continuous",  "naive",      "naive_value", "e_naive",
                                 "e_naive_range", "reachable", "e_reach_range", "stable",     "dt_stable",   "end",
                                 "note",          "run_here",  "source"};
  enum { NF = sizeof fields / sizeof fields[0] };
  mxArray *s = mxCreateStructMatrix(1, 1, NF, (const char **)fields);
  int k = 0;
  double r1[2] = {a.e_naive_min, a.e_naive_max}, r2v[2] = {a.e_reach_min, a.e_reach_max};
  mxArray *nr = mxCreateDoubleMatrix(1, 2, mxREAL), *rr = mxCreateDoubleMatrix(1, 2, mxREAL);
  memcpy(mxGetPr(nr), r1, sizeof r1);
  memcpy(mxGetPr(rr), r2v, sizeof r2v);
  mxSetFieldByNumber(s, 0, k++, mxCreateString(q.model->code));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(version[0] ? version : impactfit_engine_default_version(q.model->code)));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(q.model->model));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(a.integrator));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.dt));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(q.v));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.mass));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(q.e));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(q.model->param));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.value));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(a.input));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.e_mean));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.e_min));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.e_max));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.e_continuous));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(a.naive));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.naive_value));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.e_naive));
  mxSetFieldByNumber(s, 0, k++, nr);
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.reachable));
  mxSetFieldByNumber(s, 0, k++, rr);
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.stable));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(a.dt_stable));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(a.end));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(a.note));
  mxSetFieldByNumber(s, 0, k++, mxCreateDoubleScalar(q.model->run_here));
  mxSetFieldByNumber(s, 0, k++, mxCreateString(q.model->source));
  plhs[0] = s;
}
