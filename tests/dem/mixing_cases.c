/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit's side of the two-material, three-size runs in LAMMPS and LIGGGHTS (tests/dem/run_mixing.py, ctest
 * dem_mixing): asks the registry (impactfit_code_solve) for two materials with friction given and writes the
 * lines of its answer (answer.input, as a user pastes them), the collisions and impactfit's e for each, as JSON
 * on stdout; prints on stderr the lines and what the answer says where one value per type pair cannot be exact
 * (the spread over the sizes). Materials: 1 = E 1e8 Pa, ν 0.3, 2500 kg/m³; 2 = E 5e8 Pa, ν 0.2, 7800 kg/m³;
 * the request: two 5 mm spheres (body 1 material 1, body 2 material 2), v = 1 m/s, e 0.65 (1-2), e11 0.5,
 * e22 0.8; the runs: radii 2, 5 and 10 mm (each with itself, and 2 against 10 mm).
 *  A  LAMMPS pair granular hertz/material, damping tsuji, tangential mindlin NULL 1.0 0.5: the registry's
 *     pair_coeff 1 1, 2 2, 1 2: every pair and size at its asked e (tsuji is scale-free);
 *  B  the same lines without the 1 2 line: the mixed pair runs as hooke with velocity damping
 *     (impactfit_lammps_mix: the pair's model choices are never set in 29Sep2021): impactfit predicts its e;
 *  C  damping viscoelastic (LAMMPS's default), the registry's one eta_n0 per type pair (exact at 5 mm):
 *     impactfit's e for every size (the spread is the answer's "cannot");
 *  D  LIGGGHTS hertz, tangential history, coefficientFriction 0.5: the registry's lines (youngsModulus and
 *     poissonsRatio per type, coefficientRestitution per type pair): every pair and size at its asked e;
 *  E  the answer over sizes and speeds (request.r_min, r_max, v_min, v_max): LAMMPS gran/hertz/history's line at
 *     the 8 corners of 2-10 mm x 0.2-5 m/s, each at the e of answer.spread.e_corner;
 *  F  the same answer's exact_model line (granular hertz damping tsuji) at those corners: the asked e. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/codes.h"
#include "impactfit/mixing.h"

static const double E[2] = {1e8, 5e8}, NU[2] = {0.3, 0.2}, RHO[2] = {2500, 7800};
static const double RADII[4][2] = {{0.002, 0.002}, {0.005, 0.005}, {0.01, 0.01}, {0.002, 0.01}};
static const double V = 1.0;
static int failed = 0;

static double asked(int t1, int t2) { return t1 == t2 ? (t1 == 1 ? 0.5 : 0.8) : 0.65; }

/* a request of two spheres and the settings it points to (E, nu where the model takes them, kn) */
typedef struct pair_request {
  impactfit_code_request q;
  impactfit_code_setting set[3];
} pair_request;

static void add_setting(pair_request *r, const char *name, double value) {
  if (isnan(value) || !impactfit_code_input_find(r->q.model, name))
    return;
  r->set[r->q.n_settings++] = (impactfit_code_setting){.name = name, .count = 1, .values = {value}};
}

/* two spheres of types t1, t2 (radii r1, r2, the types' densities) with the material Em, num (NaN: not set) */
static pair_request contact(const impactfit_code_model *md, double Em, double num, int t1, int t2, double r1,
                            double r2) {
  pair_request r;
  memset(&r, 0, sizeof r);
  r.q = impactfit_code_request_default();
  r.q.model = md;
  r.q.bodies.pair = 1;
  r.q.bodies.r1 = r1;
  r.q.bodies.r2 = r2;
  r.q.bodies.m1 = impactfit_code_sphere_mass(r1, RHO[t1 - 1]);
  r.q.bodies.m2 = impactfit_code_sphere_mass(r2, RHO[t2 - 1]);
  r.q.settings = r.set;
  add_setting(&r, "E", Em);
  add_setting(&r, "nu", num);
  return r;
}

static const impactfit_code_model *model(const char *code, const char *name, const char *damping) {
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  if (impactfit_code_model_find(code, NULL, name, damping, &md, &err)) {
    fprintf(stderr, "mixing_cases: %s\n", err.message);
    failed = 1;
  }
  return md;
}

static double forward_request(pair_request *r, double value) {
  double e = NAN;
  impactfit_error err;
  r->q.settings = r->set;
  if (impactfit_code_forward(&r->q, value, V, &e, &err)) {
    fprintf(stderr, "mixing_cases: forward: %s\n", err.message);
    failed = 1;
  }
  return e;
}

