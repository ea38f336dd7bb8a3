/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The printers of `impactfit dem` / `impactfit engine` answers (code_cli.h): one point as a report, several
 * as a table or CSV, every point as one JSON object. Two kinds of answer, by the integrator the model answers
 * with (codes.h: answer.stepped): continuous time with the power law (e over the speed range, K, C, zeta)
 * and the step map's phase statistics. The JSON keys are those of the answer's kind, the same for both names
 * of the command and for the bindings. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "code_cli.h"
#include "impactfit/impactfit.h"

/* ---- the JSON objects ---- */

/* The objects of an answer: the model (M), the answer (A) and its strings (S). */
typedef struct strs {
  const char *code, *version, *end, *input, *note, *naive, *integrator, *assumes;
  int run_here;
} strs;
enum { M, A, S };
#define OF_M(f) CLI_FIELD_OF(M, #f, impactfit_code_model, f)
#define OF_A(key, f) CLI_FIELD_OF(A, key, impactfit_code_answer, f)
#define OF_A_RANGE(key, f) CLI_FIELD_RANGE_OF(A, key, impactfit_code_answer, f)
#define OF_S(key, f) CLI_FIELD_OF(S, key, strs, f)
#define DAMPING CLI_FIELD_OF(M, "damping", impactfit_code_model, option)

/* continuous time, the inverse: the head, the part an alternative model repeats, the rest */
static const cli_field power_head[] = {OF_S("code", code),         OF_S("version", version), OF_M(versions),
                                       OF_S("run_here", run_here), OF_A("e_asked", e_asked), OF_A("v", v),
                                       OF_S("assumes", assumes)};
static const cli_field power_alt[] = {OF_M(model),
                                      DAMPING,
                                      OF_M(param),
                                      OF_M(param_unit),
                                      OF_A("value", value),
                                      OF_S("input", input),
                                      OF_A_RANGE("e_range", e_speed_min),
                                      OF_S("note", note)};
static const cli_field power_tail[] = {OF_A("e_naive", e_naive),
                                       OF_A_RANGE("e_naive_range", e_naive_min),
                                       OF_A("reachable", reachable),
                                       OF_A("speed_dependent", speed_dependent),
                                       OF_S("end", end),
                                       OF_M(n),
                                       OF_M(m),
                                       OF_A("K", K),
                                       OF_A("R", R),
                                       OF_A("M", mass),
                                       OF_A("C", C),
                                       OF_A("zeta", zeta),
                                       OF_M(source)};
static const cli_field power_end[] = {OF_S("end", end)};
/* continuous time, forward (--value) */
static const cli_field power_forward[] = {OF_S("code", code),
                                          OF_S("version", version),
                                          OF_M(versions),
                                          OF_S("run_here", run_here),
                                          OF_M(model),
                                          DAMPING,
                                          OF_M(param),
                                          OF_A("value", value),
                                          OF_S("input", input),
                                          OF_A("v", v),
                                          OF_A("e_real", e),
                                          OF_A_RANGE("e_range", e_speed_min),
                                          OF_A("speed_dependent", speed_dependent),
                                          OF_S("end", end),
                                          OF_A("R", R),
                                          OF_A("M", mass),
                                          OF_S("assumes", assumes),
                                          OF_M(source)};
/* the step map */
static const cli_field steps_fields[] = {OF_S("code", code),
                                         OF_S("version", version),
                                         OF_M(model),
                                         OF_S("integrator", integrator),
                                         OF_A("dt", dt),
                                         OF_A("v", v),
                                         OF_A("mass", mass),
                                         OF_A("e_asked", e_asked),
                                         OF_M(param),
                                         OF_A("value", value),
                                         OF_S("input", input),
                                         OF_A("e_mean", e),
                                         OF_A("e_min", e_min),
                                         OF_A("e_max", e_max),
                                         OF_A("e_continuous", e_continuous),
                                         OF_S("naive", naive),
                                         OF_A("naive_value", naive_value),
                                         OF_A("e_naive", e_naive),
                                         OF_A_RANGE("e_naive_range", e_naive_min),
                                         OF_A("reachable", reachable),
                                         OF_A_RANGE("e_reach_range", e_reach_min),
                                         OF_A("stable", stable),
                                         OF_A("dt_stable", dt_stable),
                                         OF_A("gravity", gravity),
                                         OF_S("end", end),
                                         OF_S("note", note),
                                         OF_S("assumes", assumes),
                                         OF_S("run_here", run_here),
                                         OF_M(source)};
