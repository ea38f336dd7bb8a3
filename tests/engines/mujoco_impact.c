/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MuJoCo (Debian 12's libmujoco-dev 2.2.2) as the oracle of impactfit's MuJoCo entries
 * (src/codes/mujoco.c, docs/engines/MUJOCO.md).
 *
 * Each scene is an MJCF model built in memory (a VFS file): no gravity, frictionless contacts (condim 1),
 * a free sphere above a plane or two free spheres (equal and unequal masses and radii). A run places
 * the bodies (J − φ) v dt (J = 2) before the contact starts (dist = margin − gap) with approach speed v,
 * steps mj_step until a step leaves the bodies apart (dist ≥ margin − gap), separating, with no force,
 * and takes e = −v_after/v_before. Checked:
 *  (a) the engine's e equals impactfit's e(φ) (impactfit_code_stepper + impactfit_step_impact_at)
 *      within 1e-6 for sphere-plane and sphere-sphere, three speeds, the default step and a finer one,
 *      Euler, RK4 and implicit, e = 0.1 ... 0.9 with the naive and impactfit's input (pasted from the
 *      answer's MJCF text); φ next to a jump of e(φ) (where rounding picks the side) are skipped;
 *  (b) the engine's mean e over the phase (a midpoint rule over φ) equals the asked e within 1e-5 with
 *      impactfit's input at the default step and a finer one; at a resolving step (solimp d0 = 0.0001,
 *      where the force starts smoothly) every single impact is within 1e-5 of the asked e;
 *  (c) issue 24's MuJoCo bullets, measured in the engine;
 *  (d) the rules read in the source: no contact row at dist = 0, the solver's force f = M d (aref − a0)
 *      (Newton, CG, PGS; sphere-plane and unequal spheres), implicit = Euler here, solmix mixing of two
 *      geoms' solref, refsafe, margin and gap, the override flag and <pair>;
 *  (f) RK4 and Euler at 1e-7 s and 0.1 m/s, where impactfit takes the long runs by a flow (rk4: the law's,
 *      Euler: its modified field's): within 1e-12 per phase (RK4 measured 1.2e-13 over contacts of 1.7e5
 *      steps). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "impactfit/codes.h"
#include "mjcf_paste.h"
#include "testutil.h"

#define NAME "mujoco_impact"

/* ---------------------------------------------------------------- scenes */

typedef struct {
  int plane;              /* 1: a sphere on a plane; 0: two spheres */
  double r1, m1, r2, m2;  /* radii (m) and masses (kg) */
  double dt;              /* timestep, s */
  const char *integrator; /* MJCF: Euler, RK4, implicit */
  const char *solver;     /* Newton, CG, PGS */
  char geom[512];         /* attributes of <default><geom/>: solref, solimp, margin, gap */
  char sphere[256];       /* extra attributes of the first sphere's geom */
  char base[256];         /* extra attributes of the plane's (or the second sphere's) geom */
  char option[256];       /* extra attributes of <option> */
  char flags[256];        /* attributes of <option><flag/> */
  char pair[512];         /* attributes of <contact><pair geom1 geom2/>, or "" */
  double offset;          /* margin − gap: the contact acts while dist < offset */
} scene;

static scene scene_plane(double dt, const char *integrator) {
  scene s;
  memset(&s, 0, sizeof s);
  s.plane = 1;
  s.r1 = 0.005;
  s.m1 = 4.0 / 3.0 * M_PI * s.r1 * s.r1 * s.r1 * 2500.0; /* 1.309 g */
  s.dt = dt;
  s.integrator = integrator;
  s.solver = "Newton";
  return s;
}

static scene scene_spheres(double dt, const char *integrator, double r2, double m2) {
  scene s = scene_plane(dt, integrator);
  s.plane = 0;
  s.r1 = 0.05;
  s.r2 = r2;
  s.m2 = m2;
  return s;
}

static mjModel *load(const scene *s) {
  static char xml[8192];
  char body2[512] = "", pair[600] = "";
  if (!s->plane)
    snprintf(body2, sizeof body2,
             "<body pos=\"0 0 0\"><joint type=\"free\"/><geom name=\"g2\" type=\"sphere\" size=\"%.17g\" "
             "mass=\"%.17g\" %s/></body>",
             s->r2, s->m2, s->base);
  if (s->pair[0])
    snprintf(pair, sizeof pair, "<contact><pair geom1=\"g1\" geom2=\"g2\" %s/></contact>", s->pair);
  snprintf(xml, sizeof xml,
           "<mujoco><option timestep=\"%.17g\" gravity=\"0 0 0\" integrator=\"%s\" solver=\"%s\" %s>"
           "<flag %s/></option><default><geom condim=\"1\" %s/></default><worldbody>%s%s%s"
           "<body pos=\"0 0 1\"><joint type=\"free\"/><geom name=\"g1\" type=\"sphere\" size=\"%.17g\" "
           "mass=\"%.17g\" %s/></body>%s</worldbody>%s</mujoco>",
           s->dt, s->integrator, s->solver, s->option, s->flags, s->geom,
           s->plane ? "<geom name=\"g2\" type=\"plane\" size=\"1 1 0.1\" " : "", s->plane ? s->base : "",
           s->plane ? "/>" : "", s->r1, s->m1, s->sphere, body2, pair);
  mjVFS *vfs = malloc(sizeof *vfs);
  if (!vfs)
    return NULL;
  mj_defaultVFS(vfs);
  size_t n = strlen(xml);
  mjModel *m = NULL;
  char err[1000] = "";
  if (mj_makeEmptyFileVFS(vfs, "scene.xml", (int)n) == 0) {
    memcpy(vfs->filedata[mj_findFileVFS(vfs, "scene.xml")], xml, n);
    m = mj_loadXML("scene.xml", vfs, err, sizeof err);
  }
  mj_deleteVFS(vfs);
  free(vfs);
  if (!m)
    fprintf(stderr, NAME ": MJCF not loaded (%s):\n%s\n", err, xml);
  return m;
}

typedef struct {
  mjModel *m;
  mjData *d;
  scene s;
  double fmodel_max; /* the largest |f − M d (aref − a0)| / f seen (Euler and implicit steps) */
} sim;