static double forward(const impactfit_code_model *md, double Em, double num, int t1, int t2, double r1, double r2,
                      double value) {
  pair_request r = contact(md, Em, num, t1, t2, r1, r2);
  return forward_request(&r, value);
}

static int first_collision;

static void collision(int t1, int t2, const double *r, double e, double estar, const char *what) {
  printf("%s{\"t1\":%d,\"t2\":%d,\"r1\":%.17g,\"r2\":%.17g,\"v\":%.17g,\"e\":%.17g,\"tol\":1e-5,\"estar\":%.17g,"
         "\"what\":\"%s\"}",
         first_collision ? "" : ",", t1, t2, r[0], r[1], V, e, estar, what);
  first_collision = 0;
}

static void begin(const char *code, const char *name, int first) {
  printf("%s{\"code\":\"%s\",\"name\":\"%s\",\"rho\":[%.17g,%.17g],", first ? "" : ",\n", code, name, RHO[0], RHO[1]);
}

static void lines(const char *const *ls, int n) {
  printf("\"lines\":[");
  for (int i = 0; i < n; i++)
    printf("%s\"%s\"", i ? "," : "", ls[i]);
  printf("],\"collisions\":[");
  first_collision = 1;
}

/* ---------------------------------------------------------------- the registry's own lines */

/* the registry's answer for the two-material request (body 1 = material 1, body 2 = material 2, 5 mm each, 1 m/s,
 * e 0.65 for 1-2, e11 0.5, e22 0.8, the friction given): its paste text, split into lines (malloc'd, in *text) */
typedef struct registry_lines {
  char *text;
  const char *line[16];
  int n;
} registry_lines;

/* split a paste text (malloc'd) into its non-comment lines */
static void split_lines(char *text, registry_lines *out) {
  memset(out, 0, sizeof *out);
  out->text = text;
  for (char *p = text; *p && out->n < 16;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    if (*p && *p != '#')
      out->line[out->n++] = p;
    if (!nl)
      break;
    p = nl + 1;
  }
}

static int answer_lines(const impactfit_code_model *md, const char *tangential, const char *friction_name,
                        double friction, registry_lines *out) {
  memset(out, 0, sizeof *out);
  impactfit_code_setting set[3] = {
      {.name = "E", .count = 2, .values = {E[0], E[1]}},
      {.name = "nu", .count = 2, .values = {NU[0], NU[1]}},
      {.name = friction_name, .count = 1, .values = {friction}},
  };
  impactfit_code_request q = impactfit_code_request_default();
  q.model = md;
  q.bodies.pair = 1;
  q.bodies.r1 = q.bodies.r2 = 0.005;
  q.bodies.rho1 = RHO[0];
  q.bodies.rho2 = RHO[1];
  q.settings = set;
  q.n_settings = friction_name ? 3 : 2;
  q.tangential = tangential;
  q.e = asked(1, 2);
  q.e11 = asked(1, 1);
  q.e22 = asked(2, 2);
  q.v = V;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  int st = impactfit_code_solve(&q, &a, &err);
  if (st || !a.reachable || !a.input || strstr(a.input, "<yours")) {
    fprintf(stderr, "mixing_cases: %s %s: %s %s\n", md->model, md->option ? md->option : "", st ? err.message : "",
            a.input ? a.input : "(no input)");
    impactfit_code_answer_free(&a);
    return failed = 1;
  }
  fprintf(stderr, "the registry's lines for %s%s%s:\n%s", md->model, md->option ? " damping " : "",
          md->option ? md->option : "", a.input);
  split_lines(a.input, out);
  a.input = NULL;
  impactfit_code_answer_free(&a);
  return 0;
}

/* the pair_coeff line of types t1 t2 in the registry's lines: its E, value and nu (hertz/material) */
static int pair_line(const registry_lines *l, int t1, int t2, double *Em, double *val, double *num) {
  char head[32];
  snprintf(head, sizeof head, "pair_coeff %d %d hertz/material ", t1, t2);
  for (int i = 0; i < l->n; i++)
    if (strncmp(l->line[i], head, strlen(head)) == 0 &&
        sscanf(l->line[i] + strlen(head), "%lf %lf %lf", Em, val, num) == 3)
      return 0;
  fprintf(stderr, "mixing_cases: no line '%s...' in the registry's answer\n", head);
  return failed = 1;
}

/* A (every line typed) or C: LAMMPS granular hertz/material, the registry's lines, one collision per type pair
 * and size; impactfit's own e of each line at each size */
