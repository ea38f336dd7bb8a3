/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit identify-hc: Hunt–Crossley stiffness and damping from one measured impact (e, Δt), or a grid of
 * them: a sweep of the library's problem "identify-hc" run by the library's runner (grid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grid.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit identify-hc --e E --dt DT --v V --mass MASS --n N [--json] [--threads T]\n"
    "                             [--quiet] [--from P | --out DIR [--resume]]\n\n"
    "Stiffness k and damping factor lambda of a Hunt-Crossley contact f = k d^n + lambda d^n d'\n"
    "that reproduce a measured coefficient of restitution e and contact duration dt\n"
    "(Ramaswamy-Humbert's method, solved exactly): eps from e by the exact relation, the\n"
    "dimensionless duration dtau(eps, n) by simulation, omega_i = dtau / dt,\n"
    "k = mass omega_i^(n+1) / v^(n-1), lambda = eps k / v. The identified impact is then\n"
    "simulated and the relative residuals |e_sim - e|/e and |dt_sim - dt|/dt are reported\n"
    "(typically below 1e-12).\n\n"
    "  --e E         coefficient of restitution, 0 < e <= 1\n"
    "  --dt DT       contact duration in s, > 0\n"
    "  --v V         approach velocity in m/s, > 0\n"
    "  --mass MASS   effective mass in kg, > 0\n"
    "  --n N         spring exponent, > 0 (1.5 for Hertzian spheres)\n"
    "  --json        one JSON object per line\n"
    "  --threads T   OpenMP threads, default: OMP_NUM_THREADS or all cores\n"
    "  --quiet       no progress line (shown only when stderr is a terminal)\n"
    "  --from P      print the points from index P on, without the header (what an interrupted run\n"
    "                says to continue with)\n"
    "  --out DIR     write DIR/identify-hc.csv + .json as 'impactfit sweep' does, durable;\n"
    "                --resume continues an interrupted run\n\n"
    "All five are required. Each accepts a value, a list a,b,c or a range start:stop:count (the\n"
    "sweep's linear axis); several values give the product grid (e outermost, then dt, v, mass, n),\n"
    "one row each, run by the library's sweep runner (streamed, memory bounded by the axes, not the\n"
    "points, the same bytes for any thread count; Ctrl-C keeps the rows printed and gives the --from\n"
    "command for the rest). A point whose result is out of range (k or omega_i not representable) is\n"
    "an input error: alone, it is the only output (exit 2); in a grid its row says so and the exit\n"
    "status is 2.\n\n"
    "Columns: e (-), dt (s), v (m/s), mass (kg), n (-), eps (-), dtau (-), omega_i (1/s), k (N/m^n),\n"
    "lambda (N s/m^(n+1)), res_e and res_dt (relative residuals, -); --json also e_sim (-), dt_sim\n"
    "(s), status, error.\n"
    "Exit status: 0 success, 1 a point failed numerically (the other rows are still printed),\n"
    "2 invalid input, 130/143 interrupted.\n";

typedef struct ipoint {
  double e, dt, v, mass, n;
  impactfit_hc_identified id;
  int status;
  const char *message;
} ipoint;

static void print_detail(const ipoint *p) {
  const impactfit_hc_identified *id = &p->id;
  printf("identify-hc: e = %.17g, dt = %.17g s, v = %.17g m/s, mass = %.17g kg, n = %.17g\n", p->e, p->dt, p->v,
         p->mass, p->n);
  printf("  %-9s %.17g (damping ratio lambda v / k)\n", "eps", id->eps);
  printf("  %-9s %.17g (dimensionless contact duration)\n", "dtau", id->dtau);
  printf("  %-9s %.17g 1/s\n", "omega_i", id->omega_i);
  printf("  %-9s %.17g N/m^n\n", "k", id->k);
  printf("  %-9s %.17g N s/m^(n+1)\n", "lambda", id->lambda);
  printf("  check: simulated e = %.17g, dt = %.17g s (relative residuals %.2g, %.2g)\n", id->e_sim, id->dt_sim,
         id->e_residual, id->dt_residual);
}

/* rows of the library's sweep problem "identify-hc" (src/hc/prob_identify_hc.c) */
enum { P_E, P_DT, P_V, P_MASS, P_N };
enum { O_EPS, O_DTAU, O_OMEGA, O_K, O_LAMBDA, O_E_SIM, O_DT_SIM, O_E_RES, O_DT_RES };

#define ID(f) CLI_FIELD(impactfit_hc_identified, f, 'd')
static const cli_field id_fields[] = {ID(eps),   ID(dtau),   ID(omega_i),    ID(k),          ID(lambda),
                                      ID(e_sim), ID(dt_sim), ID(e_residual), ID(dt_residual)};

typedef struct ih_print {
  int json, detail;
  int rc; /* CLI_INPUT when a point's result was out of range */
} ih_print;

static void ih_header(void *ctx) {
  const ih_print *c = ctx;
  if (!c->json && !c->detail)
    printf("%-12s %-12s %-10s %-10s %-6s %-22s %-22s %-22s %-22s %-22s %-8s %s\n", "e", "dt", "v", "mass", "n", "eps",
           "dtau", "omega_i", "k", "lambda", "res_e", "res_dt");
}

static void ih_row(void *ctx, const cli_grid_row *r) {
  ih_print *c = ctx;
  ipoint pt;
  memset(&pt, 0, sizeof pt);
  pt.e = r->in[P_E], pt.dt = r->in[P_DT], pt.v = r->in[P_V], pt.mass = r->in[P_MASS], pt.n = r->in[P_N];
  pt.status = r->status;
  pt.message = r->message;
  impactfit_hc_identified *id = &pt.id;
  for (size_t k = 0; k < CLI_COUNT(id_fields); k++) /* the outputs in the struct's order */
    *(double *)((char *)id + id_fields[k].off) = r->out[k];
  int input = pt.status && impactfit_status_is_input_error(pt.status);
  if (input)
    c->rc = CLI_INPUT;
  if (c->detail) {
    if (input)
      cli_input_error("identify-hc: e = %g, dt = %g, v = %g, mass = %g, n = %g: %s", pt.e, pt.dt, pt.v, pt.mass, pt.n,
                      pt.message);
    else if (pt.status)
      fprintf(stderr, "impactfit: error: identify-hc: %s\n", pt.message);
    else
      print_detail(&pt);
    return;
  }
  if (c->json) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_num(&j, "e", pt.e);
    cli_json_num(&j, "dt", pt.dt);
    cli_json_num(&j, "v", pt.v);
    cli_json_num(&j, "mass", pt.mass);
    cli_json_num(&j, "n", pt.n);
    if (cli_json_status(&j, pt.status, pt.message))
      cli_json_fields(&j, id, id_fields, CLI_COUNT(id_fields));
    cli_json_end(&j);
  } else {
    printf("%-12.6g %-12.6g %-10.4g %-10.4g %-6.4g", pt.e, pt.dt, pt.v, pt.mass, pt.n);
    if (pt.status)
      printf(" %s\n", impactfit_status_name(pt.status));
    else
      printf(" %-22.17g %-22.17g %-22.17g %-22.17g %-22.17g %-8.1e %.1e\n", id->eps, id->dtau, id->omega_i, id->k,
             id->lambda, id->e_residual, id->dt_residual);
  }
  if (pt.status)
    cli_row_failed("identify-hc", pt.message, "point %zu (e = %g, dt = %g)", r->index, pt.e, pt.dt);
}

