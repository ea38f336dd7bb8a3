/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Topic accuracy: impactfit's own accuracy, measured. The engine (every output of one impact) and
 * the inverse commands (copt, zhang-alpha, hc-eps, impact-time) against an independent reference
 * (src/reference/: a Taylor-series integrator in double-double arithmetic sharing no code with the
 * engine) or the exact Hunt–Crossley relation, on random cases that are functions of their seeds and
 * on directed cases at the box's edges (src/reference/ref_cases.h). The cases run as sweeps of this
 * topic's own problems through the library's runner (any thread count gives the same numbers).
 *
 * A full run measures the case sets of ref_cases.h and states the maxima over both kinds, rounded up
 * to two significant digits, in include/impactfit/generated/accuracy.h: the figures the --help texts
 * are compiled with, and that README, docs/ACCURACY.md and impact.h quote (tests/cli/
 * test_accuracy_text.py checks that they are equal). Check and quick runs measure the first random
 * cases and every fifth edge case, and fail a target where a measured error exceeds the stated
 * figure. Every run also holds the maxima to impactfit's accuracy requirements (ref_engine_ceiling,
 * ref_inverse_ceiling). The long statistics (other seeds, more cases): scripts/reference_long.sh.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"
#include "progress.h"
#include "report.h"

#ifdef IMPACTFIT_HAVE_REFERENCE
#include "ref_cases.h"

/* ---- the two sweep problems: one case per seed ------------------------------------------------- */

static const impactfit_sweep_param case_params[] = {
    {.name = "seed",
     .def = 0.0,
     .min = 0.0,
     .max = 9e15,
     .flags = IMPACTFIT_SWEEP_REQUIRED | IMPACTFIT_SWEEP_INTEGER,
     .help = "the case's seed (splitmix64)"},
    {.name = "zeta_max", .def = 30.0, .min = 1e-3, .max = 1e4, .help = "largest scaled damping of an engine case (-)"},
};
static const char *const engine_outputs[] = {"outcome",     "e_out",     "t_contact", "f_max", "t_fmax", "delta_max",
                                             "t_delta_max", "delta_sep", "f_min",     "n",     "m",      "zeta"};
static const char *const inverse_outputs[] = {"copt", "zhang_alpha", "zhang_alpha_hc", "hc_eps", "impact_time"};

