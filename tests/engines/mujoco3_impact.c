/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MuJoCo 3.3.8 (npm mujoco-js 0.0.7: the official WebAssembly build, run by node from
 * tests/engines/js/mujoco3_impact.mjs) as the oracle of impactfit's MuJoCo 3.x entries (src/engines/mujoco.c,
 * docs/engines/MUJOCO.md). This program writes each scene's MJCF, has the node script run it (node_child.h)
 * and compares with impactfit; the script only steps MuJoCo.
 *
 * The scenes are those of tests/engines/mujoco_impact.c (2.2.2): no gravity, frictionless contacts
 * (condim 1), a free sphere above a plane or two free spheres (1:1 and 1:4 masses), the sphere placed
 * (J − φ) v dt (J = 2) before the contact acts (dist = margin − gap) at approach speed v; e = −v_after/v once
 * a step leaves the bodies apart, separating, with no force. Checked:
 *  (a) per phase, the engine's e equals impactfit's e(φ) (impactfit_code_stepper, version 3.3.8, and
 *      impactfit_step_impact_at) within 1e-12, for Euler, RK4, implicit and implicitfast, the standard and the
 *      direct solref, the default and a constant solimp, a sphere on a plane and two spheres; the speeds 0.05,
 *      0.5, 1, 2 m/s and the steps 0.002 (MuJoCo's default) and 0.0005 s; phases within 1e-9 of a jump of
 *      e(φ) are skipped; the solver's force is M d (aref − a0) (Euler and implicit steps);
 *  (b) the inverse: for e = 0.1 ... 0.9, impactfit's input pasted from its MJCF text and the naive damping
 *      ratio agree with the engine per phase (1e-12), and the engine's mean e over the phase (Gauss–Legendre
 *      on the smooth pieces of e(φ), phase_nodes.h) with impactfit's input is the asked e within 1e-5 —
 *      or impactfit says the e is out of reach;
 *  (c) rules read in the source, measured here: no contact row at dist = 0, solmix mixing of one geom's
 *      solref with the other's default, refsafe, margin and gap, implicit = Euler per phase. */
#define _POSIX_C_SOURCE 200809L /* getline, posix_spawn (node_child.h) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/codes.h"
#include "mjcf_paste.h"
#include "node_child.h"
#include "phase_nodes.h"
#include "testutil.h"

#define NAME "mujoco3_impact"
#define VERSION "3.3.8"
#define TOL_PHASE 1e-12
#define TOL_MEAN 1e-5

static nc_child child;

/* ---------------------------------------------------------------- scenes */

typedef struct {
  int plane;              /* 1: a sphere on a plane; 0: two spheres */
  double r1, m1, r2, m2;  /* radii (m) and masses (kg) */
  double dt;              /* timestep, s */
  const char *integrator; /* MJCF: Euler, RK4, implicit, implicitfast */
  char geom[512];         /* attributes of <default><geom/>: solref, solimp, margin, gap */
  char sphere[256];       /* extra attributes of the first sphere's geom */
  char flags[256];        /* attributes of <option><flag/> */
  double offset;          /* margin − gap: the contact acts while dist < offset */
} scene;

static const double M1 = 4.0 / 3.0 * M_PI * 0.005 * 0.005 * 0.005 * 2500.0; /* a 5 mm glass sphere, 1.309 g */

/* 0: a 5 mm sphere on a plane; 1: two 5 cm spheres of that mass; 2: a 5 cm sphere on a 10 cm one of 4 times its
 * mass (MuJoCo's default contact is soft enough that two 5 mm spheres pass through each other: the radii only
 * place the contact) */
static scene scene_make(int bodies, double dt, const char *integrator) {
  scene s;
  memset(&s, 0, sizeof s);
  s.plane = bodies == 0;
  s.r1 = bodies == 0 ? 0.005 : 0.05;
  s.m1 = M1;
  s.r2 = bodies == 0 ? 0.0 : bodies == 1 ? 0.05 : 0.1;
  s.m2 = bodies == 0 ? 0.0 : bodies == 1 ? M1 : 4.0 * M1;
  s.dt = dt;
  s.integrator = integrator;
  return s;
}