static int sim_open(sim *S, const scene *s) {
  memset(S, 0, sizeof *S);
  S->s = *s;
  if (!(S->m = load(s)))
    return 1;
  S->d = mj_makeData(S->m);
  return S->d ? 0 : 1;
}

static void sim_close(sim *S) {
  mj_deleteData(S->d);
  mj_deleteModel(S->m);
}

static double gap_of(const sim *S) {
  const mjtNum *q = S->d->qpos;
  return S->s.plane ? q[2] - S->s.r1 : q[2] - q[9] - S->s.r1 - S->s.r2;
}

static double vrel_of(const sim *S) { return S->s.plane ? S->d->qvel[2] : S->d->qvel[2] - S->d->qvel[8]; }

/* One impact at speed v and phase φ: e, or NaN when no separation within the step bound. */
static double sim_impact(sim *S, double v, double phi, long *steps_out) {
  mjModel *m = S->m;
  mjData *d = S->d;
  const scene *s = &S->s;
  mj_resetData(m, d);
  double start = s->offset + (2.0 - phi) * v * s->dt;
  if (s->plane) {
    d->qpos[2] = s->r1 + start;
  } else {
    d->qpos[2] = s->r1 + s->r2 + start;
    d->qpos[9] = 0.0;
  }
  d->qvel[2] = -v;
  double M = s->plane ? s->m1 : s->m1 * s->m2 / (s->m1 + s->m2);
  int acting = 0;
  for (long k = 0; k < 400000; k++) {
    double v0 = vrel_of(S);
    mj_step(m, d);
    if (d->nefc == 1 && m->opt.integrator != mjINT_RK4) {
      /* the solver's force against M d (aref − a0), a0 = J qacc_smooth = efc_b + aref */
      double a0 = d->efc_b[0] + d->efc_aref[0];
      double f = M * d->efc_KBIP[2] * fmax(0.0, d->efc_aref[0] - a0);
      if (f > 0.0)
        S->fmodel_max = fmax(S->fmodel_max, fabs(d->efc_force[0] - f) / f);
      else if (d->efc_force[0] != 0.0)
        S->fmodel_max = INFINITY;
    }
    double v1 = vrel_of(S);
    acting |= v1 != v0;
    if (!s->plane && gap_of(S) <= -(s->r1 + s->r2))
      return NAN; /* the centres crossed: the spheres pass through each other */
    if (acting && gap_of(S) >= s->offset && v1 > 0.0 && v1 == v0) {
      if (steps_out)
        *steps_out = k + 1;
      return v1 / v;
    }
  }
  return NAN;
}

/* ---------------------------------------------------------------- impactfit's side */

static const impactfit_code_model *model_of(const char *name) {
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  if (impactfit_code_model_find("mujoco", "2.2.2", name, NULL, &md, &err))
    fprintf(stderr, NAME ": %s\n", err.message);
  return md;
}

static const char *int_name(const char *mjcf) {
  return strcmp(mjcf, "RK4") == 0 ? "rk4" : strcmp(mjcf, "implicit") == 0 ? "implicit" : "euler";
}

/* the request for a scene: model, bodies, step, integrator, solref (NULL: default), solimp (NULL: default); its
 * settings live in a ring of the last 8 requests' (the harness holds a few at a time) */
static impactfit_code_request request(const scene *s, const char *model, const double *solref, const double *solimp,
                                      int refsafe) {
  static impactfit_code_setting ring[8][3];
  static int next = 0;
  impactfit_code_setting *set = ring[next++ % 8];
  memset(set, 0, 3 * sizeof *set);
  impactfit_code_request rq = impactfit_code_request_default();
  rq.model = model_of(model);
  rq.settings = set;
  rq.bodies.pair = s->plane ? 0 : 1;
  rq.bodies.r1 = s->r1;
  rq.bodies.m1 = s->m1;
  if (!s->plane) {
    rq.bodies.r2 = s->r2;
    rq.bodies.m2 = s->m2;
  }
  rq.dt = s->dt;
  rq.v = 1.0; /* the scenes' speed (m/s) */
  rq.integrator = int_name(s->integrator);
  int n = 0;
  if (solref) {
    set[n].name = "solref";
    set[n].count = 2;
    memcpy(set[n].values, solref, 2 * sizeof(double));
    n++;
  }
  if (solimp) {
    set[n].name = "solimp";
    set[n].count = 5;
    memcpy(set[n].values, solimp, 5 * sizeof(double));
    n++;
  }
  if (refsafe >= 0) {
    set[n].name = "refsafe";
    set[n].count = 1;
    set[n].values[0] = refsafe;
    n++;
  }
  rq.n_settings = (size_t)n;
  return rq;
}

/* impactfit's e at φ (NaN on failure); *jump = 1 when e(φ ± 1e-9) differ by more than 1e-7 */
/* the scene's geom defaults and flags from the text impactfit says to paste (mjcf_paste.h) */
static int paste_into(scene *s, const char *input) {
  return mjcf_paste(input, s->geom, sizeof s->geom, s->flags, sizeof s->flags);
}

/* ---------------------------------------------------------------- per-φ agreement */

static const double PHIS[] = {0.0731, 0.2459, 0.4173, 0.5566, 0.7287, 0.9519};
#define NPHI (sizeof PHIS / sizeof PHIS[0])

typedef struct {
  double max_de; /* the largest |e_engine − e_impactfit| */
  long points, at_jumps, sims;
  double fmodel_max;
} tally;

/* the engine against impactfit at every φ of PHIS for the scene and the stepper */
static void agree(const scene *s, const impactfit_stepper *st, double v, const char *what, tally *t) {
  sim S;
  if (sim_open(&S, s)) {
    CHECK(0, "%s: the scene loads", what);
    return;
  }
  for (size_t i = 0; i < NPHI; i++) {
    int jump = 0;
    double want = mj_predict(st, v, PHIS[i], &jump, NAME);
    double got = sim_impact(&S, v, PHIS[i], NULL);
    t->sims++;
    if (jump) {
      t->at_jumps++;
      continue;
    }
    t->points++;
    double de = fabs(got - want);
    if (!(de <= t->max_de))
      t->max_de = isnan(de) ? INFINITY : fmax(t->max_de, de);
    CHECK_ABS(got, want, 1e-6, "%s phi %.4f: engine e vs impactfit e(phi)", what, PHIS[i]);
  }
  t->fmodel_max = fmax(t->fmodel_max, S.fmodel_max);
  sim_close(&S);
}