/* a problem's error report (the library's own setter is internal) */
static int fail(impactfit_error *err, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(impactfit_error *err, int status, const char *fmt, ...) {
  if (err) {
    impactfit_error_clear(err);
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return status;
}

typedef struct case_state {
  impactfit_impact_workspace *ws;
  impactfit_inverse_workspace *iws;
} case_state;

static int case_alloc(void **state, const char *const *options, const unsigned char *wanted, impactfit_error *err) {
  (void)options;
  (void)wanted;
  case_state *s = calloc(1, sizeof *s);
  if (s) {
    s->ws = impactfit_impact_alloc();
    s->iws = impactfit_inverse_alloc();
  }
  if (!s || !s->ws || !s->iws) {
    if (s) {
      impactfit_impact_free(s->ws);
      impactfit_inverse_free(s->iws);
      free(s);
    }
    return fail(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  *state = s;
  return 0;
}

static void case_free(void *state) {
  case_state *s = state;
  if (s) {
    impactfit_impact_free(s->ws);
    impactfit_inverse_free(s->iws);
    free(s);
  }
}

/* A defect (REF_FAILED) fails the point with its message; every other outcome is a row. */
static int engine_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  case_state *s = state;
  ref_engine_case c;
  ref_engine_run(s->ws, (uint64_t)in[0], in[1], &c);
  *rhs_evals = 0;
  out[0] = (double)c.outcome;
  for (int k = 0; k < REF_ENGINE_N; k++)
    out[1 + k] = c.outcome == REF_MEASURED ? c.err[k] : 0.0;
  out[9] = c.n;
  out[10] = c.m;
  out[11] = c.zeta;
  if (c.outcome == REF_FAILED) {
    return fail(err, IMPACTFIT_ENOCONV, "n = %.17g, m = %.17g, zeta = %.17g, %c: %.400s", c.n, c.m, c.zeta, c.cond,
                c.message);
  }
  return 0;
}

static int inverse_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  case_state *s = state;
  ref_inverse_case c;
  ref_inverse_run(s->iws, s->ws, (uint64_t)in[0], &c);
  *rhs_evals = 0;
  for (int k = 0; k < REF_INVERSE_N; k++) {
    if (c.outcome[k] == REF_FAILED) {
      return fail(err, IMPACTFIT_ENOCONV, "%.500s", c.message[k]);
    }
    out[k] = c.outcome[k] == REF_MEASURED ? c.err[k] : -1.0; /* −1: nothing to measure */
  }
  return 0;
}

/* the law engine (law.h): one case per seed, or per edge index */
static const char *const law_outputs[] = {"outcome",   "e_out", "t_contact", "delta_max", "f_max",
                                          "delta_sep", "n",     "m",         "zeta",      "kind"};

typedef struct law_state {
  impactfit_law_workspace *ws;
} law_state;

static int law_alloc(void **state, const char *const *options, const unsigned char *wanted, impactfit_error *err) {
  (void)options;
  (void)wanted;
  law_state *s = calloc(1, sizeof *s);
  if (s)
    s->ws = impactfit_law_alloc();
  if (!s || !s->ws) {
    free(s);
    return fail(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  *state = s;
  return 0;
}

static void law_free(void *state) {
  law_state *s = state;
  if (s) {
    impactfit_law_free(s->ws);
    free(s);
  }
}

static int law_row(const ref_law_case *c, double *out, impactfit_error *err) {
  out[0] = (double)c->outcome;
  for (int k = 0; k < REF_LAW_N; k++)
    out[1 + k] = c->outcome == REF_MEASURED ? c->err[k] : 0.0;
  out[6] = c->n;
  out[7] = c->m;
  out[8] = c->zeta;
  out[9] = c->kind;
  if (c->outcome == REF_FAILED)
    return fail(err, IMPACTFIT_ENOCONV, "law case (kind %d) n = %.17g, m = %.17g, zeta = %.17g, %c: %.400s", c->kind,
                c->n, c->m, c->zeta, c->cond, c->message);
  return 0;
}

static int law_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  ref_law_case c;
  ref_law_run(((law_state *)state)->ws, (uint64_t)in[0], &c);
  *rhs_evals = 0;
  return law_row(&c, out, err);
}

static int edge_law_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  ref_law_case c;
  ref_edge_law_run(((law_state *)state)->ws, (int)lround(in[0]), &c);
  *rhs_evals = 0;
  return law_row(&c, out, err);
}

/* the box's edges: one directed case per index (ref_cases.h) */
static const impactfit_sweep_param edge_params[] = {
    {.name = "edge",
     .def = 0.0,
     .min = 0.0,
     .max = 1e6,
     .flags = IMPACTFIT_SWEEP_REQUIRED,
     .help = "the edge case's index (rounded: a strided axis is not exactly whole)"},
};

static int edge_engine_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  case_state *s = state;
  ref_engine_case c;
  ref_edge_engine_run(s->ws, (int)lround(in[0]), &c);
  *rhs_evals = 0;
  out[0] = (double)c.outcome;
  for (int k = 0; k < REF_ENGINE_N; k++)
    out[1 + k] = c.outcome == REF_MEASURED ? c.err[k] : 0.0;
  out[9] = c.n;
  out[10] = c.m;
  out[11] = c.zeta;
  if (c.outcome == REF_FAILED)
    return fail(err, IMPACTFIT_ENOCONV, "edge case %d: n = %.17g, m = %.17g, zeta = %.17g, %c: %.400s",
                (int)lround(in[0]), c.n, c.m, c.zeta, c.cond, c.message);
  return 0;
}

static int edge_inverse_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  case_state *s = state;
  ref_inverse_case c;
  ref_edge_inverse_run(s->iws, s->ws, (int)lround(in[0]), &c);
  *rhs_evals = 0;
  for (int k = 0; k < REF_INVERSE_N; k++) {
    if (c.outcome[k] == REF_FAILED)
      return fail(err, IMPACTFIT_ENOCONV, "edge target %d: %.500s", (int)lround(in[0]), c.message[k]);
    out[k] = c.outcome[k] == REF_MEASURED ? c.err[k] : -1.0;
  }
  return 0;
}

static const impactfit_sweep_problem engine_problem = {
    .name = "reference_engine",
    .summary = "one impact of the engine against the quad-precision reference",
    .params = case_params,
    .n_params = 2,
    .outputs = engine_outputs,
    .n_outputs = 12,
    .alloc = case_alloc,
    .free = case_free,
    .solve = engine_solve,
};
static const impactfit_sweep_problem inverse_problem = {
    .name = "reference_inverse",
    .summary = "one target of each inverse command against the reference or the exact relation",
    .params = case_params,
    .n_params = 2,
    .outputs = inverse_outputs,
    .n_outputs = 5,
    .alloc = case_alloc,
    .free = case_free,
    .solve = inverse_solve,
};
static const impactfit_sweep_problem edge_engine_problem = {
    .name = "reference_edges_engine",
    .summary = "one impact at the box's edges, the engine against the quad-precision reference",
    .params = edge_params,
    .n_params = 1,
    .outputs = engine_outputs,
    .n_outputs = 12,
    .alloc = case_alloc,
    .free = case_free,
    .solve = edge_engine_solve,
};
static const impactfit_sweep_problem edge_inverse_problem = {
    .name = "reference_edges_inverse",
    .summary = "one inverse target at the box's edges against the reference or the exact relation",
    .params = edge_params,
    .n_params = 1,
    .outputs = inverse_outputs,
    .n_outputs = 5,
    .alloc = case_alloc,
    .free = case_free,
    .solve = edge_inverse_solve,
};

