/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MuJoCo as the oracle of the user's scene (issue 33): contact dimensions, cones, friction and impratio
 * where they change the normal law, and gravity with drop tests (src/engines/mujoco.c, src/law/drop.c,
 * docs/SCENE.md).
 *
 * The cases are built on impactfit's side here: the MJCF text of the scene, impactfit's input for the asked
 * e (impactfit_code_solve, impactfit_drop_solve), and what impactfit predicts the engine does (e(φ) at
 * the Gauss–Legendre nodes of each smooth piece of e(φ); the bounce heights of a drop test). Then
 *  - `mujoco_scene` runs them in MuJoCo 2.2.2 (Debian 12's libmujoco-dev): a sphere of radius r on a plane,
 *    (1) no gravity, one impact at each node's phase (placed (2 − φ) v dt above the contact, speed v): the
 *    engine's e at every node equals impactfit's within 1e-6 and the engine's phase mean (the nodes'
 *    weighted sum) equals the asked e within 1e-6; (2) released from rest at a height under gravity: the
 *    engine's apexes (local maxima of the gap at the step starts, above the peak threshold) equal
 *    impactfit's within 1e-6 relative, and the user's fit of them (ln h_n on n, h_0 the release height)
 *    gives the asked e within 1e-4;
 *  - `mujoco_scene --emit FILE` writes the same cases (for impactfit's 3.x entry) as JSON lines for
 *    tests/engines/js/mujoco3_scene.mjs, which runs them in MuJoCo 3.3.8 (the WebAssembly build of npm
 *    mujoco-js 0.0.7): a subset (30 scenes, 6 drop tests; the report's two with implicitfast too), about 2 s of
 *    CPU there; `--emit-all FILE` every case (45; about 27 s).
 * The engine side (MJCF, placing, stepping, apexes, fit) uses only the engine and the printed values of
 * impactfit's answers, never impactfit's steppers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>

#include "harness.h"
#include "impactfit/code_drop.h"
#include "impactfit/drop.h"
#include "impactfit/codes.h"
#include "testutil.h"

#define NAME "mujoco_scene"
#define MAXN 1024

/* ---------------------------------------------------------------- scenes */

typedef struct {
  char name[128];
  const char *integ; /* MJCF integrator: Euler, RK4 (3.3.8 also implicitfast) */
  double dt;
  int condim, cone, pair; /* pair: the contact's 5 friction values through a <pair> */
  double friction[5], impratio;
  int direct;       /* solref in direct form */
  double solref[2]; /* the free value replaces [1] (standard) or is −[1] (direct) */
  double solimp[5];
  double r, m; /* the sphere */
  double v;    /* phase cases: the approach speed */
  double g;    /* drop cases: gravity; 0 for phase cases */
  int js;      /* 1: also in the MuJoCo 3.3.8 run (tests/engines/js/mujoco3_scene.mjs) */
} mscene;

static mscene scene_default(const char *name, const char *integ, double dt) {
  mscene s;
  memset(&s, 0, sizeof s);
  snprintf(s.name, sizeof s.name, "%s", name);
  s.integ = integ;
  s.dt = dt;
  s.condim = 3;
  double fr[5] = {1, 1, 0.005, 0.0001, 0.0001}, si[5] = {0.9, 0.95, 0.001, 0.5, 2};
  memcpy(s.friction, fr, sizeof fr);
  memcpy(s.solimp, si, sizeof si);
  s.impratio = 1.0;
  s.solref[0] = 0.02;
  s.solref[1] = 1.0;
  s.r = 0.005;
  s.m = 4.0 / 3.0 * M_PI * 0.005 * 0.005 * 0.005 * 2500.0;
  s.v = 1.0;
  s.js = dt >= 0.002 && strcmp(integ, "Euler") == 0;
  return s;
}

/* the MJCF text of a scene with the free value */
static void mjcf(const mscene *s, double value, char *xml, size_t size) {
  char sr[96], si[160], fr[512] = "", pair[640] = "";
  if (s->direct)
    snprintf(sr, sizeof sr, "%.17g %.17g", s->solref[0], -value);
  else
    snprintf(sr, sizeof sr, "%.17g %.17g", s->solref[0], value);
  snprintf(si, sizeof si, "%.17g %.17g %.17g %.17g %.17g", s->solimp[0], s->solimp[1], s->solimp[2], s->solimp[3],
           s->solimp[4]);
  if (s->pair)
    snprintf(pair, sizeof pair,
             "<contact><pair geom1=\"g1\" geom2=\"g2\" condim=\"%d\" friction=\"%.17g %.17g %.17g %.17g %.17g\" "
             "solref=\"%s\" solimp=\"%s\"/></contact>",
             s->condim, s->friction[0], s->friction[1], s->friction[2], s->friction[3], s->friction[4], sr, si);
  else
    snprintf(fr, sizeof fr, "condim=\"%d\" friction=\"%.17g %.17g %.17g\" solref=\"%s\" solimp=\"%s\"", s->condim,
             s->friction[0], s->friction[2], s->friction[3], sr, si);
  snprintf(xml, size,
           "<mujoco><option timestep=\"%.17g\" integrator=\"%s\" gravity=\"0 0 %.17g\" cone=\"%s\" "
           "impratio=\"%.17g\"/><default><geom %s/></default><worldbody><geom name=\"g2\" type=\"plane\" "
           "size=\"5 5 0.1\"/><body pos=\"0 0 1\"><joint type=\"free\"/><geom name=\"g1\" type=\"sphere\" "
           "size=\"%.17g\" mass=\"%.17g\"/></body></worldbody>%s</mujoco>",
           s->dt, s->integ, -s->g, s->cone ? "elliptic" : "pyramidal", s->impratio, fr, s->r, s->m, pair);
}

/* ---------------------------------------------------------------- impactfit's side */

static const char *int_name(const char *mjcf_name) {
  return strcmp(mjcf_name, "RK4") == 0 ? "rk4" : strcmp(mjcf_name, "implicitfast") == 0 ? "implicitfast" : "euler";
}

/* a request and the settings it points to (Q fixes the pointer after a copy) */
typedef struct mreq {
  impactfit_code_request q;
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
} mreq;

static impactfit_code_request *Q(mreq *r) {
  r->q.settings = r->set;
  return &r->q;
}

static void set(mreq *rq, const char *name, int count, const double *values) {
  impactfit_code_setting *t = &rq->set[rq->q.n_settings++];
  t->name = name;
  t->count = count;
  memcpy(t->values, values, (size_t)count * sizeof(double));
}

static int request_of(const mscene *s, const char *version, mreq *rq) {
  impactfit_error err;
  memset(rq, 0, sizeof *rq);
  rq->q = impactfit_code_request_default();
  rq->q.settings = rq->set;
  if (impactfit_code_model_find("mujoco", version, s->direct ? "soft contact direct" : "soft contact", NULL,
                                &rq->q.model, &err)) {
    fprintf(stderr, NAME ": %s\n", err.message);
    return 1;
  }
  rq->q.bodies.pair = 0;
  rq->q.bodies.r1 = s->r;
  rq->q.bodies.m1 = s->m;
  rq->q.dt = s->dt;
  rq->q.integrator = int_name(s->integ);
  rq->q.v = s->v;
  rq->q.gravity = s->g;
  double sr[2] = {s->solref[0], s->solref[1]}, cd = s->condim, cn = s->cone;
  if (s->direct)
    sr[1] = -1.0; /* the free value replaces it */
  set(rq, "solref", 2, sr);
  set(rq, "solimp", 5, s->solimp);
  set(rq, "condim", 1, &cd);
  set(rq, "cone", 1, &cn);
  set(rq, "friction", 5, s->friction);
  set(rq, "impratio", 1, &s->impratio);
  return 0;
}

typedef struct {
  int n;
  double phi[MAXN], w[MAXN], e[MAXN];
} nodes;

/* 8-point Gauss–Legendre nodes on each smooth piece of impactfit's e(φ) (jumps from the signatures, as
 * harness.h's hz_engine_mean), with impactfit's e there */
static int nodes_of(const impactfit_stepper *st, double v, nodes *N) {
  static const double gx[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
  static const double gw[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
  double jumps[HZ_MAX_JUMPS + 2], prev = 1e-12;
  unsigned long sp = 0, sg = 0;
  int n = 0;
  if (isnan(hz_model_e(st, v, prev, &sp)))
    return 1;
  for (int i = 1; i <= 64; i++) {
    double phi = i / 64.0;
    if (isnan(hz_model_e(st, v, phi, &sg)))
      return 1;
    hz_jumps_between(st, v, prev, sp, phi, sg, jumps, &n);
    prev = phi;
    sp = sg;
  }
  N->n = 0;
  double a = 0.0;
  for (int k = 0; k <= n; k++) {
    double b = k < n ? jumps[k] : 1.0, m = 0.5 * (a + b), r = 0.5 * (b - a);
    if (b - a > 1e-9)
      for (int i = 0; i < 8 && N->n < MAXN; i++) {
        double phi = i < 4 ? m - r * gx[i] : m + r * gx[i - 4];
        N->phi[N->n] = phi;
        N->w[N->n] = r * gw[i % 4];
        N->e[N->n] = hz_model_e(st, v, phi, NULL);
        N->n++;
      }
    a = b;
  }
  return N->n >= MAXN;
}

/* ---------------------------------------------------------------- the engine's side */

typedef struct {
  char xml[4096];
  mjModel *m;
  mjData *d;
} engine;

static engine ENG;

static int engine_load(const char *xml) {
  if (ENG.m && strcmp(xml, ENG.xml) == 0)
    return 0;
  if (ENG.m) {
    mj_deleteData(ENG.d);
    mj_deleteModel(ENG.m);
    ENG.m = NULL;
  }
  snprintf(ENG.xml, sizeof ENG.xml, "%s", xml);
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  size_t n = strlen(xml);
  char err[1000] = "";
  if (mj_makeEmptyFileVFS(&vfs, "scene.xml", (int)n) == 0) {
    memcpy(vfs.filedata[mj_findFileVFS(&vfs, "scene.xml")], xml, n);
    ENG.m = mj_loadXML("scene.xml", &vfs, err, sizeof err);
  }
  mj_deleteVFS(&vfs);
  if (!ENG.m) {
    fprintf(stderr, NAME ": MJCF not loaded (%s):\n%s\n", err, xml);
    return 1;
  }
  ENG.d = mj_makeData(ENG.m);
  return 0;
}

/* one impact without gravity at phase φ: e, or NaN */
static double engine_impact(const char *xml, double r, double v, double dt, double phi) {
  if (engine_load(xml))
    return NAN;
  mjModel *m = ENG.m;
  mjData *d = ENG.d;
  mj_resetData(m, d);
  d->qpos[2] = r + (2.0 - phi) * v * dt;
  d->qvel[2] = -v;
  int acting = 0;
  for (long k = 0; k < 1000000; k++) {
    double v0 = d->qvel[2];
    mj_step(m, d);
    double v1 = d->qvel[2];
    acting |= v1 != v0;
    if (acting && d->qpos[2] - r >= 0.0 && v1 > 0.0 && v1 == v0)
      return v1 / v;
  }
  return NAN;
}

/* one impact under gravity g at phase φ (Euler): the body placed where MuJoCo's own Euler free flight, run back two
 * steps from the first contact step's start (gap −φ v dt, speed v), puts it; e = the upward speed after the first
 * step that applied no contact force and left a gap, / v */
static double engine_impact_g(const char *xml, double r, double v, double dt, double g, double phi) {
  if (engine_load(xml))
    return NAN;
  mjModel *m = ENG.m;
  mjData *d = ENG.d;
  mj_resetData(m, d);
  double z = r - phi * v * dt, w = -v; /* the state J = 2 steps ahead */
  for (int k = 0; k < 2; k++) {        /* z' = z + h w', w' = w − g h, backwards */
    z -= dt * w;
    w += g * dt;
  }
  d->qpos[2] = z;
  d->qvel[2] = w;
  int acting = 0;
  for (long k = 0; k < 1000000; k++) {
    mj_step(m, d);
    int force = 0;
    for (int i = 0; i < d->nefc; i++)
      force |= d->efc_force[i] != 0.0;
    acting |= force;
    if (acting && !force && d->qpos[2] - r >= 0.0 && d->qvel[2] > 0.0)
      return d->qvel[2] / v;
  }
  return NAN;
}

/* a drop from rest at gap h: the apexes (local maxima of the gap at the step starts above min_h), at most n */
static int engine_drop(const char *xml, double r, double h, long nsteps, double min_h, int n, double *apex) {
  if (engine_load(xml))
    return -1;
  mjModel *m = ENG.m;
  mjData *d = ENG.d;
  mj_resetData(m, d);
  d->qpos[2] = r + h;
  double g2 = h, g1 = h; /* the gaps two and one step starts ago */
  int found = 0;
  for (long k = 0; k < nsteps && found < n; k++) {
    mj_step(m, d);
    double g0 = d->qpos[2] - r;
    if (k >= 1 && g1 > g2 && g1 >= g0 && g1 > min_h && g1 > 0.0)
      apex[found++] = g1;
    g2 = g1;
    g1 = g0;
  }
  return found;
}

/* the user's fit (ln h_k on k, k = 0..n, h_0 the release height): e = exp(slope/2) */
static double user_fit(double h0, const double *apex, int n) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k <= n; k++) {
    double y = log(k == 0 ? h0 : apex[k - 1]);
    sx += k;
    sy += y;
    sxx += (double)k * k;
    sxy += k * y;
  }
  double N = n + 1;
  return exp(0.5 * (N * sxy - sx * sy) / (N * sxx - sx * sx));
}

/* ---------------------------------------------------------------- output for the JS harness */

static FILE *EMIT;
static int EMIT_ALL; /* --emit-all: every case (about 27 s of CPU in MuJoCo 3.3.8's WebAssembly build) */

static void emit_str(const char *key, const char *v) {
  fprintf(EMIT, "\"%s\":\"", key);
  for (const char *p = v; *p; p++)
    fprintf(EMIT, *p == '"' ? "\\\"" : "%c", *p);
  fprintf(EMIT, "\",");
}

static void emit_arr(const char *key, const double *a, int n) {
  fprintf(EMIT, "\"%s\":[", key);
  for (int i = 0; i < n; i++)
    fprintf(EMIT, "%s%.17g", i ? "," : "", a[i]);
  fprintf(EMIT, "],");
}

/* ---------------------------------------------------------------- (1) contact dimensions and cones */

static double worst_node = 0.0, worst_mean = 0.0;
static int n_phase = 0;

/* the asked e at the scene's settings: impactfit's value, the engine's mean against e, and what the condim 1
 * answer gives in this scene */
static void phase_case(const mscene *s, double e) {
  clock_t t0 = clock();
  mreq rq;
  if (request_of(s, EMIT ? "3.3.8" : NULL, &rq))
    return;
  rq.q.e = e;
  impactfit_code_answer ans;
  impactfit_error err;
  if (impactfit_code_solve(Q(&rq), &ans, &err) || !ans.reachable) {
    CHECK(0, "%s: impactfit solves (%s)", s->name, err.message);
    return;
  }
  impactfit_stepper st;
  rq.q.e = NAN;
  nodes N;
  if (impactfit_code_stepper(Q(&rq), ans.value, &st, &err) || nodes_of(&st, s->v, &N)) {
    CHECK(0, "%s: impactfit's stepper and nodes", s->name);
    return;
  }
  char xml[4096];
  mjcf(s, ans.value, xml, sizeof xml);
  n_phase++;
  if (EMIT && !s->js && !EMIT_ALL) /* the ctest's subset of the 3.3.8 run (2 s of CPU) */
    return;
  if (EMIT) {
    fprintf(EMIT, "{\"kind\":\"phase\",");
    emit_str("name", s->name);
    emit_str("xml", xml);
    fprintf(EMIT, "\"r\":%.17g,\"v\":%.17g,\"dt\":%.17g,\"e\":%.17g,", s->r, s->v, s->dt, e);
    emit_arr("phi", N.phi, N.n);
    emit_arr("w", N.w, N.n);
    fprintf(EMIT, "\"model\":[");
    for (int i = 0; i < N.n; i++)
      fprintf(EMIT, "%s%.17g", i ? "," : "", N.e[i]);
    fprintf(EMIT, "]}\n");
    return;
  }
  double mean = 0.0, dmax = 0.0;
  for (int i = 0; i < N.n; i++) {
    double got = engine_impact(xml, s->r, s->v, s->dt, N.phi[i]);
    mean += N.w[i] * got;
    dmax = isnan(got) ? INFINITY : fmax(dmax, fabs(got - N.e[i]));
  }
  /* the condim 1 answer (what impactfit gave before), pasted into this scene */
  mscene s1 = *s;
  s1.condim = 1;
  mreq r1;
  impactfit_code_answer a1 = {0};
  double old = NAN;
  if (s->dt >= 5e-4 && request_of(&s1, NULL, &r1) == 0) {
    r1.q.e = e;
    if (impactfit_code_solve(Q(&r1), &a1, &err) == 0 && a1.reachable) {
      impactfit_stepper s_old;
      nodes N1;
      char x1[4096];
      mjcf(s, a1.value, x1, sizeof x1);
      if (impactfit_code_stepper(Q(&rq), a1.value, &s_old, &err) == 0 && nodes_of(&s_old, s->v, &N1) == 0) {
        old = 0.0;
        for (int i = 0; i < N1.n; i++)
          old += N1.w[i] * engine_impact(x1, s->r, s->v, s->dt, N1.phi[i]);
      }
    }
  }
  printf("    %-44s %6s %7g %14.10f %10.2e %9.2e %5d %10.6f %5.2f\n", s->name, s->integ, s->dt, ans.value, mean - e,
         dmax, N.n, old, (double)(clock() - t0) / CLOCKS_PER_SEC);
  worst_node = fmax(worst_node, dmax);
  worst_mean = fmax(worst_mean, fabs(mean - e));
  CHECK(dmax <= 1e-6, "%s: the engine's e at every node vs impactfit's e(phi) (max |de| %.3g)", s->name, dmax);
  CHECK_ABS(mean, e, 1e-6, "%s: the engine's phase-mean e vs the asked e", s->name);
  impactfit_code_answer_free(&ans);
  impactfit_code_answer_free(&a1);
}

static void part_cones(void) {
  if (!EMIT)
    printf("(1) contact dimensions and cones, sphere 5 mm on a plane, v = 1 m/s, no gravity, e = 0.6: impactfit's "
           "dampratio,\n    the engine's phase mean - e (Gauss-Legendre on the pieces of e(phi)), the largest |de| "
           "at a node, nodes,\n    and the engine's mean with the condim 1 answer (what a user of the old answer "
           "gets)\n");
  if (!EMIT)
    printf("    %-44s %6s %7s %14s %10s %9s %5s %10s\n", "scene", "integ.", "dt", "dampratio", "mean - e", "max|de|",
           "nodes", "condim-1");
  const double frs[3] = {0.3, 0.5, 1.0}, irs[2] = {1.0, 10.0};
  const int cds[4] = {1, 3, 4, 6};
  /* dt 0.002 (MuJoCo's default), Euler: every condim, both cones, friction 0.3/0.5/1, impratio 1/10 */
  for (int c = 0; c < 4; c++)
    for (int cone = 0; cone < 2; cone++)
      for (int f = 0; f < 3; f++)
        for (int i = 0; i < 2; i++) {
          if (cds[c] == 1 && (cone || f < 2 || i)) /* condim 1: none of them enters */
            continue;
          if (cone && !((f == 1 && i == 1) || (f == 0 && i == 0))) /* elliptic: two of them suffice */
            continue;
          char nm[128];
          snprintf(nm, sizeof nm, "condim %d %s mu %g impratio %g", cds[c], cone ? "elliptic" : "pyramidal", frs[f],
                   irs[i]);
          mscene s = scene_default(nm, "Euler", 0.002);
          s.condim = cds[c];
          s.cone = cone;
          s.friction[0] = s.friction[1] = frs[f];
          s.impratio = irs[i];
          phase_case(&s, 0.6);
        }
  /* the contact's other four friction values do not enter: a <pair> with five different values */
  {
    mscene s = scene_default("pair condim 6 friction 0.5 0.2 0.01 0.001 0.003", "Euler", 0.002);
    double fr[5] = {0.5, 0.2, 0.01, 0.001, 0.003};
    memcpy(s.friction, fr, sizeof fr);
    s.condim = 6;
    s.pair = 1;
    phase_case(&s, 0.6);
    mscene t = scene_default("pair condim 4 friction 0.5 2 0.5 0.5 0.5 impratio 10", "Euler", 0.002);
    double f2[5] = {0.5, 2, 0.5, 0.5, 0.5};
    memcpy(t.friction, f2, sizeof f2);
    t.condim = 4;
    t.pair = 1;
    t.impratio = 10;
    phase_case(&t, 0.6);
  }
  /* RK4 at the default step; e = 0.9 at dt 0.0005 */
  {
    mscene s = scene_default("condim 3 pyramidal mu 0.5 impratio 10", "RK4", 0.002);
    s.friction[0] = s.friction[1] = 0.5;
    s.impratio = 10;
    s.js = 1;
    phase_case(&s, 0.6);
    mscene t = scene_default("condim 6 pyramidal mu 0.3 impratio 1, e 0.9", "Euler", 0.0005);
    t.condim = 6;
    t.friction[0] = t.friction[1] = 0.3;
    phase_case(&t, 0.9);
  }
  /* a resolving step: timeconst 0.005, solimp d0 = 0.0001 (the force starts smoothly), Euler dt 1e-5, RK4 2.5e-5 */
  for (int k = 0; k < 4; k++) {
    static const int cd[4] = {1, 4, 3, 6};
    static const double fr[4] = {1, 0.5, 0.5, 1}, ir[4] = {1, 1, 10, 10};
    static const int cn[4] = {0, 0, 1, 0};
    const char *integ = k == 3 ? "RK4" : "Euler";
    char nm[128];
    snprintf(nm, sizeof nm, "resolving: condim %d %s mu %g impratio %g", cd[k], cn[k] ? "elliptic" : "pyramidal", fr[k],
             ir[k]);
    mscene s = scene_default(nm, integ, k == 3 ? 2.5e-5 : 1e-5);
    s.solref[0] = 0.005;
    s.solimp[0] = 0.0001;
    s.condim = cd[k];
    s.cone = cn[k];
    s.friction[0] = s.friction[1] = fr[k];
    s.impratio = ir[k];
    s.js = k == 1;
    phase_case(&s, 0.6);
  }
  if (!EMIT)
    printf("    %d scenes: largest |mean - e| %.2e, largest |de| at a node %.2e (tolerances 1e-6)\n", n_phase,
           worst_mean, worst_node);
}

/* ---------------------------------------------------------------- (3) one impact under gravity */

static void part_gravity(void) {
  if (EMIT)
    return;
  printf("(3) one impact under gravity 9.81 (sphere 5 mm on a plane, defaults, Euler dt 0.002, e 0.6): impactfit's "
         "dampratio with\n    gravity, the engine's phase mean - e, the largest |de| at a node; the engine's mean "
         "with the answer that ignores gravity\n");
  const double vs[3] = {0.3, 1.0, 3.0};
  for (int i = 0; i < 3; i++) {
    char nm[96];
    snprintf(nm, sizeof nm, "v %g m/s", vs[i]);
    mscene s = scene_default(nm, "Euler", 0.002);
    s.v = vs[i];
    s.g = 9.81;
    mreq rq;
    impactfit_code_answer ans, a0;
    impactfit_error err;
    if (request_of(&s, NULL, &rq))
      return;
    rq.q.e = 0.6;
    mreq r0 = rq;
    r0.q.gravity = 0.0;
    impactfit_stepper st, s0;
    nodes N, N0;
    if (impactfit_code_solve(Q(&rq), &ans, &err) || !ans.reachable || impactfit_code_solve(Q(&r0), &a0, &err)) {
      CHECK(0, "(3) %s: impactfit solves (%s)", nm, err.message);
      continue;
    }
    rq.q.e = NAN;
    if (impactfit_code_stepper(Q(&rq), ans.value, &st, &err) || nodes_of(&st, s.v, &N) ||
        impactfit_code_stepper(Q(&rq), a0.value, &s0, &err) || nodes_of(&s0, s.v, &N0)) {
      CHECK(0, "(3) %s: impactfit's stepper (%s)", nm, err.message);
      continue;
    }
    char xml[4096], x0[4096];
    mjcf(&s, ans.value, xml, sizeof xml);
    mjcf(&s, a0.value, x0, sizeof x0);
    double mean = 0.0, dmax = 0.0, old = 0.0;
    for (int k = 0; k < N.n; k++) {
      double e = engine_impact_g(xml, s.r, s.v, s.dt, s.g, N.phi[k]);
      mean += N.w[k] * e;
      dmax = isnan(e) ? INFINITY : fmax(dmax, fabs(e - N.e[k]));
    }
    for (int k = 0; k < N0.n; k++)
      old += N0.w[k] * engine_impact_g(x0, s.r, s.v, s.dt, s.g, N0.phi[k]);
    printf("    %-10s dampratio %.10f (without gravity %.10f)  mean - e %9.2e  max|de| %8.2e  nodes %3d  "
           "without gravity's answer: %.6f\n",
           nm, ans.value, a0.value, mean - 0.6, dmax, N.n, old);
    CHECK(dmax <= 1e-6, "(3) %s: the engine's e at every node vs impactfit's (%.3g)", nm, dmax);
    CHECK_ABS(mean, 0.6, 1e-6, "(3) %s: the engine's phase mean under gravity vs the asked e", nm);
    impactfit_code_answer_free(&ans);
    impactfit_code_answer_free(&a0);
  }
}

/* ---------------------------------------------------------------- (2) gravity and drop tests */

typedef struct {
  mscene s;
  double h, min_h, t_max;
  int bounces, samples;
  int js_samples;       /* the 3.3.8 run: -1 none, 0 the release only, K: also K releases */
  const char *js_integ; /* the 3.3.8 run's integrator (NULL: the same) */
  double e;             /* asked (NaN: forward only, with value) */
  double value;         /* forward: the user's value */
} dcase;

static int build_of(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  return impactfit_code_stepper(&((const mreq *)ctx)->q, value, st, err);
}

static const char *end_name(int end) {
  return end == IMPACTFIT_DROP_COUNTED ? "counted"
         : end == IMPACTFIT_DROP_LOW   ? "low"
         : end == IMPACTFIT_DROP_REST  ? "rest"
                                       : "time";
}

/* the engine's fit of one release (NaN when it counts fewer than n apexes), its apexes in got */
static double engine_fit(const char *xml, const dcase *c, double h, long nsteps, int n, double *got, int *found) {
  *found = engine_drop(xml, c->s.r, h, nsteps, c->min_h, n + 1, got);
  return *found >= n && n > 0 ? user_fit(h, got, n) : NAN;
}

static void drop_case(const dcase *c) {
  clock_t t0 = clock();
  mreq rq;
  if (request_of(&c->s, EMIT ? "3.3.8" : NULL, &rq))
    return;
  impactfit_drop_params p = impactfit_drop_default_params();
  p.height = c->h;
  p.bounces = c->bounces;
  p.min_height = c->min_h;
  p.t_max = c->t_max;
  p.rest_steps = (long)(0.5 / c->s.dt) + 100; /* an impact of 0.5 s: the ball rests */
  impactfit_drop_stats S;
  impactfit_error err;
  double value = c->value;
  impactfit_stepper st;
  if (isnan(c->e)) {
    if (impactfit_code_stepper(Q(&rq), value, &st, &err) || impactfit_drop_stats_run(&st, &p, c->samples, &S, &err)) {
      CHECK(0, "%s: impactfit's drop test (%s)", c->s.name, err.message);
      return;
    }
  } else {
    /* the single impact's answer at the first impact's speed, without gravity, starts the search */
    mreq r0 = rq;
    impactfit_code_answer a0;
    r0.q.e = c->e;
    r0.q.v = sqrt(2.0 * c->s.g * c->h);
    r0.q.gravity = 0.0;
    double guess = impactfit_code_solve(Q(&r0), &a0, &err) == 0 && a0.reachable ? a0.value : NAN;
    impactfit_code_answer_free(&a0);
    double lo = c->s.direct ? 1e-3 : 1e-3, hi = c->s.direct ? 1e7 : 1e2;
    Q(&rq);
    int rc = impactfit_drop_solve(build_of, &rq, &p, c->samples, c->e, lo, hi, guess, 1e-9, &value, &S, &err);
    /* in a jump of the mean (of 1/K of a release's jump) the closer side is the answer */
    if (rc && !(rc == IMPACTFIT_ENOCONV && fabs(S.e_mean - c->e) <= 2.0 * S.e_sd / sqrt(S.samples) + 1e-6)) {
      CHECK(0, "%s: impactfit's drop inverse (%s)", c->s.name, err.message);
      return;
    }
  }
  const impactfit_drop_result *R = &S.exact;
  double want[IMPACTFIT_DROP_MAX_BOUNCES];
  for (int k = 0; k < R->n; k++)
    want[k] = R->b[k].apex;
  char xml[4096];
  mjcf(&c->s, value, xml, sizeof xml);
  long nsteps = R->end == IMPACTFIT_DROP_TIME ? R->steps : R->steps + 10;
  double step = sqrt(2.0 * c->s.g * c->h) * c->s.dt; /* the releases of the distribution */
  int js_samples = EMIT_ALL ? S.samples : c->js_samples;
  if (EMIT && js_samples < 0)
    return;
  if (EMIT && c->js_integ) { /* the same scene with another integrator of 3.x (the same step map here) */
    mscene s3 = c->s;
    s3.integ = c->js_integ;
    mjcf(&s3, value, xml, sizeof xml);
  }
  if (EMIT) {
    fprintf(EMIT, "{\"kind\":\"drop\",");
    emit_str("name", c->s.name);
    emit_str("xml", xml);
    fprintf(EMIT,
            "\"r\":%.17g,\"h\":%.17g,\"min_h\":%.17g,\"nsteps\":%ld,\"bounces\":%d,\"e\":%.17g,\"e_fit\":%.17g,"
            "\"determined\":%d,\"end\":%d,\"samples\":%d,\"step\":%.17g,\"e_mean\":%.17g,\"e_sd\":%.17g,\"n_min\":%d,",
            c->s.r, c->h, c->min_h, nsteps, R->n, isnan(c->e) ? -1.0 : c->e, R->e_fit, S.determined, R->end, js_samples,
            step, S.e_mean, S.e_sd, S.n_min);
    fprintf(EMIT, "\"max_bounces\":%d,\"samples_impactfit\":%d,", c->bounces, S.samples);
    emit_arr("apex", want, R->n);
    fprintf(EMIT, "\"t_max\":%.17g}\n", c->t_max);
    return;
  }
  double t_impactfit = (double)(clock() - t0) / CLOCKS_PER_SEC;
  double got[IMPACTFIT_DROP_MAX_BOUNCES + 1];
  int found;
  /* beyond the determined bounces the engine's sequence is its own draw: it may need more steps */
  double fit = engine_fit(xml, c, c->h, S.determined == R->n ? nsteps : 2 * nsteps, R->n, got, &found);
  double worst = 0.0, worst_all = 0.0;
  for (int k = 0; k < R->n && k < found; k++) {
    double d = fabs(got[k] / want[k] - 1.0);
    if (k < S.determined)
      worst = fmax(worst, d);
    worst_all = fmax(worst_all, d);
    if (getenv("MUJOCO_SCENE_DEBUG"))
      printf("      bounce %2d: engine %.15g impactfit %.15g (v_in %.9g v_out %.9g phase %.6f steps %ld)\n", k + 1,
             got[k], want[k], R->b[k].v_in, R->b[k].v_out, R->b[k].phase, R->b[k].contact_steps);
  }
  /* the engine's distribution over the same releases (the fit over the bounces each counts: at most N, to where
   * its sequence ends, as impactfit's) */
  double sum = 0.0, sum2 = 0.0;
  int cnt = 0;
  for (int k = 0; k < S.samples; k++) {
    double hk = c->h + (k + 0.5) / S.samples * step, gk[IMPACTFIT_DROP_MAX_BOUNCES + 1];
    int fk = engine_drop(xml, c->s.r, hk,
                         c->t_max > 0 ? (long)fmin(floor(c->t_max / c->s.dt + 1e-9), 2.0 * nsteps) : 2 * nsteps,
                         c->min_h, c->bounces, gk);
    if (fk < 1)
      continue;
    double e_k = user_fit(hk, gk, fk);
    sum += e_k;
    sum2 += e_k * e_k;
    cnt++;
  }
  double emean = cnt ? sum / cnt : NAN, esd = cnt ? sqrt(fmax(0.0, sum2 / cnt - emean * emean)) : NAN;
  /* two means of K draws of one distribution: their difference has the standard deviation sd sqrt(2/K) */
  double tol_mean = 1e-6 + 4.0 * S.e_sd * sqrt(2.0 / S.samples);
  printf("    %-38s %5s %6g %13.8g %2d/%2d/%2d %7.1e %11.8f %11.8f %11.8f %8.1e %11.8f %8.1e %s\n", c->s.name,
         c->s.integ, c->s.dt, value, S.determined, R->n, found, worst, R->e_fit, fit, S.e_mean, S.e_sd, emean,
         fabs(emean - S.e_mean), end_name(R->end));
  printf("      (%.2f s impactfit, %.2f s engine)\n", t_impactfit,
         (double)(clock() - t0) / CLOCKS_PER_SEC - t_impactfit);
  CHECK(found >= S.determined, "%s: the engine has the %d determined apexes (found %d)", c->s.name, S.determined,
        found);
  CHECK(worst <= 1e-6, "%s: the %d determined apexes vs impactfit's (largest relative difference %.3g)", c->s.name,
        S.determined, worst);
  CHECK(S.determined >= 1, "%s: at least the first bounce is determined (%d)", c->s.name, S.determined);
  CHECK(cnt == S.samples, "%s: the engine counts bounces in every release (%d of %d)", c->s.name, cnt, S.samples);
  CHECK(fabs(emean - S.e_mean) <= tol_mean,
        "%s: the engine's mean fit over %d releases %.9f vs impactfit's %.9f (tol %.2g)", c->s.name, S.samples, emean,
        S.e_mean, tol_mean);
  CHECK(fabs(esd - S.e_sd) <= 0.5 * S.e_sd + 1e-6, "%s: the engine's spread %.3g vs impactfit's %.3g", c->s.name, esd,
        S.e_sd);
  if (S.determined == R->n) { /* the whole sequence determined: the release itself */
    CHECK(worst_all <= 1e-6, "%s: every apex vs impactfit's (%.3g)", c->s.name, worst_all);
    CHECK_ABS(fit, R->e_fit, 1e-9, "%s: the user's fit of the engine's heights vs impactfit's", c->s.name);
    if (!isnan(c->e) && c->samples == 0) /* solved on the exact release (on the mean: checked below) */
      CHECK_ABS(fit, c->e, 1e-4, "%s: the user's fit with impactfit's input vs the asked e", c->s.name);
  }
  if (!isnan(c->e))
    CHECK(fabs(emean - c->e) <= fmax(1e-4, tol_mean),
          "%s: the engine's mean fit with impactfit's input %.9f vs the asked e %.9f", c->s.name, emean, c->e);
}

static dcase drop_default(const char *name, double e, const char *integ, double dt) {
  dcase c;
  memset(&c, 0, sizeof c);
  c.s = scene_default(name, integ, dt);
  c.s.r = 0.1;
  c.s.m = 0.5;
  c.s.g = 9.81;
  c.h = 1.0;
  c.bounces = 15;
  c.min_h = 0.002; /* the public report's peak threshold */
  c.samples = 32;
  c.js_samples = -1;
  c.e = e;
  c.value = NAN;
  return c;
}

static void part_drops(void) {
  if (EMIT)
    goto cases;
  printf("(2) drop tests: a sphere (r 0.1 m) released from rest 1 m above a plane, g = 9.81, 15 bounces: impactfit's "
         "input; bounces\n    determined/counted (impactfit)/found (engine); the largest relative difference of the "
         "determined apexes; the fit of\n    the release (impactfit, engine); the mean fit over K (32, 8, 16) releases "
         "spread "
         "over one step (impactfit, its sd, the engine,\n    |difference|); where impactfit's sequence ends\n");
  printf("    %-38s %5s %6s %13s %8s %7s %11s %11s %11s %8s %11s %8s %s\n", "case", "int.", "dt", "value", "bounces",
         "max rel", "fit", "engine fit", "mean fit", "sd", "eng. mean", "|diff|", "end");
cases:;
  const double es[3] = {0.75, 0.5, 0.9};
  for (int i = 0; i < 3; i++) {
    char nm[96];
    snprintf(nm, sizeof nm, "defaults, e %g", es[i]);
    dcase c = drop_default(nm, es[i], "Euler", 0.002);
    c.js_samples = i == 0 ? 8 : -1;
    drop_case(&c);
    /* a resolving step: solimp d0 = 0.0001 (the force starts smoothly), dt 1e-4: the sequence is determined */
    snprintf(nm, sizeof nm, "resolving (d0 1e-4, dt 1e-4), e %g", es[i]);
    dcase r = drop_default(nm, es[i], "Euler", 1e-4);
    r.s.solimp[0] = 0.0001;
    r.samples = 4;
    r.js_samples = i == 0 ? 0 : -1;
    drop_case(&r);
  }
  {
    dcase c = drop_default("condim 3 mu 0.5 impratio 10, e 0.75", 0.75, "Euler", 0.002);
    c.s.friction[0] = c.s.friction[1] = 0.5;
    c.s.impratio = 10;
    drop_case(&c);
    dcase r = drop_default("RK4 dt 0.001, e 0.75", 0.75, "RK4", 0.001);
    r.samples = 8;
    drop_case(&r);
  }
  /* the public report: solref -284244.606751 -68.756024 (direct), solimp 0.998 0.9999 0.0002 0.5 2, elliptic,
   * friction 0, dt 0.0002 (implicitfast in MuJoCo 3.10.0: Euler's step map for this contact), 6 s, apexes
   * above 0.002 m: measured 0.820 where 0.75 was asked */
  for (int k = 0; k < 2; k++) {
    dcase c = drop_default(k ? "public report: impactfit, e 0.75" : "public report: as typed", k ? 0.75 : NAN, "Euler",
                           0.0002);
    c.s.direct = 1;
    c.s.solref[0] = -284244.606751;
    double si[5] = {0.998, 0.9999, 0.0002, 0.5, 2}, fr[5] = {0, 0, 0, 0, 0};
    memcpy(c.s.solimp, si, sizeof si);
    memcpy(c.s.friction, fr, sizeof fr);
    c.s.cone = 1;
    c.min_h = 0.002;
    c.t_max = 6.0;
    c.samples = 16;
    c.value = 68.756024;
    c.js_samples = 0;
    drop_case(&c);
    if (EMIT) { /* as the report ran it: implicitfast */
      c.js_integ = "implicitfast";
      snprintf(c.s.name + strlen(c.s.name), sizeof c.s.name - strlen(c.s.name), ", implicitfast");
      drop_case(&c);
    }
  }
}


/* ---------------------------------------------------------------- (4) the registry's drop answer */

/* impactfit_code_drop (the registry's drop test: what `impactfit engine --drop` and impactfit.drop print) at the
 * resolving step: its value into the engine; the engine's apexes equal the answer's on the determined bounces
 * (1e-6 relative) and, the sequence determined to its end, the user's fit of the engine's heights is the asked e
 * (1e-4) */
static void part_registry_drops(void) {
  if (EMIT)
    return;
  printf("(4) the registry's drop answer (impactfit_code_drop), resolving step (solimp d0 1e-4, Euler 1e-4), 1 m, "
         "15 bounces above 2 mm:\n    solved on, value, determined/counted/found, max rel of the determined apexes, "
         "the answer's fit, the engine's fit\n");
  const double es[3] = {0.75, 0.5, 0.8}; /* (0.9 there: 8 of 15 determined, the answer solves on the mean) */
  for (int i = 0; i < 3; i++) {
    char nm[96];
    snprintf(nm, sizeof nm, "registry drop, e %g", es[i]);
    dcase c = drop_default(nm, es[i], "Euler", 1e-4);
    c.s.solimp[0] = 0.0001;
    mreq rq;
    if (request_of(&c.s, NULL, &rq))
      return;
    rq.q.e = es[i];
    rq.q.v = NAN;
    impactfit_drop_params p = impactfit_drop_default_params();
    p.height = c.h;
    p.bounces = c.bounces;
    p.min_height = c.min_h;
    impactfit_code_drop_answer a;
    impactfit_error err;
    int rc = impactfit_code_drop(Q(&rq), &p, 4, &a, &err);
    if (rc || !a.reachable) {
      CHECK(0, "(4) %s: the registry's drop answer (%s; %s)", nm, err.message, a.note ? a.note : "");
      impactfit_code_drop_free(&a);
      continue;
    }
    const impactfit_drop_result *R = &a.stats.exact;
    char xml[4096];
    mjcf(&c.s, a.value, xml, sizeof xml);
    double got[IMPACTFIT_DROP_MAX_BOUNCES + 1];
    int found;
    double fit = engine_fit(xml, &c, c.h, 2 * R->steps + 10, R->n, got, &found), worst = 0.0;
    for (int k = 0; k < a.stats.determined && k < found; k++)
      worst = fmax(worst, fabs(got[k] / R->b[k].apex - 1.0));
    printf("    %-26s %-7s %.12g %2d/%2d/%2d %8.1e %.8f %.8f\n", nm,
           a.on == IMPACTFIT_CODE_DROP_RELEASE ? "release" : "mean", a.value, a.stats.determined, R->n, found, worst,
           R->e_fit, fit);
    CHECK(a.on == IMPACTFIT_CODE_DROP_RELEASE && a.stats.determined == R->n && R->n >= 3,
          "(4) %s: the resolving step's sequence is determined to its end (%d of %d)", nm, a.stats.determined, R->n);
    CHECK(found >= a.stats.determined, "(4) %s: the engine has the %d determined apexes (found %d)", nm,
          a.stats.determined, found);
    CHECK(worst <= 1e-6, "(4) %s: the determined apexes vs the registry's answer (%.3g)", nm, worst);
    CHECK_ABS(R->e_fit, es[i], 1e-9, "(4) %s: the answer's fit vs the asked e", nm);
    CHECK_ABS(fit, es[i], 1e-4, "(4) %s: the user's fit of the engine's heights with the answer's input", nm);
    impactfit_code_drop_free(&a);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 3 && (strcmp(argv[1], "--emit") == 0 || strcmp(argv[1], "--emit-all") == 0)) {
    EMIT_ALL = strcmp(argv[1], "--emit-all") == 0;
    if (!(EMIT = fopen(argv[2], "w"))) {
      fprintf(stderr, NAME ": cannot write %s\n", argv[2]);
      return 2;
    }
  } else {
    printf(NAME ": MuJoCo %d (header %d), mjtNum %zu bytes\n", mj_version(), mjVERSION_HEADER, sizeof(mjtNum));
  }
  part_cones();
  part_gravity();
  part_drops();
  part_registry_drops();
  if (EMIT) {
    fclose(EMIT);
    return tu_failures ? 1 : 0;
  }
  if (ENG.m) {
    mj_deleteData(ENG.d);
    mj_deleteModel(ENG.m);
  }
  return tu_report(NAME);
}