#define ROW(f) CLI_FIELD(impactfit_code_point, f)
static const cli_field row_fields[] = {ROW(v), ROW(e_mean), ROW(e_min), ROW(e_max), ROW(e_continuous)};

static strs strings_of(const impactfit_code_answer *a) {
  strs s = {.code = a->model->code->name,
            .version = a->version,
            .end = a->end->name,
            .input = a->input ? a->input : "",
            .note = a->note ? a->note : "",
            .naive = a->naive ? a->naive : "",
            .integrator = a->integrator->name,
            .assumes = a->assumes ? a->assumes : "",
            .run_here = a->run_here};
  return s;
}

static const char *option_sep(const impactfit_code_model *md, const char *sep) { return *md->option ? sep : ""; }

/* "key": with the comma of the object's members */
static void json_key(cli_json *j, const char *key) {
  fprintf(j->f, "%s\"%s\":", j->first ? "" : ",", key);
  j->first = 0;
}

/* the axes of the box that are ranges: bit 0 r1, bit 1 r2 (two spheres), bit 2 v */
static int spread_axes(const impactfit_code_answer *a) {
  int sizes = isfinite(a->r_min) && a->r_min < a->r_max,
      sizes2 = !a->wall && isfinite(a->r2_min) && a->r2_min < a->r2_max;
  return (sizes ? 1 : 0) | (sizes2 ? 2 : 0) | (a->v_min < a->v_max ? 4 : 0);
}

/* the corner i's radii and speed */
static void corner_at(const impactfit_code_answer *a, int i, double *r1, double *r2, double *v) {
  if (isfinite(a->r_min)) {
    *r1 = (i & 1) ? a->r_max : a->r_min;
    *r2 = a->wall ? *r1 : (i & 2) ? a->r2_max : a->r2_min;
  } else { /* the design radii, every point's */
    *r1 = a->spread.r1_min;
    *r2 = a->spread.r2_min;
  }
  *v = (i & 4) ? a->v_max : a->v_min;
}

