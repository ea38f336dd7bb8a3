/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sweep problems of the force laws with the parameters k, n, c, m (include/impactfit/law.h: power and
 * approach-damper, the damper acting only while the bodies approach):
 *   "law-impact"   one impact through the law per point (impactfit_law_impact_solve);
 *   "law-damping"  the damping c that gives a target e (impactfit_law_solve_param on c, searched
 *                  over ζ = c δ_m0^(m+1)/(mass v) in [1e-9, 1e6], δ_m0 = [(n+1) mass v²/(2k)]^(1/(n+1)),
 *                  the scaled damping of impact.h).
 * Option law selects the type, option transition A or C. The commands simulate --law and
 * zhang-alpha --law run them (docs/cli). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../sweep/problems.h"
#include "impactfit/law.h"

static const impactfit_sweep_option options[2] = {
    {"law", "approach-damper", "approach-damper|power", "force law: approach-damper or power (law.h)"},
    {"transition", "C", "A|C", "end of contact: A (delta = 0) or C (force falls to zero)"},
};

typedef struct law_state {
  impactfit_law_workspace *ws;
  const impactfit_law_type *type;
  const impactfit_transition *tr;
} law_state;

static int alloc(void **state, const char *const *opt, const unsigned char *wanted, impactfit_error *err) {
  (void)wanted;
  law_state *s = calloc(1, sizeof *s);
  if (!s || !(s->ws = impactfit_law_alloc())) {
    free(s);
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  }
  s->type = impactfit_law_type_from_name(opt[0]);
  s->tr = impactfit_transition_from_name(opt[1]);
  *state = s;
  return IMPACTFIT_OK;
}

static void state_free(void *state) {
  law_state *s = state;
  if (s)
    impactfit_law_free(s->ws);
  free(s);
}

/* δ_m0 and the damping scale mass v / δ_m0^(m+1). */
static double c_scale(double k, double n, double m, double mass, double v) {
  double d = pow((n + 1.0) * mass * v * v / (2.0 * k), 1.0 / (n + 1.0));
  return mass * v / pow(d, m + 1.0);
}

/* ---- law-impact ---- */

enum { I_N, I_M, I_C, I_K, I_MASS, I_V, I_COUNT };

static const impactfit_sweep_param impact_params[I_COUNT] = {
    {.name = "n",
     .def = 1.5,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "spring exponent (> 0)"},
    {.name = "m", .def = 0.0, .min = 0.0, .max = HUGE_VAL, .flags = 0, .help = "damping exponent (>= 0)"},
    {.name = "c",
     .def = 0.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_REQUIRED,
     .help = "damping coefficient, N s m^-(m+1)"},
    {.name = "k",
     .def = 1.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "stiffness, N/m^n"},
    {.name = "mass",
     .def = 1.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "effective mass, kg"},
    {.name = "v",
     .def = 1.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "approach velocity, m/s"},
};

enum { IO_E, IO_T, IO_DMAX, IO_FMAX, IO_DSEP, IO_ZETA, IO_COUNT };
static const char *const impact_outputs[IO_COUNT] = {"e_out", "t_contact", "delta_max", "f_max", "delta_sep", "zeta"};
static const char *const impact_units[IO_COUNT] = {"-", "s", "m", "N", "m", "-"};

static int impact_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  law_state *s = state;
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = impactfit_law_power_make(in[I_K], in[I_N], in[I_C], in[I_M]);
  p.law.type = s->type;
  p.mass = in[I_MASS];
  p.v = in[I_V];
  p.transition = s->tr;
  impactfit_law_impact_result r;
  int st = impactfit_law_impact_solve(s->ws, &p, &r, err);
  *rhs_evals = r.rhs_evals;
  if (st)
    return st;
  const double v[IO_COUNT] = {r.e_out, r.t_contact, r.delta_max,
                              r.f_max, r.delta_sep, in[I_C] / c_scale(in[I_K], in[I_N], in[I_M], in[I_MASS], in[I_V])};
  memcpy(out, v, sizeof v);
  return IMPACTFIT_OK;
}

const impactfit_sweep_problem impactfit__problem_law_impact = {
    .name = "law-impact",
    .summary = "one impact through a force law of law.h (approach-damper or power) per point",
    .params = impact_params,
    .n_params = I_COUNT,
    .options = options,
    .n_options = 2,
    .outputs = impact_outputs,
    .n_outputs = IO_COUNT,
    .alloc = alloc,
    .free = state_free,
    .solve = impact_solve,
    .output_units = impact_units,
};

/* ---- law-damping ---- */

enum { D_N, D_M, D_E, D_K, D_MASS, D_V, D_COUNT };

static const impactfit_sweep_param damping_params[D_COUNT] = {
    {.name = "n",
     .def = 1.5,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "spring exponent (> 0)"},
    {.name = "m", .def = 0.0, .min = 0.0, .max = HUGE_VAL, .flags = 0, .help = "damping exponent (>= 0)"},
    {.name = "e",
     .def = 0.5,
     .min = 0.0,
     .max = 1.0,
     .flags = IMPACTFIT_SWEEP_REQUIRED | IMPACTFIT_SWEEP_MIN_EXCLUSIVE | IMPACTFIT_SWEEP_MAX_EXCLUSIVE,
     .help = "target coefficient of restitution, 0 < e < 1"},
    {.name = "k",
     .def = 1.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "stiffness, N/m^n"},
    {.name = "mass",
     .def = 1.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "effective mass, kg"},
    {.name = "v",
     .def = 1.0,
     .min = 0.0,
     .max = HUGE_VAL,
     .flags = IMPACTFIT_SWEEP_MIN_EXCLUSIVE,
     .help = "approach velocity, m/s"},
};

enum { DO_C, DO_ZETA, DO_E, DO_T, DO_DMAX, DO_COUNT };
static const char *const damping_outputs[DO_COUNT] = {"c", "zeta", "e_out", "t_contact", "delta_max"};
static const char *const damping_units[DO_COUNT] = {"N s m^-(m+1)", "-", "-", "s", "m"};

static int damping_solve(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err) {
  law_state *s = state;
  double cs = c_scale(in[D_K], in[D_N], in[D_M], in[D_MASS], in[D_V]);
  impactfit_law_impact_params p = impactfit_law_impact_default_params();
  p.law = impactfit_law_power_make(in[D_K], in[D_N], 0.0, in[D_M]);
  p.law.type = s->type;
  p.mass = in[D_MASS];
  p.v = in[D_V];
  p.transition = s->tr;
  impactfit_law_impact_result r;
  memset(&r, 0, sizeof r);
  double c = 0.0;
  int st = impactfit_law_solve_param(s->ws, &p, 2, in[D_E], 1e-9 * cs, 1e6 * cs, 0.0, &c, &r, err);
  *rhs_evals = r.rhs_evals;
  if (st)
    return st;
  const double v[DO_COUNT] = {c, c / cs, r.e_out, r.t_contact, r.delta_max};
  memcpy(out, v, sizeof v);
  return IMPACTFIT_OK;
}

const impactfit_sweep_problem impactfit__problem_law_damping = {
    .name = "law-damping",
    .summary = "the damping c of a force law of law.h (approach-damper or power) that gives e",
    .params = damping_params,
    .n_params = D_COUNT,
    .options = options,
    .n_options = 2,
    .outputs = damping_outputs,
    .n_outputs = DO_COUNT,
    .alloc = alloc,
    .free = state_free,
    .solve = damping_solve,
    .output_units = damping_units,
};