static const char *const BODY_NAMES[] = {"sphere-plane", "spheres 1:1", "spheres 1:4"};

static void scene_xml(const scene *s, nc_buf *b) {
  char xml[4096], body2[512] = "";
  if (!s->plane)
    snprintf(body2, sizeof body2,
             "<body pos=\"0 0 0\"><joint type=\"free\"/><geom name=\"g2\" type=\"sphere\" size=\"%.17g\" "
             "mass=\"%.17g\"/></body>",
             s->r2, s->m2);
  snprintf(xml, sizeof xml,
           "<mujoco><option timestep=\"%.17g\" gravity=\"0 0 0\" integrator=\"%s\"><flag %s/></option>"
           "<default><geom condim=\"1\" %s/></default><worldbody>%s"
           "<body pos=\"0 0 1\"><joint type=\"free\"/><geom name=\"g1\" type=\"sphere\" size=\"%.17g\" "
           "mass=\"%.17g\" %s/></body>%s</worldbody></mujoco>",
           s->dt, s->integrator, s->flags, s->geom,
           s->plane ? "<geom name=\"g2\" type=\"plane\" size=\"1 1 0.1\"/>" : "", s->r1, s->m1, s->sphere, body2);
  nc_put_string(b, xml);
}

static double scene_M(const scene *s) { return s->plane ? s->m1 : s->m1 * s->m2 / (s->m1 + s->m2); }

/* The engine's e at the phases (NaN: no rebound); returns the steps of all impacts, or −1 on failure. The
 * solver-force check's largest relative error goes to *fmodel (may be NULL). */
static long engine_e(const scene *s, double v, const double *phis, int n, double *e, double *fmodel) {
  static nc_buf b;
  nc_reset(&b);
  nc_printf(&b, "{\"op\":\"impacts\",\"xml\":");
  scene_xml(s, &b);
  nc_printf(&b,
            ",\"plane\":%d,\"r1\":%.17g,\"r2\":%.17g,\"offset\":%.17g,\"v\":%.17g,\"dt\":%.17g,\"J\":2,\"M\":%.17g,"
            "\"phis\":[",
            s->plane, s->r1, s->r2, s->offset, v, s->dt, scene_M(s));
  for (int i = 0; i < n; i++)
    nc_printf(&b, "%s%.17g", i ? "," : "", phis[i]);
  nc_printf(&b, "]}");
  json_t *a = nc_ask(&child, b.s);
  if (!a) {
    fprintf(stderr, NAME ": %s\n", child.error);
    return -1;
  }
  int got = nc_doubles(json_object_get(a, "e"), e, n);
  long steps = 0;
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(a, "steps"), i, x) steps += (long)json_integer_value(x);
  if (fmodel)
    *fmodel = fmax(*fmodel, json_number_value(json_object_get(a, "fmodel")));
  json_decref(a);
  return got == n ? steps : -1;
}

/* ---------------------------------------------------------------- impactfit's side */

static const char *int_name(const char *mjcf) {
  return strcmp(mjcf, "RK4") == 0            ? "rk4"
         : strcmp(mjcf, "implicit") == 0     ? "implicit"
         : strcmp(mjcf, "implicitfast") == 0 ? "implicitfast"
                                             : "euler";
}

/* a request and the settings it points to (Q fixes the pointer after a copy) */
typedef struct mreq {
  impactfit_code_request q;
  impactfit_code_setting settings[IMPACTFIT_CODE_MAX_INPUTS];
} mreq;

static impactfit_code_request *Q(mreq *r) {
  r->q.settings = r->settings;
  return &r->q;
}

/* the request for a scene: model, bodies, step, integrator, solref and solimp (NULL: MuJoCo's defaults),
 * refsafe (−1: default) */
