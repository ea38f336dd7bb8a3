/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code registry as a whole (include/impactfit/codes.h, src/codes/): every model of every code, and the
 * parts every code shares:
 *  - every continuous-time power-law model (the DEM codes', Chrono's "continuous"): the value returned gives
 *    the asked e back at the design speed (the forward problem, a second path through impact.h), the speed
 *    range holds it, the real e increases with a typed restitution, and speed-dependent damping constants obey
 *    the scaling law: with ζ = C δ_m0^(m+1)/(M v) and δ_m0 ∝ v^(2/(n+1)), the C that gives e scales as
 *    C ∝ v^(1 − 2(m+1)/(n+1));
 *  - no answer is cut: every model's longest note ends with the last sentence its own note writes (the notes
 *    are malloc'd: some are longer than the 1023 bytes of the old fixed buffers);
 *  - the one list of codes (codes.def), lookups with "known: ..." and "did you mean", versions one can type,
 *    the bodies convention (a wall by default, a pair, effective values), settings by name (counts, per body,
 *    aliases), the stepper types the integrator tables name. */
#include <float.h>
#include <stdlib.h>

#include "codes_test.h"

/* ---------------------------------------------------------------- every power-law model */

static int power_model(const impactfit_code_model *md) {
  for (int i = 0; i < md->n_integrators; i++)
    if (!md->integrators[i].stepper && md->solver != IMPACTFIT_CODE_SOLVE_MEAN && md->law == impactfit_law_power)
      return 1;
  return 0;
}

static void check_power_model(const impactfit_code_model *md, int wall) {
  const double es[5] = {0.05, 0.3, 0.5, 0.8, 0.97};
  ct_request r = ct_dem(md, wall);
  r.q.integrator = "continuous";
  if (!wall) { /* unequal radii and masses */
    r.q.bodies.pair = -1;
    r.q.bodies.r2 = 0.002;
    r.q.bodies.rho2 = 7800.0;
  }
  impactfit_code_answer a = {0}, a2 = {0};
  impactfit_error err;
  for (int k = 0; k < 5; k++) {
    r.q.e = es[k];
    r.q.v = 0.8;
    r.q.v_min = 0.2;
    r.q.v_max = 3.0;
    int st = ct_solve(&r, &a, &err);
    CHECK(st == 0 && !a.stepped, "%s %s %s wall %d e %g: %s", md->code->name, md->model, md->option, wall, es[k],
          st ? err.message : "");
    if (st || !a.reachable)
      continue;
    CHECK_REL(ct_forward(&r, -1, a.value, 0.8), es[k], 2e-9, "%s %s %s wall %d: round trip e = %g", md->code->name,
              md->model, md->option, wall, es[k]);
    CHECK(a.e_speed_min <= es[k] + 1e-9 && a.e_speed_max >= es[k] - 1e-9, "%s %s: the range holds e", md->code->name,
          md->model);
    CHECK(strlen(a.input) > 10, "%s %s: an input text", md->code->name, md->model);
    if (a.speed_dependent && !md->takes_e) {
      CHECK(a.e_speed_max - a.e_speed_min > 1e-3, "%s %s: speed-dependent spread", md->code->name, md->model);
      ct_request r2 = r;
      r2.q.v = 2.4;
      CHECK(ct_solve(&r2, &a2, NULL) == 0, "solve at another speed");
      double expo = 1.0 - 2.0 * (md->m + 1.0) / (md->n + 1.0);
      CHECK_REL(a2.value, a.value * pow(2.4 / 0.8, expo), 2e-8, "%s %s %s: scaling law of the damping", md->code->name,
                md->model, md->option);
      /* the range over speeds holds the ends' restitutions */
      double e02 = ct_forward(&r, -1, a.value, 0.2), e3 = ct_forward(&r, -1, a.value, 3.0);
      CHECK(a.e_speed_min <= fmin(e02, e3) && a.e_speed_max >= fmax(e02, e3), "%s %s: range holds its ends",
            md->code->name, md->model);
    }
  }
  if (md->takes_e) { /* monotone: more restitution typed, more restitution got */
    double prev = -1.0;
    int mono = 1;
    for (int j = 1; j <= 99; j++) {
      double e1;
      impactfit_code_request q = *ct_q(&r);
      if (impactfit_code_forward(&q, j / 100.0, 0.8, &e1, NULL) != 0) {
        mono &= md->param_floor > 0.0 && j / 100.0 <= md->param_floor; /* LIGGGHTS refuses e <= 0.05 */
        continue;
      }
      mono &= e1 > prev;
      prev = e1;
    }
    CHECK(mono, "%s %s %s: real e increases with the typed %s", md->code->name, md->model, md->option, md->param);
  }
  impactfit_code_answer_free(&a);
  impactfit_code_answer_free(&a2);
}

