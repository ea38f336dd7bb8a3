/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit._impactfit: the CPython extension behind the Python package impactfit (python/impactfit/).
 *
 * It is deliberately thin and does not use NumPy's C API (so `import impactfit` and scalar calls work
 * in any CPython of the version it was built for, with or without NumPy):
 *
 *  - run(kernel, inputs, outputs, status, options, threads): the one vectorised entry point. inputs and
 *    outputs are tuples of C-contiguous float64 buffers of one length N (the Python layer broadcasts
 *    with NumPy, or passes array('d') of length 1 for scalars), status a writable int32 buffer of N.
 *    Point i reads inputs[j][i] and writes outputs[k][i] (NaN where the point failed). The loop runs
 *    with the GIL released, in parallel (OpenMP, schedule(dynamic)) with one library workspace per
 *    thread, taken from a pool that keeps them for the next call. Returns None when every point
 *    succeeded, else (index, status, status_name, message, is_input_error) of the lowest failing
 *    index, so the result does not depend on the number of threads.
 *  - details(), identify(), sweep(), table(), fit(): the non-vectorised tools.
 *  - code(inputs, options): one request to the code registry (impactfit_code_solve), a dict with the keys of
 *    `impactfit dem/engine --json` for the answer's kind (the scalar calls of impactfit.code; array calls run
 *    the kernel "code").
 *
 * The kernels (one point each) and the parallel loop are shared with the Octave MEX functions:
 * bindings/kernels.h. Adding a vectorised function is one entry in KERNELS[] there with its point
 * function, plus a wrapper in python/impactfit/__init__.py (see docs/PYTHON.md, "Adding a function").
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernels.h"

static PyObject *NumericalError; /* impactfit.NumericalError, set by the package */

/* ---- options ----------------------------------------------------------------------------------- */

static int opt_double(PyObject *d, const char *key, double *x) {
  PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
  if (!v)
    return 0;
  double y = PyFloat_AsDouble(v);
  if (y == -1.0 && PyErr_Occurred())
    return -1;
  *x = y;
  return 0;
}

static int opt_int(PyObject *d, const char *key, int *x) {
  PyObject *v = PyDict_GetItemString(d, key);
  if (!v)
    return 0;
  long y = PyLong_AsLong(v);
  if (y == -1 && PyErr_Occurred())
    return -1;
  if (y < INT_MIN || y > INT_MAX) {
    PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", key, y);
    return -1;
  }
  *x = (int)y;
  return 0;
}

static int opt_str(PyObject *d, const char *key, const char **s) {
  PyObject *v = PyDict_GetItemString(d, key);
  if (!v)
    return 0;
  if (!PyUnicode_Check(v)) {
    PyErr_Format(PyExc_TypeError, "%s: expected a string", key);
    return -1;
  }
  *s = PyUnicode_AsUTF8(v);
  return *s ? 0 : -1;
}

static int opt_transition(PyObject *d, const char *key, const impactfit_transition **tr) {
  const char *s = NULL;
  if (opt_str(d, key, &s))
    return -1;
  if (!s)
    return 0;
  *tr = impactfit_transition_from_name(s);
  if (!*tr) {
    PyErr_Format(PyExc_ValueError, "%s: unknown transition condition '%s' (A, B, C, D)", key, s);
    return -1;
  }
  return 0;
}

#define IMPACTFIT__STR2(x) #x
#define IMPACTFIT__STR(x) IMPACTFIT__STR2(x)
#define IMPACTFIT_CODE_MAX_VALUES_2 10 /* 2 IMPACTFIT_CODE_MAX_VALUES, as text (checked below) */
_Static_assert(IMPACTFIT_CODE_MAX_VALUES_2 == 2 * IMPACTFIT_CODE_MAX_VALUES, "the most values of a setting");

/* a sequence of numbers (or one number) into a setting */
static int setting_values(PyObject *val, impactfit_code_setting *s) {
  PyObject *seq = PySequence_Check(val) ? PySequence_Fast(val, "") : NULL;
  if (!seq) {
    PyErr_Clear();
    double x = PyFloat_AsDouble(val);
    if (x == -1.0 && PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "setting %s: expected a number or a sequence of numbers", s->name);
      return -1;
    }
    s->count = 1;
    s->values[0] = x;
    return 0;
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n < 1 || n > 2 * IMPACTFIT_CODE_MAX_VALUES) {
    Py_DECREF(seq);
    /* the count the model takes is the library's message ("solref takes 2 values (got 3)"); here only the most any
     * setting holds, as the CLI says it */
    PyErr_Format(PyExc_ValueError, "setting %s: %s (got %zd)", s->name,
                 n < 1 ? "no values" : "at most " IMPACTFIT__STR(IMPACTFIT_CODE_MAX_VALUES_2) " values", n);
    return -1;
  }
  s->count = (int)n;
  for (Py_ssize_t i = 0; i < n; i++) {
    double x = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
    if (x == -1.0 && PyErr_Occurred()) {
      Py_DECREF(seq);
      return -1;
    }
    s->values[i] = x;
  }
  Py_DECREF(seq);
  return 0;
}

/* code: the model (looked up once per call), the request's other options, the settings of several values and the
 * names of the one-value settings the inputs carry */
static int parse_code_options(PyObject *d, kopts *o) {
  const char *code = NULL, *version = NULL, *model = NULL, *option = NULL, *integrator = NULL;
  impactfit_code_request *q = &o->code;
  int points = 0;
  if (opt_str(d, "code", &code) || opt_str(d, "version", &version) || opt_str(d, "model", &model) ||
      opt_str(d, "option", &option) || opt_str(d, "integrator", &integrator) || opt_int(d, "limit", &q->clamp) ||
      opt_int(d, "pair", &q->bodies.pair) || opt_double(d, "v_min", &q->v_min) || opt_double(d, "v_max", &q->v_max) ||
      opt_double(d, "r_min", &q->r_min) || opt_double(d, "r_max", &q->r_max) || opt_double(d, "r2_min", &q->r2_min) || opt_double(d, "r2_max", &q->r2_max) || opt_int(d, "points", &points) || opt_double(d, "tol", &q->tol) || opt_int(d, "suggest", &q->suggest) ||
      opt_double(d, "gravity", &q->gravity) || opt_str(d, "tangential", &q->tangential) ||
      opt_double(d, "e11", &q->e11) || opt_double(d, "e22", &q->e22))
    return -1;
  if (!code)
    return 0;
  q->points = points > 0 ? (size_t)points : 0;
  q->version = version;
  q->integrator = integrator;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_code_model_find(code, version, model, option, &q->model, &err)) {
    PyErr_SetString(PyExc_ValueError, err.message);
    return -1;
  }
  PyObject *settings = PyDict_GetItemString(d, "settings"), *slots = PyDict_GetItemString(d, "slots");
  PyObject *key, *val;
  Py_ssize_t pos = 0;
  while (settings && PyDict_Check(settings) && PyDict_Next(settings, &pos, &key, &val)) {
    if (o->code_nset == IMPACTFIT_CODE_MAX_INPUTS) {
      PyErr_SetString(PyExc_ValueError, "code: too many settings");
      return -1;
    }
    impactfit_code_setting *s = &o->code_set[o->code_nset++];
    memset(s, 0, sizeof *s);
    if (!(s->name = PyUnicode_AsUTF8(key)) || setting_values(val, s))
      return -1;
  }
  for (Py_ssize_t i = 0; slots && PyTuple_Check(slots) && i < PyTuple_GET_SIZE(slots) && i < CODE_SLOTS; i++)
    if (!(o->code_slot[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(slots, i))))
      return -1;
  return 0;
}

