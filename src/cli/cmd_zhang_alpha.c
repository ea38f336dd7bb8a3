/* impactfit zhang-alpha: the modification parameter alpha of Zhang et al. (2021), solved exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "impactfit/impactfit.h"
#include "inverse_grid.h"

static const char *help_text =
    "usage: impactfit zhang-alpha --n N --m M --e E [--transition C|A]\n"
    "                             [--method bisect|fast|nlopt] [--tol T]\n"
    "                             [--k K --mass MASS --v V] [--json | --csv]\n\n"
    "Finds the modification parameter alpha of Zhang et al. (2021) for the element\n"
    "f = k d^n + lambda d^m d' with their Eq. (53),\n"
    "  lambda = 3 mass (m+1)(1-e) v / (4 alpha) * [e mass (n+1) v^2 / (2k)]^(-(m+1)/(n+1)),\n"
    "such that a simulated impact gives e_out = e to |e_out - e| <= tol e. In their scaling\n"
    "x'' + k* x^n + lambda* x^m x' = 0 with k* = e(n+1)/2 and lambda* = 3(1-e)(m+1)/(4 alpha);\n"
    "alpha depends on n, m, e and the transition condition only.\n\n"
    "  --n N --m M     spring and damping exponents (n > 0, m >= 0), required\n"
    "  --e E           target coefficient of restitution, 0 < e < 1, required\n"
    "  --transition X  C: contact ends where the force falls to zero (default); A: at d = 0\n"
    "  --method M      bisect (reference), fast (default), nlopt (minimise the misfit)\n"
    "  --tol T         relative tolerance on e_out, default 1e-10\n"
    "  --k K --mass MASS --v V   with all three, also print lambda in the user's units\n"
    "  --json          one JSON object per point; --csv: CSV with a header row\n\n"
    "--n, --m and --e accept a value, a list a,b,c or a range start:stop:count; the grid (n, then m,\n"
    "then e fastest) is solved in parallel with continuation along e. Where no alpha exists (under A\n"
    "with m < n and strong damping the bodies never separate; the message gives the engine's reason)\n"
    "or e_out is so steep that no double-precision damping meets --tol (under A near the critical\n"
    "damping; the message gives the tolerance that can be met) the row says so and the exit status\n"
    "is 1. Exit status: 0 success, 1 a point has no solution or failed, 2 invalid input.\n";

int impactfit_cmd_zhang_alpha(int argc, char **argv) {
  const char *s_n = NULL, *s_m = NULL, *s_e = NULL, *method = "fast", *transition = "C";
  double k = NAN, mass = NAN, v = NAN, tol = 1e-10;
  int json = 0, csv = 0, help = 0;
  cli_opt opts[] = {
      {"n", OPT_STRING, &s_n, 0},        {"m", OPT_STRING, &s_m, 0},
      {"e", OPT_STRING, &s_e, 0},        {"transition", OPT_STRING, &transition, 0},
      {"method", OPT_STRING, &method, 0}, {"tol", OPT_DOUBLE, &tol, 0},
      {"k", OPT_DOUBLE, &k, 0},          {"mass", OPT_DOUBLE, &mass, 0},
      {"v", OPT_DOUBLE, &v, 0},          {"json", OPT_FLAG, &json, 0},
      {"csv", OPT_FLAG, &csv, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (!s_n || !s_m || !s_e)
    return cli_input_error("zhang-alpha: --n, --m and --e are required");
  if (json && csv)
    return cli_input_error("zhang-alpha: --json and --csv exclude each other");
  int have_dims = !isnan(k) + !isnan(mass) + !isnan(v);
  if (have_dims != 0 && have_dims != 3)
    return cli_input_error("zhang-alpha: give all of --k, --mass and --v, or none");
  impactfit_inverse_params base = impactfit_inverse_default_params();
  base.method = impactfit_root_method_from_name(method);
  if (!base.method)
    return cli_input_error("--method: expected bisect, fast or nlopt, got '%s'", method);
  base.transition = impactfit_transition_from_name(transition);
  if (base.transition != impactfit_transition_C && base.transition != impactfit_transition_A)
    return cli_input_error("--transition: expected C or A, got '%s'", transition);
  base.tol = tol;
  double *ns = NULL, *ms = NULL, *es = NULL;
  size_t nn = 0, nm = 0, ne = 0;
  if ((rc = cli_parse_grid("--n", s_n, &ns, &nn)) || (rc = cli_parse_grid("--m", s_m, &ms, &nm)) ||
      (rc = cli_parse_grid("--e", s_e, &es, &ne))) {
    free(ns);
    free(ms);
    return rc;
  }
  inverse_point *pts = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  for (size_t i = 0; i < nn && !rc; i++)
    if (!(ns[i] > 0.0))
      rc = cli_input_error("--n: spring exponent must be > 0 (got %.17g)", ns[i]);
  for (size_t i = 0; i < nm && !rc; i++)
    if (!(ms[i] >= 0.0))
      rc = cli_input_error("--m: damping exponent must be >= 0 (got %.17g)", ms[i]);
  for (size_t i = 0; i < ne && !rc; i++)
    if (!(es[i] > 0.0 && es[i] < 1.0))
      rc = cli_input_error("--e: alpha is defined for 0 < e < 1 (got %.17g)", es[i]);
  if (!rc && !(tol >= 1e-13 && tol < 0.1))
    rc = cli_input_error("--tol: expected a value in [1e-13, 0.1), got %.17g", tol);
  if (!rc && have_dims) {
    double lam;
    for (size_t i = 0; i < nn && !rc; i++)
      for (size_t j = 0; j < nm && !rc; j++)
        if (impactfit_lambda_from_zeta(ns[i], ms[j], 1.0, k, mass, v, &lam, &err))
          rc = cli_status_error(IMPACTFIT_EINVAL, &err, "zhang-alpha");
  }
  if (!rc && nn * nm * ne > 100000000)
    rc = cli_input_error("zhang-alpha: the grid has %zu points (at most 1e8)", nn * nm * ne);
  if (rc)
    goto out;
  pts = calloc(nn * nm * ne, sizeof *pts);
  if (!pts) {
    rc = cli_input_error("zhang-alpha: out of memory");
    goto out;
  }
  long failed = inverse_grid_solve(&base, ns, nn, ms, nm, es, ne, pts);
  if (failed < 0) {
    rc = cli_input_error("zhang-alpha: out of memory");
    goto out;
  }
  if (csv)
    printf("n,m,e,transition,alpha,lambda_star,e_out,zeta%s,iterations,rhs_evals,status\n",
           have_dims ? ",lambda" : "");
  else if (!json)
    printf("%6s %6s %12s %2s %20s %20s %20s %5s %7s%s\n", "n", "m", "e", "tr", "alpha", "lambda_star",
           "e_out", "iter", "evals", have_dims ? "                 lambda" : "");
  for (size_t idx = 0; idx < nn * nm * ne; idx++) {
    inverse_point *pt = &pts[idx];
    double alpha = 0.0, ls = 0.0, lam = 0.0;
    if (!pt->status) {
      impactfit_zhang_alpha_from_zeta(pt->n, pt->m, pt->e, pt->r.zeta, &alpha, &ls, NULL);
      if (have_dims)
        impactfit_lambda_from_zeta(pt->n, pt->m, pt->r.zeta, k, mass, v, &lam, NULL);
    }
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_num(&j, "n", pt->n);
      cli_json_num(&j, "m", pt->m);
      cli_json_num(&j, "e", pt->e);
      cli_json_str(&j, "transition", base.transition->name);
      cli_json_str(&j, "method", base.method->name);
      cli_json_str(&j, "status", impactfit_status_name(pt->status));
      if (pt->status) {
        cli_json_str(&j, "error", pt->message);
      } else {
        cli_json_num(&j, "alpha", alpha);
        cli_json_num(&j, "lambda_star", ls);
        cli_json_num(&j, "e_out", pt->r.e_out);
        cli_json_num(&j, "zeta", pt->r.zeta);
        if (have_dims) {
          cli_json_num(&j, "k", k);
          cli_json_num(&j, "mass", mass);
          cli_json_num(&j, "v", v);
          cli_json_num(&j, "lambda", lam);
        }
      }
      cli_json_int(&j, "iterations", pt->r.iterations);
      cli_json_int(&j, "rhs_evals", pt->r.rhs_evals);
      cli_json_end(&j);
    } else if (csv) {
      printf("%.17g,%.17g,%.17g,%s,", pt->n, pt->m, pt->e, base.transition->name);
      if (pt->status)
        printf(",,,%s,%d,%ld,%s\n", have_dims ? "," : "", pt->r.iterations, pt->r.rhs_evals,
               impactfit_status_name(pt->status));
      else if (have_dims)
        printf("%.17g,%.17g,%.17g,%.17g,%.17g,%d,%ld,OK\n", alpha, ls, pt->r.e_out, pt->r.zeta, lam,
               pt->r.iterations, pt->r.rhs_evals);
      else
        printf("%.17g,%.17g,%.17g,%.17g,%d,%ld,OK\n", alpha, ls, pt->r.e_out, pt->r.zeta,
               pt->r.iterations, pt->r.rhs_evals);
    } else if (pt->status) {
      printf("%6.4g %6.4g %12.6g %2s %s\n", pt->n, pt->m, pt->e, base.transition->name,
             impactfit_status_name(pt->status));
    } else {
      printf("%6.4g %6.4g %12.6g %2s %20.15g %20.15g %20.15g %5d %7ld", pt->n, pt->m, pt->e,
             base.transition->name, alpha, ls, pt->r.e_out, pt->r.iterations, pt->r.rhs_evals);
      if (have_dims)
        printf(" %22.15g", lam);
      putchar('\n');
    }
    if (pt->status)
      fprintf(stderr, "impactfit: error: zhang-alpha: n = %g, m = %g, e = %g: %s\n", pt->n, pt->m,
              pt->e, pt->message);
  }
  if (failed)
    rc = CLI_NUMERIC;
out:
  free(pts);
  free(ns);
  free(ms);
  free(es);
  return rc;
}