static mreq request(const scene *s, const char *model, const double *solref, const double *solimp, int refsafe) {
  mreq rq;
  memset(&rq, 0, sizeof rq);
  rq.q = impactfit_code_request_default();
  impactfit_error err;
  if (impactfit_code_model_find("mujoco", VERSION, model, NULL, &rq.q.model, &err))
    fprintf(stderr, NAME ": %s\n", err.message);
  rq.q.bodies.pair = s->plane ? 0 : 1;
  rq.q.bodies.r1 = s->r1;
  rq.q.bodies.m1 = s->m1;
  if (!s->plane) {
    rq.q.bodies.r2 = s->r2;
    rq.q.bodies.m2 = s->m2;
  }
  rq.q.dt = s->dt;
  rq.q.integrator = int_name(s->integrator);
  int n = 0;
  if (solref) {
    rq.settings[n].name = "solref";
    rq.settings[n].count = 2;
    memcpy(rq.settings[n].values, solref, 2 * sizeof(double));
    n++;
  }
  if (solimp) {
    rq.settings[n].name = "solimp";
    rq.settings[n].count = 5;
    memcpy(rq.settings[n].values, solimp, 5 * sizeof(double));
    n++;
  }
  if (refsafe >= 0) {
    rq.settings[n].name = "refsafe";
    rq.settings[n].count = 1;
    rq.settings[n].values[0] = refsafe;
    n++;
  }
  rq.q.n_settings = (size_t)n;
  Q(&rq);
  return rq;
}

/* impactfit's e at φ (NaN on failure); *jump = 1 when e(φ ± 1e-9) differ by more than 1e-7 */
/* the scene's geom defaults and flags from the text impactfit says to paste (mjcf_paste.h) */
static int paste_into(scene *s, const char *input) {
  return mjcf_paste(input, s->geom, sizeof s->geom, s->flags, sizeof s->flags);
}

/* ---------------------------------------------------------------- per-phase agreement */

static const double PHIS[] = {0.0731, 0.2459, 0.4173, 0.5566, 0.7287, 0.9519};
#define NPHI ((int)(sizeof PHIS / sizeof PHIS[0]))

typedef struct {
  double max_de;      /* the largest |e_engine − e_impactfit| */
  long points, jumps; /* phases compared, phases skipped next to a jump */
  long impacts, steps;
  double fmodel; /* the solver's force against M d (aref − a0) */
} tally;

static long g_impacts, g_steps; /* the engine's impacts and steps over the whole run */
static long g_points;           /* phases compared with impactfit */
static double g_worst;          /* the largest |de| of those */

static void agree(const scene *s, const impactfit_stepper *st, double v, const char *what, tally *t) {
  double e[NPHI];
  long steps = engine_e(s, v, PHIS, NPHI, e, &t->fmodel);
  if (steps < 0) {
    CHECK(0, "%s: the engine runs", what);
    return;
  }
  t->impacts += NPHI;
  t->steps += steps;
  g_impacts += NPHI;
  g_steps += steps;
  for (int i = 0; i < NPHI; i++) {
    int jump = 0;
    double want = mj_predict(st, v, PHIS[i], &jump, NAME);
    if (jump) {
      t->jumps++;
      continue;
    }
    t->points++;
    g_points++;
    double de = fabs(e[i] - want);
    g_worst = fmax(g_worst, isnan(de) ? INFINITY : de);
    t->max_de = isnan(de) ? INFINITY : fmax(t->max_de, de);
    CHECK_ABS(e[i], want, TOL_PHASE, "%s phi %.4f: engine e vs impactfit e(phi)", what, PHIS[i]);
  }
}

/* the engine against impactfit for the request's stepper at `value` */
static double rule(const char *what, const scene *s, const impactfit_code_request *rq, double value, double v) {
  impactfit_stepper st;
  impactfit_error err;
  if (impactfit_code_stepper(rq, value, &st, &err)) {
    CHECK(0, "%s: impactfit stepper (%.500s)", what, err.message);
    return NAN;
  }
  tally t = {0};
  agree(s, &st, v, what, &t);
  printf("    %-66s max|de| %.2e over %ld phases\n", what, t.max_de, t.points);
  return t.max_de;
}