static int parse_options(PyObject *d, kopts *o) {
  kopts_default(o);
  if (!d || d == Py_None)
    return 0;
  if (!PyDict_Check(d)) {
    PyErr_SetString(PyExc_TypeError, "options: expected a dict");
    return -1;
  }
  static const char *const known[] = {
      "method",     "tol",     "max_iter", "surrogate_guess", "transition", "dimensional", "max_contacts", "t_max",
      "rtol",       "series",  "which",    "code",            "version",    "model",       "option",       "limit",
      "pair",       "integrator", "settings", "slots",        "v_min",      "v_max",       "points",       "suggest",
      "gravity",    "tangential", "e11", "e22", "r_min", "r_max", "r2_min", "r2_max", "damping_only", NULL};
  PyObject *key, *val;
  Py_ssize_t pos = 0;
  while (PyDict_Next(d, &pos, &key, &val)) {
    const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    int ok = 0;
    for (int i = 0; k && known[i]; i++)
      ok |= !strcmp(k, known[i]);
    if (!ok) {
      PyErr_Format(PyExc_TypeError, "unknown option %R", key);
      return -1;
    }
  }
  const char *method = NULL, *which = NULL;
  if (opt_str(d, "method", &method) || opt_double(d, "tol", &o->inv.tol) || opt_int(d, "max_iter", &o->inv.max_iter) ||
      opt_int(d, "surrogate_guess", &o->inv.surrogate_guess) || opt_int(d, "damping_only", &o->inv.damping_only) || opt_transition(d, "transition", &o->tr) ||
      opt_int(d, "dimensional", &o->dimensional) || opt_int(d, "max_contacts", &o->sim.max_contacts) ||
      opt_double(d, "t_max", &o->sim.t_max) || opt_double(d, "rtol", &o->sim.rtol) ||
      opt_int(d, "series", &o->sim.series) || opt_str(d, "which", &which))
    return -1;
  if (method) {
    o->inv.method = impactfit_root_method_from_name(method);
    if (!o->inv.method) {
      PyErr_Format(PyExc_ValueError, "method: expected bisect, fast or nlopt, got '%s'", method);
      return -1;
    }
  }
  if (which)
    snprintf(o->which, sizeof o->which, "%s", which);
  o->sim.transition = o->tr;
  return parse_code_options(d, o);
}

/* ---- run --------------------------------------------------------------------------------------- */

static int get_buffers(PyObject *tuple, int want, int writable, Py_buffer *views, Py_ssize_t *count, const char *what) {
  if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != want) {
    PyErr_Format(PyExc_TypeError, "%s: expected a tuple of %d buffers", what, want);
    return -1;
  }
  for (int j = 0; j < want; j++) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(tuple, j), &views[j], flags)) {
      for (int i = 0; i < j; i++)
        PyBuffer_Release(&views[i]);
      return -1;
    }
    const char *f = views[j].format ? views[j].format : "B";
    if (views[j].itemsize != 8 || !(strcmp(f, "d") == 0 || strcmp(f, "<d") == 0 || strcmp(f, "=d") == 0) ||
        (*count >= 0 && views[j].len / 8 != *count)) {
      for (int i = 0; i <= j; i++)
        PyBuffer_Release(&views[i]);
      PyErr_Format(PyExc_TypeError, "%s[%d]: expected contiguous float64 data of the common length", what, j);
      return -1;
    }
    *count = views[j].len / 8;
  }
  return 0;
}

static PyObject *py_run(PyObject *self, PyObject *args) {
  const char *name;
  PyObject *in_t, *out_t, *status_o, *opt_d;
  int threads;
  if (!PyArg_ParseTuple(args, "sO!O!OOi", &name, &PyTuple_Type, &in_t, &PyTuple_Type, &out_t, &status_o, &opt_d,
                        &threads))
    return NULL;
  const kernel *kn = kernel_find(name);
  if (!kn)
    return PyErr_Format(PyExc_ValueError, "unknown kernel '%s'", name);
  kopts o;
  if (parse_options(opt_d, &o))
    return NULL;
  Py_buffer vin[MAX_IO], vout[MAX_IO], vst;
  Py_ssize_t count = -1;
  if (get_buffers(in_t, kn->n_in, 0, vin, &count, "inputs"))
    return NULL;
  if (get_buffers(out_t, kn->n_out, 1, vout, &count, "outputs")) {
    for (int j = 0; j < kn->n_in; j++)
      PyBuffer_Release(&vin[j]);
    return NULL;
  }
  int got = PyObject_GetBuffer(status_o, &vst, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) == 0;
  if (!got || vst.itemsize != 4 || vst.len / 4 != count) {
    if (got) {
      PyBuffer_Release(&vst);
      PyErr_SetString(PyExc_TypeError, "status: expected a writable int32 buffer of the common length");
    }
    for (int j = 0; j < kn->n_in; j++)
      PyBuffer_Release(&vin[j]);
    for (int j = 0; j < kn->n_out; j++)
      PyBuffer_Release(&vout[j]);
    return NULL;
  }
  const double *ip[MAX_IO];
  double *op[MAX_IO];
  for (int j = 0; j < kn->n_in; j++)
    ip[j] = vin[j].buf;
  for (int j = 0; j < kn->n_out; j++)
    op[j] = vout[j].buf;
  kfailure first;
  Py_BEGIN_ALLOW_THREADS kernels_run(kn, &o, (size_t)count, ip, op, vst.buf, threads, &first);
  Py_END_ALLOW_THREADS for (int j = 0; j < kn->n_in; j++) PyBuffer_Release(&vin[j]);
  for (int j = 0; j < kn->n_out; j++)
    PyBuffer_Release(&vout[j]);
  PyBuffer_Release(&vst);
  if (first.index < 0)
    Py_RETURN_NONE;
  return Py_BuildValue("(LissO)", first.index, first.err.status, impactfit_status_name(first.err.status),
                       first.err.message, impactfit_status_is_input_error(first.err.status) ? Py_True : Py_False);
}