/* the engine's e averaged over N phases (midpoint rule); min and max over them */
static double engine_mean(const scene *s, double v, int N, double *mn, double *mx) {
  sim S;
  if (sim_open(&S, s))
    return NAN;
  double sum = 0.0;
  *mn = INFINITY;
  *mx = -INFINITY;
  for (int i = 0; i < N; i++) {
    double e = sim_impact(&S, v, (i + 0.5) / N, NULL);
    sum += e;
    *mn = fmin(*mn, e);
    *mx = fmax(*mx, e);
  }
  sim_close(&S);
  return sum / N;
}

/* ---------------------------------------------------------------- (a) and (b1) */

typedef struct {
  const char *name;
  int plane;
  double r2, m2factor;
} bodies;

/* Two spheres of 5 cm and 5 or 10 cm radius: MuJoCo's default contact is soft enough (timeconst 0.02 s) that
 * two 5 mm spheres at 1-2 m/s penetrate past their centres and pass through each other (part (d) shows it);
 * the radii only place the contact, the masses are those of 5 mm spheres. */
static const bodies BODIES[] = {{"sphere-plane", 1, 0, 0}, {"spheres equal", 0, 0.05, 1}, {"spheres 1:4", 0, 0.1, 4}};
static const double SPEEDS[] = {0.5, 1.0, 2.0};
static const double DTS[] = {0.002, 0.0005};
static const char *const INTEGRATORS[] = {"Euler", "RK4", "implicit"};
static const double ES[] = {0.1, 0.3, 0.5, 0.7, 0.9};

static void part_a(void) {
  printf("(a) engine e vs impactfit e(phi) at phi = 0.0731 ... 0.9519, e = 0.1 ... 0.9, naive and impactfit "
         "input, speeds 0.5 1 2 m/s\n");
  printf("    %-14s %-9s %-7s %11s %11s %7s %6s %9s\n", "bodies", "integ.", "dt", "max|de| nv", "max|de| fit", "points",
         "jumps", "f model");
  double worst = 0.0;
  for (size_t b = 0; b < sizeof BODIES / sizeof BODIES[0]; b++)
    for (size_t t = 0; t < sizeof DTS / sizeof DTS[0]; t++)
      for (size_t g = 0; g < 3; g++) {
        tally naive = {0}, fit = {0};
        for (size_t k = 0; k < sizeof SPEEDS / sizeof SPEEDS[0]; k++)
          for (size_t j = 0; j < sizeof ES / sizeof ES[0]; j++) {
            double v = SPEEDS[k], e = ES[j];
            scene s = BODIES[b].plane ? scene_plane(DTS[t], INTEGRATORS[g])
                                      : scene_spheres(DTS[t], INTEGRATORS[g], BODIES[b].r2, 0.0);
            if (!BODIES[b].plane)
              s.m2 = BODIES[b].m2factor * s.m1;
            impactfit_code_request rq = request(&s, "soft contact", NULL, NULL, -1);
            rq.v = v;
            rq.e = e;
            impactfit_code_answer ans;
            impactfit_error err;
            char what[200];
            snprintf(what, sizeof what, "%s %s dt %g v %g e %g", BODIES[b].name, INTEGRATORS[g], DTS[t], v, e);
            if (impactfit_code_solve(&rq, &ans, &err) || !ans.reachable) {
              CHECK(0, "%s: impactfit solves (%.300s %.300s)", what, err.message, ans.note);
              continue;
            }
            impactfit_stepper st;
            rq.e = NAN;
            /* naive: the Kelvin-Voigt damping ratio typed as dampratio */
            scene sn = s;
            char txt[160];
            snprintf(txt, sizeof txt, "solref=\"0.02 %.12g\" solimp=\"0.9 0.95 0.001 0.5 2\"", ans.naive_value);
            snprintf(sn.geom, sizeof sn.geom, "%s", txt);
            if (impactfit_code_stepper(&rq, atof(strchr(txt, ' ') + 1), &st, &err) == 0) {
              char w2[240];
              snprintf(w2, sizeof w2, "%s naive", what);
              agree(&sn, &st, v, w2, &naive);
            }
            /* impactfit's input, pasted from its MJCF text */
            scene sf = s;
            CHECK(paste_into(&sf, ans.input) == 0, "%s: the answer's input has solref and solimp: %.500s", what,
                  ans.input);
            char ref[64];
            mjcf_attr(ans.input, "solref", ref, sizeof ref);
            double pasted = atof(strchr(ref, ' ') + 1);
            CHECK_REL(pasted, ans.value, 1e-11, "%s: pasted dampratio", what);
            if (impactfit_code_stepper(&rq, pasted, &st, &err) == 0) {
              char w2[240];
              snprintf(w2, sizeof w2, "%s fit", what);
              agree(&sf, &st, v, w2, &fit);
            }
          }
        double fm = fmax(naive.fmodel_max, fit.fmodel_max);
        printf("    %-14s %-9s %-7g %11.2e %11.2e %7ld %6ld %9.1e\n", BODIES[b].name, INTEGRATORS[g], DTS[t],
               naive.max_de, fit.max_de, naive.points + fit.points, naive.at_jumps + fit.at_jumps,
               strcmp(INTEGRATORS[g], "RK4") ? fm : NAN);
        worst = fmax(worst, fmax(naive.max_de, fit.max_de));
        CHECK(naive.points + fit.points >= (long)(0.8 * (naive.sims + fit.sims)),
              "%s %s dt %g: most phases are away from jumps (%ld of %ld)", BODIES[b].name, INTEGRATORS[g], DTS[t],
              naive.points + fit.points, naive.sims + fit.sims);
        if (strcmp(INTEGRATORS[g], "RK4"))
          CHECK(fm <= 1e-12, "%s %s dt %g: the solver's force is M d (aref - a0) (rel. err %.3g)", BODIES[b].name,
                INTEGRATORS[g], DTS[t], fm);
      }
  printf("    largest |de| over all: %.2e (tolerance 1e-6)\n", worst);
}