static const impactfit_sweep_problem law_problem = {
    .name = "reference_law",
    .summary = "one impact of the law engine (law.h) against the reference or a closed form",
    .params = case_params,
    .n_params = 2,
    .outputs = law_outputs,
    .n_outputs = 10,
    .alloc = law_alloc,
    .free = law_free,
    .solve = law_solve,
};
static const impactfit_sweep_problem edge_law_problem = {
    .name = "reference_edges_law",
    .summary = "one impact of the law engine at the box's edges against the reference or a closed form",
    .params = edge_params,
    .n_params = 1,
    .outputs = law_outputs,
    .n_outputs = 10,
    .alloc = law_alloc,
    .free = law_free,
    .solve = edge_law_solve,
};

/* ---- running a case set ---------------------------------------------------------------------- */

#define QUICK_STRIDE 5 /* quick and check runs: every fifth edge case */

typedef struct tally {
  size_t n_in, n_out; /* the problem's parameters and outputs */
  int engine;         /* engine and law rows: an outcome column, then the REF_ENGINE_N (REF_LAW_N) errors;
                       * inverse rows: the REF_INVERSE_N errors (−1: nothing measured) */
  int cols;           /* the errors per row */
  double max[REF_ENGINE_N];
  double at[REF_ENGINE_N]; /* the seed of each maximum */
  size_t measured, agreed, skipped, failed;
  char first_failure[600];
  cli_progress *progress;
} tally;

static int tally_rows(void *ctx, const impactfit_sweep_block *b) {
  tally *t = ctx;
  int first = t->engine ? 1 : 0, cols = t->cols;
  for (size_t i = 0; i < b->n; i++) {
    const double *in = b->in + t->n_in * i, *out = b->out + t->n_out * i;
    if (b->status[i]) {
      if (!t->failed++)
        snprintf(t->first_failure, sizeof t->first_failure, "%s %.17g: %s", t->n_in == 1 ? "edge" : "seed",
                 nearbyint(in[0]), b->errs[i].message);
      continue;
    }
    if (t->engine) {
      ref_outcome oc = (ref_outcome)out[0];
      t->skipped += oc == REF_SKIPPED;
      t->agreed += oc == REF_AGREED;
      if (oc != REF_MEASURED)
        continue;
    }
    t->measured++;
    for (int k = 0; k < cols; k++)
      if (out[first + k] > t->max[k]) {
        t->max[k] = out[first + k];
        t->at[k] = in[0];
      }
  }
  return 0;
}

static int tick(void *ctx, size_t done, size_t failed) {
  (void)failed;
  cli_progress_step_update(((tally *)ctx)->progress, done);
  return 0;
}

/* Runs seeds (or edge indices) first … first + count − 1 of `pr` (at zeta_max for a random set) into t;
 * with stride > 1 every stride-th of them (first, first + stride, …: a quick run's sample). */
static int run_set(const topic_opts *o, const impactfit_sweep_problem *pr, double first, size_t count, double zeta_max,
                   size_t stride, tally *t) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_sweep_def *d = NULL;
  impactfit_sweep *s = NULL;
  int st = impactfit_sweep_def_new(pr, pr->name, &d, &err);
  int random = pr->n_params == 2;
  size_t n = (count + stride - 1) / stride;
  if (!st && random)
    st = zeta_max > 0.0 ? impactfit_sweep_def_fixed(d, "zeta_max", zeta_max, &err) : 0;
  if (!st)
    st = impactfit_sweep_def_axis(d, random ? "seed" : "edge", IMPACTFIT_AXIS_LINEAR, first,
                                  first + (double)((n - 1) * stride), n, &err);
  if (!st)
    st = impactfit_sweep_def_build(d, &s, &err);
  impactfit_sweep_def_free(d);
  if (st)
    return cli_status_error(st, &err, "accuracy");
  impactfit_sweep_run_params rp = impactfit_sweep_default_run_params();
  rp.block = 16;
  /* cases cost 1e-3 to 1 s, and the threads wait for each other at the end of every parallel block:
   * 1024 cases per block (not the default 16 for this B) keep that wait to one case in a thousand; the
   * rows, handed over in index order, do not depend on it */
  rp.work = 1024;
  rp.poll = tick;
  t->progress = o->progress;
  t->n_in = pr->n_params;
  t->n_out = pr->n_outputs;
  int law = pr == &law_problem || pr == &edge_law_problem;
  t->engine = pr->n_outputs == 12 || law;
  t->cols = law ? REF_LAW_N : (t->engine ? REF_ENGINE_N : REF_INVERSE_N);
  const char *who = law ? "law engine" : (t->engine ? "engine" : "inverse commands");
  char what[96];
  if (pr->n_params == 1)
    snprintf(what, sizeof what, "%s at the box's edges against the reference", who);
  else if (law)
    snprintf(what, sizeof what, "%s against the reference", who);
  else
    snprintf(what, sizeof what, "%s against the reference, zeta <= %g", who, zeta_max);
  cli_progress_step(o->progress, what, "cases", n);
  impactfit_sweep_summary sum;
  st = impactfit_sweep_run_values(s, &rp, tally_rows, t, &sum, &err);
  cli_progress_step_end(o->progress);
  impactfit_sweep_free(s);
  return st ? cli_status_error(st, &err, "accuracy") : 0;
}