/* ---------------------------------------------------------------- (a) */

static const char *const INTEGRATORS[] = {"Euler", "RK4", "implicit", "implicitfast"};

static void part_a(void) {
  printf("(a) engine e vs impactfit e(phi) at %d phases, tolerance %g\n", NPHI, TOL_PHASE);
  printf("    %-13s %-13s %-8s %-9s %7s %5s %11s %6s %6s %9s\n", "bodies", "integrator", "solref", "solimp", "dt", "v",
         "max|de|", "phases", "jumps", "f model");
  const double flat[5] = {0.95, 0.95, 0.001, 0.5, 2.0};
  double worst = 0.0;
  for (int b = 0; b < 3; b++)
    for (int g = 0; g < 4; g++)
      for (int form = 0; form < 2; form++)
        for (int imp = 0; imp < 2; imp++) {
          /* the default step at 1 m/s for every combination; the fine step and the other speeds for the
           * standard form with the default solimp */
          const double cases[][2] = {{0.002, 1.0}, {0.002, 0.05}, {0.002, 0.5}, {0.0005, 2.0}};
          int ncases = form == 0 && imp == 0 ? 4 : 1;
          for (int k = 0; k < ncases; k++) {
            scene s = scene_make(b, cases[k][0], INTEGRATORS[g]);
            double v = cases[k][1];
            const double std_ref[2] = {0.02, 0.3}, direct_ref[2] = {-40000.0, -40.0};
            const double *ref = form ? direct_ref : std_ref;
            snprintf(s.geom, sizeof s.geom, "solref=\"%.17g %.17g\" %s", ref[0], ref[1],
                     imp ? "solimp=\"0.95 0.95 0.001 0.5 2\"" : "");
            mreq rq = request(&s, form ? "soft contact direct" : "soft contact", ref, imp ? flat : NULL, -1);
            rq.q.v = v;
            impactfit_stepper st;
            impactfit_error err;
            if (impactfit_code_stepper(Q(&rq), form ? 40.0 : 0.3, &st, &err)) {
              CHECK(0, "(a) impactfit stepper: %.500s", err.message);
              continue;
            }
            char what[200];
            snprintf(what, sizeof what, "(a) %s %s %s %s dt %g v %g", BODY_NAMES[b], INTEGRATORS[g],
                     form ? "direct" : "standard", imp ? "constant" : "default", s.dt, v);
            tally t = {0};
            agree(&s, &st, v, what, &t);
            int rk4 = g == 1;
            printf("    %-13s %-13s %-8s %-9s %7g %5g %11.2e %6ld %6ld %9.1e\n", BODY_NAMES[b], INTEGRATORS[g],
                   form ? "direct" : "standard", imp ? "constant" : "default", s.dt, v, t.max_de, t.points, t.jumps,
                   rk4 ? NAN : t.fmodel);
            worst = fmax(worst, t.max_de);
            CHECK(t.points >= NPHI - 2, "%s: most phases are away from jumps (%ld of %d)", what, t.points, NPHI);
            if (!rk4)
              CHECK(t.fmodel <= 1e-12, "%s: the solver's force is M d (aref - a0) (rel. err %.3g)", what, t.fmodel);
          }
        }
  printf("    largest |de| over all: %.2e (tolerance %g)\n", worst, TOL_PHASE);
}

/* ---------------------------------------------------------------- (b) */

static const double ES[] = {0.1, 0.3, 0.5, 0.7, 0.9};

/* the engine's mean e over the phase for the scene (whose geom defaults hold the input) and impactfit's
 * stepper of the same input; NaN when the engine or impactfit fails */
static double engine_mean(const scene *s, const impactfit_stepper *st, double v, int *pieces, long *runs) {
  pn_nodes p;
  if (pn_make(st, v, 1, &p)) {
    pn_free(&p);
    return NAN;
  }
  double *e = malloc(sizeof(double) * (size_t)p.n);
  double mean = NAN;
  long steps = e ? engine_e(s, v, p.phi, p.n, e, NULL) : -1;
  if (steps >= 0) {
    mean = pn_mean(&p, e);
    g_impacts += p.n;
    g_steps += steps;
  }
  *pieces = p.pieces;
  *runs = p.n;
  free(e);
  pn_free(&p);
  return mean;
}