/* (b1) the engine's mean e over the phase with impactfit's input equals the asked e. The engine's mean is
 * a midpoint rule over N phases; where e(φ) jumps, that rule has an error of its own, measured by the same
 * rule on impactfit's e(φ) (equal to the engine's per phase): the check against the asked e is made where
 * that error is below 5e-6, the engine's rule against impactfit's everywhere. */
static void part_b1(void) {
  printf("(b) the engine's mean e over the phase (midpoint rule over N phases) with impactfit's input, v = 1 m/s\n");
  printf("    %-14s %-7s %-7s %5s %5s %14s %11s %12s %21s\n", "bodies", "integ.", "dt", "e", "N", "engine mean",
         "- asked", "rule error", "single impacts");
  const double dts[] = {0.002, 1e-4};
  const int Ns[] = {128, 32};
  const char *ints[] = {"Euler", "RK4"};
  for (int b = 0; b < 3; b += 2)
    for (int t = 0; t < 2; t++)
      for (int g = 0; g < 2; g++) {
        if (t == 1 && b == 2)
          continue; /* the fine step on the plane only */
        for (size_t j = 0; j < sizeof ES / sizeof ES[0]; j++) {
          scene s = BODIES[b].plane ? scene_plane(dts[t], ints[g]) : scene_spheres(dts[t], ints[g], BODIES[b].r2, 0.0);
          if (!BODIES[b].plane)
            s.m2 = BODIES[b].m2factor * s.m1;
          impactfit_code_request rq = request(&s, "soft contact", NULL, NULL, -1);
          rq.e = ES[j];
          impactfit_code_answer ans;
          impactfit_error err;
          impactfit_stepper st;
          if (impactfit_code_solve(&rq, &ans, &err) || !ans.reachable || paste_into(&s, ans.input) ||
              impactfit_code_stepper(&rq, ans.value, &st, &err)) {
            CHECK(0, "(b) %s %s dt %g e %g: impactfit solves", BODIES[b].name, ints[g], dts[t], ES[j]);
            continue;
          }
          double rule = 0.0;
          for (int i = 0; i < Ns[t]; i++) {
            impactfit_step_impact o;
            impactfit_step_impact_at(&st, 1.0, (i + 0.5) / Ns[t], &o, &err);
            rule += o.e / Ns[t];
          }
          rule -= ans.e;
          double mn, mx, mean = engine_mean(&s, 1.0, Ns[t], &mn, &mx);
          printf("    %-14s %-7s %-7g %5.1f %5d %14.10f %11.2e %12.2e   [%.6f, %.6f]\n", BODIES[b].name, ints[g],
                 dts[t], ES[j], Ns[t], mean, mean - ES[j], rule, mn, mx);
          CHECK_ABS(mean - ES[j], rule, 1e-6, "(b) %s %s dt %g e %g: the engine's %d-phase mean vs impactfit's",
                    BODIES[b].name, ints[g], dts[t], ES[j], Ns[t]);
          if (fabs(rule) <= 5e-6)
            CHECK_ABS(mean, ES[j], 1e-5, "(b) %s %s dt %g: the engine's mean e over %d phases vs the asked e",
                      BODIES[b].name, ints[g], dts[t], Ns[t]);
        }
      }
}

/* (b2) at a resolving step every single impact gives the asked e within 1e-5: solimp d0 = 0.0001 (the
 * smallest impedance MuJoCo allows), so the force starts smoothly and e(φ) varies by less than 1e-5 */
static void part_b2(void) {
  printf("(b) resolving step, solimp 0.0001 0.95 0.001 0.5 2, sphere-plane, v = 1 m/s: every single impact\n");
  printf("    %-7s %-8s %5s %14s %14s %11s\n", "integ.", "dt", "e", "dampratio", "engine e min", "max|e-asked|");
  const struct {
    const char *integ;
    double dt, e;
  } cases[] = {{"RK4", 2.5e-5, 0.1}, {"RK4", 2.5e-5, 0.3}, {"RK4", 2.5e-5, 0.5}, {"RK4", 2.5e-5, 0.7},
               {"RK4", 2.5e-5, 0.9}, {"Euler", 1e-5, 0.5}, {"Euler", 1e-5, 0.9}};
  const double imp[5] = {0.0001, 0.95, 0.001, 0.5, 2.0};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    scene s = scene_plane(cases[i].dt, cases[i].integ);
    impactfit_code_request rq = request(&s, "soft contact", NULL, imp, -1);
    rq.e = cases[i].e;
    impactfit_code_answer ans;
    impactfit_error err;
    if (impactfit_code_solve(&rq, &ans, &err) || !ans.reachable || paste_into(&s, ans.input)) {
      CHECK(0, "(b) resolving %s e %g: impactfit solves", cases[i].integ, cases[i].e);
      continue;
    }
    sim S;
    if (sim_open(&S, &s)) {
      CHECK(0, "(b) resolving: the scene loads");
      continue;
    }
    double worst = 0.0, mn = INFINITY;
    for (int k = 0; k < 5; k++) {
      double e = sim_impact(&S, 1.0, (k + 0.5) / 5.0, NULL);
      mn = fmin(mn, e);
      worst = fmax(worst, isnan(e) ? INFINITY : fabs(e - cases[i].e));
      CHECK_ABS(e, cases[i].e, 1e-5, "(b) resolving %s dt %g e %g phi %.1f: a single impact", cases[i].integ,
                cases[i].dt, cases[i].e, (k + 0.5) / 5.0);
    }
    sim_close(&S);
    printf("    %-7s %-8g %5.1f %14.10f %14.10f %11.2e   (impactfit: spread %.1e)\n", cases[i].integ, cases[i].dt,
           cases[i].e, ans.value, mn, worst, ans.e_max - ans.e_min);
  }
}

/* ---------------------------------------------------------------- (c) issue 24's bullets */