/* Raises ValueError (input errors), OSError (EIO: a file), MemoryError or NumericalError (the rest)
 * from a library status. */
static PyObject *raise_status(int st, const impactfit_error *err) {
  PyObject *exc = impactfit_status_is_input_error(st) || !NumericalError ? PyExc_ValueError : NumericalError;
  if (st == IMPACTFIT_EIO)
    exc = PyExc_OSError;
  else if (st == IMPACTFIT_ENOMEM)
    exc = PyExc_MemoryError;
  const char *msg = err && err->message[0] ? err->message : impactfit_strerror(st);
  PyObject *val = exc == NumericalError ? Py_BuildValue("(ss)", msg, impactfit_status_name(st))
                                        : Py_BuildValue("(s)", msg);
  if (val) {
    PyErr_SetObject(exc, val);
    Py_DECREF(val);
  }
  return NULL;
}

static PyObject *py_set_numerical_error(PyObject *self, PyObject *cls) {
  Py_XINCREF(cls);
  Py_XSETREF(NumericalError, cls);
  Py_RETURN_NONE;
}

/* ---- details: contacts and the trajectory of one simulation ------------------------------------ */

typedef struct trace_buf {
  size_t n, cap;
  double *col[6];
} trace_buf;

static int trace_cb(void *ctx, const impactfit_trace_point *pt) {
  trace_buf *b = ctx;
  if (b->n == b->cap)
    return IMPACTFIT_ENOMEM; /* not reached: sized for `points` */
  b->col[0][b->n] = pt->t;
  b->col[1][b->n] = pt->delta;
  b->col[2][b->n] = pt->delta_dot;
  b->col[3][b->n] = pt->force;
  b->col[4][b->n] = pt->element;
  b->col[5][b->n] = pt->in_contact;
  b->n++;
  return 0;
}

static PyObject *py_details(PyObject *self, PyObject *args) {
  double x[7];
  PyObject *opt_d;
  Py_ssize_t points;
  if (!PyArg_ParseTuple(args, "(ddddddd)On", &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &opt_d, &points))
    return NULL;
  kopts o;
  if (parse_options(opt_d, &o))
    return NULL;
  impactfit_impact_params p = o.sim;
  int all = 0; /* k, mass, v: checked by the kernel already (units()); none given: 1 each */
  impactfit_error uerr;
  if (units(3, x[2], x[4], x[5], &all, &uerr))
    return PyErr_Format(PyExc_ValueError, "%s", uerr.message);
  p.n = x[0], p.m = x[1], p.k = all ? x[2] : 1.0, p.c = x[3], p.mass = all ? x[4] : 1.0, p.v = all ? x[5] : 1.0;
  p.accel = x[6];
  if (points != 0 && (points < 2 || points > 100000000))
    return PyErr_Format(PyExc_ValueError, "trajectory: expected 2 .. 1e8 points, got %zd", points);
  trace_buf b = {0, (size_t)points, {0}};
  for (int j = 0; j < 6 && points; j++)
    if (!(b.col[j] = malloc((size_t)points * sizeof(double)))) {
      for (int i = 0; i < j; i++)
        free(b.col[i]);
      return PyErr_NoMemory();
    }
  impactfit_impact_workspace *ws = ws_get(WS_IMPACT);
  impactfit_impact_result r;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st;
  Py_BEGIN_ALLOW_THREADS st = !ws      ? IMPACTFIT_ENOMEM
                              : points ? impactfit_impact_trace(ws, &p, (size_t)points, trace_cb, &b, &r, &err)
                                       : impactfit_impact_solve(ws, &p, &r, &err);
  Py_END_ALLOW_THREADS PyObject *contacts = NULL, *trace = Py_None, *ret = NULL;
  Py_INCREF(Py_None);
  if (st) {
    raise_status(st, &err);
    goto out;
  }
  if (!(contacts = PyList_New(0)))
    goto out;
  for (int i = 0; i < r.n_contacts; i++) {
    impactfit_contact c;
    if (impactfit_impact_contact(ws, i, &c))
      break;
    PyObject *d = Py_BuildValue("{sd,sd,sd,sd,sd,sd,sd,sd,sd,sO}", "t_start", c.t_start, "t_end", c.t_end,
                                "delta_start", c.delta_start, "delta_end", c.delta_end, "v_in", c.v_in, "v_out",
                                c.v_out, "f_start", c.f_start, "f_end", c.f_end, "element_start", c.element_start,
                                "ended", c.ended ? Py_True : Py_False);
    if (!d || PyList_Append(contacts, d)) {
      Py_XDECREF(d);
      goto out;
    }
    Py_DECREF(d);
  }
  if (points) {
    Py_DECREF(trace);
    trace = Py_BuildValue("(y#y#y#y#y#y#)", (char *)b.col[0], (Py_ssize_t)(b.n * 8), (char *)b.col[1],
                          (Py_ssize_t)(b.n * 8), (char *)b.col[2], (Py_ssize_t)(b.n * 8), (char *)b.col[3],
                          (Py_ssize_t)(b.n * 8), (char *)b.col[4], (Py_ssize_t)(b.n * 8), (char *)b.col[5],
                          (Py_ssize_t)(b.n * 8));
    if (!trace)
      goto out;
  }
  ret = Py_BuildValue("(OO)", contacts, trace);
out:
  ws_put(WS_IMPACT, ws);
  for (int j = 0; j < 6; j++)
    free(b.col[j]);
  Py_XDECREF(contacts);
  Py_XDECREF(trace);
  return ret;
}

/* ---- identify ---------------------------------------------------------------------------------- */

static PyObject *list4d(const double *x) { return Py_BuildValue("(dddd)", x[0], x[1], x[2], x[3]); }
static PyObject *list4i(const int *x) {
  return Py_BuildValue("(OOOO)", x[0] ? Py_True : Py_False, x[1] ? Py_True : Py_False, x[2] ? Py_True : Py_False,
                       x[3] ? Py_True : Py_False);
}

/* identify(v, e, dt, fmax, mass, columns, params) with v..mass float64 buffers of one length; params:
 * model, transition, fixed {slot: value}, n_lo, n_hi, m_lo, m_hi, weights (3), global, maxeval, seed,
 * box_factor, per_row (None or m). */
