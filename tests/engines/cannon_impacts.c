/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cannon-es 0.20.0 (npm cannon-es, run by node: js/cannon_impact.mjs) as the oracle of impactfit's cannon-es
 * step map (src/codes/cannon.c): sphere–plane and sphere–sphere impacts (equal and unequal masses), no
 * gravity, frictionless, World.step(dt); checked against impactfit's stepper for the same phase (cannon-es
 * computes in float64: |Δe| ≤ 1e-9), the engine's mean over the phase with impactfit's corrected restitution
 * against the asked e (1e-5), and the traps of docs/engines/CANNON.md: the ground without a material makes
 * the restitution 0 (the product rule needs both materials), a ContactMaterial's own default restitution,
 * the velocity damping. Usage: cannon_impacts NODE js/cannon_impact.mjs (exit 77: SKIP without node_modules). */
#define _POSIX_C_SOURCE 200809L
#include "npm_cases.h"

#include "codes/npm_engines_impl.h"

/* the fields the case's JSON carries that the model reads back (the script reads them too) */
typedef struct cn_settings {
  double damping; /* linearDamping (NaN: cannon-es's default 0.01, not sent) */
  double stiffness, relaxation;
  const char *materials; /* how the restitution is given (js/cannon_impact.mjs) */
} cn_settings;

static cn_settings cur = {.damping = NAN, .stiffness = NAN, .relaxation = NAN, .materials = "product"};

static void set_fields(nh_case *c) {
  int n = snprintf(c->fields, sizeof c->fields, "\"materials\": \"%s\"", cur.materials);
  if (!isnan(cur.damping))
    n += snprintf(c->fields + n, sizeof c->fields - (size_t)n, ", \"linearDamping\": %.17g", cur.damping);
  if (!isnan(cur.stiffness))
    n += snprintf(c->fields + n, sizeof c->fields - (size_t)n, ", \"stiffness\": %.17g", cur.stiffness);
  if (!isnan(cur.relaxation))
    snprintf(c->fields + n, sizeof c->fields - (size_t)n, ", \"relaxation\": %.17g", cur.relaxation);
}

/* impactfit's model: the combined restitution is the value for "product", "default" and "contact-material";
 * 0 for "sphere-only" (the other body has no material: the world's default contact material's 0 applies) */
static int build(const nh_case *c, double value, impactfit_stepper *st) {
  double r = strcmp(cur.materials, "sphere-only") == 0 ? 0.0 : value;
  impactfit__cannon_stepper(st, nh_mass(&c->bodies), c->dt, c->bodies.b.plane, r);
  if (!isnan(cur.damping))
    st->p[IMPACTFIT__CANNON_DAMPING] = cur.damping;
  if (!isnan(cur.stiffness))
    st->p[IMPACTFIT__CANNON_STIFFNESS] = cur.stiffness;
  if (!isnan(cur.relaxation))
    st->p[IMPACTFIT__CANNON_RELAXATION] = cur.relaxation;
  return 0;
}

static const double phases[5] = {0.0713, 0.2910, 0.5020, 0.7330, 0.9410};
static const double asked[5] = {0.1, 0.3, 0.5, 0.7, 0.9};

/* one asked e: impactfit's corrected restitution, both inputs per phase, the engine's mean at the corrected one */
static void one(nh_engine *E, nh_case *c, double e, int mean) {
  impactfit_step_stats S, N;
  impactfit_error err;
  double r = NAN;
  set_fields(c);
  nh_stats(E, c, 0.0, &N);
  int s = nh_solve(E, c, e, 1e-6, 4.0, &r, &S, &err);
  if (s == IMPACTFIT_ENOROOT && e < S.e_min) {
    /* below the reach: restitution 0 still bounces (the SPOOK row's a x + b u), and the mean has its
     * minimum at a small restitution (golden section on impactfit's mean); the engine's mean there */
    double a = 0.0, b = 0.1, g = 0.5 * (sqrt(5.0) - 1.0), rm = NAN;
    for (int i = 0; i < 40; i++) {
      double x1 = b - g * (b - a), x2 = a + g * (b - a);
      impactfit_step_stats A, B;
      if (nh_stats(E, c, x1, &A) || nh_stats(E, c, x2, &B))
        return;
      if (A.e_mean < B.e_mean)
        b = x2;
      else
        a = x1;
    }
    rm = 0.5 * (a + b);
    impactfit_step_stats Z;
    nh_stats(E, c, rm, &Z);
    double ez = mean ? nh_engine_mean(E, c, rm, 1) : NAN;
    if (mean) {
      char buf[700], w[640];
      nh_what(c, "the engine's mean at the restitution of the lowest mean", w, sizeof w);
      snprintf(buf, sizeof buf, "%s", w);
      HZ_CHECK_ABS(ez, Z.e_mean, 1e-5, buf);
    }
    nh_require(Z.e_mean <= S.e_min + 1e-9 && e < Z.e_mean,
               "unreachable e: impactfit's lowest mean (golden section) is below every mean the search met", Z.e_mean,
               S.e_min);
    printf("%-7s %4.2f %8.2e %4.2f | out of reach: the lowest mean e is %.6f at restitution %.4f (restitution 0: "
           "%.6f; engine %.7f)\n",
           c->bodies.name, c->v, c->dt, e, Z.e_mean, rm, N.e_mean, ez);
    return;
  }
  if (s) {
    fprintf(stderr, "FAIL cannon solve %s v %g dt %g e %g: %s\n", c->bodies.name, c->v, c->dt, e, err.message);
    hz_fail++;
    return;
  }
  nh_stats(E, c, e, &N);
  double dn = nh_per_phase(E, c, e, phases, 5, "naive");
  double dc = nh_per_phase(E, c, r, phases, 5, "corrected");
  nh_corrected_row(E, c, e, &N, r, &S, mean, dn, dc);
}