static void inverse_case(int b, const char *integ, double dt, double v, double e, const char *model, int mean) {
  scene s = scene_make(b, dt, integ);
  int direct = strcmp(model, "soft contact direct") == 0;
  const double dref[2] = {-40000.0, -40.0};
  mreq rq = request(&s, model, direct ? dref : NULL, NULL, -1);
  rq.q.v = v;
  rq.q.e = e;
  impactfit_code_answer ans;
  impactfit_error err;
  char what[200];
  snprintf(what, sizeof what, "(b) %s %s %s dt %g v %g e %g", BODY_NAMES[b], model, integ, dt, v, e);
  if (impactfit_code_solve(Q(&rq), &ans, &err)) {
    CHECK(0, "%s: impactfit solves (%.400s)", what, err.message);
    return;
  }
  if (!ans.reachable) {
    printf("    %-60s out of reach: %.200s\n", what, ans.note);
    CHECK(isfinite(ans.e_reach_min) && isfinite(ans.e_reach_max) && (e < ans.e_reach_min || e > ans.e_reach_max),
          "%s: the answer says the reachable means [%g, %g]", what, ans.e_reach_min, ans.e_reach_max);
    impactfit_code_answer_free(&ans);
    return;
  }
  rq.q.e = NAN;
  tally naive = {0}, fit = {0};
  /* the naive input as a user types it */
  impactfit_stepper st;
  scene sn = s;
  if (direct)
    snprintf(sn.geom, sizeof sn.geom, "solref=\"-40000 %.12g\"", -ans.naive_value);
  else
    snprintf(sn.geom, sizeof sn.geom, "solref=\"0.02 %.12g\"", ans.naive_value);
  char typed[64];
  mjcf_attr(sn.geom, "solref", typed, sizeof typed);
  double naive_typed = fabs(atof(strchr(typed, ' ') + 1));
  if (impactfit_code_stepper(Q(&rq), naive_typed, &st, &err) == 0) {
    char w2[240];
    snprintf(w2, sizeof w2, "%s naive", what);
    agree(&sn, &st, v, w2, &naive);
  }
  /* impactfit's input, pasted from its MJCF text */
  scene sf = s;
  CHECK(paste_into(&sf, ans.input) == 0, "%s: the answer's input has solref and solimp: %.500s", what, ans.input);
  char ref[64];
  mjcf_attr(ans.input, "solref", ref, sizeof ref);
  double pasted = fabs(atof(strchr(ref, ' ') + 1));
  CHECK_REL(pasted, ans.value, 1e-11, "%s: pasted value", what);
  if (impactfit_code_stepper(Q(&rq), pasted, &st, &err)) {
    CHECK(0, "%s: impactfit stepper", what);
    impactfit_code_answer_free(&ans);
    return;
  }
  char w3[240];
  snprintf(w3, sizeof w3, "%s fit", what);
  agree(&sf, &st, v, w3, &fit);
  double em = NAN;
  int pieces = 0;
  long runs = 0;
  if (mean) {
    em = engine_mean(&sf, &st, v, &pieces, &runs);
    CHECK_ABS(em, e, TOL_MEAN, "%s: the engine's mean e over the phase with impactfit's input", what);
  }
  printf("    %-13s %-9s %-13s %7g %5g %4.1f %12.6g %9.6f %13.9g %9.6f %9.2e %9.2e %4d %5ld%s\n", BODY_NAMES[b],
         direct ? "direct" : "standard", integ, dt, v, e, ans.naive_value, ans.e_naive, ans.value, ans.e,
         fmax(naive.max_de, fit.max_de), em - e, pieces, runs, ans.stable ? "" : "  unstable");
  impactfit_code_answer_free(&ans);
}