static PyObject *py_identify(PyObject *self, PyObject *args) {
  PyObject *bufs, *pd;
  unsigned columns;
  if (!PyArg_ParseTuple(args, "O!IO!", &PyTuple_Type, &bufs, &columns, &PyDict_Type, &pd))
    return NULL;
  Py_buffer vb[5];
  Py_ssize_t rows = -1;
  if (get_buffers(bufs, 5, 0, vb, &rows, "data"))
    return NULL;
  impactfit_identify_params p = impactfit_identify_default_params();
  const char *model = NULL, *global = NULL;
  PyObject *fixed = PyDict_GetItemString(pd, "fixed"), *weights = PyDict_GetItemString(pd, "weights");
  PyObject *per_row = PyDict_GetItemString(pd, "per_row");
  long seed = -1;
  PyObject *ret = NULL;
  impactfit_identify_data d = {0};
  impactfit_identify_row_fit *fits = NULL;
  impactfit_identify_row_damping *damp = NULL;
  impactfit_identify_result *res = NULL;
  impactfit_identify_workspace *ws = NULL;
  if (opt_str(pd, "model", &model) || opt_transition(pd, "transition", &p.transition) ||
      opt_str(pd, "global", &global) || opt_double(pd, "n_lo", &p.n_lo) || opt_double(pd, "n_hi", &p.n_hi) ||
      opt_double(pd, "m_lo", &p.m_lo) || opt_double(pd, "m_hi", &p.m_hi) ||
      opt_double(pd, "box_factor", &p.box_factor) || opt_int(pd, "maxeval", &p.global_maxeval))
    goto out;
  PyObject *so = PyDict_GetItemString(pd, "seed");
  if (so && (seed = PyLong_AsLong(so)) < 0) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "seed: expected an integer >= 0");
    goto out;
  }
  if (so)
    p.seed = (unsigned long)seed;
  if (model && !(p.model = impactfit_identify_model_from_name(model))) {
    PyErr_Format(PyExc_ValueError, "model: unknown model '%s' (hc, linear, zhang)", model);
    goto out;
  }
  if (global && !(p.global = impactfit_identify_global_from_name(global))) {
    PyErr_Format(PyExc_ValueError, "global: unknown method '%s' (crs, direct, none)", global);
    goto out;
  }
  if (fixed && fixed != Py_None) {
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(fixed, &pos, &key, &val)) {
      long slot = PyLong_AsLong(key);
      double x = PyFloat_AsDouble(val);
      if (PyErr_Occurred())
        goto out;
      if (slot < 0 || slot >= IMPACTFIT_IDENTIFY_NPAR) {
        PyErr_SetString(PyExc_ValueError, "fixed: unknown parameter slot");
        goto out;
      }
      p.fixed[slot] = 1;
      p.value[slot] = x;
    }
  }
  if (weights && weights != Py_None) {
    if (!PyArg_ParseTuple(weights, "ddd", &p.weight[0], &p.weight[1], &p.weight[2]))
      goto out;
  }
  double per_row_m = NAN;
  if (per_row && per_row != Py_None && (per_row_m = PyFloat_AsDouble(per_row)) == -1.0 && PyErr_Occurred())
    goto out;
  d.rows = (size_t)rows;
  d.columns = columns;
  snprintf(d.source, sizeof d.source, "<data>");
  if (!(d.row = calloc(d.rows ? d.rows : 1, sizeof *d.row)) || !(fits = calloc(d.rows ? d.rows : 1, sizeof *fits)) ||
      !(damp = calloc(d.rows ? d.rows : 1, sizeof *damp)) || !(res = calloc(1, sizeof *res)) ||
      !(ws = impactfit_identify_alloc())) {
    PyErr_NoMemory();
    goto out;
  }
  for (size_t i = 0; i < d.rows; i++) {
    const double *c[5] = {vb[0].buf, vb[1].buf, vb[2].buf, vb[3].buf, vb[4].buf};
    d.row[i].v = c[0][i];
    d.row[i].e = c[1][i];
    d.row[i].dt = c[2][i];
    d.row[i].fmax = c[3][i];
    d.row[i].mass = c[4][i];
    d.row[i].line = 0;
  }
  impactfit_error err;
  impactfit_error_clear(&err);
  int st;
  Py_BEGIN_ALLOW_THREADS st = impactfit_identify_data_check(&d, &err);
  if (!st)
    st = impactfit_identify_fit(ws, &d, &p, res, fits, &err);
  if (!st && !isnan(per_row_m))
    impactfit_identify_per_row(ws, &d, res->value[0], res->value[2], per_row_m, p.transition, damp, NULL);
  Py_END_ALLOW_THREADS if (st) {
    raise_status(st, &err);
    goto out;
  }
  PyObject *warn = PyList_New(0), *rowl = PyList_New(0), *corr = PyList_New(0);
  for (int i = 0; warn && i < res->nwarn; i++) {
    PyObject *s = PyUnicode_FromString(res->warning[i]);
    if (s)
      PyList_Append(warn, s);
    Py_XDECREF(s);
  }
  for (int i = 0; corr && i < IMPACTFIT_IDENTIFY_NPAR; i++) {
    PyObject *r = list4d(res->corr[i]);
    if (r)
      PyList_Append(corr, r);
    Py_XDECREF(r);
  }
  for (size_t i = 0; rowl && i < d.rows; i++) {
    PyObject *r = Py_BuildValue("{sd,sd,sd,sd,sd,sd,sd}", "e", fits[i].e, "dt", fits[i].dt, "fmax", fits[i].fmax, "r_e",
                                fits[i].r_e, "r_dt", fits[i].r_dt, "r_fmax", fits[i].r_fmax, "zeta", fits[i].zeta);
    if (r && !isnan(per_row_m)) {
      PyObject *x = Py_BuildValue("{sd,sd,sd,sd,si}", "lambda_hc", damp[i].lambda_hc, "c_linear", damp[i].c_linear,
                                  "lambda_m", damp[i].lambda_m, "alpha", damp[i].alpha, "status", damp[i].status);
      if (x)
        PyDict_SetItemString(r, "per_row", x);
      Py_XDECREF(x);
    }
    if (r)
      PyList_Append(rowl, r);
    Py_XDECREF(r);
  }
  if (warn && rowl && corr && !PyErr_Occurred())
    ret = Py_BuildValue("{sN,sN,sN,sN,sN,sO,sN,sN,sd,sd,sd,si,si,si,sl,sl,sl,sl,sd,sO,sO,ss}", "value",
                        list4d(res->value), "free", list4i(res->free), "se", list4d(res->se), "se_fit",
                        list4d(res->se_fit), "identifiable", list4i(res->identifiable), "corr", corr, "at_bound",
                        list4i(res->at_bound), "sv", list4d(res->sv), "cost", res->cost, "rms", res->rms, "sigma",
                        res->sigma, "nres", res->nres, "dof", res->dof, "nfree", res->nfree, "evals_global",
                        res->evals_global, "evals_local", res->evals_local, "newton_accepted", res->newton_accepted,
                        "simulations", res->simulations, "length_scale", res->length_scale, "warnings", warn, "rows",
                        rowl, "model", p.model->name);
  Py_XDECREF(warn);
  Py_XDECREF(rowl);
  Py_XDECREF(corr);