/* ---- the figures ------------------------------------------------------------------------------- */

/* x rounded up to two significant digits, as printed with %.1e (0 stays 0) */
static double round_up2(double x, char *text, size_t size) {
  if (!(x > 0.0)) {
    snprintf(text, size, "0");
    return 0.0;
  }
  double p = pow(10.0, floor(log10(x)) - 1.0), r = ceil(x / p * (1.0 - 1e-12)) * p;
  snprintf(text, size, "%.1e", r);
  r = strtod(text, NULL);
  if (r < x) { /* the decimal text fell below x: the next step up */
    snprintf(text, size, "%.1e", r + p);
    r = strtod(text, NULL);
  }
  return r;
}

/* The stated figure is the measured maximum times MARGIN, rounded up: the cases sample the box, and a
 * maximum between them can be larger (issue 39: an independent audit found e_out 1.32 times the
 * sampled maximum at a point the cases had missed, now one of the directed cases). */
#define MARGIN 1.5

typedef struct figure {
  const char *macro;   /* IMPACTFIT_ACCURACY_<macro> */
  const char *measure; /* what is measured, for the header and the report */
  double stated;       /* the compiled-in figure (accuracy.h) */
} figure;

static const figure engine_figs[REF_ENGINE_N] = {
    {"E_OUT", "e_out: |error| / max(e, 0.01)", IMPACTFIT_ACCURACY_E_OUT},
    {"T_CONTACT", "t_contact: relative error / (1 + zeta/e)", IMPACTFIT_ACCURACY_T_CONTACT},
    {"F_MAX", "f_max: |error| / (f_max + K |delta_start|^n)", IMPACTFIT_ACCURACY_F_MAX},
    {"T_FMAX", "time of f_max: |error| / t_contact", IMPACTFIT_ACCURACY_T_FMAX},
    {"DELTA_MAX", "delta_max: |error| / (delta_max + |delta_start|)", IMPACTFIT_ACCURACY_DELTA_MAX},
    {"T_DELTA_MAX", "time of delta_max: |error| / t_contact", IMPACTFIT_ACCURACY_T_DELTA_MAX},
    {"DELTA_SEP", "delta_sep: |error| / ((1 + zeta) delta_m0)", IMPACTFIT_ACCURACY_DELTA_SEP},
    {"F_MIN", "f_min: |error| / (f_max + K |delta_start|^n)", IMPACTFIT_ACCURACY_F_MIN},
};
/* the inverse figures: zhang-alpha's two kinds of target share one */
static const figure inverse_figs[4] = {
    {"COPT", "copt: |e_ref(zeta) - e| / min(e, 1 - e)", IMPACTFIT_ACCURACY_COPT},
    {"ZHANG_ALPHA", "zhang-alpha: |e_ref(zeta) - e| / min(e, 1 - e)", IMPACTFIT_ACCURACY_ZHANG_ALPHA},
    {"HC_EPS", "hc-eps: |e_exact(eps) - e| / min(e, 1 - e)", IMPACTFIT_ACCURACY_HC_EPS},
    {"IMPACT_TIME", "impact-time: relative error of dtau", IMPACTFIT_ACCURACY_IMPACT_TIME},
};