/* "spread": the answer over the ranges (codes.h: answer.spread); "exact_model": the model exact over them */
static void json_spread(cli_json *j, const impactfit_code_answer *a) {
  const impactfit_code_spread *sp = &a->spread;
  json_key(j, "spread");
  cli_json o;
  cli_json_begin(&o, j->f);
  if (isfinite(a->r_min))
    cli_json_range(&o, "r_range", a->r_min, a->r_max);
  else
    cli_json_num(&o, "r_range", NAN);
  if (isfinite(a->r2_min))
    cli_json_range(&o, "r2_range", a->r2_min, a->r2_max);
  else
    cli_json_num(&o, "r2_range", NAN);
  cli_json_range(&o, "v_range", a->v_min, a->v_max);
  cli_json_str(&o, "bodies", a->wall ? "the sphere on the wall" : "each sphere");
  cli_json_int(&o, "points", a->spread_points);
  cli_json_int(&o, "evaluations", sp->evaluations);
  cli_json_num(&o, "e_min", sp->e_min);
  cli_json_num(&o, "e_max", sp->e_max);
  json_key(&o, "where");
  fprintf(j->f, "{\"e_min\":[");
  double at[2][3] = {{sp->r1_min, sp->r2_min, sp->v_at_min}, {sp->r1_max, sp->r2_max, sp->v_at_max}};
  char b[IMPACTFIT_SHORTEST_SIZE];
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 3; i++)
      fprintf(j->f, "%s%s", i ? "," : "", impactfit_format_shortest(at[k][i], b));
    fprintf(j->f, "]%s", k ? "}" : ",\"e_max\":[");
  }
  json_key(&o, "corners");
  fputc('[', j->f);
  int axes = spread_axes(a), first = 1;
  for (int i = 0; i < 8; i++) {
    if (i & ~axes)
      continue;
    double r1, r2, v;
    corner_at(a, i, &r1, &r2, &v);
    cli_json c;
    fputs(first ? "" : ",", j->f);
    first = 0;
    cli_json_begin(&c, j->f);
    cli_json_num(&c, "r1", r1);
    cli_json_num(&c, "r2", r2);
    cli_json_num(&c, "v", v);
    cli_json_num(&c, "e", sp->e_corner[i]);
    fputc('}', j->f);
  }
  fputc(']', j->f);
  cli_json_num(&o, "worst", sp->worst);
  cli_json_int(&o, "exact", a->spread_exact);
  fputc('}', j->f);
  if (a->spread_exact || a->forward)
    return;
  json_key(j, "exact_model");
  const impactfit_code_answer *x = a->exact_model;
  if (!x) {
    fputs("null", j->f);
    json_key(j, "exact_other");
    if (!a->exact_other) {
      fputs("null", j->f);
      return;
    }
    cli_json m;
    cli_json_begin(&m, j->f);
    cli_json_str(&m, "model", a->exact_other->model);
    cli_json_str(&m, "damping", a->exact_other->option);
    cli_json_str(&m, "param", a->exact_other->param);
    fputc('}', j->f);
    return;
  }
  cli_json m;
  cli_json_begin(&m, j->f);
  cli_json_str(&m, "model", x->model->model);
  cli_json_str(&m, "damping", x->model->option);
  cli_json_str(&m, "param", x->model->param);
  cli_json_num(&m, "value", x->value);
  cli_json_str(&m, "input", x->input);
  cli_json_str(&m, "end", x->end->name);
  cli_json_range(&m, "e_range", x->spread.e_min, x->spread.e_max);
  cli_json_num(&m, "worst", x->spread.worst);
  cli_json_str(&m, "note", x->note);
  fputc('}', j->f);
}

static void print_json(const impactfit_code_answer *a) {
  strs s = strings_of(a);
  const void *objs[] = {a->model, a, &s};
  cli_json j;
  cli_json_begin(&j, stdout);
  if (a->stepped) {
    cli_json_fields_of(&j, objs, steps_fields, CLI_COUNT(steps_fields));
  } else if (a->forward) {
    cli_json_fields_of(&j, objs, power_forward, CLI_COUNT(power_forward));
  } else {
    cli_json_fields_of(&j, objs, power_head, CLI_COUNT(power_head));
    cli_json_fields_of(&j, objs, power_alt, CLI_COUNT(power_alt));
    cli_json_fields_of(&j, objs, power_tail, CLI_COUNT(power_tail));
    if (a->alternative) {
      const impactfit_code_answer *b = a->alternative;
      strs t = strings_of(b);
      const void *alt_objs[] = {b->model, b, &t};
      fprintf(stdout, ",\"alternative\":");
      cli_json ja;
      cli_json_begin(&ja, stdout);
      cli_json_fields_of(&ja, alt_objs, power_alt, CLI_COUNT(power_alt));
      cli_json_fields_of(&ja, alt_objs, power_end, CLI_COUNT(power_end));
      fputs("}", stdout);
    }
  }
  if (a->has_spread)
    json_spread(&j, a);
  cli_json_end(&j);
  for (size_t i = 0; a->stepped && i < a->n_range; i++)
    cli_json_object_of(stdout, (const void *const[]){&a->range[i]}, row_fields, CLI_COUNT(row_fields));
}

