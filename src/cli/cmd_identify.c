/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit identify: contact parameters (n, m, k, damping) fitted to measured impacts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "identify_cli.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_identify; /* docs/cli/identify.txt */

typedef struct opts {
  const char *model, *fix, *bounds, *weights, *transition, *global, *maxeval, *seed;
  double mass, box, per_row_m;
  int per_row, json;
} opts;

static int parse_params(const opts *o, const impactfit_identify_data *d, impactfit_identify_params *p) {
  int rc;
  p->model = impactfit_identify_model_from_name(o->model);
  if (!p->model)
    return cli_input_error("--model: unknown model '%s' (hc, linear, zhang)", o->model);
  if (o->transition) {
    p->transition = impactfit_transition_from_name(o->transition);
    if (!p->transition)
      return cli_input_error("--transition: unknown condition '%s' (A, B, C, D)", o->transition);
  }
  if (o->global) {
    p->global = impactfit_identify_global_from_name(o->global);
    if (!p->global)
      return cli_input_error("--global: unknown method '%s' (crs, direct, none)", o->global);
  }
  if (o->maxeval) {
    long v;
    if ((rc = cli_parse_int("--maxeval", o->maxeval, 1, 10000000, &v)))
      return rc;
    p->global_maxeval = (int)v;
  }
  if (o->seed) {
    long v;
    if ((rc = cli_parse_int("--seed", o->seed, 0, 2147483647L, &v)))
      return rc;
    p->seed = (unsigned long)v;
  }
  if (o->box > 0.0)
    p->box_factor = o->box;
  if (o->fix) {
    identify_assign a[5] = {{"n", 0, ""}, {"m", 0, ""}, {"k", 0, ""}, {"c", 0, ""}, {"lambda", 0, ""}};
    if ((rc = identify_cli_assignments("--fix", o->fix, a, 5)))
      return rc;
    if (a[3].seen && a[4].seen)
      return cli_input_error("--fix: c and lambda name the same damping coefficient: give one");
    if (a[3].seen)
      a[4] = a[3];
    for (int s = 0; s < 4; s++) {
      const identify_assign *x = s == 3 ? &a[4] : &a[s];
      if (!x->seen)
        continue;
      char what[64];
      snprintf(what, sizeof what, "--fix %s", x->name);
      if ((rc = cli_parse_double(what, x->value, &p->value[s])))
        return rc;
      p->fixed[s] = 1;
    }
    if (p->fixed[IMPACTFIT_IDENTIFY_M] && p->model->m_rule != 2)
      return cli_input_error("--fix: m is set by the %s model (m = %s); fix m with --model zhang", p->model->name,
                             p->model->m_rule == 0 ? "n" : "0");
  }
  if (o->bounds) {
    identify_assign a[2] = {{"n", 0, ""}, {"m", 0, ""}};
    if ((rc = identify_cli_assignments("--bounds", o->bounds, a, 2)))
      return rc;
    if (a[0].seen && (rc = identify_cli_range("--bounds n", a[0].value, &p->n_lo, &p->n_hi)))
      return rc;
    if (a[1].seen && (rc = identify_cli_range("--bounds m", a[1].value, &p->m_lo, &p->m_hi)))
      return rc;
    if (a[1].seen && p->model->m_rule != 2)
      return cli_input_error("--bounds: m is set by the %s model; bounds of m need --model zhang", p->model->name);
  }
  if (o->weights) {
    identify_assign a[3] = {{"e", 0, ""}, {"dt", 0, ""}, {"fmax", 0, ""}};
    if ((rc = identify_cli_assignments("--weights", o->weights, a, 3)))
      return rc;
    for (int q = 0; q < 3; q++) {
      if (!a[q].seen)
        continue;
      char what[64];
      snprintf(what, sizeof what, "--weights %s", a[q].name);
      if ((rc = cli_parse_double(what, a[q].value, &p->weight[q])))
        return rc;
      unsigned col = q == 1 ? IMPACTFIT_IDENTIFY_COL_DT : IMPACTFIT_IDENTIFY_COL_FMAX;
      if (q > 0 && !(d->columns & col))
        return cli_input_error("--weights: %s: %s has no %s column", a[q].name, d->source, a[q].name);
    }
  }
  return 0;
}