static const figure law_figs[REF_LAW_N] = {
    {"LAW_E_OUT", "law engine e_out: |error| / max(e, 0.01)", IMPACTFIT_ACCURACY_LAW_E_OUT},
    {"LAW_T_CONTACT", "law engine t_contact: |error| / (t_contact + L/(v e))", IMPACTFIT_ACCURACY_LAW_T_CONTACT},
    {"LAW_DELTA_MAX", "law engine delta_max: relative error", IMPACTFIT_ACCURACY_LAW_DELTA_MAX},
    {"LAW_F_MAX", "law engine f_max: relative error", IMPACTFIT_ACCURACY_LAW_F_MAX},
    {"LAW_DELTA_SEP", "law engine delta_sep: |error| / delta_max", IMPACTFIT_ACCURACY_LAW_DELTA_SEP},
};

/* The law engine's cases run in a topic run (numbers of random and directed ones, and their maxima). */
typedef struct law_run {
  size_t n, ne;
  double max[REF_LAW_N];
} law_run;

/* The header accuracy.h through the one writer of generated headers (codegen.h). */
static int header_text(const tally *e1, const tally *e2, const tally *ee, const double *em, const double *im, size_t n1,
                       size_t n2, size_t ni, size_t nee, size_t nei, const law_run *lw, char **text, size_t *len,
                       impactfit_error *err) {
  impactfit_codegen *g = NULL;
  int st = impactfit_codegen_begin("accuracy", "impactfit reproduce --topic accuracy", &g, err);
  if (st)
    return st;
  impactfit_codegen_text(
      g,
      "\nimpactfit's accuracy, measured: the largest errors of the impact engine, the law engine and the\n"
      "inverse commands against an independent reference (a Taylor-series integrator in double-double\n"
      "arithmetic, checked against its __float128 twin, sharing no code with the engine), closed forms or\n"
      "the exact Hunt-Crossley relation, times 1.5 and rounded up, over random cases and the box's edges:\n"
      "engine: %zu random cases with zeta <= %g (seeds %llu...) and %zu with zeta <= %g (seeds %llu...),\n"
      "n in [1, 3], m in [0, 2] (a fifth m -> 0+, a tenth 0, a tenth n), conditions A-D, zeta log-uniform\n"
      "from 1e-3; and %zu directed cases on the box's edges (n in {1, 1.5, 2, 3}; m = 0, 1e-9, n - 1e-6,\n"
      "n, n + 1e-6, 2, ...; zeta from 1e-6 to 1000; the audits' m -> n- scan and e = 0.01 under A; n < 1);\n"
      "%zu measured in all (the others outside the domain, or no separation on both sides);\n"
      "inverse: %zu random targets of each command (seeds %llu...) and %zu directed ones (e -> 0 and 1,\n"
      "the seam e = 1/2, m -> n, the corners of n and eps);\n"
      "law engine (law.h): %zu random cases (seeds %llu...: a power law through the generic engine, the\n"
      "approach-damper, MuJoCo's impedance with a constant d; A or C) and %zu directed ones.\n"
      "Each figure is %.2g times the measured maximum, rounded up to two significant digits (the cases\n"
      "sample the box; a maximum between them can be larger). Scaled units: delta_m0 = 1, v = 1.\n"
      "The --help texts are compiled with these figures; README and docs quote them.",
      n1, REF_SET1_ZETA, (unsigned long long)REF_SET1_SEED, n2, REF_SET2_ZETA, (unsigned long long)REF_SET2_SEED, nee,
      e1->measured + e2->measured + ee->measured, ni, (unsigned long long)REF_SET_INV_SEED, nei, lw->n,
      (unsigned long long)REF_SET_LAW_SEED, lw->ne, MARGIN);
  impactfit_codegen_code(g,
                         "#define IMPACTFIT_ACCURACY_ENGINE_CASES %zu\n#define IMPACTFIT_ACCURACY_EDGE_CASES %zu\n"
                         "#define IMPACTFIT_ACCURACY_INVERSE_CASES %zu\n#define IMPACTFIT_ACCURACY_EDGE_TARGETS "
                         "%zu\n\n",
                         n1 + n2, nee, ni, nei);
  char fig[32];
  for (int k = 0; k < REF_ENGINE_N; k++) {
    round_up2(MARGIN * em[k], fig, sizeof fig);
    impactfit_codegen_code(g, "/* %s */\n#define IMPACTFIT_ACCURACY_%s %s\n", engine_figs[k].measure,
                           engine_figs[k].macro, fig);
  }
  for (int k = 0; k < 4; k++) {
    round_up2(MARGIN * im[k], fig, sizeof fig);
    impactfit_codegen_code(g, "/* %s */\n#define IMPACTFIT_ACCURACY_%s %s\n", inverse_figs[k].measure,
                           inverse_figs[k].macro, fig);
  }
  for (int k = 0; k < REF_LAW_N; k++) {
    round_up2(MARGIN * lw->max[k], fig, sizeof fig);
    impactfit_codegen_code(g, "/* %s */\n#define IMPACTFIT_ACCURACY_%s %s\n", law_figs[k].measure, law_figs[k].macro,
                           fig);
  }
  impactfit_codegen_code(g, "\n/* a figure as text, e.g. in a help string: "
                            "IMPACTFIT_ACCURACY_TEXT(IMPACTFIT_ACCURACY_E_OUT) */\n"
                            "#define IMPACTFIT_ACCURACY_TEXT_(x) #x\n"
                            "#define IMPACTFIT_ACCURACY_TEXT(x) IMPACTFIT_ACCURACY_TEXT_(x)\n");
  return impactfit_codegen_finish(g, text, len, err);
}