out:
  for (int j = 0; j < 5; j++)
    PyBuffer_Release(&vb[j]);
  free(d.row);
  free(fits);
  free(damp);
  free(res);
  impactfit_identify_free(ws);
  return ret;
}

/* ---- sweep, tables and fit files (today's public API, bound thinly) ---------------------------- */

typedef struct text_buf {
  char *p;
  size_t n, cap;
  PyObject *failures; /* list of (index, status name, message); touched only with the GIL */
  size_t nfail;
  struct fail_rec {
    size_t index;
    int status;
    char message[256];
  } * fails;
  size_t fails_cap;
} text_buf;

static int text_append(text_buf *b, const char *s, size_t len) {
  if (b->n + len + 1 > b->cap) {
    size_t cap = (b->n + len + 1) * 2;
    char *q = realloc(b->p, cap);
    if (!q)
      return IMPACTFIT_ENOMEM;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, len);
  b->n += len;
  b->p[b->n] = '\0';
  return 0;
}

static int sweep_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  return text_append(ctx, rows, len) ? IMPACTFIT_ENOMEM : 0;
}

static void sweep_failure(void *ctx, size_t index, int status, const char *message) {
  text_buf *b = ctx;
  if (b->nfail == b->fails_cap) {
    size_t cap = b->fails_cap ? 2 * b->fails_cap : 16;
    struct fail_rec *q = realloc(b->fails, cap * sizeof *q);
    if (!q)
      return;
    b->fails = q;
    b->fails_cap = cap;
  }
  b->fails[b->nfail].index = index;
  b->fails[b->nfail].status = status;
  snprintf(b->fails[b->nfail].message, sizeof b->fails[b->nfail].message, "%s", message ? message : "");
  b->nfail++;
}

/* Runs a loaded sweep into CSV text (header + rows). */
static int run_sweep_text(const impactfit_sweep *s, int threads, text_buf *b, impactfit_sweep_summary *sum,
                          impactfit_error *err) {
  const char *hdr = impactfit_sweep_csv_header(s);
  if (text_append(b, hdr, strlen(hdr)) || text_append(b, "\n", hdr[0] && hdr[strlen(hdr) - 1] == '\n' ? 0 : 1))
    return IMPACTFIT_ENOMEM;
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.threads = threads;
  return impactfit_sweep_run(s, &rp, sweep_rows, sweep_failure, b, sum, err);
}

static PyObject *failures_list(const text_buf *b) {
  PyObject *l = PyList_New(0);
  for (size_t i = 0; l && i < b->nfail; i++) {
    PyObject *t = Py_BuildValue("(nss)", (Py_ssize_t)b->fails[i].index, impactfit_status_name(b->fails[i].status),
                                b->fails[i].message);
    if (!t || PyList_Append(l, t)) {
      Py_XDECREF(t);
      Py_CLEAR(l);
      break;
    }
    Py_DECREF(t);
  }
  return l;
}

/* sweep(path, threads) -> (csv text, failures [(index, status, message)], summary dict) */
static PyObject *py_sweep(PyObject *self, PyObject *args) {
  const char *path;
  int threads;
  if (!PyArg_ParseTuple(args, "si", &path, &threads))
    return NULL;
  impactfit_sweep *s = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  text_buf b = {0};
  impactfit_sweep_summary sum = {0};
  int st;
  Py_BEGIN_ALLOW_THREADS st = impactfit_sweep_load(path, &s, &err);
  if (!st)
    st = run_sweep_text(s, threads, &b, &sum, &err);
  Py_END_ALLOW_THREADS PyObject *ret = NULL;
  if (st)
    raise_status(st, &err);
  else
    ret = Py_BuildValue("(s#N{sn,sn,sL,sd,si,ss,ss})", b.p, (Py_ssize_t)b.n, failures_list(&b), "points",
                        (Py_ssize_t)sum.points, "failed", (Py_ssize_t)sum.failed, "rhs_evals", sum.rhs_evals,
                        "wall_seconds", sum.wall_seconds, "threads", sum.threads, "problem",
                        impactfit_sweep_get_problem(s)->name, "hash", impactfit_sweep_hash(s));
  impactfit_sweep_free(s);
  free(b.p);
  free(b.fails);
  return ret;
}

static PyObject *table_dict(const impactfit_table *t) {
  PyObject *cols = PyDict_New();
  size_t rows = impactfit_table_rows(t);
  for (size_t j = 0; cols && j < impactfit_table_cols(t); j++) {
    PyObject *v = PyBytes_FromStringAndSize((const char *)impactfit_table_col(t, j), (Py_ssize_t)(rows * 8));
    if (!v || PyDict_SetItemString(cols, impactfit_table_col_name(t, j), v)) {
      Py_XDECREF(v);
      Py_CLEAR(cols);
      break;
    }
    Py_DECREF(v);
  }
  PyObject *ok = cols ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)rows) : NULL;
  if (ok)
    for (size_t i = 0; i < rows; i++)
      PyBytes_AS_STRING(ok)[i] = (char)(impactfit_table_row_ok(t, i) ? 1 : 0);
  if (!ok) {
    Py_XDECREF(cols);
    return NULL;
  }
  return Py_BuildValue("(NN)", cols, ok);
}

/* table(csv text, name) -> ({column: float64 bytes}, ok bytes) through the library's CSV reader. */
static PyObject *py_table(PyObject *self, PyObject *args) {
  const char *text, *name;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "s#s", &text, &len, &name))
    return NULL;
  impactfit_table *t = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_table_parse_csv(text, (size_t)len, name, &t, &err);
  if (st)
    return raise_status(st, &err);
  PyObject *r = table_dict(t);
  impactfit_table_free(t);
  return r;
}

/* fit(fit file, data CSV path or None, threads) -> [stage dicts]; without data the fit file's
 * sweep is run first (as `impactfit sweep` would) */