static const char *coord(const impactfit_identify_params *p, int s) {
  static const char *const names[3] = {"n", "m", "ln k"};
  if (s < 3)
    return names[s];
  return p->model->m_rule == 1 ? "ln c" : "ln lambda";
}

static const char *pname(const impactfit_identify_params *p, int s) {
  return s == IMPACTFIT_IDENTIFY_C ? p->model->damping_name : impactfit_identify_param_name(s);
}

static void print_text(const impactfit_identify_data *d, const impactfit_identify_params *p,
                       const impactfit_identify_result *r, const impactfit_identify_row_fit *rf,
                       const impactfit_identify_row_damping *pr, double per_row_m) {
  printf("identify: model %s (%s), transition %s, %zu impacts from %s\n", p->model->name, p->model->summary,
         p->transition->name, d->rows, d->source);
  printf("  fitted to");
  int first = 1;
  for (int q = 0; q < 3; q++)
    if (r->quantities & (1 << q))
      printf("%s %s (weight %g)", first ? "" : ",", impactfit_identify_quantity_name(q), p->weight[q]), first = 0;
  printf(": %d residuals, %d free parameter%s\n", r->nres, r->nfree, r->nfree == 1 ? "" : "s");
  static const char *const unit[4] = {"", "", "N/m^n", "N s/m^(m+1)"};
  printf("  %-8s %-24s %-13s %s\n", "", "value", "unit", "standard error");
  for (int s = 0; s < 4; s++) {
    if (s == IMPACTFIT_IDENTIFY_M && p->model->m_rule != 2) {
      printf("  %-8s %-24s %-13s (m = %s by the model)\n", "m", p->model->m_rule == 0 ? "= n" : "0", "",
             p->model->m_rule == 0 ? "n" : "0");
      continue;
    }
    char se[96];
    if (!r->free[s])
      snprintf(se, sizeof se, "fixed");
    else if (r->se_fit[s] < 0.0)
      snprintf(se, sizeof se, "not identifiable");
    else if (s >= 2)
      snprintf(se, sizeof se, "%.3g %% (%.4g)", 100.0 * r->se_fit[s], r->se[s]);
    else
      snprintf(se, sizeof se, "%.4g", r->se[s]);
    printf("  %-8s %-24.10g %-13s %s%s\n", pname(p, s), r->value[s], unit[s], se, r->at_bound[s] ? "  [at bound]" : "");
  }
  if (r->nfree > 1) {
    printf("  correlation (fit coordinates):\n  %-10s", "");
    for (int s = 0; s < 4; s++)
      if (r->free[s])
        printf(" %10s", coord(p, s));
    printf("\n");
    for (int s = 0; s < 4; s++) {
      if (!r->free[s])
        continue;
      printf("  %-10s", coord(p, s));
      for (int t = 0; t < 4; t++)
        if (r->free[t]) {
          if (r->identifiable[s] && r->identifiable[t])
            printf(" %10.4f", r->corr[s][t]);
          else
            printf(" %10s", "-");
        }
      printf("\n");
    }
  }
  printf("  misfit: rms weighted relative residual %.4g, s = %.4g (%d degrees of freedom)\n", r->rms, r->sigma, r->dof);
  if (r->nfree > 0) {
    printf("  relative singular values of the scaled Jacobian:");
    for (int j = 0; j < r->nfree; j++)
      printf(" %.3g", r->sv[j]);
    printf("\n  search: %s %ld + bobyqa %ld evaluations, %ld Gauss-Newton steps, %ld simulations\n", p->global->name,
           r->evals_global, r->evals_local, r->newton_accepted, r->simulations);
  }
  for (int i = 0; i < r->nwarn; i++)
    printf("warning: %s\n", r->warning[i]);
  int hdt = (d->columns & IMPACTFIT_IDENTIFY_COL_DT) != 0, hf = (d->columns & IMPACTFIT_IDENTIFY_COL_FMAX) != 0;
  printf("rows (relative residuals in %%):\n  %5s %-10s %-10s %-10s %7s", "line", "v", "e", "e_sim", "r_e");
  if (hdt)
    printf(" %-11s %-11s %7s", "dt", "dt_sim", "r_dt");
  if (hf)
    printf(" %-11s %-11s %7s", "fmax", "fmax_sim", "r_fmax");
  printf("\n");
  for (size_t i = 0; i < d->rows; i++) {
    const impactfit_identify_row *row = &d->row[i];
    printf("  %5d %-10.6g %-10.6g %-10.6g %7.3f", row->line, row->v, row->e, rf[i].e, 100.0 * rf[i].r_e);
    if (hdt)
      printf(" %-11.6g %-11.6g %7.3f", row->dt, rf[i].dt, 100.0 * rf[i].r_dt);
    if (hf)
      printf(" %-11.6g %-11.6g %7.3f", row->fmax, rf[i].fmax, 100.0 * rf[i].r_fmax);
    printf("\n");
  }
  if (!pr)
    return;
  printf("damping that reproduces each row's e exactly (n = %.6g, k = %.6g):\n", r->value[0], r->value[2]);
  printf("  %5s %-10s %-10s %-14s %-14s %-14s %s\n", "line", "v", "e", "lambda_hc", "c_linear", "lambda_m", "alpha");
  for (size_t i = 0; i < d->rows; i++) {
    const impactfit_identify_row *row = &d->row[i];
    if (pr[i].status)
      printf("  %5d %-10.6g %-10.6g %s\n", row->line, row->v, row->e, impactfit_status_name(pr[i].status));
    else
      printf("  %5d %-10.6g %-10.6g %-14.8g %-14.8g %-14.8g %.6g\n", row->line, row->v, row->e, pr[i].lambda_hc,
             pr[i].c_linear, pr[i].lambda_m, pr[i].alpha);
  }
  double cv[3];
  if (impactfit_identify_per_row_spread(pr, d->rows, cv) > 1)
    printf("  spread across rows (std/mean): lambda_hc %.3g %%, c_linear %.3g %%, lambda_m (m = %g) %.3g %%\n",
           100.0 * cv[0], 100.0 * cv[1], per_row_m, 100.0 * cv[2]);
}