static void check_every_power_model(void) {
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    if (!power_model(md))
      continue;
    for (int wall = 0; wall < 2; wall++)
      check_power_model(md, wall);
  }
}

/* ---------------------------------------------------------------- no answer is cut */

/* the values of the settings without a default, for a request of any model */
static void fill_required(ct_request *r) {
  static const struct {
    const char *name;
    double v0, v1;
  } fill[] = {{"E", 1e8, 0},    {"nu", 0.3, 0},        {"kn", 2e5, 0},          {"tc", 2e-4, 0},  {"kp", 1e3, 0},
              {"cfm", 1e-3, 0}, {"stiffness", 1e7, 0}, {"solref", -1e4, -30.0}, {"vchar", 1.0, 0}};
  const impactfit_code_model *md = r->q.model;
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (!isnan(in->def[0]) || (md->param_input && !strcmp(in->name, md->param_input) && md->param_index == 0))
      continue;
    for (size_t k = 0; k < sizeof fill / sizeof fill[0]; k++)
      if (!strcmp(fill[k].name, in->name))
        ct_set(r, in->name, in->count, fill[k].v0, fill[k].v1);
  }
}

/* one request of a model for the notes' check: its first version (formula only ones say so), the integrator i,
 * a wall or two spheres; inverse for e = 0.5 when value is NaN, else forward */
static ct_request notes_request(const impactfit_code_model *md, int i, int wall, double value) {
  ct_request r = ct_make(md);
  r.q.version = md->first_version;
  r.q.integrator = md->integrators[i].name;
  r.q.dt = md->integrators[i].stepper && !(md->dt_default > 0.0) ? 1e-5 : NAN;
  if (!wall) {
    r.q.bodies.r2 = 0.004;
    r.q.bodies.m2 = 0.003;
  }
  fill_required(&r);
  if (impactfit_code_input_find(md,
                                "young_modulus")) /* a contact of some 25 steps at 1e-5 s (Chrono's default is soft) */
    ct_set1(&r, "young_modulus", 1e8);
  if (isnan(value))
    r.q.e = 0.5;
  else
    r.q.value = value;
  return r;
}

/* the model's own note for the answer's request and value ends the answer's note, and formula only is said */
static size_t check_note(const impactfit_code_model *md, ct_request *r, const impactfit_code_answer *a) {
  impactfit_code_ctx *c = malloc(sizeof *c);
  impactfit_text t = IMPACTFIT_TEXT_INIT;
  if (c && impactfit_code_resolve(ct_q(r), c, NULL) == 0 && md->ops->note)
    md->ops->note(c, a->value, &t);
  const char *own = impactfit_text_str(&t);
  size_t n = strlen(own), len = strlen(a->note);
  while (n && own[n - 1] == ' ')
    n--;
  CHECK(n == 0 || (!a->stepped && a->forward) || (len >= n && memcmp(a->note + len - n, own, n) == 0),
        "%s %s (%s): the note ends with the model's own last sentence: ...%s", md->code->name, md->model,
        r->q.integrator, len > 80 ? a->note + len - 80 : a->note);
  if (a->stepped && !a->run_here)
    CHECK(strstr(a->note, "not run here.") != NULL, "%s %s: formula only is said", md->code->name, md->model);
  impactfit_text_free(&t);
  free(c);
  return len;
}