/* s for a markdown table cell: '|' escaped */
static void md_cell(const char *s, char *buf, size_t size) {
  size_t j = 0;
  for (; *s && j + 3 < size; s++) {
    if (*s == '|')
      buf[j++] = '\\';
    buf[j++] = *s;
  }
  buf[j] = '\0';
}

/* The law engine's table (and targets); its maxima into max. */
static void law_table(report *r, const tally *lr, const tally *le, size_t nl, size_t nel, size_t stride, int full,
                      double *max) {
  report_md(r,
            "\nThe law engine (`law.h`: any force law, GSL's rk8pd with every switch and event located on single "
            "steps) on %zu random cases (a power law of the cases' own type through the generic engine, n ∈ [1, "
            "3], ζ ≤ 1000, against the reference; the approach-damper, n ∈ [0.3, 3], against the reference's "
            "approach phase and the exact undamped return; MuJoCo's impedance with a constant d against "
            "Kelvin–Voigt's closed forms; A or C) and %zu directed ones%s (issue 39's cases and the edges): "
            "%zu measured.\n\n"
            "| output | error measure | random max | edges max | stated | where the max is | requirement |\n"
            "|---|---|---|---|---|---|---|\n",
            nl, nel, stride > 1 ? " (every fifth)" : "", lr->measured + le->measured);
  for (int k = 0; k < REF_LAW_N; k++) {
    const figure *fg = &law_figs[k];
    int edge = le->max[k] > lr->max[k];
    double m = edge ? le->max[k] : lr->max[k], at = edge ? nearbyint(le->at[k]) : lr->at[k];
    max[k] = m;
    char stated[32], what[200];
    double s = full ? round_up2(MARGIN * m, stated, sizeof stated) : fg->stated;
    if (!full)
      snprintf(stated, sizeof stated, "%.2g", fg->stated);
    char measure[160];
    md_cell(strchr(fg->measure, ':') + 2, measure, sizeof measure);
    report_md(r, "| %s | %s | %.3g | %.3g | %s | %s %.17g | %.0e |\n", ref_law_names[k], measure, lr->max[k],
              le->max[k], stated, edge ? "edge" : "seed", at, ref_law_ceiling[k]);
    snprintf(what, sizeof what, "law engine %s error within impactfit's requirement", ref_law_names[k]);
    report_target(r, what, m <= ref_law_ceiling[k], "measured %.3g, requirement %.0e", m, ref_law_ceiling[k]);
    if (!full) {
      snprintf(what, sizeof what, "law engine %s error within the stated %s", ref_law_names[k], stated);
      report_target(r, what, m <= s, "measured %.3g on the first random cases and a sample of the edges", m);
    }
  }
}

/* the larger of two tallies' maxima of column k, and where (seed or index; edges marked "edge") */
static double pick(const tally *a, const tally *b, int k, double *at, int *edge) {
  int two = b->max[k] > a->max[k];
  *at = two ? nearbyint(b->at[k]) : a->at[k]; /* an edge index from a strided axis: whole */
  *edge = two;
  return two ? b->max[k] : a->max[k];
}