static void part_c(void) {
  printf("(c) issue 24: a 5 mm sphere (1.309 g) on a plane at 1 m/s, MuJoCo's defaults\n");
  const char *ints[] = {"Euler", "RK4"};
  for (int g = 0; g < 2; g++) {
    scene s = scene_plane(0.002, ints[g]);
    impactfit_code_request rq = request(&s, "soft contact", NULL, NULL, -1);
    impactfit_code_answer ans;
    impactfit_error err;
    if (impactfit_code_solve(&rq, &ans, &err)) {
      CHECK(0, "(c) %s: impactfit forward", ints[g]);
      continue;
    }
    double mn, mx, mean = engine_mean(&s, 1.0, 400, &mn, &mx);
    printf("    %-5s dt 0.002: engine mean over 400 phases %.6f, range [%.4f, %.4f]; impactfit mean %.6f "
           "[%.4f, %.4f], continuous %.6f\n",
           ints[g], mean, mn, mx, ans.e, ans.e_min, ans.e_max, ans.e_continuous);
    CHECK_ABS(mean, ans.e, 2e-5, "(c) %s defaults: the engine's mean vs impactfit's exact mean", ints[g]);
    CHECK(mn >= ans.e_min - 1e-9 && mx <= ans.e_max + 1e-9 && mn - ans.e_min < 2e-3 && ans.e_max - mx < 2e-3,
          "(c) %s defaults: the engine's range [%.6f, %.6f] lies in and fills impactfit's [%.6f, %.6f]", ints[g], mn,
          mx, ans.e_min, ans.e_max);
  }
  /* the default solimp (d0 0.9 != dwidth 0.95) makes e depend on the speed */
  for (int k = 0; k < 2; k++) {
    const double v = k ? 2.0 : 0.5;
    scene s = scene_plane(0.002, "Euler");
    impactfit_code_request rq = request(&s, "soft contact", NULL, NULL, -1);
    rq.v = v;
    impactfit_code_answer ans;
    impactfit_error err;
    if (impactfit_code_solve(&rq, &ans, &err))
      continue;
    sim S;
    if (sim_open(&S, &s))
      continue;
    double sum = 0.0;
    for (int i = 0; i < 400; i++)
      sum += sim_impact(&S, v, (i + 0.5) / 400, NULL) / 400;
    sim_close(&S);
    printf("    Euler dt 0.002 at %g m/s: engine mean over 400 phases %.6f; impactfit mean %.6f, continuous %.6f\n", v,
           sum, ans.e, ans.e_continuous);
    CHECK_ABS(sum, ans.e, 2e-5, "(c) defaults at %g m/s: the engine's mean vs impactfit's", v);
  }
  /* the continuous-time value, with the engine at a fine step (the spread is O(dt): mean over 4 phases) */
  {
    scene s = scene_plane(2e-6, "RK4");
    impactfit_code_request rq = request(&s, "soft contact", NULL, NULL, -1);
    impactfit_code_answer ans;
    impactfit_error err;
    double mn, mx, mean = engine_mean(&s, 1.0, 4, &mn, &mx);
    if (impactfit_code_solve(&rq, &ans, &err) == 0) {
      printf("    RK4 dt 2e-6: engine mean over 4 phases %.6f [%.6f, %.6f]; impactfit continuous-time e %.6f\n", mean,
             mn, mx, ans.e_continuous);
      CHECK_ABS(mean, ans.e_continuous, 1e-4, "(c) the engine at dt 2e-6 vs the continuous-time e");
    }
  }
  /* timeconst 0.005, dampratio 0.1 at dt 0.002: unstable */
  {
    const double sr[2] = {0.005, 0.1};
    scene s = scene_plane(0.002, "Euler");
    snprintf(s.geom, sizeof s.geom, "solref=\"0.005 0.1\"");
    impactfit_code_request rq = request(&s, "soft contact", sr, NULL, -1);
    impactfit_code_answer ans;
    impactfit_error err;
    if (impactfit_code_solve(&rq, &ans, &err)) {
      CHECK(0, "(c) unstable case: impactfit forward (%.500s)", err.message);
      return;
    }
    double mn, mx, mean = engine_mean(&s, 1.0, 400, &mn, &mx);
    printf("    solref 0.005 0.1, Euler dt 0.002: engine e over 400 phases in [%.4f, %.4f] (mean %.4f); impactfit "
           "[%.4f, %.4f], stable %d, largest stable dt %.6g s\n",
           mn, mx, mean, ans.e_min, ans.e_max, ans.stable, ans.dt_stable);
    CHECK(!ans.stable && ans.dt_stable > 5e-4 && ans.dt_stable < 8e-4,
          "(c) unstable case: impactfit says unstable, with a largest stable dt (got %g)", ans.dt_stable);
    CHECK(mx > 10.0 && mn < 0.05 && mn >= ans.e_min - 1e-9 && mx <= ans.e_max + 1e-9,
          "(c) unstable case: the engine's e spans [%g, %g] within impactfit's [%g, %g]", mn, mx, ans.e_min, ans.e_max);
    /* the linearised map's spectral radius alone would allow up to 0.000876 s */
    impactfit_stepper st;
    impactfit_step_stats S1, S2;
    rq.dt = 0.00087;
    if (impactfit_code_stepper(&rq, 0.1, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S1, &err) == 0) {
      st.dt = 0.00088;
      impactfit_step_phase_stats(&st, 1.0, &S2, &err);
      printf("    spectral radius of the linearised step: %.6f at dt 0.00087, %.6f at 0.00088; e <= 1 at every phase "
             "only below %.6g s\n",
             S1.rho_max, S2.rho_max, ans.dt_stable);
      CHECK(S1.rho_max <= 1.0 + 1e-9 && S2.rho_max > 1.0 + 1e-9, "(c) the spectral radius crosses 1 at 0.000876 s");
    }
    /* the engine just below and above the largest stable step */
    const double f[2] = {0.97, 1.03};
    for (int k = 0; k < 2; k++) {
      scene s2 = s;
      s2.dt = f[k] * ans.dt_stable;
      double mn2, mx2, mean2 = engine_mean(&s2, 1.0, 200, &mn2, &mx2);
      printf("    ... at dt = %.2f x the largest stable step: engine e over 200 phases in [%.4f, %.4f] (mean %.4f)\n",
             f[k], mn2, mx2, mean2);
      if (k == 0)
        CHECK(mx2 <= 1.0, "(c) below the largest stable step the engine's e stays <= 1 (max %g)", mx2);
    }
  }
  /* issue 34: with refsafe, timeconst is raised to 2 dt at every dt, so the largest stable step is searched with
   * the step map rebuilt at each dt (it was 0.001824 s, where MuJoCo returns e = 1.306) */
  {
    const double sr[2] = {0.003, 1.0};
    scene s = scene_plane(0.002, "Euler");
    s.r1 = 0.02;
    s.m1 = 0.8;
    snprintf(s.geom, sizeof s.geom, "solref=\"0.003 1\"");
    impactfit_code_request rq = request(&s, "soft contact", sr, NULL, -1);
    rq.v = 0.37;
    rq.e = 0.61;
    impactfit_code_answer ans;
    impactfit_error err;
    if (impactfit_code_solve(&rq, &ans, &err) || !ans.reachable) {
      CHECK(0, "(c) refsafe case: impactfit solves (%.500s)", err.message);
      return;
    }
    CHECK(!ans.stable && ans.dt_stable > 0.00135 && ans.dt_stable < 0.00142,
          "(c) refsafe case: unstable at 0.002 s, largest stable step about 0.001388 s (got %g)", ans.dt_stable);
    char geom[sizeof s.geom];
    snprintf(geom, sizeof geom, "solref=\"0.003 %.12g\"", ans.value);
    memcpy(s.geom, geom, sizeof geom);
    const double f[2] = {0.97, 1.08};
    for (int k = 0; k < 2; k++) {
      scene s2 = s;
      s2.dt = f[k] * ans.dt_stable;
      double mn2, mx2, mean2 = engine_mean(&s2, 0.37, 200, &mn2, &mx2);
      printf("    refsafe, solref 0.003 %.6f: at dt = %.2f x the largest stable step %.6g s: engine e over 200 phases "
             "in [%.4f, %.4f] (mean %.4f)\n",
             ans.value, f[k], ans.dt_stable, mn2, mx2, mean2);
      if (k == 0)
        CHECK(mx2 <= 1.0, "(c) refsafe: below the largest stable step the engine's e stays <= 1 (max %g)", mx2);
      else
        CHECK(mx2 > 1.0, "(c) refsafe: above it the engine returns e > 1 (max %g)", mx2);
    }
    impactfit_code_answer_free(&ans);
  }
}

