/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every model of the registry: the answer says what it assumes (impactfit_code_answer.assumes, docs/SCENE.md
 * "What every answer assumes") consistently with the request: head-on; the bodies (a wall: "a sphere ... on a
 * fixed wall or plane"; a pair: "two ... spheres"); gravity ("no gravity", or with gravity 9.81 where the model
 * takes it "gravity taken: 9.81" as the first item); the friction (typed optional inputs come back as "yours",
 * none typed says so; MuJoCo names its condim, friction and impratio, the pyramidal cone with friction 0.5 as the
 * first item); two materials where the bodies' E differ; a speed range; the drop answer's own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/code_drop.h"
#include "impactfit/impactfit.h"
#include "testutil.h"

typedef struct as_case {
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS + 2];
} as_case;

/* the audit's reference contact, the inputs without a default filled (as test_registry does), e = 0.6 */
static void as_make(const impactfit_code_model *md, int wall, as_case *c) {
  static const struct {
    const char *name;
    double v0, v1;
  } fill[] = {{"kp", 1e3, 0}, {"cfm", 1e-3, 0}, {"stiffness", 1e7, 0}, {"solref", -1e4, -30.0}};
  c->q = impactfit_code_audit_request(md, c->set);
  c->q.settings = c->set;
  c->q.version = md->first_version;
  c->q.bodies.pair = wall ? 0 : 1;
  c->q.e = 0.6;
  if (md->integrators[0].stepper && !(md->dt_default > 0.0))
    c->q.dt = 1e-4;
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (!isnan(in->def[0]) || (md->param_input && !strcmp(in->name, md->param_input) && md->param_index == 0))
      continue;
    for (size_t k = 0; k < sizeof fill / sizeof fill[0]; k++)
      if (!strcmp(fill[k].name, in->name))
        c->set[c->q.n_settings++] =
            (impactfit_code_setting){.name = in->name, .count = in->count, .values = {fill[k].v0, fill[k].v1}};
  }
}

static int has_input(const impactfit_code_model *md, const char *name) {
  for (int i = 0; i < md->n_inputs; i++)
    if (!strcmp(md->inputs[i].name, name))
      return 1;
  return 0;
}

/* solves; returns the status, the answer in a (free it) */
static int as_solve(as_case *c, impactfit_code_answer *a, impactfit_error *err) {
  memset(a, 0, sizeof *a);
  return impactfit_code_solve(&c->q, a, err);
}

static int has(const char *s, const char *w) { return s && strstr(s, w) != NULL; }