static PyObject *py_fit(PyObject *self, PyObject *args) {
  const char *path, *data = NULL;
  int threads;
  if (!PyArg_ParseTuple(args, "szi", &path, &data, &threads))
    return NULL;
  impactfit_fitfile *f = NULL;
  impactfit_table *t = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  text_buf b = {0};
  impactfit_sweep_summary sum = {0};
  int st;
  Py_BEGIN_ALLOW_THREADS st = impactfit_fitfile_load(path, &f, &err);
  if (!st && data)
    st = impactfit_table_read_csv(data, &t, &err);
  else if (!st) {
    st = run_sweep_text(impactfit_fitfile_sweep(f), threads, &b, &sum, &err);
    if (!st)
      st = impactfit_table_parse_csv(b.p, b.n, impactfit_fitfile_sweep_path(f), &t, &err);
  }
  if (!st)
    st = impactfit_fitfile_run(f, t, &err);
  Py_END_ALLOW_THREADS PyObject *ret = NULL;
  if (st) {
    raise_status(st, &err);
    goto out;
  }
  if (!(ret = PyList_New(0)))
    goto out;
  for (size_t i = 0; i < impactfit_fitfile_stage_count(f); i++) {
    impactfit_fit_stage sg;
    if (impactfit_fitfile_stage(f, i, &sg))
      continue;
    PyObject *groups = PyList_New(0);
    for (size_t g = 0; groups && g < sg.n_groups; g++) {
      const impactfit_fit_result *r = &sg.results[g];
      PyObject *params = PyDict_New(), *se = PyDict_New();
      for (size_t j = 0; params && se && j < r->n_params; j++) {
        PyObject *a = PyFloat_FromDouble(r->value[j]), *c = PyFloat_FromDouble(r->se[j]);
        if (a)
          PyDict_SetItemString(params, r->names[j], a);
        if (c)
          PyDict_SetItemString(se, r->names[j], c);
        Py_XDECREF(a);
        Py_XDECREF(c);
      }
      PyObject *gv = sg.group_values ? PyFloat_FromDouble(sg.group_values[g]) : (Py_INCREF(Py_None), Py_None);
      PyObject *gd = Py_BuildValue("{sN,sN,sN,sn,sd,sd,sd,sd,sd,sd,ss}", "group", gv, "params", params, "se", se,
                                   "n_points", (Py_ssize_t)r->n_points, "chisq", r->chisq, "rms", r->rms, "max_abs",
                                   r->max_abs, "max_rel", r->max_rel, "mean_abs", r->mean_abs, "mean_rel", r->mean_rel,
                                   "method", r->method);
      if (!gd || PyList_Append(groups, gd))
        Py_CLEAR(groups);
      Py_XDECREF(gd);
    }
    PyObject *sd = groups
                       ? Py_BuildValue("{ss,ss,sz,sz,ss,sz,ss,sN,sn,sn}", "name", sg.name, "data", sg.data, "where",
                                       sg.where, "group", sg.group, "x", sg.x, "x2", sg.x2, "y", sg.y, "groups", groups,
                                       "rows_used", (Py_ssize_t)sg.rows_used, "rows_failed", (Py_ssize_t)sg.rows_failed)
                       : NULL;
    if (!sd || PyList_Append(ret, sd)) {
      Py_XDECREF(sd);
      Py_CLEAR(ret);
      goto out;
    }
    Py_DECREF(sd);
  }
out:
  impactfit_table_free(t);
  impactfit_fitfile_free(f);
  free(b.p);
  free(b.fails);
  return ret;
}

/* ---- code: one request to the code registry, a dict with the keys of its JSON ------------------- */

static int put(PyObject *d, const char *key, PyObject *v) {
  if (!v)
    return -1;
  int rc = PyDict_SetItemString(d, key, v);
  Py_DECREF(v);
  return rc;
}

static PyObject *range(double lo, double hi) { return Py_BuildValue("(dd)", lo, hi); }

/* the keys of `impactfit dem/engine --json` for the answer's kind (bindings/kernels.h: code_keys) */
static int answer_dict(PyObject *d, const impactfit_code_answer *a) {
  code_strs s = code_strs_of(a);
  int kind = code_kind(a);
  for (size_t i = 0; i < N_CODE_KEYS; i++) {
    const code_key *k = &code_keys[i];
    if (!(k->kinds & kind))
      continue;
    double x[2];
    const char *str;
    code_key_get(k, a, &s, x, &str);
    PyObject *v = k->type == CK_STR   ? PyUnicode_FromString(str)
                  : k->type == CK_INT ? PyLong_FromLong((long)x[0])
                  : k->type == CK_RANGE ? range(x[0], x[1])
                                        : PyFloat_FromDouble(x[0]);
    if (put(d, k->key, v))
      return -1;
  }
  return 0;
}

/* the answer over the ranges: the keys of `--json`'s "spread" (src/cli/code_print.c) */
static PyObject *spread_dict(const impactfit_code_answer *a) {
  const impactfit_code_spread *sp = &a->spread;
  int sizes = isfinite(a->r_min) && a->r_min < a->r_max, sizes2 = !a->wall && isfinite(a->r2_min) && a->r2_min < a->r2_max;
  int axes = (sizes ? 1 : 0) | (sizes2 ? 2 : 0) | (a->v_min < a->v_max ? 4 : 0);
  PyObject *corners = PyList_New(0);
  for (int i = 0; corners && i < 8; i++) {
    if (i & ~axes)
      continue;
    double r1 = isfinite(a->r_min) ? ((i & 1) ? a->r_max : a->r_min) : sp->r1_min;
    double r2 = isfinite(a->r_min) ? (a->wall ? r1 : (i & 2) ? a->r2_max : a->r2_min) : sp->r2_min;
    PyObject *c = Py_BuildValue("{sd,sd,sd,sd}", "r1", r1, "r2", r2, "v", (i & 4) ? a->v_max : a->v_min, "e",
                                sp->e_corner[i]);
    if (!c || PyList_Append(corners, c)) {
      Py_XDECREF(c);
      Py_CLEAR(corners);
      break;
    }
    Py_DECREF(c);
  }
  if (!corners)
    return NULL;
  PyObject *rr = isfinite(a->r_min) ? Py_BuildValue("(dd)", a->r_min, a->r_max) : (Py_INCREF(Py_None), Py_None);
  PyObject *rr2 = isfinite(a->r2_min) ? Py_BuildValue("(dd)", a->r2_min, a->r2_max) : (Py_INCREF(Py_None), Py_None);
  PyObject *worst = isnan(sp->worst) ? (Py_INCREF(Py_None), Py_None) : PyFloat_FromDouble(sp->worst);
  return Py_BuildValue("{sN,sN,s(dd),ss,si,sl,sd,sd,s{s(ddd),s(ddd)},sN,sN,si}", "r_range", rr, "r2_range", rr2, "v_range", a->v_min,
                       a->v_max, "bodies", a->wall ? "the sphere on the wall" : "each sphere", "points",
                       a->spread_points, "evaluations", sp->evaluations, "e_min", sp->e_min, "e_max", sp->e_max,
                       "where", "e_min", sp->r1_min, sp->r2_min, sp->v_at_min, "e_max", sp->r1_max, sp->r2_max,
                       sp->v_at_max, "corners", corners, "worst", worst, "exact", a->spread_exact);
}