/* the text of the spread: where e is smallest and largest, the corners, and the model exact over the ranges */
static void print_spread_text(const impactfit_code_answer *a) {
  if (!a->has_spread || (!isfinite(a->r_min) && a->spread_exact)) /* a speed range alone: "exact at every speed" */
    return;
  const impactfit_code_spread *sp = &a->spread;
  printf("#   over the ranges (%d points per axis, %ld impacts): e from %.10f (r1 %.6g, r2 %.6g m, v %.6g m/s) to "
         "%.10f (r1 %.6g, r2 %.6g m, v %.6g m/s)",
         a->spread_points, sp->evaluations, sp->e_min, sp->r1_min, sp->r2_min, sp->v_at_min, sp->e_max, sp->r1_max,
         sp->r2_max, sp->v_at_max);
  if (!isnan(sp->worst))
    printf("; worst |e - %.6g| = %.3g", a->e_asked, sp->worst);
  printf("\n#   corners (r1, r2 m; v m/s):");
  int axes = spread_axes(a);
  for (int i = 0, n = 0; i < 8; i++) {
    if (i & ~axes)
      continue;
    double r1, r2, v;
    corner_at(a, i, &r1, &r2, &v);
    printf("%s (%.6g, %.6g; %.6g) e = %.10f", n++ ? "," : "", r1, r2, v, sp->e_corner[i]);
  }
  printf("\n");
  const impactfit_code_answer *x = a->exact_model;
  if (a->spread_exact || a->forward)
    return;
  if (!x && a->exact_other) {
    const impactfit_code_model *o = a->exact_other;
    printf("# no model of %s with these inputs gives e = %.6g over the ranges; %s %s%s%s does with its own inputs "
           "(its %s; ask: impactfit dem --code %s --model \"%s\"%s%s ...)\n",
           a->model->code->name, a->e_asked, o->code->name, o->model, option_sep(o, " damping "), o->option, o->param,
           o->code->name, o->model, option_sep(o, " --damping "), o->option);
    return;
  }
  if (!x) {
    printf("# no other model of %s gives e = %.6g over the ranges\n", a->model->code->name, a->e_asked);
    return;
  }
  const impactfit_code_model *o = x->model;
  printf("# exact over the ranges: %s %s%s%s%s: type %s = %.12g:\n%s", o->code->name, o->model,
         option_sep(o, " damping "), o->option, x->end == impactfit_transition_C ? " (force clamped)" : "", o->param,
         x->value, x->input);
  printf("#   it gives e from %.10f to %.10f over the ranges (%ld impacts)\n", x->spread.e_min, x->spread.e_max,
         x->spread.evaluations);
}

/* ---- continuous time: the report ---- */

static const char *end_text(const impactfit_transition *tr) {
  return tr == impactfit_transition_C ? "force clamped at zero (C)" : "tensile until d = 0 (A)";
}

/* the line naming the code, version and model, and where its force law comes from */
static void print_heading(const impactfit_code_answer *a) {
  const impactfit_code_model *md = a->model;
  impactfit_text force = IMPACTFIT_TEXT_INIT;
  impactfit_code_force_text(md, &force);
  printf("# %s %s, model %s%s%s, contact end: %s\n", md->code->name, a->version, md->model,
         option_sep(md, ", damping "), md->option, end_text(a->end));
  if (a->run_here)
    printf("# run here: %s; the force law of %s\n", md->run_versions, md->source);
  else
    printf("# formula only: %s not run here%s%s; the force law (versions %s) read in %s\n", a->version,
           md->run_versions ? "; run here: " : "", md->run_versions ? md->run_versions : "", md->versions, md->source);
  printf("# force %s\n", impactfit_text_str(&force));
  impactfit_text_free(&force);
}