/* ---------------------------------------------------------------- (d) the source's rules */

/* the engine and impactfit (model, solref, solimp, refsafe as given) agree at every φ of PHIS */
static double rule(const char *what, const scene *s, const char *model, const double *solref, const double *solimp,
                   int refsafe, double value) {
  impactfit_code_request rq = request(s, model, solref, solimp, refsafe);
  impactfit_stepper st;
  impactfit_error err;
  if (impactfit_code_stepper(&rq, value, &st, &err)) {
    CHECK(0, "(d) %s: impactfit stepper (%.500s)", what, err.message);
    return NAN;
  }
  tally t = {0};
  agree(s, &st, 1.0, what, &t);
  printf("    %-58s max|de| %.2e over %ld phases\n", what, t.max_de, t.points);
  return t.max_de;
}

/* no contact row at dist = 0 (dist < margin - gap is required), one just inside */
static void d_zero_distance(void) {
  scene s = scene_plane(0.002, "Euler");
  sim S;
  if (sim_open(&S, &s) == 0) {
    int rows[3], cons[3];
    const double dist[3] = {1e-9, 0.0, -1e-12};
    for (int k = 0; k < 3; k++) {
      mj_resetData(S.m, S.d);
      S.d->qpos[2] = s.r1 + dist[k];
      S.d->qvel[2] = -1.0;
      mj_forward(S.m, S.d);
      rows[k] = S.d->nefc;
      cons[k] = S.d->ncon;
    }
    printf("    contact at dist = +1e-9 / 0 / -1e-12: contacts %d %d %d, constraint rows %d %d %d\n", cons[0], cons[1],
           cons[2], rows[0], rows[1], rows[2]);
    CHECK(cons[0] == 0 && cons[1] == 1 && rows[1] == 0 && cons[2] == 1 && rows[2] == 1,
          "(d) a contact is generated at dist <= 0 but acts only at dist < 0");
    sim_close(&S);
  }
}

/* the solvers: Newton (default), CG, PGS, a tight tolerance; sphere-plane and unequal spheres */
static void d_solvers(void) {
  const char *solvers[] = {"Newton", "CG", "PGS"};
  for (int k = 0; k < 3; k++)
    for (int p = 0; p < 2; p++) {
      scene s = p ? scene_spheres(0.002, "Euler", 0.01, 0.0) : scene_plane(0.002, "Euler");
      s.m2 = p ? 4.0 * s.m1 : 0.0;
      s.solver = solvers[k];
      snprintf(s.geom, sizeof s.geom, "solref=\"0.02 0.3\"");
      const double sr[2] = {0.02, 0.3};
      char what[120];
      snprintf(what, sizeof what, "solver %s, %s", solvers[k], p ? "spheres 1:4" : "sphere-plane");
      impactfit_code_request rq = request(&s, "soft contact", sr, NULL, -1);
      impactfit_stepper st;
      impactfit_error err;
      if (impactfit_code_stepper(&rq, 0.3, &st, &err))
        continue;
      tally t = {0};
      agree(&s, &st, 1.0, what, &t);
      printf("    %-58s max|de| %.2e, force vs M d (aref - a0) %.1e\n", what, t.max_de, t.fmodel_max);
      CHECK(t.fmodel_max <= 1e-12, "(d) %s: f = M d (aref - a0) (rel. err %.3g)", what, t.fmodel_max);
    }
  scene s = scene_plane(0.002, "Euler");
  snprintf(s.option, sizeof s.option, "tolerance=\"1e-15\" iterations=\"1000\"");
  snprintf(s.geom, sizeof s.geom, "solref=\"0.02 0.3\"");
  const double sr[2] = {0.02, 0.3};
  rule("Newton, tolerance 1e-15", &s, "soft contact", sr, NULL, -1, 0.3);
}

