/* impactfit copt: the optimal damping coefficient of Poursina & Nikravesh (2020), solved exactly. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "impactfit/impactfit.h"
#include "inverse_grid.h"
#include "progress.h"

static const char *help_text =
    "usage: impactfit copt --n N --e E [--k K --mass MASS --v V] [--method bisect|fast|nlopt]\n"
    "                      [--tol T] [--dimensional] [--json | --csv] [--quiet]\n\n"
    "Finds c with |e_out - e| <= tol e for the Hertz spring with a linear damper,\n"
    "  mass d'' + c d' + k d^n = 0,  d(0) = 0, d'(0) = v,\n"
    "separating where the contact force falls to zero (condition C): the c_opt of Poursina &\n"
    "Nikravesh (2020). Solved in the scaled form x'' + zeta x' + ((n+1)/2) x^n = 0 and scaled back,\n"
    "c_opt = zeta mass v / delta_m0 with delta_m0 = [(n+1) mass v^2 / (2k)]^(1/(n+1)).\n\n"
    "  --n N           spring exponent (> 0), required\n"
    "  --e E           target coefficient of restitution, 0 < e <= 1, required (e = 1: c = 0)\n"
    "  --k K --mass MASS --v V   stiffness (N/m^n), effective mass (kg), approach velocity (m/s);\n"
    "                  default 1 each\n"
    "  --method M      bisect (the paper's, reference), fast (default), nlopt (minimise the misfit)\n"
    "  --tol T         relative tolerance on e_out, default 1e-10\n"
    "  --dimensional   search c in the user's units instead of the scaled zeta (verification)\n"
    "  --json          one JSON object per point; --csv: CSV with a header row\n"
    "  --quiet         no progress line (shown for grids only when stderr is a terminal)\n\n"
    "--n and --e accept a value, a list a,b,c or a range start:stop:count; a grid is solved in\n"
    "parallel (OpenMP) with continuation along e, one row per point in grid order (n outer, e inner).\n"
    "Exit status: 0 success, 1 a point failed numerically (its row says why), 2 invalid input.\n";

int impactfit_cmd_copt(int argc, char **argv) {
  const char *s_n = NULL, *s_e = NULL, *method = "fast";
  double k = 1.0, mass = 1.0, v = 1.0, tol = 1e-10;
  int json = 0, csv = 0, help = 0, dimensional = 0, quiet = 0;
  cli_opt opts[] = {
      {"n", OPT_STRING, &s_n, 0},        {"e", OPT_STRING, &s_e, 0},
      {"k", OPT_DOUBLE, &k, 0},          {"mass", OPT_DOUBLE, &mass, 0},
      {"v", OPT_DOUBLE, &v, 0},          {"method", OPT_STRING, &method, 0},
      {"tol", OPT_DOUBLE, &tol, 0},      {"dimensional", OPT_FLAG, &dimensional, 0},
      {"json", OPT_FLAG, &json, 0},      {"csv", OPT_FLAG, &csv, 0},
      {"quiet", OPT_FLAG, &quiet, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (!s_n)
    return cli_input_error("copt: --n is required (spring exponent, > 0)");
  if (!s_e)
    return cli_input_error("copt: --e is required (coefficient of restitution, 0 < e <= 1)");
  if (json && csv)
    return cli_input_error("copt: --json and --csv exclude each other");
  impactfit_inverse_params base = impactfit_inverse_default_params();
  base.method = impactfit_root_method_from_name(method);
  if (!base.method)
    return cli_input_error("--method: expected bisect, fast or nlopt, got '%s'", method);
  base.tol = tol;
  base.m = 0.0;
  base.transition = impactfit_transition_C;
  double *ns = NULL, *es = NULL;
  size_t nn = 0, ne = 0;
  if ((rc = cli_parse_grid("--n", s_n, &ns, &nn)) || (rc = cli_parse_grid("--e", s_e, &es, &ne))) {
    free(ns);
    return rc;
  }
  inverse_point *pts = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  /* Validate everything before solving anything. */
  for (size_t i = 0; i < nn && !rc; i++) {
    double c;
    if (!(ns[i] > 0.0))
      rc = cli_input_error("--n: spring exponent must be > 0 (got %.17g)", ns[i]);
    else if (impactfit_copt_from_zeta(ns[i], 1.0, k, mass, v, &c, &err))
      rc = cli_status_error(IMPACTFIT_EINVAL, &err, "copt");
  }
  for (size_t i = 0; i < ne && !rc; i++)
    if (!(es[i] > 0.0 && es[i] <= 1.0))
      rc = cli_input_error("--e: the coefficient of restitution must be in (0, 1] (got %.17g)", es[i]);
  if (!rc && !(tol >= 1e-13 && tol < 0.1))
    rc = cli_input_error("--tol: expected a value in [1e-13, 0.1), got %.17g", tol);
  if (!rc && nn * ne > 100000000)
    rc = cli_input_error("copt: the grid has %zu points (at most 1e8)", nn * ne);
  if (rc)
    goto out;
  pts = calloc(nn * ne, sizeof *pts);
  if (!pts) {
    rc = cli_input_error("copt: out of memory");
    goto out;
  }
  double zero = 0.0;
  long failed = 0;
  cli_progress prog;
  cli_progress_start(&prog, "copt", "points", nn * ne, 0, quiet);
  size_t done_points = 0;
  if (dimensional) {
    /* Verification path: each point searched on c itself (no continuation), serial per thread. */
#pragma omp parallel reduction(+ : failed)
    {
      impactfit_inverse_workspace *ws = impactfit_inverse_alloc();
#pragma omp for schedule(dynamic, 1)
      for (size_t idx = 0; idx < nn * ne; idx++) {
        inverse_point *pt = &pts[idx];
        pt->n = ns[idx / ne];
        pt->e = es[idx % ne];
        impactfit_inverse_params q = base;
        q.n = pt->n;
        impactfit_copt_result cr;
        impactfit_error e2;
        impactfit_error_clear(&e2);
        pt->status = ws ? impactfit_copt_solve(ws, &q, pt->e, k, mass, v, 1, &cr, &e2) : IMPACTFIT_ENOMEM;
        if (pt->status) {
          snprintf(pt->message, sizeof pt->message, "%s", ws ? e2.message : "out of memory");
          failed++;
        } else {
          pt->r.e = pt->e;
          pt->r.zeta = cr.zeta;
          pt->r.e_out = cr.e_out;
          pt->r.iterations = cr.iterations;
          pt->r.rhs_evals = cr.rhs_evals;
          pt->r.x_sep = cr.delta_sep; /* already dimensional here */
          pt->r.t_contact = cr.t_contact;
        }
#pragma omp atomic
        done_points++;
        if (omp_get_thread_num() == 0) { /* the main thread draws */
          size_t d;
#pragma omp atomic read
          d = done_points;
          cli_progress_update(&prog, d, 0);
        }
      }
      impactfit_inverse_free(ws);
    }
  } else {
    failed = inverse_grid_solve_progress(&base, ns, nn, &zero, 1, es, ne, pts, &prog);
    if (failed < 0) {
      cli_progress_end(&prog);
      rc = cli_input_error("copt: out of memory");
      goto out;
    }
  }
  cli_progress_end(&prog);
  if (csv)
    puts("n,e,c_opt,e_out,zeta,delta_sep,t_contact,iterations,rhs_evals,status");
  else if (!json)
    printf("%8s %12s %22s %20s %20s %14s %5s %7s\n", "n", "e", "c_opt", "e_out", "zeta", "delta_sep",
           "iter", "evals");
  for (size_t idx = 0; idx < nn * ne; idx++) {
    inverse_point *pt = &pts[idx];
    double c = 0.0, dm = 0.0, T = 0.0;
    if (!pt->status) {
      impactfit_copt_from_zeta(pt->n, pt->r.zeta, k, mass, v, &c, NULL);
      impactfit_impact_params q = impactfit_impact_default_params();
      q.n = pt->n;
      q.k = k;
      q.mass = mass;
      q.v = v;
      impactfit_impact_scales(&q, &dm, &T, NULL, NULL, NULL, NULL);
    }
    double dsep = dimensional ? pt->r.x_sep : pt->r.x_sep * dm;
    double tc = dimensional ? pt->r.t_contact : pt->r.t_contact * T;
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_num(&j, "n", pt->n);
      cli_json_num(&j, "e", pt->e);
      cli_json_num(&j, "k", k);
      cli_json_num(&j, "mass", mass);
      cli_json_num(&j, "v", v);
      cli_json_str(&j, "method", base.method->name);
      cli_json_str(&j, "status", impactfit_status_name(pt->status));
      if (pt->status) {
        cli_json_str(&j, "error", pt->message);
      } else {
        cli_json_num(&j, "c_opt", c);
        cli_json_num(&j, "e_out", pt->r.e_out);
        cli_json_num(&j, "zeta", pt->r.zeta);
        cli_json_num(&j, "delta_sep", dsep);
        cli_json_num(&j, "t_contact", tc);
      }
      cli_json_int(&j, "iterations", pt->r.iterations);
      cli_json_int(&j, "rhs_evals", pt->r.rhs_evals);
      cli_json_end(&j);
    } else if (csv) {
      if (pt->status)
        printf("%.17g,%.17g,,,,,,%d,%ld,%s\n", pt->n, pt->e, pt->r.iterations, pt->r.rhs_evals,
               impactfit_status_name(pt->status));
      else
        printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%ld,OK\n", pt->n, pt->e, c, pt->r.e_out,
               pt->r.zeta, dsep, tc, pt->r.iterations, pt->r.rhs_evals);
    } else if (pt->status) {
      printf("%8.4g %12.6g %s\n", pt->n, pt->e, impactfit_status_name(pt->status));
    } else {
      printf("%8.4g %12.6g %22.15g %20.15g %20.15g %14.6g %5d %7ld\n", pt->n, pt->e, c, pt->r.e_out,
             pt->r.zeta, dsep, pt->r.iterations, pt->r.rhs_evals);
    }
    if (pt->status)
      fprintf(stderr, "impactfit: error: copt: n = %g, e = %g: %s\n", pt->n, pt->e, pt->message);
  }
  if (failed)
    rc = CLI_NUMERIC;
out:
  free(pts);
  free(ns);
  free(es);
  return rc;
}