static void lammps_lines(const impactfit_code_model *md, const registry_lines *l, const char *name, const char *what,
                         int exact, int first) {
  begin("lammps", name, first);
  lines(l->line, l->n);
  for (int t = 0; t < 3; t++) {
    int t1 = t == 1 ? 2 : 1, t2 = t == 0 ? 1 : 2; /* t = 0: 1-1, 1: 2-2, 2: 1-2 */
    double Em, val, nm;
    if (pair_line(l, t1, t2, &Em, &val, &nm))
      return;
    for (int k = 0; k < 4; k++) {
      double e = forward(md, Em, nm, t1, t2, RADII[k][0], RADII[k][1], val);
      if (exact && fabs(e - asked(t1, t2)) > 1e-9)
        fprintf(stderr, "mixing_cases: %d-%d: impactfit's own e %.12g is not the asked %.12g\n", t1, t2, e,
                asked(t1, t2)),
            failed = 1;
      double es = t == 2 ? impactfit_mix_estar(E[0], NU[0], E[1], NU[1])
                         : E[t1 - 1] / (2 * (1 - NU[t1 - 1] * NU[t1 - 1]));
      collision(t1, t2, RADII[k], exact ? asked(t1, t2) : e, es, what);
    }
  }
  printf("]}");
}

/* ---------------------------------------------------------------- the answer over sizes and speeds */

/* the tangential clause typed where the paste text leaves the user's placeholder ("tangential <yours: ...>") */
static char *with_tangential(const char *input, const char *clause) {
  const char *p = strstr(input, "tangential <yours:");
  size_t n = strlen(input) + strlen(clause) + 16;
  char *out = malloc(n);
  if (!out)
    return NULL;
  if (!p) {
    snprintf(out, n, "%s", input);
    return out;
  }
  const char *eol = strchr(p, '\n');
  snprintf(out, n, "%.*stangential %s%s", (int)(p - input), input, clause, eol ? eol : "");
  return out;
}

/* one collision per corner of the answer's box (answer.spread.e_corner's order: bit 0 r1, bit 1 r2, bit 2 v), each
 * expecting e (the corner's e, or the asked e for an exact model) */
static void corner_collisions(const impactfit_code_answer *a, const double *e, const char *what) {
  for (int i = 0; i < 8; i++) {
    double r[2] = {i & 1 ? a->r_max : a->r_min, i & 2 ? a->r_max : a->r_min}, v = i & 4 ? a->v_max : a->v_min;
    printf("%s{\"t1\":1,\"t2\":1,\"r1\":%.17g,\"r2\":%.17g,\"v\":%.17g,\"e\":%.17g,\"tol\":2e-6,\"estar\":%.17g,"
           "\"what\":\"%s\"}",
           first_collision ? "" : ",", r[0], r[1], v, e ? e[i] : a->e_asked, E[0] / (2 * (1 - NU[0] * NU[0])), what);
    first_collision = 0;
  }
}

/* E, F: LAMMPS gran/hertz/history (kn 7.3e7 Pa, xmu 0.5, dampflag 1), two 5 mm spheres of material 1, e 0.5 at
 * 1 m/s, over radii 2 .. 10 mm and speeds 0.2 .. 5 m/s (impactfit_code_solve with a size and a speed range):
 *  E  the registry's gran/hertz/history line, run at the box's 8 corners: e as answer.spread.e_corner says;
 *  F  the answer's exact_model line (granular hertz damping tsuji, the tangential clause typed), at the same
 *     corners: the asked 0.5. */