/* implicit = Euler for this contact, per phase */
static void d_implicit(void) {
  scene a = scene_plane(0.002, "Euler"), b = scene_plane(0.002, "implicit");
  sim A, B;
  if (sim_open(&A, &a) == 0 && sim_open(&B, &b) == 0) {
    double worst = 0.0;
    for (int k = 0; k < 50; k++) {
      double phi = (k + 0.5) / 50.0;
      worst = fmax(worst, fabs(sim_impact(&A, 1.0, phi, NULL) - sim_impact(&B, 1.0, phi, NULL)));
    }
    printf("    implicit vs Euler, defaults, 50 phases: max|de| %.2e\n", worst);
    CHECK(worst <= 1e-14, "(d) implicit gives Euler's e (max diff %.3g)", worst);
    sim_close(&A);
    sim_close(&B);
  }
}

/* solmix: solref on the sphere only mixes with the plane's default (0.02, 1) */
static void d_solmix(void) {
  scene s = scene_plane(0.002, "Euler");
  snprintf(s.sphere, sizeof s.sphere, "solref=\"0.02 0.3\"");
  const double mixed[2] = {0.02, 0.65};
  double de = rule("solref 0.02 0.3 on the sphere only -> 0.02 0.65 (solmix)", &s, "soft contact", mixed, NULL, -1,
                   0.65);
  CHECK(de <= 1e-6, "(d) solmix mean");
  snprintf(s.sphere, sizeof s.sphere, "solref=\"0.02 0.3\" solmix=\"3\"");
  const double mixed3[2] = {0.02, 0.25 * 1.0 + 0.75 * 0.3};
  rule("sphere solref 0.02 0.3 solmix 3 -> weight 3/4", &s, "soft contact", mixed3, NULL, -1, mixed3[1]);
  /* direct form: the smaller of each */
  scene d = scene_plane(0.002, "Euler");
  snprintf(d.sphere, sizeof d.sphere, "solref=\"-20000 -10\"");
  snprintf(d.base, sizeof d.base, "solref=\"-10000 -30\"");
  const double dmin[2] = {-20000, -30};
  rule("direct -20000 -10 and -10000 -30 -> -20000 -30 (min)", &d, "soft contact direct", dmin, NULL, -1, 30.0);
}

/* refsafe: timeconst 0.002 < 2 dt */
static void d_refsafe(void) {
  scene s = scene_plane(0.002, "Euler");
  snprintf(s.geom, sizeof s.geom, "solref=\"0.002 0.5\"");
  const double sr[2] = {0.002, 0.5};
  rule("refsafe on: timeconst 0.002 raised to 0.004", &s, "soft contact", sr, NULL, 1, 0.5);
  snprintf(s.flags, sizeof s.flags, "refsafe=\"disable\"");
  rule("refsafe off: timeconst 0.002", &s, "soft contact", sr, NULL, 0, 0.5);
  scene r = scene_plane(0.002, "RK4");
  snprintf(r.geom, sizeof r.geom, "solref=\"0.002 0.5\"");
  snprintf(r.flags, sizeof r.flags, "refsafe=\"disable\"");
  rule("refsafe off, RK4", &r, "soft contact", sr, NULL, 0, 0.5);
}

/* direct form with a flat impedance, Euler and RK4 */
static void d_direct(void) {
  const double sr[2] = {-40000, -40}, imp[5] = {0.95, 0.95, 0.001, 0.5, 2};
  const char *ints[] = {"Euler", "RK4"};
  for (int g = 0; g < 2; g++) {
    scene s = scene_spheres(0.001, ints[g], 0.005, 0.0);
    s.m2 = 0.5 * s.m1;
    snprintf(s.geom, sizeof s.geom, "solref=\"-40000 -40\" solimp=\"0.95 0.95 0.001 0.5 2\"");
    char what[100];
    snprintf(what, sizeof what, "direct -40000 -40, flat impedance, %s, spheres 2:1", ints[g]);
    rule(what, &s, "soft contact direct", sr, imp, -1, 40.0);
  }
}

/* margin and gap: the contact acts at dist < margin - gap with the same law */
static void d_margin(void) {
  scene s = scene_plane(0.002, "Euler");
  snprintf(s.geom, sizeof s.geom, "solref=\"0.02 0.3\" margin=\"0.002\" gap=\"0.0005\"");
  s.offset = 0.0015;
  const double sr[2] = {0.02, 0.3};
  rule("margin 0.002 gap 0.0005 (acts at dist < 0.0015)", &s, "soft contact", sr, NULL, -1, 0.3);
  scene r = s;
  r.integrator = "RK4";
  rule("margin 0.002 gap 0.0005, RK4", &r, "soft contact", sr, NULL, -1, 0.3);
}

/* override: <option o_solref o_solimp> with <flag override> replaces the geoms' values */
static void d_override(void) {
  scene s = scene_plane(0.002, "Euler");
  snprintf(s.geom, sizeof s.geom, "solref=\"0.02 1\"");
  snprintf(s.option, sizeof s.option, "o_solref=\"0.03 0.4\" o_solimp=\"0.8 0.9 0.002 0.5 2\"");
  snprintf(s.flags, sizeof s.flags, "override=\"enable\"");
  const double sr[2] = {0.03, 0.4}, imp[5] = {0.8, 0.9, 0.002, 0.5, 2};
  rule("override: o_solref 0.03 0.4, o_solimp 0.8 0.9 0.002 0.5 2", &s, "soft contact", sr, imp, -1, 0.4);
}

/* two 5 mm spheres at 2 m/s with the default contact: the penetration passes the centres, the normal
   * flips and the spheres pass through each other; impactfit says so */