/* What a named JSON member holds: a number, an integer, or a standard error (negative: not
 * identifiable, written as null). */
typedef enum { NAMED_NUMBER, NAMED_INT, NAMED_SE } named_kind;

/* The member PREFIX NAME (key "se_n", "corr_n_k", ...). */
static void json_named(cli_json *j, const char *prefix, const char *name, named_kind kind, double v) {
  char key[64];
  snprintf(key, sizeof key, "%s%s", prefix, name);
  if (kind == NAMED_INT)
    cli_json_int(j, key, (long)v);
  else
    cli_json_num(j, key, kind == NAMED_SE && v < 0.0 ? NAN : v);
}

static void print_json(const impactfit_identify_data *d, const impactfit_identify_params *p,
                       const impactfit_identify_result *r, const impactfit_identify_row_fit *rf,
                       const impactfit_identify_row_damping *pr, double per_row_m) {
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_str(&j, "type", "fit");
  cli_json_str(&j, "model", p->model->name);
  cli_json_str(&j, "transition", p->transition->name);
  cli_json_str(&j, "data", d->source);
  cli_json_int(&j, "rows", (long)d->rows);
  for (int s = 0; s < 4; s++) {
    const char *nm = pname(p, s);
    json_named(&j, "", nm, NAMED_NUMBER, r->value[s]);
    json_named(&j, "free_", nm, NAMED_INT, r->free[s]);
    if (!r->free[s])
      continue;
    json_named(&j, "se_", nm, NAMED_SE, r->se[s]);
    if (s >= 2)
      json_named(&j, "se_rel_", nm, NAMED_SE, r->se_fit[s]);
    json_named(&j, "identifiable_", nm, NAMED_INT, r->identifiable[s]);
    json_named(&j, "at_bound_", nm, NAMED_INT, r->at_bound[s]);
  }
  for (int s = 0; s < 4; s++)
    for (int t = s + 1; t < 4; t++)
      if (r->free[s] && r->free[t] && r->identifiable[s] && r->identifiable[t]) {
        char pair[32];
        snprintf(pair, sizeof pair, "%s_%s", pname(p, s), pname(p, t));
        json_named(&j, "corr_", pair, NAMED_NUMBER, r->corr[s][t]);
      }
  for (int q = 0; q < 3; q++)
    json_named(&j, "weight_", impactfit_identify_quantity_name(q), NAMED_NUMBER,
               (r->quantities & (1 << q)) ? p->weight[q] : 0.0);
  cli_json_num(&j, "cost", r->cost);
  cli_json_num(&j, "rms", r->rms);
  cli_json_num(&j, "sigma", r->sigma);
  cli_json_int(&j, "residuals", r->nres);
  cli_json_int(&j, "dof", r->dof);
  cli_json_int(&j, "not_identifiable_directions", r->n_null);
  for (int k = 0; k < r->nfree; k++) /* "sv0" ... "sv3" */
    json_named(&j, "sv", (const char[]){(char)('0' + k), '\0'}, NAMED_NUMBER, r->sv[k]);
  cli_json_str(&j, "global", p->global->name);
  cli_json_int(&j, "evals_global", r->evals_global);
  cli_json_int(&j, "evals_local", r->evals_local);
  cli_json_int(&j, "newton_steps", r->newton_accepted);
  cli_json_int(&j, "simulations", r->simulations);
  cli_json_int(&j, "warnings", r->nwarn);
  cli_json_end(&j);
  for (int i = 0; i < r->nwarn; i++) {
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "type", "warning");
    cli_json_str(&j, "message", r->warning[i]);
    cli_json_end(&j);
  }
  for (size_t i = 0; i < d->rows; i++) {
    const impactfit_identify_row *row = &d->row[i];
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "type", "row");
    cli_json_int(&j, "line", row->line);
    cli_json_num(&j, "v", row->v);
    cli_json_num(&j, "mass", row->mass);
    cli_json_num(&j, "e", row->e);
    cli_json_num(&j, "e_sim", rf[i].e);
    cli_json_num(&j, "r_e", rf[i].r_e);
    if (d->columns & IMPACTFIT_IDENTIFY_COL_DT) {
      cli_json_num(&j, "dt", row->dt);
      cli_json_num(&j, "r_dt", rf[i].r_dt);
    }
    cli_json_num(&j, "dt_sim", rf[i].dt);
    if (d->columns & IMPACTFIT_IDENTIFY_COL_FMAX) {
      cli_json_num(&j, "fmax", row->fmax);
      cli_json_num(&j, "r_fmax", rf[i].r_fmax);
    }
    cli_json_num(&j, "fmax_sim", rf[i].fmax);
    cli_json_num(&j, "zeta", rf[i].zeta);
    if (pr) {
      cli_json_str(&j, "per_row_status", impactfit_status_name(pr[i].status));
      if (!pr[i].status) {
        cli_json_num(&j, "lambda_hc", pr[i].lambda_hc);
        cli_json_num(&j, "c_linear", pr[i].c_linear);
        cli_json_num(&j, "per_row_m", per_row_m);
        cli_json_num(&j, "lambda_m", pr[i].lambda_m);
        cli_json_num(&j, "alpha", pr[i].alpha);
      }
    }
    cli_json_end(&j);
  }
}