static void check_notes(void) {
  size_t longest_all = 0;
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    impactfit_code_answer a = {0};
    impactfit_error err;
    /* the inverse at the default integrator, then its value forward at the default and every continuous-time
     * integrator, both geometries (an unstable step's search for the largest stable dt is not this test's) */
    ct_request r = notes_request(md, 0, 1, NAN);
    if (getenv("CT_VERBOSE"))
      fprintf(stderr, "notes: %s %s %s\n", md->code->name, md->model, md->option);
    int st = ct_solve(&r, &a, &err);
    CHECK(st == 0, "%s %s %s: %s", md->code->name, md->model, md->option, st ? err.message : "");
    if (st)
      continue;
    double value = a.reachable ? a.value : a.naive_value;
    size_t len = check_note(md, &r, &a);
    longest_all = len > longest_all ? len : longest_all;
    for (int in = 0; in < md->n_integrators && isfinite(value); in++)
      for (int wall = 0; wall < 2 && (in == 0 || !md->integrators[in].stepper); wall++) {
        ct_request f = notes_request(md, in, wall, value);
        st = ct_solve(&f, &a, &err);
        CHECK(st == 0, "%s %s %s (%s, %s): %s", md->code->name, md->model, md->option, f.q.integrator,
              wall ? "wall" : "pair", st ? err.message : "");
        if (st)
          continue;
        len = check_note(md, &f, &a);
        longest_all = len > longest_all ? len : longest_all;
      }
    impactfit_code_answer_free(&a);
  }
  printf("notes: the longest is %zu bytes\n", longest_all);
  CHECK(longest_all > 1023, "some note is longer than the old 1023-byte buffers (%zu): nothing cut", longest_all);
}

/* ---------------------------------------------------------------- the registry */

static void check_codes(void) {
  static const char *const def[] = {"lammps", "liggghts", "yade", "chrono", "mujoco", "simbody", "ode", "bullet"};
  CHECK(impactfit_code_count() >= 8, "at least the 8 codes of round 3");
  for (size_t i = 0; i < sizeof def / sizeof def[0]; i++)
    CHECK(impactfit_code_at(i) && !strcmp(impactfit_code_at(i)->name, def[i]) &&
              impactfit_code_from_name(def[i]) == impactfit_code_at(i),
          "codes.def order: %s", def[i]);
  size_t n = 0;
  for (size_t i = 0; i < impactfit_code_count(); i++) {
    const impactfit_code *c = impactfit_code_at(i);
    n += c->n_models;
    CHECK(c->version_key(c->default_version) != 0, "%s: its default version %s can be read", c->name,
          c->default_version);
    for (size_t k = 0; k < c->n_models; k++)
      CHECK(c->models[k].code == c && c->models[k].ops && c->models[k].n_integrators >= 1 && c->models[k].source &&
                c->models[k].law_text && c->models[k].param,
            "%s %s: a complete entry", c->name, c->models[k].model);
  }
  CHECK(n == impactfit_code_model_count(), "the flat list of models is every code's");
  impactfit_error err;
  const impactfit_code *code;
  CHECK(impactfit_code_lookup("lamps", &code, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "did you mean 'lammps'?") &&
            strstr(err.message, "lammps, liggghts, yade, chrono, mujoco, simbody, ode, bullet"),
        "unknown code: %s", err.message);
  CHECK(impactfit_code_lookup("MuJoCo", &code, NULL) == 0 && !strcmp(code->name, "mujoco"), "code lookup ignores case");
  /* every listed version is one a user can type, and each entry's first version opens its range */
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *m = impactfit_code_model_at(i);
    char text[256];
    snprintf(text, sizeof text, "%s", m->versions);
    for (char *tok = strtok(text, " -"); tok; tok = strtok(NULL, " -"))
      if (tok[0] >= '0' && tok[0] <= '9' && !strchr(tok, ')'))
        CHECK(m->code->version_key(tok) != 0, "%s %s: listed version '%s' can be typed", m->code->name, m->model, tok);
    CHECK(m->version_min == 0 || m->code->version_key(m->first_version) == m->version_min,
          "%s %s: first_version %s opens the range", m->code->name, m->model, m->first_version);
    CHECK(!m->run_min || (m->run_versions && impactfit_version_in_range(m->run_min, m->version_min, m->version_max)),
          "%s %s: the versions run here lie in the range", m->code->name, m->model);
  }
  CHECK(impactfit_code_version_dotted("10.0.0") == 10000000 && impactfit_code_version_dotted("2.2.2") == 2002002 &&
            impactfit_code_version_dotted("0.16.2") == 16002 && impactfit_code_version_dotted("3.1000") == 0,
        "one encoding of dotted versions");
  /* the step maps of the integrator tables are found by name */
  const char *maps[] = {"euler",
                        "rk4",
                        "explicit-euler",
                        "frozen-force",
                        "ode-soft",
                        "ode-quickstep",
                        "bullet-restitution",
                        "bullet-stiffness-damping",
                        "dart",
                        "rapier-soft",
                        "jolt",
                        "jolt-double",
                        "physx-pgs",
                        "cannon-gs",
                        "havok-measured"};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
    CHECK(impactfit_code_stepper_type_from_name(maps[i]) != NULL, "stepper type %s", maps[i]);
  CHECK(impactfit_code_stepper_type_count() == sizeof maps / sizeof maps[0] &&
            !impactfit_code_stepper_type_from_name("continuous"),
        "%zu step maps (got %zu), continuous time is none of them", sizeof maps / sizeof maps[0],
        impactfit_code_stepper_type_count());
}