int impactfit_cmd_identify_hc(int argc, char **argv) {
  int json = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  /* a range lies between its ends: those are checked */
  cli_axis_spec ax[] = {
      {"--e",
       "e",
       NULL,
       NULL,
       0.0,
       1.0,
       CLI_LO_OPEN,
       "--e: the coefficient of restitution must be in (0, 1], got %.17g",
       NULL,
       {0}},
      {"--dt", "dt", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--dt: must be > 0, got %.17g", NULL, {0}},
      {"--v", "v", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--v: must be > 0, got %.17g", NULL, {0}},
      {"--mass", "mass", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--mass: must be > 0, got %.17g", NULL, {0}},
      {"--n", "n", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: must be > 0, got %.17g", NULL, {0}},
  };
  const size_t nax = CLI_COUNT(ax);
  cli_spec opts[] = {
      CLI_STR("e", &ax[0].text), CLI_STR("dt", &ax[1].text), CLI_STR("v", &ax[2].text), CLI_STR("mass", &ax[3].text),
      CLI_STR("n", &ax[4].text), CLI_FLAG("json", &json),    CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  for (size_t i = 0; i < nax; i++)
    if (!ax[i].text)
      return cli_input_error("identify-hc: %s is required (see 'impactfit identify-hc --help')", ax[i].opt);
  if ((rc = cli_grid_check("identify-hc", &go, json)))
    return rc;
  impactfit_sweep *sw = NULL;
  rc = cli_axes_parse(ax, nax, NULL);
  if (!rc)
    rc = cli_axes_limit("identify-hc", ax, nax);
  if (!rc)
    rc = cli_grid_sweep("identify-hc", "identify-hc", NULL, 0, ax, nax, &sw);
  if (!rc) {
    ih_print pc = {json, cli_axes_total(ax, nax) == 1 && !json, 0};
    rc = cli_grid_exec("identify-hc", sw, &go, argc, argv, ih_header, ih_row, &pc);
    if (pc.rc && (rc == CLI_OK || rc == CLI_NUMERIC))
      rc = pc.rc;
  }
  impactfit_sweep_free(sw);
  cli_axes_free(ax, nax);
  return rc;
}