int impactfit_cmd_identify(int argc, char **argv) {
  opts o;
  memset(&o, 0, sizeof o);
  int help = 0;
  cli_spec copts[] = {
      CLI_STR("model", &o.model),     CLI_STR("fix", &o.fix),          CLI_STR("bounds", &o.bounds),
      CLI_STR("weights", &o.weights), CLI_NUM("mass", &o.mass),        CLI_STR("transition", &o.transition),
      CLI_STR("global", &o.global),   CLI_STR("maxeval", &o.maxeval),  CLI_STR("seed", &o.seed),
      CLI_NUM("box-factor", &o.box),  CLI_FLAG("per-row", &o.per_row), CLI_NUM("per-row-m", &o.per_row_m),
      CLI_FLAG("json", &o.json),
  };
  const size_t nopt = CLI_COUNT(copts);
  const char *pos[1] = {NULL};
  size_t npos = 0;
  int rc = cli_options(argc, argv, copts, nopt, help_text, &help, pos, 1, &npos);
  if (rc || help)
    return rc;
  if (npos != 1)
    return cli_input_error("identify: give one data file (see 'impactfit identify --help')");
  if (!o.model)
    return cli_input_error("identify: --model is required (hc, linear or zhang)");
  int mass_seen = cli_given(copts, nopt, "mass"), prm_seen = cli_given(copts, nopt, "per-row-m");
  if (cli_given(copts, nopt, "box-factor") && !(o.box > 1.0 && o.box <= 1e6))
    return cli_input_error("--box-factor: must be in (1, 1e6], got %.17g", o.box);
  if (prm_seen && !o.per_row)
    return cli_input_error("--per-row-m needs --per-row");
  if (prm_seen && !(o.per_row_m >= 0.0 && o.per_row_m <= 10.0))
    return cli_input_error("--per-row-m: the damping exponent must be in [0, 10], got %.17g", o.per_row_m);
  if (mass_seen && !(o.mass > 0.0))
    return cli_input_error("--mass: the effective mass must be > 0, got %.17g", o.mass);
  if (!impactfit_identify_model_from_name(o.model))
    return cli_input_error("--model: unknown model '%s' (hc, linear, zhang)", o.model);

  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_identify_data *d = NULL;
  char *text = NULL;
  size_t text_len = 0;
  if ((rc = cli_read_input(pos[0], &text, &text_len))) /* "-": standard input */
    return rc;
  int st = impactfit_identify_data_parse(text, text_len, cli_out_is_stdout(pos[0]) ? "standard input" : pos[0], &d,
                                         &err);
  free(text);
  if (st)
    return cli_status_error(st, &err, NULL);
  if (mass_seen && (st = impactfit_identify_data_set_mass(d, o.mass, &err))) {
    impactfit_identify_data_free(d);
    return cli_status_error(st, &err, "--mass");
  }
  if (!(d->columns & IMPACTFIT_IDENTIFY_COL_MASS) && !mass_seen) {
    rc = cli_input_error("identify: %s has no mass column: give the effective mass with --mass", d->source);
    impactfit_identify_data_free(d);
    return rc;
  }
  impactfit_identify_params p = impactfit_identify_default_params();
  if ((rc = parse_params(&o, d, &p))) {
    impactfit_identify_data_free(d);
    return rc;
  }
  impactfit_identify_workspace *ws = impactfit_identify_alloc();
  impactfit_identify_row_fit *rf = calloc(d->rows, sizeof *rf);
  impactfit_identify_row_damping *pr = o.per_row ? calloc(d->rows, sizeof *pr) : NULL;
  if (!ws || !rf || (o.per_row && !pr)) {
    rc = cli_input_error("identify: out of memory");
    goto done;
  }
  impactfit_identify_result res;
  st = impactfit_identify_fit(ws, d, &p, &res, rf, &err);
  if (st) {
    rc = cli_status_error(st, &err, NULL);
    goto done;
  }
  double prm = prm_seen ? o.per_row_m : res.value[IMPACTFIT_IDENTIFY_M];
  if (o.per_row) {
    st = impactfit_identify_per_row(ws, d, res.value[IMPACTFIT_IDENTIFY_N], res.value[IMPACTFIT_IDENTIFY_K], prm,
                                    p.transition, pr, &err);
    if (st && impactfit_status_is_input_error(st)) {
      rc = cli_status_error(st, &err, "identify --per-row");
      goto done;
    }
  }
  if (o.json)
    print_json(d, &p, &res, rf, pr, prm);
  else
    print_text(d, &p, &res, rf, pr, prm);
  if (st) /* a row of --per-row failed numerically: the rest is printed */
    rc = cli_status_error(st, &err, "identify --per-row");
done:
  impactfit_identify_free(ws);
  free(rf);
  free(pr);
  impactfit_identify_data_free(d);
  return rc;
}