static void check_model(const impactfit_code_model *md, int wall, int *n_gravity, int *n_answers) {
  char what[256];
  snprintf(what, sizeof what, "%s %s %s (%s, %s)", md->code->name, md->model, md->option, md->versions,
           wall ? "wall" : "two spheres");
  int mujoco = has_input(md, "condim") && has_input(md, "cone");
  as_case c;
  impactfit_code_answer a;
  impactfit_error err;
  /* the plain request */
  as_make(md, wall, &c);
  int st = as_solve(&c, &a, &err);
  if (st == IMPACTFIT_EINVAL && !wall && has(err.message, "wall")) { /* a model of a sphere on a wall only */
    impactfit_code_answer_free(&a);
    return;
  }
  CHECK(st == 0, "%s: %s", what, st ? err.message : "");
  if (!st) {
    (*n_answers)++;
    CHECK(a.assumes && has(a.assumes, "head-on"), "%s: assumes '%s'", what, a.assumes ? a.assumes : "(null)");
    CHECK(has(a.assumes, "no gravity") && !has(a.assumes, "gravity taken"), "%s: gravity: %s", what, a.assumes);
    if (a.wall)
      CHECK(has(a.assumes, "on a fixed wall or plane") && !has(a.assumes, "two "), "%s: a wall: %s", what, a.assumes);
    else
      CHECK(has(a.assumes, "two ") && has(a.assumes, "spheres") && !has(a.assumes, "wall"), "%s: a pair: %s", what,
            a.assumes);
    CHECK(wall == a.wall, "%s: wall %d asked, %d answered", what, wall, a.wall);
    CHECK(has(a.assumes, "one material") && !has(a.assumes, "two materials"), "%s: materials: %s", what, a.assumes);
    CHECK(has(a.assumes, "the impact speed 1 m/s (one speed)"), "%s: the speed: %s", what, a.assumes);
    if (a.model->precision && *a.model->precision) { /* the arithmetic modelled (Bullet: float32 or float64) */
      char want[512];
      snprintf(want, sizeof want, "arithmetic: %s", a.model->precision);
      CHECK(has(a.assumes, want), "%s: the precision: %s", what, a.assumes);
    }
    if (mujoco)
      CHECK(has(a.assumes, "condim 3, the pyramidal cone, friction 1, impratio 1"), "%s: MuJoCo's contact: %s", what,
            a.assumes);
    else
      CHECK(has(a.assumes, "friction: none typed") && has(a.assumes, "does not depend on it"), "%s: friction: %s", what,
            a.assumes);
  }
  impactfit_code_answer_free(&a);
  /* the friction typed (the optional inputs; MuJoCo's friction 0.5: the pyramidal cone first) */
  as_make(md, wall, &c);
  int typed = 0;
  for (int i = 0; i < md->n_inputs; i++)
    if (md->inputs[i].optional && md->inputs[i].count == 1 && !md->inputs[i].per_body)
      c.set[c.q.n_settings++] = (impactfit_code_setting){.name = md->inputs[i].name, .count = 1, .values = {0.437}},
      typed++;
  if (mujoco)
    c.set[c.q.n_settings++] =
        (impactfit_code_setting){.name = "friction", .count = 5, .values = {0.5, 0.5, 0.005, 0.0001, 0.0001}};
  if ((typed || mujoco) && !as_solve(&c, &a, &err)) {
    if (mujoco)
      CHECK(!strncmp(a.assumes,
                     "MuJoCo's pyramidal cone: the answer is computed for condim 3, friction 0.5, impratio 1", 86),
            "%s: the cone first: %s", what, a.assumes);
    else
      CHECK(has(a.assumes, "friction: yours (") && has(a.assumes, " 0.437") && has(a.assumes, "kept in the paste"),
            "%s: typed friction: %s", what, a.assumes);
  }
  impactfit_code_answer_free(&a);
  /* gravity 9.81 where the model takes it: the first item */
  as_make(md, wall, &c);
  c.q.gravity = 9.81;
  st = as_solve(&c, &a, &err);
  if (!st) {
    (*n_gravity)++;
    CHECK(!strncmp(a.assumes, "gravity taken: 9.81 m/s^2", 25) && !has(a.assumes, "no gravity"), "%s: gravity: %s",
          what, a.assumes);
  } else
    CHECK(st == IMPACTFIT_EINVAL && has(err.message, "gravity"), "%s: gravity 9.81 refused with '%s'", what,
          err.message);
  impactfit_code_answer_free(&a);
  /* a speed range */
  as_make(md, wall, &c);
  c.q.v_min = 0.5;
  c.q.v_max = 2.0;
  if (!as_solve(&c, &a, &err))
    CHECK(has(a.assumes, "a speed range 0.5 .. 2 m/s") && !has(a.assumes, "(one speed)"), "%s: range: %s", what,
          a.assumes);
  impactfit_code_answer_free(&a);
  /* two materials: E per body (two spheres; a wall of a second material where the model takes one) */
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (!in->per_body || in->count != 1 || strcmp(in->name, "E") || wall)
      continue;
    as_make(md, wall, &c);
    c.set[c.q.n_settings++] = (impactfit_code_setting){.name = in->name, .count = 2, .values = {1e8, 5e8}};
    if (!as_solve(&c, &a, &err))
      CHECK(!strncmp(a.assumes, "two materials (the bodies' E differ", 35) && !has(a.assumes, "one material"),
            "%s: two materials: %s", what, a.assumes);
    impactfit_code_answer_free(&a);
  }
}

/* the drop answer's */
static void check_drop(void) {
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  CHECK(impactfit_code_model_find("mujoco", NULL, NULL, NULL, &md, &err) == 0, "mujoco");
  as_case c;
  as_make(md, 1, &c);
  c.q.e = NAN;
  c.q.value = 1.0;
  impactfit_drop_params p = impactfit_drop_default_params();
  p.height = 1.0;
  p.bounces = 3;
  impactfit_code_drop_answer d;
  CHECK(impactfit_code_drop(&c.q, &p, 4, &d, &err) == 0, "drop: %s", err.message);
  CHECK(has(d.assumes, "gravity taken: 9.81 m/s^2 along the normal (a drop test)") &&
            has(d.assumes, "a drop from 1 m at rest") && has(d.assumes, "4.4294"),
        "drop: %s", d.assumes ? d.assumes : "(null)");
  impactfit_code_drop_free(&d);
  CHECK(d.assumes == NULL, "drop free");
}

int main(void) {
  int n_models = 0, n_gravity = 0, n_answers = 0;
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    n_models++;
    check_model(md, 1, &n_gravity, &n_answers);
    check_model(md, 0, &n_gravity, &n_answers);
  }
  check_drop();
  printf("assumes: %d models, %d answers, %d with gravity\n", n_models, n_answers, n_gravity);
  CHECK(n_models >= 40 && n_gravity >= 4, "too few models (%d) or gravity answers (%d)", n_models, n_gravity);
  return tu_report("test_codes_assumes");
}