static int spread_scenarios(void) {
  const impactfit_code_model *md = model("lammps", "gran/hertz/history", NULL);
  if (!md)
    return 1;
  impactfit_code_setting set[3] = {
      {.name = "kn", .count = 1, .values = {7.3e7}},
      {.name = "xmu", .count = 1, .values = {0.5}},
      {.name = "dampflag", .count = 1, .values = {1}},
  };
  impactfit_code_request q = impactfit_code_request_default();
  q.model = md;
  q.bodies.pair = 1;
  q.bodies.r1 = q.bodies.r2 = 0.005;
  q.bodies.rho1 = q.bodies.rho2 = RHO[0];
  q.settings = set;
  q.n_settings = 3;
  q.e = 0.5;
  q.v = V;
  q.v_min = 0.2;
  q.v_max = 5.0;
  q.r_min = 0.002;
  q.r_max = 0.01;
  q.suggest = 1;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  int st = impactfit_code_solve(&q, &a, &err);
  const impactfit_code_answer *x = st ? NULL : a.exact_model;
  if (st || !a.reachable || !a.has_spread || a.spread_exact || !a.input || strstr(a.input, "<yours") || !x ||
      !x->input || !x->has_spread || !x->spread_exact) {
    fprintf(stderr, "mixing_cases: E: %s %s\n",
            st ? err.message : "no spread or no exact_model:", a.input ? a.input : "");
    impactfit_code_answer_free(&a);
    return 1;
  }
  for (int i = 0; i < 8; i++) /* the library's exact model at its own corners */
    if (fabs(x->spread.e_corner[i] - q.e) > 1e-9) {
      fprintf(stderr, "mixing_cases: F: the exact model's corner %d gives e %.12g, not %.12g\n", i,
              x->spread.e_corner[i], q.e);
      failed = 1;
    }
  fprintf(stderr, "E: gran/hertz/history over 2-10 mm, 0.2-5 m/s: e from %.6f to %.6f; exact model %s %s: %s",
          a.spread.e_min, a.spread.e_max, x->model->model, x->model->option, x->input);
  registry_lines le, lf;
  split_lines(a.input, &le);
  a.input = NULL;
  char *typed = with_tangential(x->input, "linear_nohistory 1.0 0.5");
  if (!typed) {
    impactfit_code_answer_free(&a);
    return 1;
  }
  split_lines(typed, &lf);
  begin("lammps", "E: gran/hertz/history, the registry's line, at the corners of 2-10 mm x 0.2-5 m/s", 0);
  lines(le.line, le.n);
  corner_collisions(&a, a.spread.e_corner, "gran/hertz/history, spread corner");
  printf("]}");
  begin("lammps", "F: the answer's exact_model line (granular hertz tsuji) at the same corners", 0);
  lines(lf.line, lf.n);
  corner_collisions(&a, NULL, "exact_model, asked e");
  printf("]}");
  free(le.text);
  free(lf.text);
  impactfit_code_answer_free(&a);
  return 0;
}