static void print_power_text(const impactfit_code_answer *a) {
  const impactfit_code_model *md = a->model;
  char e[IMPACTFIT_SHORTEST_SIZE];
  impactfit_format_shortest(a->e_asked, e);
  print_heading(a);
  char unit[32] = "N/m";
  if (md->n != 1.0)
    snprintf(unit, sizeof unit, "N/m^%g", md->n);
  printf("#   K = %.10g %s, R = %.10g m, M = %.10g kg\n", a->K, unit, a->R, a->mass);
  if (md->takes_e && isnan(a->e_naive))
    printf("# typing %s = %s: the code refuses it (it takes %s in (%g, 1])\n", md->param, e, md->param,
           md->param_floor);
  else if (md->takes_e)
    printf("# typing %s = %s gives e = %.6f%s\n", md->param, e, a->e_naive,
           a->speed_dependent ? " at this speed" : " (at every speed)");
  if (a->speed_dependent && md->takes_e && !isnan(a->e_naive) && a->v_min < a->v_max)
    printf("#   over v in [%.6g, %.6g] m/s: e from %.6f to %.6f\n", a->v_min, a->v_max, a->e_naive_min, a->e_naive_max);
  const impactfit_code_answer *b = a->alternative;
  if (a->reachable) {
    printf("# to get e = %s type %s = %.12g:\n%s", e, md->param, a->value, a->input);
    printf("# %s\n", a->note);
    print_spread_text(a);
  } else if (b) {
    const impactfit_code_model *o = b->model;
    printf("# %s\n", a->note);
    printf("# %s %s%s%s%s reaches it: type %s = %.12g:\n%s# %s\n", o->code->name, o->model, option_sep(o, " damping "),
           o->option, b->end == impactfit_transition_C ? " (force clamped)" : " (force not clamped)", o->param,
           b->value, b->input, b->note);
  } else {
    printf("# %s\n", a->note);
    printf("# no other model of %s with these inputs reaches it\n", md->code->name);
  }
}

static void print_power_forward_text(const impactfit_code_answer *a) {
  char v[IMPACTFIT_SHORTEST_SIZE], x[IMPACTFIT_SHORTEST_SIZE];
  print_heading(a);
  printf("%s", a->input);
  printf("# typing %s = %s gives e = %.10f at v = %s m/s%s\n", a->model->param, impactfit_format_shortest(a->value, x),
         a->e, impactfit_format_shortest(a->v, v), a->speed_dependent ? "" : " (at every speed)");
  if (a->speed_dependent && a->v_min < a->v_max)
    printf("#   over v in [%.6g, %.6g] m/s: e from %.10f to %.10f\n", a->v_min, a->v_max, a->e_speed_min,
           a->e_speed_max);
  print_spread_text(a);
}

/* ---- the step map: the report ---- */

/* the text to paste, commented out when the step is unstable (e from an impact is meaningless there) */
static void print_input(const impactfit_code_answer *a) {
  if (a->stable) {
    printf("%s\n", a->input);
    return;
  }
  for (const char *p = a->input; *p;) {
    size_t n = strcspn(p, "\n");
    printf("# (unstable: do not use) %.*s\n", (int)n, p);
    p += n + (p[n] == '\n');
  }
}

/* "; in continuous time E" and the line's end (nothing for a step map with no continuous-time limit: the
 * engines whose contact is a hard constraint row, Jolt, DART, Rapier, PhysX, cannon-es, Havok) */
static void print_continuous(double e_continuous) {
  if (isfinite(e_continuous))
    printf("; in continuous time %.6f", e_continuous);
  printf("\n");
}

static void print_steps_inverse(const impactfit_code_answer *a, int adaptive) {
  const impactfit_code_model *md = a->model;
  if (!isnan(a->naive_value) && !isnan(a->e_naive)) {
    printf("# naive: %s = %.6g gives e = %.6f", md->param, a->naive_value, a->e_naive);
    if (!adaptive)
      printf(" (one impact: %.6f to %.6f)", a->e_naive_min, a->e_naive_max);
    printf("\n#   [%s]\n", a->naive);
  } else if (!isnan(a->naive_value))
    printf("# naive: %s = %.6g is unstable at this dt (the motion blows up)\n#   [%s]\n", md->param, a->naive_value,
           a->naive);
  if (!a->reachable)
    return;
  if (a->note && strncmp(a->note, "NEAREST", 7) == 0) /* a mean moving in steps of the value: the note says so */
    printf("# no %s gives e = %.6g%s; for the nearest, %.10f, type %s = %.12g:\n", md->param, a->e_asked,
           adaptive ? "" : " at this dt", a->e, md->param, a->value);
  else
    printf("# to get e = %.6g%s type %s = %.12g:\n", a->e_asked, adaptive ? "" : " at this dt", md->param, a->value);
  print_input(a);
  if (adaptive)
    printf("#   it gives e = %.10f\n", a->e);
  else {
    printf("#   it gives e = %.10f (one impact: %.6f to %.6f)", a->e, a->e_min, a->e_max);
    print_continuous(a->e_continuous);
  }
}

