/* impactfit identify-hc: Hunt–Crossley stiffness and damping from one measured impact (e, Δt). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "hc_grid.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit identify-hc --e E --dt DT --v V --mass MASS --n N [--json]\n\n"
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
    "  --json        one JSON object per line\n\n"
    "All five are required. Each accepts a value, a list a,b,c or a range start:stop:count;\n"
    "several values give the product grid (e outermost, then dt, v, mass, n), one row each.\n"
    "Exit status: 0 success, 1 a point failed numerically (the other rows are still printed),\n"
    "2 invalid input.\n";

typedef struct ipoint {
  double e, dt, v, mass, n;
  impactfit_hc_identified id;
  int status;
  char message[512];
} ipoint;

static void print_detail(const ipoint *p) {
  const impactfit_hc_identified *id = &p->id;
  printf("identify-hc: e = %.17g, dt = %.17g s, v = %.17g m/s, mass = %.17g kg, n = %.17g\n", p->e,
         p->dt, p->v, p->mass, p->n);
  printf("  %-9s %.17g (damping ratio lambda v / k)\n", "eps", id->eps);
  printf("  %-9s %.17g (dimensionless contact duration)\n", "dtau", id->dtau);
  printf("  %-9s %.17g 1/s\n", "omega_i", id->omega_i);
  printf("  %-9s %.17g N/m^n\n", "k", id->k);
  printf("  %-9s %.17g N s/m^(n+1)\n", "lambda", id->lambda);
  printf("  check: simulated e = %.17g, dt = %.17g s (relative residuals %.2g, %.2g)\n", id->e_sim,
         id->dt_sim, id->e_residual, id->dt_residual);
}

int impactfit_cmd_identify_hc(int argc, char **argv) {
  const char *s[5] = {NULL, NULL, NULL, NULL, NULL};
  int json = 0, help = 0;
  cli_opt opts[] = {
      {"e", OPT_STRING, &s[0], 0},    {"dt", OPT_STRING, &s[1], 0}, {"v", OPT_STRING, &s[2], 0},
      {"mass", OPT_STRING, &s[3], 0}, {"n", OPT_STRING, &s[4], 0},  {"json", OPT_FLAG, &json, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  hc_axis ax[5] = {{"--e", s[0], NULL, 0}, {"--dt", s[1], NULL, 0}, {"--v", s[2], NULL, 0},
                   {"--mass", s[3], NULL, 0}, {"--n", s[4], NULL, 0}};
  for (int i = 0; i < 5; i++)
    if (!s[i])
      return cli_input_error("identify-hc: %s is required (see 'impactfit identify-hc --help')",
                             ax[i].opt);
  size_t total = 0;
  if ((rc = hc_grid_parse(ax, 5, &total)))
    return rc;
  ipoint *pts = calloc(total, sizeof *pts);
  if (!pts) {
    hc_grid_free(ax, 5);
    return cli_input_error("identify-hc: out of memory for %zu points", total);
  }
  for (size_t idx = 0; idx < total && !rc; idx++) {
    double v[5];
    hc_grid_point(ax, 5, idx, v);
    ipoint *p = &pts[idx];
    p->e = v[0], p->dt = v[1], p->v = v[2], p->mass = v[3], p->n = v[4];
    if (!(p->e > 0.0 && p->e <= 1.0))
      rc = cli_input_error("--e: the coefficient of restitution must be in (0, 1], got %.17g", p->e);
    for (int i = 1; i < 5 && !rc; i++)
      if (!(v[i] > 0.0))
        rc = cli_input_error("%s: must be > 0, got %.17g", ax[i].opt, v[i]);
  }
  if (rc) {
    free(pts);
    hc_grid_free(ax, 5);
    return rc;
  }
  int nomem = 0;
#pragma omp parallel reduction(| : nomem)
  {
    impactfit_impact_workspace *ws = impactfit_impact_alloc();
    if (!ws)
      nomem = 1;
#pragma omp for schedule(dynamic, 1)
    for (size_t idx = 0; idx < total; idx++) {
      ipoint *p = &pts[idx];
      if (!ws) {
        p->status = IMPACTFIT_ENOMEM;
        continue;
      }
      impactfit_error err;
      impactfit_error_clear(&err);
      p->status = impactfit_hc_identify(ws, p->e, p->dt, p->v, p->mass, p->n, &p->id, &err);
      snprintf(p->message, sizeof p->message, "%s", err.message);
    }
    impactfit_impact_free(ws);
  }
  if (nomem) {
    free(pts);
    hc_grid_free(ax, 5);
    return cli_input_error("out of memory");
  }
  /* Out-of-range results (k or omega_i not representable) are input errors: report them first. */
  for (size_t idx = 0; idx < total; idx++)
    if (impactfit_status_is_input_error(pts[idx].status)) {
      rc = cli_input_error("identify-hc: e = %g, dt = %g, v = %g, mass = %g, n = %g: %s", pts[idx].e,
                           pts[idx].dt, pts[idx].v, pts[idx].mass, pts[idx].n, pts[idx].message);
      free(pts);
      hc_grid_free(ax, 5);
      return rc;
    }
  if (total == 1 && !json) {
    if (pts[0].status) {
      fprintf(stderr, "impactfit: error: identify-hc: %s\n", pts[0].message);
      rc = CLI_NUMERIC;
    } else {
      print_detail(&pts[0]);
    }
    free(pts);
    hc_grid_free(ax, 5);
    return rc;
  }
  if (!json)
    printf("%-12s %-12s %-10s %-10s %-6s %-22s %-22s %-22s %-22s %-22s %-8s %s\n", "e", "dt", "v",
           "mass", "n", "eps", "dtau", "omega_i", "k", "lambda", "res_e", "res_dt");
  for (size_t idx = 0; idx < total; idx++) {
    const ipoint *p = &pts[idx];
    const impactfit_hc_identified *id = &p->id;
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_num(&j, "e", p->e);
      cli_json_num(&j, "dt", p->dt);
      cli_json_num(&j, "v", p->v);
      cli_json_num(&j, "mass", p->mass);
      cli_json_num(&j, "n", p->n);
      cli_json_str(&j, "status", impactfit_status_name(p->status));
      if (p->status) {
        cli_json_str(&j, "error", p->message);
      } else {
        cli_json_num(&j, "eps", id->eps);
        cli_json_num(&j, "dtau", id->dtau);
        cli_json_num(&j, "omega_i", id->omega_i);
        cli_json_num(&j, "k", id->k);
        cli_json_num(&j, "lambda", id->lambda);
        cli_json_num(&j, "e_sim", id->e_sim);
        cli_json_num(&j, "dt_sim", id->dt_sim);
        cli_json_num(&j, "e_residual", id->e_residual);
        cli_json_num(&j, "dt_residual", id->dt_residual);
      }
      cli_json_end(&j);
    } else {
      printf("%-12.6g %-12.6g %-10.4g %-10.4g %-6.4g", p->e, p->dt, p->v, p->mass, p->n);
      if (p->status)
        printf(" %s\n", impactfit_status_name(p->status));
      else
        printf(" %-22.17g %-22.17g %-22.17g %-22.17g %-22.17g %-8.1e %.1e\n", id->eps, id->dtau,
               id->omega_i, id->k, id->lambda, id->e_residual, id->dt_residual);
    }
    if (p->status) {
      fprintf(stderr, "impactfit: error: identify-hc: point %zu (e = %g, dt = %g): %s\n", idx, p->e,
              p->dt, p->message);
      rc = CLI_NUMERIC;
    }
  }
  free(pts);
  hc_grid_free(ax, 5);
  return rc;
}