int main(void) {
  const impactfit_code_model *tsuji = model("lammps", "granular hertz/material", "tsuji");
  const impactfit_code_model *visco = model("lammps", "granular hertz/material", "viscoelastic");
  const impactfit_code_model *lig = model("liggghts", "hertz", NULL);
  const impactfit_code_model *hv = model("lammps", "granular hooke", "velocity");
  if (failed)
    return 1;
  impactfit_error err;
  registry_lines la, lc, ld;
  if (answer_lines(tsuji, "mindlin NULL 1.0 0.5", NULL, NAN, &la) ||
      answer_lines(visco, "mindlin NULL 1.0 0.5", NULL, NAN, &lc) ||
      answer_lines(lig, "history", "coefficientFriction", 0.5, &ld))
    return 1;
  printf("[\n");
  /* A: tsuji, the registry's three lines */
  lammps_lines(tsuji, &la, "A: granular hertz/material tsuji, the registry's pair_coeff 1 1, 2 2 and 1 2",
               "tsuji, the registry's lines", 1, 1);
  /* B: the same without the 1 2 line: LAMMPS mixes 1 2 and its pair runs as hooke with velocity damping
   * (impactfit_lammps_mix) */
  {
    registry_lines lb = la;
    lb.n = 0;
    for (int i = 0; i < la.n; i++)
      if (strncmp(la.line[i], "pair_coeff 1 2 ", 15) != 0)
        lb.line[lb.n++] = la.line[i];
    double li[3], lj[3];
    impactfit_lammps_mixed_pair mp;
    if (lb.n != la.n - 1 || pair_line(&la, 1, 1, &li[0], &li[1], &li[2]) ||
        pair_line(&la, 2, 2, &lj[0], &lj[1], &lj[2]) ||
        impactfit_lammps_mix("hertz/material", "tsuji", li, lj, &mp, &err)) {
      fprintf(stderr, "mixing_cases: B: no 1 2 line to drop, or %s\n", err.message);
      return 1;
    }
    begin("lammps", "B: tsuji, the registry's pair_coeff 1 1 and 2 2 only (LAMMPS mixes 1 2: hooke, velocity damping)",
          0);
    lines(lb.line, lb.n);
    for (int k = 0; k < 4; k++) {
      pair_request q = contact(hv, NAN, NAN, 1, 2, RADII[k][0], RADII[k][1]);
      add_setting(&q, "kn", mp.kn);
      double e = forward_request(&q, mp.eta);
      fprintf(stderr,
              "B: %.0f-%.0f mm: LAMMPS's mixed 1-2 pair (hooke kn %.6g N/m, velocity eta %.6g N s/m) gives "
              "e = %.9f where 0.65 was asked: type the 1 2 line\n",
              1e3 * RADII[k][0], 1e3 * RADII[k][1], mp.kn, mp.eta, e);
      /* the time step of the run: a linear spring's contact pi sqrt(M/kn), written as the E* whose Hertz time
       * estimate is shorter */
      collision(1, 2, RADII[k], e, 10.0 * mp.kn, "tsuji, 1 2 mixed by LAMMPS");
    }
    printf("]}");
  }
  /* C: viscoelastic, the registry's one eta_n0 per type pair (for 5 mm): e per size as impactfit predicts, and the
   * spread over 2-10 mm, 0.3-3 m/s */
  lammps_lines(visco, &lc, "C: viscoelastic, the registry's one eta_n0 per type pair (exact at 5 mm)",
               "viscoelastic, the registry's lines", 0, 0);
  for (int t = 0; t < 3; t++) {
    int t1 = t == 1 ? 2 : 1, t2 = t == 0 ? 1 : 2;
    double Em, val, nm;
    if (pair_line(&lc, t1, t2, &Em, &val, &nm))
      return 1;
    pair_request c = contact(visco, Em, nm, t1, t2, 0.005, 0.005);
    c.q.settings = c.set;
    impactfit_code_spread sp;
    if (impactfit_code_forward_spread(&c.q, val, RHO[t1 - 1], RHO[t2 - 1], 0.002, 0.01, 0.3, 3.0, 5, asked(t1, t2), &sp,
                                      &err) == 0)
      fprintf(stderr,
              "C: %d-%d eta_n0 %.6g: e from %.4f (r %.0f, %.0f mm, v %.2g m/s) to %.4f (r %.0f, %.0f mm, v %.2g m/s) "
              "over 2-10 mm and 0.3-3 m/s, worst |e - %.2f| = %.4f: one eta_n0 per type pair cannot be exact; "
              "damping tsuji can (A)\n",
              t1, t2, val, sp.e_min, 1e3 * sp.r1_min, 1e3 * sp.r2_min, sp.v_at_min, sp.e_max, 1e3 * sp.r1_max,
              1e3 * sp.r2_max, sp.v_at_max, asked(t1, t2), sp.worst);
  }
  /* D: LIGGGHTS hertz, the registry's lines (E and nu per type, the restitution matrix, friction 0.5 kept): every
   * pair and size at its asked e; impactfit's own e of the matrix at each size */
  {
    double d[4] = {NAN, NAN, NAN, NAN};
    for (int i = 0; i < ld.n; i++) {
      const char *m = strstr(ld.line[i], "coefficientRestitution peratomtypepair 2 ");
      if (m)
        sscanf(m + strlen("coefficientRestitution peratomtypepair 2 "), "%lf %lf %lf %lf", &d[0], &d[1], &d[2], &d[3]);
    }
    if (isnan(d[3]) || d[1] != d[2]) {
      fprintf(stderr, "mixing_cases: D: no symmetric coefficientRestitution matrix in the registry's lines\n");
      return 1;
    }
    double es[3] = {E[0] / (2 * (1 - NU[0] * NU[0])), E[1] / (2 * (1 - NU[1] * NU[1])),
                    impactfit_mix_estar(E[0], NU[0], E[1], NU[1])};
    begin("liggghts",
          "D: hertz, the registry's lines (per-type E, nu; coefficientRestitution per type pair; "
          "friction 0.5)",
          0);
    lines(ld.line, ld.n);
    for (int t = 0; t < 3; t++)
      for (int k = 0; k < 4; k++) {
        int t1 = t == 1 ? 2 : 1, t2 = t == 0 ? 1 : 2;
        double val = t == 0 ? d[0] : t == 1 ? d[3] : d[1];
        /* the pair's Yeff as one material with nu = 0 */
        double e = forward(lig, 2 * es[t], 0.0, t1, t2, RADII[k][0], RADII[k][1], val);
        if (fabs(e - asked(t1, t2)) > 1e-9)
          fprintf(stderr, "mixing_cases: D %d-%d: impactfit's own e %.12g is not the asked %.12g\n", t1, t2, e,
                  asked(t1, t2)),
              failed = 1;
        collision(t1, t2, RADII[k], asked(t1, t2), es[t], "LIGGGHTS, the registry's lines");
      }
    printf("]}");
  }
  if (spread_scenarios())
    return 1;
  printf("\n]\n");
  free(la.text);
  free(lc.text);
  free(ld.text);
  return failed;
}