/* the alternative (dem: another model that reaches e) and the speed rows (engines) */
static int answer_extras(PyObject *d, const impactfit_code_answer *a) {
  if (!a->stepped && !a->forward && !a->reachable) {
    const impactfit_code_answer *b = a->alternative;
    PyObject *alt = b ? Py_BuildValue("{ss,ss,ss,ss,sd,ss,s(dd),ss,ss}", "model", b->model->model, "damping",
                                      b->model->option, "param", b->model->param, "param_unit", b->model->param_unit,
                                      "value", b->value, "input", b->input, "e_range", b->e_speed_min, b->e_speed_max,
                                      "note", b->note, "end", b->end->name)
                      : (Py_INCREF(Py_None), Py_None);
    if (put(d, "alternative", alt))
      return -1;
  }
  if (a->has_spread && put(d, "spread", spread_dict(a)))
    return -1;
  if (a->has_spread && !a->spread_exact && !a->forward) {
    const impactfit_code_answer *x = a->exact_model;
    const impactfit_code_model *o = a->exact_other;
    PyObject *m = x ? Py_BuildValue("{ss,ss,ss,sd,ss,ss,s(dd),sd,ss}", "model", x->model->model, "damping",
                                    x->model->option, "param", x->model->param, "value", x->value, "input", x->input,
                                    "end", x->end->name, "e_range", x->spread.e_min, x->spread.e_max, "worst",
                                    x->spread.worst, "note", x->note)
                    : (Py_INCREF(Py_None), Py_None);
    PyObject *other = !x && o ? Py_BuildValue("{ss,ss,ss}", "model", o->model, "damping", o->option, "param", o->param)
                              : (Py_INCREF(Py_None), Py_None);
    if (put(d, "exact_model", m) || (!x && put(d, "exact_other", other)))
      return -1;
    if (x)
      Py_DECREF(other);
  }
  if (!a->n_range)
    return 0;
  PyObject *rows = PyList_New((Py_ssize_t)a->n_range);
  for (size_t i = 0; rows && i < a->n_range; i++) {
    const impactfit_code_point *p = &a->range[i];
    PyObject *row = Py_BuildValue("{sd,sd,sd,sd,sd}", "v", p->v, "e_mean", p->e_mean, "e_min", p->e_min, "e_max",
                                  p->e_max, "e_continuous", p->e_continuous);
    if (!row) {
      Py_CLEAR(rows);
      break;
    }
    PyList_SET_ITEM(rows, (Py_ssize_t)i, row);
  }
  return put(d, "range", rows);
}

/* code_inputs(code, version, model, option): {name: values} of the model's inputs (aliases too) */
static PyObject *py_code_inputs(PyObject *self, PyObject *args) {
  const char *code, *version, *model, *option;
  if (!PyArg_ParseTuple(args, "szzz", &code, &version, &model, &option))
    return NULL;
  const impactfit_code_model *md;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (impactfit_code_model_find(code, version, model, option, &md, &err))
    return PyErr_Format(PyExc_ValueError, "%s", err.message);
  PyObject *d = PyDict_New();
  for (int i = 0; d && i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (put(d, in->name, PyLong_FromLong(in->count)) || (in->alias && put(d, in->alias, PyLong_FromLong(in->count))))
      Py_CLEAR(d);
  }
  return d;
}

/* code(inputs, options): the inputs of the kernel "code" as floats (NaN: not given) */
static PyObject *py_code(PyObject *self, PyObject *args) {
  PyObject *in_t, *opt_d;
  if (!PyArg_ParseTuple(args, "O!O", &PyTuple_Type, &in_t, &opt_d))
    return NULL;
  if (PyTuple_GET_SIZE(in_t) != CODE_N_IN)
    return PyErr_Format(PyExc_TypeError, "code: expected %d inputs", (int)CODE_N_IN);
  double in[CODE_N_IN];
  for (int j = 0; j < CODE_N_IN; j++)
    if ((in[j] = PyFloat_AsDouble(PyTuple_GET_ITEM(in_t, j))) == -1.0 && PyErr_Occurred())
      return NULL;
  kopts o;
  if (parse_options(opt_d, &o))
    return NULL;
  if (!o.code.model)
    return PyErr_Format(PyExc_ValueError, "code: no code given");
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS + CODE_SLOTS];
  code_request(&o, in, &q, set);
  impactfit_code_answer a;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st;
  Py_BEGIN_ALLOW_THREADS st = impactfit_code_solve(&q, &a, &err);
  Py_END_ALLOW_THREADS if (st) {
    impactfit_code_answer_free(&a);
    return raise_status(st, &err);
  }
  PyObject *d = PyDict_New();
  if (d && (answer_dict(d, &a) || answer_extras(d, &a) ||
            put(d, "kind", PyUnicode_FromString(code_kind_name(&a)))))
    Py_CLEAR(d);
  impactfit_code_answer_free(&a);
  return d;
}


/* code_drop(inputs, options, (height, bounces, peak, t_max, reading, releases)): impactfit_code_drop, a dict with
 * the keys of `impactfit engine --drop H --json` (src/cli/code_drop.c) */
static PyObject *drop_bounces(const impactfit_code_drop_answer *a) {
  const impactfit_drop_result *r = &a->stats.exact;
  int n = a->reachable ? r->n : 0;
  PyObject *rows = PyList_New(n);
  for (int i = 0; rows && i < n; i++) {
    const impactfit_drop_bounce *b = &r->b[i];
    PyObject *row = Py_BuildValue("{si,sd,sd,sd,sd,sd,sl,sl,si}", "n", i + 1, "apex", b->apex, "t_apex", b->t_apex,
                                  "v_in", b->v_in, "v_out", b->v_out, "phase", b->phase, "first_step", b->first_step,
                                  "contact_steps", b->contact_steps, "determined", i < a->stats.determined);
    if (!row) {
      Py_CLEAR(rows);
      break;
    }
    PyList_SET_ITEM(rows, i, row);
  }
  return rows;
}