static void print_steps_text(const impactfit_code_answer *a) {
  const impactfit_code_model *md = a->model;
  /* a continuous-time integrator (NaN dt) takes no step: one e, the law's continuous-time e, at every phase */
  int adaptive = isnan(a->dt);
  char step[64];
  if (adaptive)
    snprintf(step, sizeof step, "adaptive (no time step)");
  else
    snprintf(step, sizeof step, "%.6g s", a->dt);
  printf("# %s %s, model '%s', integrator %s, dt = %s, v = %.6g m/s, effective mass %.6g kg (%s)%s\n", md->code->name,
         a->version, md->model, a->integrator->name, step, a->v, a->mass, a->wall ? "sphere on a plane" : "two spheres",
         a->run_here ? "" : " [formula only]");
  if (a->gravity != 0.0)
    printf("# gravity %.6g m/s^2 along the normal, into the contact (taken in every step)\n", a->gravity);
  printf("# law: %s; end: %s\n", md->law_text, md->end);
  if (adaptive)
    printf("# the integrator controls its error: e is the law's continuous-time e (at the accuracy the note names)\n");
  else
    printf("# e over the phase of the first contact step: mean (a random drop height), and one impact's range\n");
  if (!a->stable && a->note[0]) /* what makes the answer unusable, before the text to paste */
    printf("# note: %s\n", a->note);
  if (!a->forward) {
    print_steps_inverse(a, adaptive);
  } else {
    print_input(a);
    if (adaptive)
      printf("# %s = %.12g gives e = %.10f\n", md->param, a->value, a->e);
    else {
      printf("# %s = %.12g gives e = %.10f (one impact: %.6f to %.6f)", md->param, a->value, a->e, a->e_min, a->e_max);
      print_continuous(a->e_continuous);
    }
  }
  if (a->stable && a->note[0])
    printf("# note: %s\n", a->note);
  print_spread_text(a);
  for (size_t i = 0; i < a->n_range; i++) {
    const impactfit_code_point *p = &a->range[i];
    printf("#   at v = %-10.6g m/s: e = %.6f (one impact %.6f to %.6f)", p->v, p->e_mean, p->e_min, p->e_max);
    if (isfinite(p->e_continuous))
      printf(", continuous %.6f", p->e_continuous);
    printf("\n");
  }
}

/* ---- tables ---- */

/* a table row's number: as typed for the inputs, full precision for the results, empty when NaN */
static void cell(const code_printer *p, const char *fmt, double v, int input, int last) {
  char b[IMPACTFIT_SHORTEST_SIZE];
  if (p->csv)
    fputs(isfinite(v) ? impactfit_format_shortest(v, b) : "", stdout);
  else if (input)
    printf("%-12s", impactfit_format_shortest(v, b));
  else if (isfinite(v))
    printf(fmt, v);
  else
    printf("%-20s", "-");
  fputs(last ? "" : (p->csv ? "," : " "), stdout);
}

static void print_table_head(const code_printer *p, const char *version, int run_here, int stepped) {
  const impactfit_code_model *md = p->md;
  if (!p->csv)
    printf("# %s %s, model %s%s%s: %s (%s)\n", md->code->name, version, md->model, option_sep(md, ", damping "),
           md->option, run_here ? "run here" : "formula only", md->versions);
  const char *e_cols = stepped ? "e_mean,e_min,e_max" : "e_min,e_max";
  if (!p->csv && p->forward)
    printf("%-12s %-12s %-20s %-20s %-20s %sstatus\n", "value", "v", stepped ? "e_mean" : "e_real", "e_min", "e_max",
           "");
  else if (!p->csv && stepped)
    printf("%-12s %-12s %-20s %-20s %-20s %-20s %-20s reachable status\n", "e", "v", "value", "e_naive", "e_mean",
           "e_min", "e_max");
  else if (!p->csv)
    printf("%-12s %-12s %-20s %-20s %-20s %-20s reachable status\n", "e", "v", "value", "e_naive", "e_min", "e_max");
  else if (p->forward)
    printf("value,v,%s,e_min,e_max,status\n", stepped ? "e_mean" : "e_real");
  else
    printf("e,v,value,e_naive,%s,reachable,status\n", e_cols);
}