static void d_pass_through(void) {
  scene s = scene_spheres(0.002, "Euler", 0.005, 0.0);
  s.r1 = 0.005;
  s.m2 = s.m1;
  sim S;
  impactfit_code_request rq = request(&s, "soft contact", NULL, NULL, -1);
  rq.v = 2.0;
  impactfit_code_answer ans;
  impactfit_error err;
  if (sim_open(&S, &s) == 0 && impactfit_code_solve(&rq, &ans, &err) == 0) {
    double e = sim_impact(&S, 2.0, 0.5, NULL);
    printf("    two 5 mm spheres, defaults, 2 m/s: engine %s; impactfit: %.90s...\n",
           isnan(e) ? "the centres cross (they pass through each other)" : "separates", ans.note);
    CHECK(isnan(e) && strstr(ans.note, "PASS THROUGH"), "(d) the spheres pass through each other in the engine and "
                                                        "impactfit says so");
    sim_close(&S);
  }
}

/* <pair>: its own solref and solimp (not the geoms'); condim must be given (its default is 3) */
static void d_pair(void) {
  scene s = scene_spheres(0.002, "RK4", 0.005, 0.0);
  s.m2 = s.m1;
  snprintf(s.geom, sizeof s.geom, "solref=\"0.02 1\"");
  snprintf(s.pair, sizeof s.pair, "condim=\"1\" solref=\"0.01 0.2\" solimp=\"0.95 0.99 0.001 0.5 2\"");
  const double sr[2] = {0.01, 0.2}, imp[5] = {0.95, 0.99, 0.001, 0.5, 2};
  rule("<pair solref 0.01 0.2 solimp 0.95 0.99 ...>, RK4, spheres", &s, "soft contact", sr, imp, -1, 0.2);
  /* a pair without solref takes MuJoCo's default, not the geoms' (user_objects.cc:2679-2692) */
  snprintf(s.geom, sizeof s.geom, "solref=\"0.02 0.3\"");
  snprintf(s.pair, sizeof s.pair, "condim=\"1\"");
  const double def[2] = {0.02, 1.0};
  rule("<pair condim 1> over geoms with solref 0.02 0.3 -> 0.02 1", &s, "soft contact", def, NULL, -1, 1.0);
}

static void part_d(void) {
  printf("(d) rules read in MuJoCo 2.2.2's source, checked in the engine\n");
  d_zero_distance();
  d_solvers();
  d_implicit();
  d_solmix();
  d_refsafe();
  d_direct();
  d_margin();
  d_override();
  d_pass_through();
  d_pair();
}

/* (f) the long runs of one symbol taken at once by a flow (src/law/stepper.c, flow_run): rk4's by the law's own
 * field, Euler's by its modified field. At 1e-7 s and 0.1 m/s (contacts of 1.7e5-4e5 steps) with impactfit's input
 * for e = 0.5, the engine's e against impactfit's e(φ) at three phases, and impactfit's work at most 1/ratio of its
 * steps (the flow taken: rk4's work counts four evaluations a step, Euler's three law evaluations a field
 * evaluation) */
static void flow_case(const char *mjcf, long ratio) {
  printf("(f) %s at dt 1e-7 s, v 0.1 m/s: the engine against impactfit's e(phi) through the flow\n", mjcf);
  scene s = scene_plane(1e-7, mjcf);
  impactfit_code_request rq = request(&s, "soft contact", NULL, NULL, -1);
  rq.v = 0.1;
  rq.e = 0.5;
  impactfit_code_answer ans;
  impactfit_error err;
  if (impactfit_code_solve(&rq, &ans, &err) || !ans.reachable) {
    CHECK(0, "(f) %s: impactfit solves (%.300s)", mjcf, err.message);
    return;
  }
  CHECK(paste_into(&s, ans.input) == 0, "(f) %s: the answer's input has solref and solimp: %.500s", mjcf, ans.input);
  char ref[64];
  mjcf_attr(ans.input, "solref", ref, sizeof ref);
  double pasted = atof(strchr(ref, ' ') + 1);
  impactfit_stepper st;
  rq.e = NAN;
  sim S;
  if (impactfit_code_stepper(&rq, pasted, &st, &err) || sim_open(&S, &s)) {
    CHECK(0, "(f) %s: the stepper and the scene (%.300s)", mjcf, err.message);
    return;
  }
  static const double phis[] = {0.2459, 0.5566, 0.9519};
  double worst = 0.0;
  for (size_t i = 0; i < sizeof phis / sizeof phis[0]; i++) {
    impactfit_step_impact o;
    long steps = 0;
    int rc = impactfit_step_impact_at(&st, 0.1, phis[i], &o, &err);
    double got = sim_impact(&S, 0.1, phis[i], &steps);
    CHECK(rc == 0 && o.work * ratio <= o.steps,
          "(f) %s phi %.4f: the flow taken (work %ld of %ld steps; engine %ld steps)", mjcf, phis[i], o.work, o.steps,
          steps);
    CHECK_ABS(got, o.e, 1e-12, "(f) %s phi %.4f: engine e vs impactfit e(phi)", mjcf, phis[i]);
    worst = fmax(worst, fabs(got - o.e));
    printf("    phi %.4f: engine %.17g, impactfit %.17g (%ld steps, work %ld)\n", phis[i], got, o.e, o.steps, o.work);
  }
  sim_close(&S);
  printf("    largest |de| %.2e (tolerance 1e-12), %s\n", worst, ref);
}

static void part_f(void) {
  flow_case("RK4", 100);
  flow_case("Euler", 20);
}

int main(int argc, char **argv) {
  const char *parts = argc > 1 ? argv[1] : "abBcdf"; /* a subset of the parts, for debugging */
  setvbuf(stdout, NULL, _IOLBF, 0);
  printf(NAME ": MuJoCo %d (header %d), mjtNum %zu bytes\n", mj_version(), mjVERSION_HEADER, sizeof(mjtNum));
  if (mj_version() != 222)
    printf(NAME ": note: impactfit's run-here entry is 2.2.2; this library reports %d\n", mj_version());
  if (strchr(parts, 'a'))
    part_a();
  if (strchr(parts, 'b'))
    part_b1();
  if (strchr(parts, 'B'))
    part_b2();
  if (strchr(parts, 'c'))
    part_c();
  if (strchr(parts, 'd'))
    part_d();
  if (strchr(parts, 'f'))
    part_f();
  return tu_report(NAME);
}