static PyObject *drop_dict(const impactfit_code_drop_answer *a) {
  const impactfit_drop_stats *S = &a->stats;
  const impactfit_drop_result *r = &S->exact;
  int ok = a->reachable;
  static const char *const on[] = {"forward", "release", "mean"};
  PyObject *d = PyDict_New();
  if (!d ||
      put(d, "code", PyUnicode_FromString(a->model->code->name)) || put(d, "version", PyUnicode_FromString(a->version)) ||
      put(d, "model", PyUnicode_FromString(a->model->model)) ||
      put(d, "integrator", PyUnicode_FromString(a->integrator ? a->integrator->name : "")) ||
      put(d, "dt", PyFloat_FromDouble(a->dt)) || put(d, "gravity", PyFloat_FromDouble(a->gravity)) ||
      put(d, "mass", PyFloat_FromDouble(a->mass)) || put(d, "height", PyFloat_FromDouble(a->params.height)) ||
      put(d, "bounces", PyLong_FromLong(a->params.bounces)) || put(d, "peak", PyFloat_FromDouble(a->params.min_height)) ||
      put(d, "t_max", PyFloat_FromDouble(a->params.t_max)) ||
      put(d, "reading", PyUnicode_FromString(a->params.reading == IMPACTFIT_DROP_SPEEDS ? "speeds" : "heights")) ||
      put(d, "releases", PyLong_FromLong(a->releases)) || put(d, "e_asked", PyFloat_FromDouble(a->e_asked)) ||
      put(d, "solved_on", PyUnicode_FromString(on[a->on >= 0 && a->on <= 2 ? a->on : 0])) ||
      put(d, "reachable", PyLong_FromLong(a->reachable)) || put(d, "jump", PyLong_FromLong(a->jump)) ||
      put(d, "param", PyUnicode_FromString(a->model->param)) || put(d, "value", PyFloat_FromDouble(a->value)) ||
      put(d, "input", PyUnicode_FromString(a->input ? a->input : "")) ||
      put(d, "e_fit", PyFloat_FromDouble(ok ? r->e_fit : NAN)) ||
      put(d, "e_heights", PyFloat_FromDouble(ok ? r->e_heights : NAN)) ||
      put(d, "e_speeds", PyFloat_FromDouble(ok ? r->e_speeds : NAN)) ||
      put(d, "h0_fit", PyFloat_FromDouble(ok ? r->h0_fit : NAN)) || put(d, "r2", PyFloat_FromDouble(ok ? r->r2 : NAN)) ||
      put(d, "counted", PyLong_FromLong(ok ? r->n : 0)) || put(d, "determined", PyLong_FromLong(ok ? S->determined : 0)) ||
      put(d, "ends", PyUnicode_FromString(ok ? impactfit_drop_end_name(r->end) : "")) ||
      put(d, "low_apex", PyFloat_FromDouble(ok && r->end == IMPACTFIT_DROP_LOW ? r->low_apex : NAN)) ||
      put(d, "steps", PyLong_FromLong(ok ? r->steps : 0)) || put(d, "e_mean", PyFloat_FromDouble(ok ? S->e_mean : NAN)) ||
      put(d, "e_sd", PyFloat_FromDouble(ok ? S->e_sd : NAN)) ||
      put(d, "e_range", range(ok ? S->e_min : NAN, ok ? S->e_max : NAN)) ||
      put(d, "n_min", PyLong_FromLong(ok ? S->n_min : 0)) || put(d, "n_max", PyLong_FromLong(ok ? S->n_max : 0)) ||
      put(d, "bounce", drop_bounces(a)) || put(d, "note", PyUnicode_FromString(a->note ? a->note : "")) ||
      put(d, "assumes", PyUnicode_FromString(a->assumes ? a->assumes : "")) ||
      put(d, "run_here", PyLong_FromLong(a->run_here)) || put(d, "source", PyUnicode_FromString(a->model->source)))
    Py_CLEAR(d);
  return d;
}

static PyObject *py_code_drop(PyObject *self, PyObject *args) {
  PyObject *in_t, *opt_d;
  impactfit_drop_params p = impactfit_drop_default_params();
  int reading = 0, releases = 0;
  if (!PyArg_ParseTuple(args, "O!O(diddii)", &PyTuple_Type, &in_t, &opt_d, &p.height, &p.bounces, &p.min_height,
                        &p.t_max, &reading, &releases))
    return NULL;
  p.reading = reading ? IMPACTFIT_DROP_SPEEDS : IMPACTFIT_DROP_HEIGHTS;
  if (PyTuple_GET_SIZE(in_t) != CODE_N_IN)
    return PyErr_Format(PyExc_TypeError, "code_drop: expected %d inputs", (int)CODE_N_IN);
  double in[CODE_N_IN];
  for (int j = 0; j < CODE_N_IN; j++)
    if ((in[j] = PyFloat_AsDouble(PyTuple_GET_ITEM(in_t, j))) == -1.0 && PyErr_Occurred())
      return NULL;
  kopts o;
  if (parse_options(opt_d, &o))
    return NULL;
  if (!o.code.model)
    return PyErr_Format(PyExc_ValueError, "drop: no code given");
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS + CODE_SLOTS];
  code_request(&o, in, &q, set);
  impactfit_code_drop_answer a;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st;
  Py_BEGIN_ALLOW_THREADS st = impactfit_code_drop(&q, &p, releases, &a, &err);
  Py_END_ALLOW_THREADS if (st) {
    impactfit_code_drop_free(&a);
    return raise_status(st, &err);
  }
  PyObject *d = drop_dict(&a);
  impactfit_code_drop_free(&a);
  return d;
}

static PyObject *py_kernels(PyObject *self, PyObject *noargs) {
  PyObject *d = PyDict_New();
  for (size_t i = 0; d && i < N_KERNELS; i++) {
    PyObject *t = Py_BuildValue("(ii)", KERNELS[i].n_in, KERNELS[i].n_out);
    if (!t || PyDict_SetItemString(d, KERNELS[i].name, t))
      Py_CLEAR(d);
    Py_XDECREF(t);
  }
  return d;
}

static PyObject *py_max_threads(PyObject *self, PyObject *noargs) { return PyLong_FromLong(omp_get_max_threads()); }

static PyMethodDef methods[] = {
    {"run", py_run, METH_VARARGS, "run(kernel, inputs, outputs, status, options, threads): vectorised kernel"},
    {"details", py_details, METH_VARARGS, "details(inputs7, options, points): contacts and trajectory"},
    {"identify", py_identify, METH_VARARGS, "identify(columns, mask, params): impactfit_identify_fit"},
    {"sweep", py_sweep, METH_VARARGS, "sweep(path, threads): run a sweep definition into CSV text"},
    {"table", py_table, METH_VARARGS, "table(text, name): parse CSV with the library's reader"},
    {"fit", py_fit, METH_VARARGS, "fit(fit_file, data_csv_or_None, threads): run a fit file"},
    {"code_inputs", py_code_inputs, METH_VARARGS, "code_inputs(code, version, model, option): {input: values}"},
    {"code", py_code, METH_VARARGS, "code(inputs20, options): impactfit_code_solve, a dict with the JSON keys"},
    {"code_drop", py_code_drop, METH_VARARGS,
     "code_drop(inputs20, options, (height, bounces, peak, t_max, reading, releases)): impactfit_code_drop"},
    {"kernels", py_kernels, METH_NOARGS, "kernels(): {name: (inputs, outputs)}"},
    {"max_threads", py_max_threads, METH_NOARGS, "OpenMP's omp_get_max_threads()"},
    {"set_numerical_error", py_set_numerical_error, METH_O, "internal: the NumericalError class"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "_impactfit",
                                    "C extension of the impactfit package (see impactfit.__doc__)",
                                    -1,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__impactfit(void);
PyMODINIT_FUNC PyInit__impactfit(void) {
  PyObject *m = PyModule_Create(&module);
  if (!m)
    return NULL;
  if (PyModule_AddStringConstant(m, "library_version", impactfit_version())) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
