/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Friction kept (issue 33 item 1, docs/SCENE.md "Friction"): over every engine entry of the registry (every
 * model, version range and integrator, a sphere on a plane and two spheres), the text to paste never sets a
 * friction to 0 unless the user typed 0, and a typed friction comes back in it. Each engine declares its
 * friction settings by the code's own names (MuJoCo: the cone inputs its answer is computed for); the text
 * without them carries the user's own (left alone, or a "<yours: NAME>" placeholder where the call needs a
 * value). The check on zeros reads the text as a user would: every friction word (friction, Friction, mu,
 * mFriction) followed by a number, and the positional friction arguments of the calls that take them. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes/codes_test.h"
#include "impactfit/impactfit.h"
#include "testutil.h"

/* the friction settings of a model: inputs whose name says friction, or ODE's mu */
static int is_friction(const impactfit_code_input *in) {
  return strstr(in->name, "riction") || strcmp(in->name, "mu") == 0;
}

/* a number right after a friction word ("mu = 0", "friction: 0", "setFriction(0)", friction="0 ...") */
static int zero_after_word(const char *t, const char **where) {
  static const char *const words[] = {"riction", "mu"};
  for (size_t w = 0; w < 2; w++)
    for (const char *p = strstr(t, words[w]); p; p = strstr(p + 1, words[w])) {
      const char *q = p + strlen(words[w]);
      if (w == 1 && (isalnum((unsigned char)q[0]) || (p > t && isalnum((unsigned char)p[-1]))))
        continue; /* "mujoco", "emu": not the word mu */
      if (w == 0 && isalpha((unsigned char)q[0]))
        continue; /* "frictionCombine" */
      while (*q == ' ' || *q == '=' || *q == ':' || *q == '(' || *q == '"' || *q == '[')
        q++;
      char *end;
      double x = strtod(q, &end);
      if (end != q && x == 0.0) {
        *where = p;
        return 1;
      }
    }
  return 0;
}

/* the positional friction arguments: the calls' arguments at the given places (0-based) */
static int zero_positional(const char *t, const char **where) {
  static const struct {
    const char *call;
    int args[3], n;
  } calls[] = {{"createMaterial(", {0, 1}, 2},
               {"HP_Shape_SetMaterial(sphereShape, [", {0, 1}, 2},
               {"setBodyParameters(ContactSurfaceIndex(0), ", {2, 3, 4}, 3},
               {"setBodyParameters(ContactSurfaceIndex(1), ", {2, 3, 4}, 3},
               {"ContactMaterial(", {2, 3, 4}, 3}};
  for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++)
    for (const char *p = strstr(t, calls[k].call); p; p = strstr(p + 1, calls[k].call)) {
      const char *q = p + strlen(calls[k].call);
      for (int a = 0; a <= calls[k].args[calls[k].n - 1]; a++) {
        while (*q == ' ')
          q++;
        char *end;
        double x = strtod(q, &end);
        for (int j = 0; j < calls[k].n; j++)
          if (calls[k].args[j] == a && end != q && x == 0.0) {
            *where = p;
            return 1;
          }
        const char *comma = strchr(q, ',');
        if (!comma)
          break;
        q = comma + 1;
      }
    }
  return 0;
}

/* the request of one entry with its required settings (forward: the free parameter typed) */
static void required(const impactfit_code_model *md, ct_request *r) {
  static const struct {
    const char *name;
    double v[2];
  } req[] = {{"kp", {1e3}},   {"kd", {1.0}},          {"erp", {0.2}},
             {"cfm", {1e-5}}, {"restitution", {0.5}}, {"solref", {-1000.0, -20.0}}};
  for (int i = 0; i < md->n_inputs; i++)
    if (isnan(md->inputs[i].def[0])) {
      impactfit_code_setting *s = &r->set[r->q.n_settings++];
      memset(s, 0, sizeof *s);
      s->name = md->inputs[i].name;
      s->count = md->inputs[i].count;
      for (int k = 0; k < s->count; k++)
        s->values[k] = 0.5;
      for (size_t q = 0; q < sizeof req / sizeof req[0]; q++)
        if (strcmp(req[q].name, s->name) == 0)
          for (int k = 0; k < s->count && k < 2; k++)
            s->values[k] = req[q].v[k];
    }
}

/* the text to paste for the request (the inverse for e = 0.6, else the typed value 0.5 forward), NULL on
 * failure (reported) */