static void print_row(const code_printer *p, const impactfit_code_request *q, const impactfit_code_answer *a) {
  int stepped = a->stepped;
  double lo = stepped ? a->e_min : a->e_speed_min, hi = stepped ? a->e_max : a->e_speed_max;
  if (p->forward) {
    cell(p, "", a->value, 1, 0);
    cell(p, "", q->v, 1, 0);
    cell(p, "%-20.10f", a->e, 0, 0);
    cell(p, "%-20.10f", lo, 0, 0);
    cell(p, "%-20.10f", hi, 0, 0);
    puts("OK");
    return;
  }
  cell(p, "", q->e, 1, 0);
  cell(p, "", q->v, 1, 0);
  cell(p, "%-20.12g", a->value, 0, 0);
  cell(p, "%-20.6f", a->e_naive, 0, 0);
  if (stepped)
    cell(p, "%-20.10f", a->e, 0, 0);
  cell(p, "%-20.10f", lo, 0, 0);
  cell(p, "%-20.10f", hi, 0, 0);
  printf(p->csv ? "%d,OK\n" : "%-9d OK\n", a->reachable);
}

/* the row of a failed point, and its message */
static int print_failed(code_printer *p, size_t index, const impactfit_code_request *q, double x, int status,
                        const impactfit_error *err) {
  p->failed++;
  if (p->table || p->csv) {
    cell(p, "", x, 1, 0);
    cell(p, "", q->v, 1, 0);
    fputs(p->csv ? (p->forward ? ",,," : ",,,,,") : "", stdout);
    printf("%s\n", impactfit_status_name(status));
  }
  fflush(stdout);
  if (p->single) {
    cli_status_error(status, err, p->what);
  } else {
    char xs[IMPACTFIT_SHORTEST_SIZE], vs[IMPACTFIT_SHORTEST_SIZE];
    fprintf(stderr, "impactfit: error: %s: point %zu (%s = %s, v = %s): %s\n", p->what, index,
            p->forward ? "value" : "e", impactfit_format_shortest(x, xs), impactfit_format_shortest(q->v, vs),
            err->message[0] ? err->message : impactfit_strerror(status));
  }
  return impactfit_status_is_input_error(status); /* invalid input stops; a numerical failure goes on */
}

int code_print_point(void *ctx, size_t index, const impactfit_code_request *q, double x, int status,
                     const impactfit_code_answer *a, const impactfit_error *err) {
  code_printer *p = ctx;
  if (status && impactfit_status_is_input_error(status) && !p->head_done) { /* the same for every point: stop */
    p->failed++;
    cli_status_error(status, err, p->what);
    return 1;
  }
  if ((p->table || p->csv) && !p->head_done)
    print_table_head(p,
                     a            ? a->version
                     : q->version ? q->version
                                  : p->md->code->default_version,
                     a ? a->run_here : 0, a ? a->stepped : 1);
  p->head_done = 1;
  if (status)
    return print_failed(p, index, q, x, status, err);
  int stepped = a->stepped;
  if (p->json)
    print_json(a);
  else if (p->table || p->csv)
    print_row(p, q, a);
  else if (stepped)
    print_steps_text(a);
  else if (a->forward)
    print_power_forward_text(a);
  else
    print_power_text(a);
  if (!p->json && !p->table && !p->csv && a->assumes && a->assumes[0])
    printf("# assumes: %s\n", a->assumes);
  fflush(stdout);
  return ferror(stdout) != 0;
}