static void check_bodies(void) {
  impactfit_code_ctx c;
  impactfit_error err;
  const double m = 4.0 / 3.0 * M_PI * 0.005 * 0.005 * 0.005 * 2500.0; /* (4/3) π r³ ρ, written out */
  impactfit_code_bodies b = impactfit_code_bodies_default();
  b.r1 = 0.005;
  b.rho1 = 2500.0;
  CHECK(impactfit_code_bodies_resolve(&b, &c, NULL) == 0 && c.wall && isnan(c.r2) && isnan(c.m2), "a wall by default");
  CHECK_REL(c.m1, m, 1e-15, "m1 from the density");
  CHECK(c.R == 0.005 && c.M == c.m1, "wall: R = r1, M = m1");
  b.pair = 1;
  CHECK(impactfit_code_bodies_resolve(&b, &c, NULL) == 0 && !c.wall && c.r2 == 0.005 && c.m2 == c.m1, "a pair");
  CHECK_REL(c.M, 0.5 * m, 1e-15, "pair: M = m/2");
  CHECK_REL(c.R, 0.0025, 1e-15, "pair: R = r/2");
  b = impactfit_code_bodies_default();
  b.r1 = 0.01;
  b.r2 = 0.02;
  b.m1 = 3.0;
  CHECK(impactfit_code_bodies_resolve(&b, &c, NULL) == 0 && !c.wall && c.m2 == 3.0,
        "a body-2 value makes two spheres; the second mass is the first's unless given");
  b.pair = 0;
  CHECK(impactfit_code_bodies_resolve(&b, &c, &err) == IMPACTFIT_EINVAL && strstr(err.message, "not a body"),
        "a wall and r2: %s", err.message);
  b = impactfit_code_bodies_default();
  b.meff = 0.5;
  b.reff = 0.25;
  CHECK(impactfit_code_bodies_resolve(&b, &c, NULL) == 0 && c.M == 0.5 && c.R == 0.25 && isnan(c.m1) && c.wall,
        "effective mass and radius directly");
  b.r1 = 0.1;
  CHECK(impactfit_code_bodies_resolve(&b, &c, &err) == IMPACTFIT_EINVAL && strstr(err.message, "not both"),
        "meff and a radius: %s", err.message);
  b = impactfit_code_bodies_default();
  b.r1 = 0.005;
  b.rho1 = 2500.0;
  b.rho2 = 0.0;
  CHECK(impactfit_code_bodies_resolve(&b, &c, &err) == IMPACTFIT_EINVAL && strstr(err.message, "densities must be > 0"),
        "rho2 = 0: %s", err.message);
  b.rho1 = b.rho2 = NAN;
  CHECK(impactfit_code_bodies_resolve(&b, &c, &err) == IMPACTFIT_EINVAL && strstr(err.message, "density"),
        "no density and no masses: %s", err.message);
  b.m1 = 1.0;
  b.rho1 = 1.0;
  CHECK(impactfit_code_bodies_resolve(&b, &c, &err) == IMPACTFIT_EINVAL && strstr(err.message, "not both"),
        "masses and densities: %s", err.message);
}