int topic_accuracy(const topic_opts *o, report *r) {
  int full = !(o->quick || o->check);
  size_t n1 = full ? REF_SET_ENGINE : 40, n2 = full ? REF_SET_ENGINE : 40, ni = full ? REF_SET_INVERSE : 20;
  /* quick and check runs: every QUICK_STRIDE-th edge case (a sample of every part of the grids) */
  size_t stride = full ? 1 : QUICK_STRIDE;
  size_t nee = (size_t)ref_edge_engine_count, nei = (size_t)ref_edge_inverse_count;
  tally e1, e2, inv, ee, ei, er; /* er: both random engine sets */
  memset(&e1, 0, sizeof e1);
  memset(&e2, 0, sizeof e2);
  memset(&inv, 0, sizeof inv);
  memset(&ee, 0, sizeof ee);
  memset(&ei, 0, sizeof ei);
  int rc = run_set(o, &engine_problem, (double)REF_SET1_SEED, n1, REF_SET1_ZETA, 1, &e1);
  if (!rc)
    rc = run_set(o, &engine_problem, (double)REF_SET2_SEED, n2, REF_SET2_ZETA, 1, &e2);
  if (!rc)
    rc = run_set(o, &edge_engine_problem, 0.0, nee, 0.0, stride, &ee);
  if (!rc)
    rc = run_set(o, &inverse_problem, (double)REF_SET_INV_SEED, ni, 30.0, 1, &inv);
  if (!rc)
    rc = run_set(o, &edge_inverse_problem, 0.0, nei, 0.0, stride, &ei);
  tally lr, le;
  memset(&lr, 0, sizeof lr);
  memset(&le, 0, sizeof le);
  size_t nl = full ? REF_SET_LAW : 40, nel = (size_t)ref_edge_law_count;
  if (!rc)
    rc = run_set(o, &law_problem, (double)REF_SET_LAW_SEED, nl, 0.0, 1, &lr);
  if (!rc)
    rc = run_set(o, &edge_law_problem, 0.0, nel, 0.0, stride, &le);
  if (rc)
    return rc;
  size_t ran_ee = (nee + stride - 1) / stride, ran_ei = (nei + stride - 1) / stride;
  er = e1;
  for (int k = 0; k < REF_ENGINE_N; k++)
    if (e2.max[k] > er.max[k]) {
      er.max[k] = e2.max[k];
      er.at[k] = e2.at[k];
    }
  er.measured += e2.measured;
  double em[REF_ENGINE_N], emat[REF_ENGINE_N], im[4], imat[4];
  int emedge[REF_ENGINE_N], imedge[4];
  for (int k = 0; k < REF_ENGINE_N; k++)
    em[k] = pick(&er, &ee, k, &emat[k], &emedge[k]);
  /* inverse columns: copt, zhang-alpha (both kinds), hc-eps, impact-time */
  const int col[4][2] = {
      {REF_COPT, REF_COPT}, {REF_ZHANG, REF_ZHANG_HC}, {REF_HC_EPS, REF_HC_EPS}, {REF_IMPACT_TIME, REF_IMPACT_TIME}};
  double rnd[4], edg[4];
  for (int k = 0; k < 4; k++) {
    int a = col[k][0], b = col[k][1];
    tally x = inv, y = ei; /* each command's column: the larger of its kinds */
    x.max[0] = fmax(inv.max[a], inv.max[b]);
    x.at[0] = inv.max[b] > inv.max[a] ? inv.at[b] : inv.at[a];
    y.max[0] = fmax(ei.max[a], ei.max[b]);
    y.at[0] = ei.max[b] > ei.max[a] ? ei.at[b] : ei.at[a];
    rnd[k] = x.max[0];
    edg[k] = y.max[0];
    im[k] = pick(&x, &y, 0, &imat[k], &imedge[k]);
  }
  size_t ran_el = (nel + stride - 1) / stride;
  size_t failed = e1.failed + e2.failed + ee.failed + inv.failed + ei.failed + lr.failed + le.failed;
  const char *first = e1.failed    ? e1.first_failure
                      : e2.failed  ? e2.first_failure
                      : ee.failed  ? ee.first_failure
                      : inv.failed ? inv.first_failure
                      : ei.failed  ? ei.first_failure
                      : lr.failed  ? lr.first_failure
                                   : le.first_failure;
  report_target(r, "the engine, the law engine and the inverse commands agree with the reference on every case",
                failed == 0, "%zu of %zu cases failed%s%s", failed, n1 + n2 + ran_ee + ni + ran_ei + nl + ran_el,
                failed ? "; first: " : "", failed ? first : "");

  report_md(r,
            "## impactfit's accuracy, measured against an independent reference\n\n"
            "Every output of one impact and every inverse command, against a Taylor-series integrator of "
            "30th order in double-double arithmetic (about 106 bits; its own series start and event location; "
            "it shares no code with the engine, agrees with the exact solutions to 1e-13 or better and with its "
            "`__float128` twin to 1e-24) or against the exact Hunt–Crossley relation. Two kinds of case: "
            "random ones, each a function of its seed — engine %zu with ζ ≤ %g and %zu with ζ ≤ %g (n ∈ [1, 3]; "
            "m ∈ [0, 2] with m → 0⁺, 0 and n; conditions A–D), %zu targets of each inverse command — and "
            "directed ones on the box's edges, where random cases rarely land: %zu engine cases%s (n ∈ {1, 1.5, "
            "2, 3} × m ∈ {0, 1e-9, 0.25, 1, n − 1e-3, n − 1e-6, n, n + 1e-6, 2} × ζ from 1e-6 to 30 under A–D "
            "and 300, 1000 under C; the independent audit's scan of m → n⁻ under C; n ∈ {0.3, 0.5, 0.8} below "
            "the box) and %zu inverse targets%s (e → 0 and 1, the seam e = 1/2, m → n, the corners of n and "
            "ε). %zu engine cases measured (%zu random, %zu directed; %zu outside the documented domain, %zu "
            "where both see no separation, the reference gave up on a creep that the engine followed at least "
            "as long, or the engine refused an undefined case as it must). %s\n\n"
            "| output | error measure | random max | edges max | stated | where the max is | requirement |\n"
            "|---|---|---|---|---|---|---|\n",
            n1, REF_SET1_ZETA, n2, REF_SET2_ZETA, ni, ran_ee, stride > 1 ? " (a sample: every fifth)" : "", ran_ei,
            stride > 1 ? " (every fifth)" : "", er.measured + ee.measured, er.measured, ee.measured,
            e1.skipped + e2.skipped + ee.skipped, e1.agreed + e2.agreed + ee.agreed,
            full ? "The stated figures are the larger maxima times 1.5, rounded up to two digits "
                   "(`include/impactfit/generated/accuracy.h`; the `--help` texts, README and docs quote them): "
                   "the cases sample the box, and a maximum between them can be larger."
                 : "A coarse run: the first random cases and a sample of the edges, held to the stated figures.");
  for (int k = 0; k < REF_ENGINE_N + 4; k++) {
    int eng = k < REF_ENGINE_N;
    const figure *fg = eng ? &engine_figs[k] : &inverse_figs[k - REF_ENGINE_N];
    double m = eng ? em[k] : im[k - REF_ENGINE_N], at = eng ? emat[k] : imat[k - REF_ENGINE_N];
    int edge = eng ? emedge[k] : imedge[k - REF_ENGINE_N];
    double mr = eng ? er.max[k] : rnd[k - REF_ENGINE_N], me = eng ? ee.max[k] : edg[k - REF_ENGINE_N];
    double ceiling = eng ? ref_engine_ceiling[k] : ref_inverse_ceiling[col[k - REF_ENGINE_N][0]];
    char stated[32], what[200];
    double s = full ? round_up2(MARGIN * m, stated, sizeof stated) : fg->stated;
    if (!full)
      snprintf(stated, sizeof stated, "%.2g", fg->stated);
    const char *sep = strchr(fg->measure, ':');
    char measure[160];
    md_cell(sep + 2, measure, sizeof measure);
    report_md(r, "| %.*s | %s | %.3g | %.3g | %s | %s %.17g | %.0e |\n", (int)(sep - fg->measure), fg->measure, measure,
              mr, me, stated, edge ? "edge" : "seed", at, ceiling);
    snprintf(what, sizeof what, "%.*s error within impactfit's requirement", (int)(sep - fg->measure), fg->measure);
    report_target(r, what, m <= ceiling, "measured %.3g, requirement %.0e", m, ceiling);
    if (!full) {
      snprintf(what, sizeof what, "%.*s error within the stated %s", (int)(sep - fg->measure), fg->measure, stated);
      report_target(r, what, m <= s, "measured %.3g on the first random cases and a sample of the edges", m);
    }
  }
  law_run lw = {.n = nl, .ne = nel};
  law_table(r, &lr, &le, nl, ran_el, stride, full, lw.max);
  report_md(r,
            "\nThe requirement is what the tests hold every case to (`tests/test_reference.c`, also on other "
            "seeds). Rerun one case: `build/tests/test_reference 1 SEED ZETA_MAX` (the engine's ζ_max: %g for "
            "seeds from %llu, %g from %llu), an edge case: `REF_EDGE=INDEX build/tests/test_reference` "
            "(`REF_ONLY=inverse` for an inverse edge target).\n\n",
            REF_SET1_ZETA, (unsigned long long)REF_SET1_SEED, REF_SET2_ZETA, (unsigned long long)REF_SET2_SEED);
  if (!full)
    return 0;
  char *text = NULL;
  size_t len = 0;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = header_text(&e1, &e2, &ee, em, im, n1, n2, ni, nee, nei, &lw, &text, &len, &err);
  if (st)
    return cli_status_error(st, &err, "accuracy.h");
  rc = report_header(r, o, "accuracy.h", text, len);
  free(text);
  return rc;
}

#else /* no __float128: the reference cannot be built */

int topic_accuracy(const topic_opts *o, report *r) {
  (void)o;
  report_md(r,
            "## impactfit's accuracy, measured against an independent reference\n\n"
            "Not measured: this build's compiler has no `__float128`/libquadmath, which the reference "
            "integrator needs (GCC has both). The stated figures are those of "
            "`include/impactfit/generated/accuracy.h` (e_out %g max(e, 0.01)).\n\n",
            IMPACTFIT_ACCURACY_E_OUT);
  return 0;
}

#endif
