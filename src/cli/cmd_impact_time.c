/* impactfit impact-time: the Hunt–Crossley contact duration Δτ(ε, n), and Δt with k, mass, v. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hc_grid.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit impact-time --eps EPS --n N [--k K --mass MASS --v V] [--json]\n\n"
    "Dimensionless contact duration dtau of the Hunt-Crossley impact\n"
    "x'' + x^n (eps x' + 1) = 0, x(0) = 0, x'(0) = 1, until x returns to 0 (Ramaswamy-Humbert's\n"
    "scaling: tau = omega_i t, x = d omega_i / v), simulated with the impact engine (measured\n"
    "<= 3e-14 relative for eps <= 2e4, 2e-13 up to 1e7, against an independent quadrature and\n"
    "a quad-precision solver: docs/ACCURACY.md; dtau(0, 1) = pi). Also printed: the restitution\n"
    "e(eps) from the exact relation.\n"
    "With --k, --mass and --v (all three): the impact natural frequency\n"
    "omega_i = (k v^(n-1) / mass)^(1/(n+1)) in 1/s, the contact duration dt = dtau / omega_i in s\n"
    "and lambda = eps k / v.\n\n"
    "  --eps EPS    hysteresis damping ratio eps = lambda v / k, 0 <= eps <= 1e7 (required)\n"
    "  --n N        spring exponent, > 0 (required)\n"
    "  --k K        stiffness in N/m^n\n"
    "  --mass MASS  effective mass in kg\n"
    "  --v V        approach velocity in m/s\n"
    "  --json       one JSON object per line\n\n"
    "Every option accepts a value, a list a,b,c or a range start:stop:count; several values give\n"
    "the product grid (eps outermost, then n, k, mass, v), one row per point. The cost grows\n"
    "with eps (about 0.1 ms per point for eps <= 100, 0.15 s at eps = 1e6, 1.7 s at 1e7).\n"
    "Exit status: 0 success, 1 a point failed numerically (the other rows are still printed),\n"
    "2 invalid input.\n";

typedef struct tpoint {
  double eps, n, k, mass, v;
  double dtau, e, omega, dt, lambda;
  int status;
  char message[512];
} tpoint;

int impactfit_cmd_impact_time(int argc, char **argv) {
  const char *s_eps = NULL, *s_n = NULL, *s_k = NULL, *s_mass = NULL, *s_v = NULL;
  int json = 0, help = 0;
  cli_opt opts[] = {
      {"eps", OPT_STRING, &s_eps, 0}, {"n", OPT_STRING, &s_n, 0},       {"k", OPT_STRING, &s_k, 0},
      {"mass", OPT_STRING, &s_mass, 0}, {"v", OPT_STRING, &s_v, 0},     {"json", OPT_FLAG, &json, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (!s_eps)
    return cli_input_error("impact-time: --eps is required (damping ratio, >= 0)");
  if (!s_n)
    return cli_input_error("impact-time: --n is required (spring exponent, > 0)");
  int dims = (s_k != NULL) + (s_mass != NULL) + (s_v != NULL);
  if (dims != 0 && dims != 3)
    return cli_input_error("impact-time: --k, --mass and --v go together (for omega_i and dt)");
  hc_axis ax[5] = {{"--eps", s_eps, NULL, 0}, {"--n", s_n, NULL, 0}, {"--k", s_k, NULL, 0},
                   {"--mass", s_mass, NULL, 0}, {"--v", s_v, NULL, 0}};
  size_t total = 0;
  if ((rc = hc_grid_parse(ax, 5, &total)))
    return rc;
  tpoint *pts = calloc(total, sizeof *pts);
  if (!pts) {
    hc_grid_free(ax, 5);
    return cli_input_error("impact-time: out of memory for %zu points", total);
  }
  /* Check every input before any output. */
  for (size_t idx = 0; idx < total && !rc; idx++) {
    double v[5];
    hc_grid_point(ax, 5, idx, v);
    tpoint *p = &pts[idx];
    p->eps = v[0], p->n = v[1], p->k = v[2], p->mass = v[3], p->v = v[4];
    if (!(p->eps >= 0.0 && p->eps <= 1e7))
      rc = cli_input_error("--eps: the damping ratio must be in [0, 1e7], got %.17g", p->eps);
    else if (!(p->n > 0.0))
      rc = cli_input_error("--n: the spring exponent must be > 0, got %.17g", p->n);
    else if (dims) {
      impactfit_error err;
      impactfit_error_clear(&err);
      int st = impactfit_hc_omega(p->k, p->v, p->mass, p->n, &p->omega, &err);
      if (st)
        rc = cli_status_error(st, &err, "impact-time");
      else if (!isfinite(p->eps * p->k / p->v))
        rc = cli_input_error("impact-time: lambda = eps k / v is not representable");
    }
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
      tpoint *p = &pts[idx];
      if (!ws) {
        p->status = IMPACTFIT_ENOMEM;
        continue;
      }
      impactfit_error err;
      impactfit_error_clear(&err);
      p->status = impactfit_hc_impact_time(ws, p->eps, p->n, &p->dtau, NULL, &err);
      if (!p->status)
        p->status = impactfit_hc_e(p->eps, &p->e, &err);
      if (!p->status && dims) {
        p->dt = p->dtau / p->omega;
        p->lambda = p->eps * p->k / p->v;
      }
      snprintf(p->message, sizeof p->message, "%s", err.message);
    }
    impactfit_impact_free(ws);
  }
  if (nomem) {
    free(pts);
    hc_grid_free(ax, 5);
    return cli_input_error("out of memory");
  }
  if (!json) {
    printf("%-10s %-6s %-22s %-22s", "eps", "n", "dtau", "e");
    if (dims)
      printf(" %-10s %-10s %-10s %-22s %-22s %s", "k", "mass", "v", "omega_i", "dt", "lambda");
    printf("\n");
  }
  for (size_t idx = 0; idx < total; idx++) {
    const tpoint *p = &pts[idx];
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_num(&j, "eps", p->eps);
      cli_json_num(&j, "n", p->n);
      if (dims) {
        cli_json_num(&j, "k", p->k);
        cli_json_num(&j, "mass", p->mass);
        cli_json_num(&j, "v", p->v);
      }
      cli_json_str(&j, "status", impactfit_status_name(p->status));
      if (p->status) {
        cli_json_str(&j, "error", p->message);
      } else {
        cli_json_num(&j, "dtau", p->dtau);
        cli_json_num(&j, "e", p->e);
        if (dims) {
          cli_json_num(&j, "omega_i", p->omega);
          cli_json_num(&j, "dt", p->dt);
          cli_json_num(&j, "lambda", p->lambda);
        }
      }
      cli_json_end(&j);
    } else {
      printf("%-10.6g %-6.4g", p->eps, p->n);
      if (p->status)
        printf(" %s\n", impactfit_status_name(p->status));
      else {
        printf(" %-22.17g %-22.17g", p->dtau, p->e);
        if (dims)
          printf(" %-10.4g %-10.4g %-10.4g %-22.17g %-22.17g %.17g", p->k, p->mass, p->v, p->omega,
                 p->dt, p->lambda);
        printf("\n");
      }
    }
    if (p->status) {
      fprintf(stderr, "impactfit: error: impact-time: eps = %g, n = %g: %s\n", p->eps, p->n,
              p->message);
      rc = CLI_NUMERIC;
    }
  }
  free(pts);
  hc_grid_free(ax, 5);
  return rc;
}
