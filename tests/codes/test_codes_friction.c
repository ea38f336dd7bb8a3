/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every DEM entry of the registry (every code of kind dem or dem+engine, every model, every version range):
 * no paste text sets a friction or a tangential setting to 0 unless the user typed it (docs/SCENE.md); when the
 * user gives none, the line carries a marked placeholder "<yours: ...>" and the note says that the head-on normal
 * law does not depend on it; a typed value (and a typed tangential clause) comes back in the text; a typed 0
 * does too. The zero detector is itself checked on the texts of round 3 (it must fire there). Two materials: the
 * LAMMPS lines per type pair carry impactfit_lammps_pair_material's E12, nu12 and each pair's own value. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "impactfit/mixing.h"
#include "testutil.h"

/* 1 when the word after `key` (numbers, skipping a peratomtypepair count) holds a value 0 */
static int zero_after(const char *text, const char *key, int skip_count) {
  for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
    const char *q = p + strlen(key);
    char *end;
    if (skip_count) {
      strtol(q, &end, 10);
      q = end;
    }
    for (int k = 0; k < 4; k++) {
      while (*q == ' ' || *q == '=')
        q++;
      double x = strtod(q, &end);
      if (end == q)
        break;
      if (x == 0.0)
        return 1;
      q = end;
    }
  }
  return 0;
}

/* a friction or tangential setting at zero anywhere in a paste text */
static int zero_friction(const char *t) {
  if (zero_after(t, "frictionAngle=", 0) || zero_after(t, "SetFriction(", 0) || zero_after(t, "cs=", 0) ||
      zero_after(t, "ks=", 0) || zero_after(t, "et=", 0) || zero_after(t, "es=", 0))
    return 1;
  static const char *const pairs[] = {"coefficientFriction peratomtypepair", "kt peratomtypepair",
                                      "gammat peratomtypepair", "gammat_abs peratomtypepair"};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (zero_after(t, pairs[i], 1))
      return 1;
  /* pair granular's tangential clause: any number 0 up to the next keyword or line end */
  for (const char *p = strstr(t, "tangential "); p; p = strstr(p + 1, "tangential ")) {
    const char *q = p + strlen("tangential ");
    q += strcspn(q, " \n"); /* the model's name */
    while (*q == ' ') {
      char *end;
      double x = strtod(q + 1, &end);
      if (end == q + 1)
        break;
      if (x == 0.0)
        return 1;
      q = end;
    }
  }
  /* pair_style gran/...: Kn Kt gamma_n gamma_t xmu dampflag */
  for (const char *p = strstr(t, "pair_style gran/"); p; p = strstr(p + 1, "pair_style gran/")) {
    char line[256];
    size_t n = strcspn(p, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(n < 255 ? n : 255), p);
    char *save = NULL, *tok = strtok_r(line, " ", &save);
    for (int k = 0; tok; k++, tok = strtok_r(NULL, " ", &save)) {
      char *end;
      double x = strtod(tok, &end);
      if ((k == 3 || k == 5 || k == 6 || k == 7) && end != tok && *end == 0 && x == 0.0)
        return 1;
    }
  }
  return 0;
}

static int is_dem(const impactfit_code_model *md) { return strstr(md->code->kind, "dem") != NULL; }

static int has_clause(const impactfit_code_model *md) {
  const char *n = md->code->name;
  return (!strcmp(n, "lammps") && !strncmp(md->model, "granular ", 9)) || !strcmp(n, "liggghts");
}

typedef struct fr_case {
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
} fr_case;

/* the audit's reference contact for md (two spheres or a sphere on a wall), e = 0.6 */
static void fr_make(const impactfit_code_model *md, int wall, fr_case *c) {
  c->q = impactfit_code_audit_request(md, c->set);
  c->q.settings = c->set;
  c->q.version = md->first_version;
  c->q.bodies.pair = wall ? 0 : 1;
  c->q.e = 0.6;
}

/* the optional inputs typed: value `base + 0.01 k` (k-th), or 0 when zero; dampflag 1 */
static void fr_type(const impactfit_code_model *md, fr_case *c, int zero, double typed[IMPACTFIT_CODE_MAX_INPUTS]) {
  for (int i = 0, k = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    typed[i] = NAN;
    if (!in->optional)
      continue;
    double x = zero ? 0.0 : !strcmp(in->name, "dampflag") ? 1.0 : 0.371 + 0.0123 * k++;
    typed[i] = x;
    c->set[c->q.n_settings++] = (impactfit_code_setting){.name = in->name, .body = 0, .count = 1, .values = {x}};
  }
}

static int fr_solve(fr_case *c, impactfit_code_answer *a, const char *what) {
  impactfit_error err;
  memset(a, 0, sizeof *a);
  int st = impactfit_code_solve(&c->q, a, &err);
  CHECK(st == 0, "%s: %s %s %s %s: %s", what, c->q.model->code->name, c->q.model->model, c->q.model->option,
        c->q.model->versions, st ? err.message : "");
  return st;
}