static void part_b(void) {
  printf("(b) the inverse: impactfit's input (pasted) and the naive one in the engine, per phase (%g) and the "
         "engine's phase mean (%g)\n",
         TOL_PHASE, TOL_MEAN);
  printf("    %-13s %-9s %-13s %7s %5s %4s %12s %9s %13s %9s %9s %9s %4s %5s\n", "bodies", "solref", "integrator", "dt",
         "v", "e", "naive", "e naive", "impactfit", "e mean", "max|de|", "mean-e", "pcs", "runs");
  for (int b = 0; b < 3; b++)
    for (int g = 0; g < 4; g++)
      for (size_t j = 0; j < sizeof ES / sizeof ES[0]; j++)
        inverse_case(b, INTEGRATORS[g], 0.002, 1.0, ES[j], "soft contact", g < 2 || j == 2);
  /* the fine step, the other speeds, the direct form */
  for (size_t j = 0; j < sizeof ES / sizeof ES[0]; j++) {
    inverse_case(0, "Euler", 0.0005, 1.0, ES[j], "soft contact", 1);
    inverse_case(0, "RK4", 0.0005, 2.0, ES[j], "soft contact", j == 2);
    inverse_case(1, "Euler", 0.002, 0.5, ES[j], "soft contact", j == 2);
    inverse_case(0, "Euler", 0.002, 0.05, ES[j], "soft contact", j == 2);
    inverse_case(0, "Euler", 0.002, 1.0, ES[j], "soft contact direct", 1);
    inverse_case(2, "RK4", 0.002, 1.0, ES[j], "soft contact direct", j == 2);
  }
}

/* ---------------------------------------------------------------- (c) */