static char *text_of(ct_request *r, const char *what) {
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  r->q.e = 0.6;
  int st = ct_solve(r, &a, &err);
  if (st || !a.reachable) {
    r->q.e = NAN;
    r->q.value = 0.5;
    st = ct_solve(r, &a, &err);
  }
  CHECK(st == 0, "%s: %s", what, st ? err.message : "");
  char *t = NULL;
  if (!st) {
    const char *in = a.input ? a.input : "";
    t = malloc(strlen(in) + 1);
    if (t)
      memcpy(t, in, strlen(in) + 1);
  }
  impactfit_code_answer_free(&a);
  return t;
}

static int n_texts;

static void one(const impactfit_code_model *md, const char *integrator, int wall) {
  char what[300];
  snprintf(what, sizeof what, "%s %s '%s' %s %s", md->code->name, md->versions, md->model, integrator,
           wall ? "wall" : "pair");
  ct_request r = ct_make(md);
  r.q.integrator = integrator;
  r.q.bodies.pair = wall ? 0 : 1;
  if (!(md->dt_default > 0.0))
    r.q.dt = strcmp(md->code->name, "chrono") == 0 ? 2e-5 : 1.0 / 240.0;
  for (int i = 0; i < md->n_integrators; i++)
    if (strcmp(md->integrators[i].name, integrator) == 0 && !md->integrators[i].stepper)
      r.q.dt = NAN;
  required(md, &r);
  ct_q(&r);
  char *plain = text_of(&r, what);
  if (!plain)
    return;
  n_texts++;
  const char *where = NULL;
  CHECK(!zero_after_word(plain, &where) && !zero_positional(plain, &where),
        "%s: the text sets a friction to 0 that nobody typed: '%.60s'", what, where ? where : "");
  /* typed: each friction setting a distinct value, then 0, comes back as typed */
  int nf = 0;
  for (int i = 0; i < md->n_inputs; i++)
    nf += is_friction(&md->inputs[i]);
  const char *code = md->code->name;
  if (strcmp(code, "chrono") != 0) /* Chrono's SMC entries are the DEM side's (docs/SCENE.md) */
    CHECK(nf > 0, "%s: no friction setting", what);
  for (int pass = 0; pass < 2; pass++) {
    ct_request t = r;
    int k = 0;
    for (int i = 0; i < md->n_inputs; i++) {
      const impactfit_code_input *in = &md->inputs[i];
      if (!is_friction(in))
        continue;
      double v[IMPACTFIT_CODE_MAX_VALUES];
      for (int j = 0; j < in->count; j++) /* MuJoCo's 5 values: the same torsion and roll pairs (a geom's 3) */
        v[j] = pass ? 0.0 : 0.4375 + 0.0625 * (k + (j == 1 ? 0 : j == 4 ? 2 : j));
      ct_set(&t, in->name, in->count, in->count > 0 ? v[0] : 0.0, in->count > 1 ? v[1] : 0.0,
             in->count > 2 ? v[2] : 0.0, in->count > 3 ? v[3] : 0.0, in->count > 4 ? v[4] : 0.0);
      k++;
    }
    if (!k)
      break;
    char *typed = text_of(&t, what);
    if (!typed)
      continue;
    for (int i = 0, kk = 0; i < md->n_inputs; i++) {
      const impactfit_code_input *in = &md->inputs[i];
      if (!is_friction(in))
        continue;
      char want[32];
      snprintf(want, sizeof want, "%.12g", pass ? 0.0 : 0.4375 + 0.0625 * kk);
      CHECK(strstr(typed, want) != NULL, "%s: the typed %s = %s does not come back: %s", what, in->name, want, typed);
      kk++;
    }
    if (pass == 0)
      CHECK(!strstr(typed, "<yours"), "%s: a placeholder left where friction was typed: %s", what, typed);
    free(typed);
  }
  free(plain);
}

int main(void) {
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    if (!strstr(md->code->kind, "engine"))
      continue;
    for (int k = 0; k < md->n_integrators; k++)
      for (int wall = 0; wall < 2; wall++)
        one(md, md->integrators[k].name, wall);
  }
  printf("test_engine_friction: %d texts\n", n_texts);
  CHECK(n_texts > 100, "every engine entry (%d texts)", n_texts);
  return tu_report("test_engine_friction");
}