static void check_model(const impactfit_code_model *md, int wall, size_t *n_texts) {
  const char *name = md->code->name;
  char what[256];
  snprintf(what, sizeof what, "%s %s %s (%s, %s)", name, md->model, md->option, md->versions,
           wall ? "wall" : "two spheres");
  int optional = 0;
  for (int i = 0; i < md->n_inputs; i++)
    optional += md->inputs[i].optional;
  CHECK(optional > 0 || has_clause(md), "%s: no friction or tangential setting of the user's", what);
  /* nothing typed: no zero, a placeholder, the note says the normal law does not depend on it */
  fr_case c;
  fr_make(md, wall, &c);
  impactfit_code_answer a;
  if (!fr_solve(&c, &a, what) && a.reachable) {
    (*n_texts)++;
    CHECK(!zero_friction(a.input), "%s: a zero friction nobody typed:\n%s", what, a.input);
    CHECK(strstr(a.input, "<yours") != NULL, "%s: no placeholder for the user's friction:\n%s", what, a.input);
    CHECK(strstr(a.note, "does not depend on") != NULL, "%s: the note does not say the normal law is independent: %s",
          what, a.note);
  } else
    CHECK(0, "%s: e = 0.6 not reached", what);
  impactfit_code_answer_free(&a);
  /* typed values come back, no placeholder left */
  double typed[IMPACTFIT_CODE_MAX_INPUTS];
  fr_make(md, wall, &c);
  fr_type(md, &c, 0, typed);
  const char *clause = !strcmp(name, "liggghts") ? "history" : "mindlin NULL 1.0 0.437";
  if (has_clause(md))
    c.q.tangential = clause;
  if (!fr_solve(&c, &a, what)) {
    CHECK(!zero_friction(a.input), "%s: typed values, a zero appears:\n%s", what, a.input);
    CHECK(strstr(a.input, "<yours") == NULL, "%s: typed everything, a placeholder is left:\n%s", what, a.input);
    for (int i = 0; i < md->n_inputs; i++)
      if (!isnan(typed[i])) {
        char v[64];
        snprintf(v, sizeof v, "%.10g", typed[i]);
        CHECK(strstr(a.input, v) != NULL, "%s: typed %s = %s is not in the text:\n%s", what, md->inputs[i].name, v,
              a.input);
      }
    if (has_clause(md)) {
      char want[96];
      snprintf(want, sizeof want, "tangential %s", clause);
      CHECK(strstr(a.input, want) != NULL, "%s: the typed clause '%s' is not in the text:\n%s", what, want, a.input);
    }
    CHECK(strstr(a.note, "are kept") != NULL || strstr(a.note, "is kept") != NULL,
          "%s: the note does not say the user's settings are kept: %s", what, a.note);
  }
  impactfit_code_answer_free(&a);
  /* a typed 0 comes back (the detector sees it) */
  fr_make(md, wall, &c);
  fr_type(md, &c, 1, typed);
  if (has_clause(md))
    c.q.tangential = !strcmp(name, "liggghts") ? "no_history" : "linear_nohistory 0 0";
  if (!fr_solve(&c, &a, what)) {
    CHECK(zero_friction(a.input), "%s: typed zeros do not come back:\n%s", what, a.input);
    CHECK(strstr(a.input, "<yours") == NULL, "%s: typed zeros, a placeholder is left:\n%s", what, a.input);
  }
  impactfit_code_answer_free(&a);
  /* a tangential clause the code does not know, or a model without one: EINVAL */
  fr_make(md, wall, &c);
  c.q.tangential = "bogus 1 2 3";
  impactfit_error err;
  memset(&a, 0, sizeof a);
  int st = impactfit_code_solve(&c.q, &a, &err);
  CHECK(st == IMPACTFIT_EINVAL && strstr(err.message, "tangential"), "%s: tangential 'bogus' gave %d (%s)", what, st,
        st ? err.message : "");
  impactfit_code_answer_free(&a);
}

/* the detector on round 3's texts: it must fire */
static void check_detector(void) {
  static const char *const old[] = {"pair_coeff * * hertz/material 1e8 0.5 0.3 tangential linear_nohistory 0 0 damping "
                                    "tsuji\n",
                                    "pair_style gran/hooke 2e4 NULL 12.5 NULL 0.0 0\n",
                                    "fix m4 all property/global coefficientFriction peratomtypepair 1 0.0\n",
                                    "fix m4 all property/global gammat peratomtypepair 1 0.0\n",
                                    "mat = FrictMat(young=1e8, poisson=0.3, density=2500, frictionAngle=0)\n",
                                    "mat = ViscElMat(kn=2e4, ks=2e4, cn=1, cs=0, frictionAngle=0.5)\n",
                                    "mat1->SetFriction(0);\n"};
  for (size_t i = 0; i < sizeof old / sizeof old[0]; i++)
    CHECK(zero_friction(old[i]), "the detector misses a zero friction in: %s", old[i]);
  CHECK(!zero_friction("pair_coeff * * hertz/material 1e8 0.5 0.3 damping tsuji tangential mindlin NULL 1.0 0.5\n"),
        "the detector fires on a friction 0.5");
}