/* the bodies × speeds × steps × asked e; two spheres whose centres would cross in one step are left out */
static void sweep(nh_engine *E, int mean_every) {
  static const double speeds[3] = {0.05, 1.0, 2.0};
  static const double dts[4] = {1.0 / 60.0, 1.0 / 240.0, 1e-3, 1e-4};
  int count = 0;
  for (int d = 0; d < 4; d++)
    for (int bi = 0; bi < 3; bi++)
      for (int vi = 0; vi < 3; vi++) {
        if (d >= 2 && vi != (bi == 0 ? 1 : bi == 1 ? 0 : 2))
          continue;
        nh_case c = {.bodies = hz_make_bodies(bi), .v = speeds[vi], .dt = dts[d]};
        if (!c.bodies.b.plane && c.v * c.dt > 0.6 * (c.bodies.b.r1 + c.bodies.b.r2)) {
          printf("%-7s %4.2f %8.2e      | left out: v dt > 0.6 (r1 + r2): the centres may cross\n", c.bodies.name, c.v,
                 c.dt);
          continue;
        }
        for (int k = 0; k < 5; k++)
          one(E, &c, asked[k], mean_every && count++ % mean_every == 0);
      }
}

/* the traps: the restitution as users give it, against impactfit's reading of the source */
static void traps(nh_engine *E) {
  printf("\ntraps (5 mm sphere on a plane, 1 m/s, dt 1/60 s; e per phase, engine = impactfit)\n");
  nh_case c = {.bodies = hz_make_bodies(0), .v = 1.0, .dt = 1.0 / 60.0};
  static const char *const modes[4] = {"sphere-only", "default", "contact-material", "product"};
  for (int m = 0; m < 4; m++) {
    cur.materials = modes[m];
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.5, phases, 5, "materials");
    impactfit_step_stats S;
    nh_stats(E, &c, 0.5, &S);
    printf("  restitution 0.5 given as %-16s: mean e %.6f, one impact [%.6f, %.6f] (|engine - impactfit| %.1e)\n",
           modes[m], S.e_mean, S.e_min, S.e_max, d);
    if (m == 0) /* the product rule needs both materials: the world's default contact material (0) applies, and
                 * the first contact step leaves with (4 phi - 1) v/13 (relaxation 3: b = 12/13, a h = 4/13), a second
                 * one adds to it */
      nh_require(S.e_max < 0.3 && S.e_mean < 0.2, "sphere-only: restitution 0 (e_max < 0.3, mean < 0.2)", S.e_max,
                 S.e_mean);
  }
  cur.materials = "product";
  /* the velocity damping: linearDamping 0 against the default 0.01 */
  for (int k = 0; k < 2; k++) {
    cur.damping = k ? 0.5 : 0.0;
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.5, phases, 5, "damping");
    impactfit_step_stats S;
    nh_stats(E, &c, 0.5, &S);
    printf("  linearDamping %.2f: mean e %.6f (|engine - impactfit| %.1e)\n", cur.damping, S.e_mean, d);
  }
  cur.damping = NAN;
  /* softer equations: stiffness 1e3 N/m, relaxation 8 steps (eps M no longer negligible) */
  cur.stiffness = 1e3;
  cur.relaxation = 8.0;
  for (int bi = 0; bi < 3; bi++) {
    c.bodies = hz_make_bodies(bi);
    c.dt = 1e-3;
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.5, phases, 5, "soft");
    impactfit_step_stats S;
    nh_stats(E, &c, 0.5, &S);
    printf("  stiffness 1e3, relaxation 8, %-7s dt 1e-3: mean e %.6f [%.6f %.6f] (|engine - impactfit| %.1e)\n",
           c.bodies.name, S.e_mean, S.e_min, S.e_max, d);
  }
  cur.stiffness = cur.relaxation = NAN;
}

int main(int argc, char **argv) {
  nh_engine E = {.name = "cannon", .value_key = "restitution", .build = build, .tol_phase = 1e-9};
  json_t *hello = nc_start_or_skip(&E.child, "cannon_impacts", argc, argv);
  printf("cannon_impacts: cannon-es %s under node\n", json_string_value(json_object_get(hello, "version")));
  json_decref(hello);
  nh_header("restitution (both bodies' materials: the sphere's r, the other's 1; their product is the contact's)");
  sweep(&E, 3);
  traps(&E);
  int status = nc_stop(&E.child);
  double cpu_self, cpu_node;
  nc_cpu(&cpu_self, &cpu_node);
  printf("\ncannon_impacts: %ld engine impacts in %ld requests, largest |e_engine - e_impactfit| per phase %.3g, "
         "largest |engine mean - asked e| %.3g, %.2f s of CPU here and %.2f s in node\n",
         E.runs, E.requests, E.worst, E.worst_mean, cpu_self, cpu_node);
  return nh_end("cannon_impacts", status);
}