static void check_settings(void) {
  impactfit_code_answer a = {0};
  impactfit_error err;
  ct_request r = ct_make(ct_find("mujoco", NULL, NULL, NULL));
  r.q.e = 0.5;
  ct_set1(&r, "solref", 0.02);
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "solref takes 2 values (got 1)"),
        "a wrong count: %s", err.message);
  r = ct_make(ct_find("mujoco", NULL, NULL, NULL));
  r.q.e = 0.5;
  ct_set1(&r, "foo", 1.0);
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "its settings: solref (2 values, s, -)"),
        "an unknown setting lists the settings: %s", err.message);
  r = ct_make(ct_find("mujoco", NULL, NULL, NULL));
  r.q.e = 0.5;
  ct_set(&r, "solref", 2, 0.02, NAN);
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "not a finite number"), "NaN: %s",
        err.message);
  /* gravity: applied by MuJoCo's step (a sphere pressed on the plane rebounds less), refused where a step map
   * does not model it */
  r = ct_make(ct_find("mujoco", NULL, NULL, NULL));
  r.q.e = 0.5;
  CHECK(ct_solve(&r, &a, &err) == 0, "mujoco without gravity: %s", err.message);
  double e_flat = ct_forward(&r, -1, a.value, 1.0);
  r.q.gravity = 9.81;
  CHECK(ct_forward(&r, -1, a.value, 1.0) < e_flat, "gravity lowers MuJoCo's e at the same solref");
  r = ct_make(ct_find("simbody", NULL, NULL, NULL));
  r.q.e = 0.5;
  r.q.gravity = 9.81;
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "does not model gravity"), "gravity: %s",
        err.message);
  /* per body: one value for both, or one each; the historical dem spelling E for Chrono's young_modulus */
  r = ct_make(ct_find("chrono", NULL, "hertz", NULL));
  r.q.integrator = "continuous";
  r.q.value = 0.5;
  ct_set1(&r, "E", 1e8);
  CHECK(ct_solve(&r, &a, &err) == 0, "E for young_modulus: %s", err.message);
  double e_one = a.e;
  ct_set(&r, "young_modulus", 2, 1e8, 1e8);
  r.q.n_settings = 1;
  r.set[0].name = "young_modulus";
  CHECK(ct_solve(&r, &a, &err) == 0 && a.e == e_one, "two equal values are one");
  /* a DEM model of two materials: E* = 1/((1 - nu1^2)/E1 + (1 - nu2^2)/E2), K = (4/3) E* sqrt(R) (LIGGGHTS's Yeff) */
  r = ct_dem(ct_find("liggghts", NULL, "hertz", NULL), 1);
  r.q.e = 0.5;
  ct_set(&r, "E", 2, 1e8, 2e9);
  CHECK(ct_solve(&r, &a, &err) == 0, "two materials: %s", err.message);
  double estar = 1.0 / ((1.0 - 0.09) / 1e8 + (1.0 - 0.09) / 2e9);
  CHECK_REL(a.K, 4.0 / 3.0 * estar * sqrt(a.R), 1e-14, "two materials: K of E*");
  impactfit_code_answer_free(&a);
}