static void part_c(void) {
  printf("(c) rules read in MuJoCo 3.3.8's source, measured in the engine\n");
  /* no contact row at dist = 0; one just inside */
  {
    scene s = scene_make(0, 0.002, "Euler");
    nc_buf b = {0};
    nc_printf(&b, "{\"op\":\"contacts\",\"xml\":");
    scene_xml(&s, &b);
    nc_printf(&b, ",\"plane\":1,\"r1\":%.17g,\"r2\":0,\"dists\":[1e-9,0,-1e-12]}", s.r1);
    json_t *a = nc_ask(&child, b.s);
    free(b.s);
    double ncon[3] = {NAN, NAN, NAN}, nefc[3] = {NAN, NAN, NAN};
    if (a) {
      nc_doubles(json_object_get(a, "ncon"), ncon, 3);
      nc_doubles(json_object_get(a, "nefc"), nefc, 3);
      json_decref(a);
    }
    printf("    contact at dist = +1e-9 / 0 / -1e-12: contacts %g %g %g, constraint rows %g %g %g\n", ncon[0], ncon[1],
           ncon[2], nefc[0], nefc[1], nefc[2]);
    CHECK(ncon[0] == 0 && ncon[1] == 1 && nefc[1] == 0 && ncon[2] == 1 && nefc[2] == 1,
          "(c) a contact is generated at dist <= 0 but acts only at dist < 0");
  }
  /* solmix: solref on the sphere only mixes with the plane's default (0.02, 1) */
  {
    scene s = scene_make(0, 0.002, "Euler");
    snprintf(s.sphere, sizeof s.sphere, "solref=\"0.02 0.3\"");
    const double mixed[2] = {0.02, 0.65};
    mreq rq = request(&s, "soft contact", mixed, NULL, -1);
    double de = rule("(c) solref 0.02 0.3 on the sphere only -> 0.02 0.65 (solmix)", &s, Q(&rq), 0.65, 1.0);
    CHECK(de <= TOL_PHASE, "(c) solmix");
  }
  /* refsafe: timeconst 0.002 < 2 dt is raised to 0.004 unless the flag is off */
  {
    scene s = scene_make(0, 0.002, "Euler");
    snprintf(s.geom, sizeof s.geom, "solref=\"0.002 0.5\"");
    const double sr[2] = {0.002, 0.5};
    mreq rq = request(&s, "soft contact", sr, NULL, 1);
    rule("(c) refsafe on: timeconst 0.002 raised to 0.004", &s, Q(&rq), 0.5, 1.0);
    snprintf(s.flags, sizeof s.flags, "refsafe=\"disable\"");
    rq = request(&s, "soft contact", sr, NULL, 0);
    rule("(c) refsafe off: timeconst 0.002", &s, Q(&rq), 0.5, 1.0);
  }
  /* margin and gap on both geoms: the contact acts at dist < margin - gap with the same law */
  {
    const char *ints[] = {"Euler", "RK4"};
    for (int g = 0; g < 2; g++) {
      scene s = scene_make(g, 0.002, ints[g]);
      snprintf(s.geom, sizeof s.geom, "solref=\"0.02 0.3\" margin=\"0.002\" gap=\"0.0005\"");
      s.offset = 0.0015;
      const double sr[2] = {0.02, 0.3};
      mreq rq = request(&s, "soft contact", sr, NULL, -1);
      char what[120];
      snprintf(what, sizeof what, "(c) margin 0.002 gap 0.0005 (acts at dist < 0.0015), %s, %s", ints[g],
               BODY_NAMES[g]);
      rule(what, &s, Q(&rq), 0.3, 1.0);
    }
  }
  /* implicit and implicitfast are Euler's step map here: the engine's e per phase, at 50 phases */
  {
    double ph[50], eu[50], im[50], imf[50];
    for (int k = 0; k < 50; k++)
      ph[k] = (k + 0.5) / 50.0;
    scene a = scene_make(0, 0.002, "Euler"), b = scene_make(0, 0.002, "implicit"),
          c = scene_make(0, 0.002, "implicitfast");
    double worst = INFINITY;
    if (engine_e(&a, 1.0, ph, 50, eu, NULL) >= 0 && engine_e(&b, 1.0, ph, 50, im, NULL) >= 0 &&
        engine_e(&c, 1.0, ph, 50, imf, NULL) >= 0) {
      worst = 0.0;
      for (int k = 0; k < 50; k++)
        worst = fmax(worst, fmax(fabs(eu[k] - im[k]), fabs(eu[k] - imf[k])));
    }
    printf("    implicit and implicitfast vs Euler, defaults, 50 phases: max|de| %.2e\n", worst);
    CHECK(worst <= 1e-14, "(c) implicit and implicitfast give Euler's e (max diff %.3g)", worst);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  json_t *hello = nc_start_or_skip(&child, NAME, argc, argv);
  const char *version = json_string_value(json_object_get(hello, "version"));
  printf(NAME ": MuJoCo %s (npm mujoco-js, WebAssembly, mjtNum %lld bytes) through %s\n", version ? version : "?",
         (long long)json_integer_value(json_object_get(hello, "mjtNum")), argv[2]);
  CHECK(version && strcmp(version, VERSION) == 0, "the engine is MuJoCo " VERSION " (got %s)", version ? version : "?");
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  CHECK(impactfit_code_model_find("mujoco", VERSION, "soft contact", NULL, &md, &err) == 0 &&
            impactfit_code_model_run_for(md, VERSION) && strcmp(md->versions, VERSION) == 0,
        "impactfit's entry for " VERSION " is its own and says run here");
  json_decref(hello);
  const char *parts = argc > 3 ? argv[3] : "abc";
  if (strchr(parts, 'a'))
    part_a();
  if (strchr(parts, 'b'))
    part_b();
  if (strchr(parts, 'c'))
    part_c();
  printf(NAME ": %ld engine impacts, %ld steps, %ld requests; %ld phases compared, largest |de| %.2e\n", g_impacts,
         g_steps, child.requests, g_points, g_worst);
  int rc = nc_stop(&child);
  CHECK(rc == 0, "the node script ends cleanly (exit %d)", rc);
  double cpu_self, cpu_node;
  nc_cpu(&cpu_self, &cpu_node);
  printf(NAME ": CPU %.2f s here (impactfit), %.2f s in node (the engine)\n", cpu_self, cpu_node);
  return tu_report(NAME);
}