/* two materials in LAMMPS: the three lines, the 1 2 line's E12 and nu12, each pair's own value */
static void check_two_materials(void) {
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  CHECK(impactfit_code_model_find("lammps", NULL, "hertz/material", "tsuji", &md, &err) == 0, "find");
  fr_case c;
  fr_make(md, 0, &c);
  c.q.n_settings = 0;
  c.set[c.q.n_settings++] = (impactfit_code_setting){.name = "E", .count = 2, .values = {1e8, 5e8}};
  c.set[c.q.n_settings++] = (impactfit_code_setting){.name = "nu", .count = 2, .values = {0.3, 0.2}};
  c.q.bodies = impactfit_code_bodies_default();
  c.q.bodies.r1 = 0.002;
  c.q.bodies.r2 = 0.01;
  c.q.bodies.rho1 = 2500.0;
  c.q.bodies.rho2 = 7800.0;
  c.q.e = 0.65;
  c.q.e11 = 0.5;
  c.q.e22 = 0.8;
  impactfit_code_answer a;
  if (fr_solve(&c, &a, "two materials"))
    return;
  double E12, nu12;
  CHECK(impactfit_lammps_pair_material(1e8, 0.3, 5e8, 0.2, &E12, &nu12, &err) == 0, "pair material");
  /* E* of the 1 2 line as LAMMPS computes it from E12, nu12 equals the two materials' */
  CHECK_REL(E12 / (2.0 * (1.0 - nu12 * nu12)), impactfit_mix_estar(1e8, 0.3, 5e8, 0.2), 1e-13, "E* of the 1 2 line");
  char want[160];
  snprintf(want, sizeof want, "pair_coeff 1 2 hertz/material %.12g %.12g %.12g", E12, a.value, nu12);
  CHECK(strstr(a.input, want) != NULL, "the 1 2 line '%s' is not in:\n%s", want, a.input);
  CHECK(strstr(a.input, "pair_coeff 1 1 hertz/material 100000000 ") && strstr(a.input, "pair_coeff 2 2 hertz/material "
                                                                                       "500000000 "),
        "the 1 1 and 2 2 lines:\n%s", a.input);
  /* each pair's value: a one-material request of that pair gives its asked e (impactfit_code_forward) */
  for (int b = 1; b <= 2; b++) {
    char key[32];
    snprintf(key, sizeof key, "pair_coeff %d %d hertz/material ", b, b);
    const char *p = strstr(a.input, key);
    double E, val, nu;
    CHECK(p && sscanf(p + strlen(key), "%lg %lg %lg", &E, &val, &nu) == 3, "parse %s", key);
    if (!p)
      continue;
    fr_case s;
    fr_make(md, 0, &s);
    s.q.n_settings = 0;
    s.set[s.q.n_settings++] = (impactfit_code_setting){.name = "E", .count = 1, .values = {E}};
    s.set[s.q.n_settings++] = (impactfit_code_setting){.name = "nu", .count = 1, .values = {nu}};
    s.q.bodies = impactfit_code_bodies_default();
    s.q.bodies.pair = 1;
    s.q.bodies.r1 = b == 1 ? 0.002 : 0.01;
    s.q.bodies.rho1 = b == 1 ? 2500.0 : 7800.0;
    s.q.e = NAN;
    double e;
    CHECK(impactfit_code_forward(&s.q, val, 1.0, &e, &err) == 0, "forward %d %d", b, b);
    CHECK_ABS(e, b == 1 ? 0.5 : 0.8, 1e-9, "the %d %d line's e", b, b);
  }
  CHECK_ABS(a.e, 0.65, 1e-9, "the 1 2 pair's e");
  impactfit_code_answer_free(&a);
  /* a LAMMPS wall takes one material */
  fr_make(md, 1, &c);
  c.q.n_settings = 0;
  c.set[c.q.n_settings++] = (impactfit_code_setting){.name = "E", .count = 2, .values = {1e8, 5e8}};
  c.set[c.q.n_settings++] = (impactfit_code_setting){.name = "nu", .count = 1, .values = {0.3}};
  memset(&a, 0, sizeof a);
  int st = impactfit_code_solve(&c.q, &a, &err);
  CHECK(st == IMPACTFIT_EINVAL && strstr(err.message, "one material"), "a LAMMPS wall of two materials: %d", st);
  impactfit_code_answer_free(&a);
}

int main(void) {
  check_detector();
  size_t n_models = 0, n_texts = 0;
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    if (!is_dem(md) || !(md->n > 0.0))
      continue;
    n_models++;
    for (int wall = 0; wall <= 1; wall++)
      check_model(md, wall, &n_texts);
  }
  CHECK(n_models >= 38, "DEM entries checked: %zu", n_models);
  printf("DEM entries: %zu, paste texts checked without anything typed: %zu\n", n_models, n_texts);
  check_two_materials();
  return tu_report("test_codes_friction");
}