/* A restitution of 0 (the engines' default, a value they take: docs/engines/) in forward mode, where the model says
 * so (param_takes_zero): the answer is the step map's at 0, continuous with it at 1e-12 (within 1e-9, the value read
 * from the settings as the CLI does), and the closed form where the map has one: no restitution row at 0 (Jolt above
 * its 1 m/s threshold and below, PhysX above its 2 m/s, Havok: e = 0 exactly; Rapier and DART: bounds); cannon-es
 * keeps its constraint's own rebound, 0.136 at the default step and 1 m/s (CANNON.md: measured in the engine); a
 * parameter that must stay positive (MuJoCo's dampratio) is still refused at 0 */
static void check_forward_zero(void) {
  static const struct {
    const char *code, *model, *input;
    double v, dt, e_max; /* dt 0: the model's default; e_max: the closed form's bound of every phase (NaN: none) */
    int count;
    double second; /* the input's second value (ODE's bounce_vel) */
  } cs[] = {{"jolt", NULL, "mRestitution", 2.0, 0.0, 0.0, 1, 0.0},
            {"jolt", NULL, "mRestitution", 0.5, 1e-6, 0.0, 1, 0.0},
            {"physx", NULL, "restitution", 3.0, 0.0, 0.0, 1, 0.0},
            {"havok", NULL, "restitution", 3.0, 0.0, 0.0, 1, 0.0},
            {"cannon", NULL, "restitution", 1.0, 0.0, NAN, 1, 0.0},
            {"bullet", "restitution", "restitution", 1.0, 0.0, NAN, 1, 0.0},
            {"ode", "bounce", "bounce", 1.0, 0.01, NAN, 2, 0.1},
            /* Rapier: the contact ends at a rounding-level speed (e ~ 1e-16, every phase another branch sequence);
             * DART (the ground's coefficient 1): below its 0.1 m/s threshold r b = 0, the correction's maxERV/v at
             * most */
            {"rapier", NULL, "restitution", 1.5, 0.0, 1e-15, 1, 0.0},
            {"dart", NULL, "restitutionCoeff", 1.0, 0.0, 1e-3 * (1.0 + 1e-12), 2, 1.0}};
  impactfit_code_answer a;
  impactfit_error err;
  memset(&a, 0, sizeof a);
  for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
    double e[2] = {NAN, NAN};
    for (int i = 0; i < 2; i++) {
      ct_request r = ct_make(ct_find(cs[k].code, NULL, cs[k].model, NULL));
      CHECK(r.q.model->param_takes_zero, "%s: takes a restitution of 0", cs[k].code);
      r.q.v = cs[k].v;
      if (cs[k].dt > 0.0)
        r.q.dt = cs[k].dt;
      if (cs[k].count == 2)
        ct_set(&r, cs[k].input, 2, i ? 1e-12 : 0.0, cs[k].second);
      else
        ct_set1(&r, cs[k].input, i ? 1e-12 : 0.0);
      int s = ct_solve(&r, &a, &err);
      CHECK(s == 0 && a.value == (i ? 1e-12 : 0.0), "%s at %g: %s", cs[k].code, i ? 1e-12 : 0.0, s ? err.message : "");
      e[i] = s ? NAN : a.e;
      if (s == 0 && i == 0 && !isnan(cs[k].e_max))
        CHECK(a.e >= 0.0 && a.e_min >= 0.0 && a.e_max <= cs[k].e_max, "%s at 0, %g m/s: e %.17g in [%g, %g]",
              cs[k].code, cs[k].v, a.e, a.e_min, a.e_max);
    }
    CHECK_ABS(e[0], e[1], 1e-9, "%s: e at restitution 0 and 1e-12", cs[k].code);
    if (strcmp(cs[k].code, "cannon") == 0)
      CHECK_ABS(e[0], 0.136, 5e-4, "cannon at restitution 0: the engine's 0.136");
  }
  ct_request r = ct_make(ct_find("mujoco", NULL, NULL, NULL));
  CHECK(!r.q.model->param_takes_zero, "mujoco: dampratio 0 refused");
  r.q.value = 0.0;
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "must be > 0"), "mujoco at 0: %s",
        err.message);
  impactfit_code_answer_free(&a);
}

int main(void) {
  check_codes();
  check_bodies();
  check_settings();
  check_every_power_model();
  check_notes();
  check_forward_zero();
  return tu_report("test_registry");
}
