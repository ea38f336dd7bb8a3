/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit's side of the two-material, three-size runs in LAMMPS and LIGGGHTS (tests/dem/run_mixing.py, ctest
 * dem_mixing): writes the scenarios (the lines a user types for every type pair, the collisions and impactfit's e
 * for each) as JSON on stdout, and prints on stderr what the answer says where one value per type pair cannot
 * be exact (the spread over the sizes). Materials: 1 = E 1e8 Pa, ν 0.3, 2500 kg/m³; 2 = E 5e8 Pa, ν 0.2,
 * 7800 kg/m³; radii 2, 5 and 10 mm (each with itself, and 2 against 10 mm), v = 1 m/s; asked e: 1-1 0.5, 2-2
 * 0.8, 1-2 0.65.
 *  A  LAMMPS pair granular hertz/material, damping tsuji, friction kept (tangential mindlin NULL 1.0 0.5): the
 *     three lines 1 1, 2 2, 1 2 with impactfit's values and the 1 2 line's E and ν (impactfit_lammps_pair_material):
 *     every pair and size at its asked e (tsuji is scale-free);
 *  B  the same without the 1 2 line: the mixed pair runs as hooke with velocity damping (impactfit_lammps_mix:
 *     the pair's model choices are never set in 29Sep2021): impactfit predicts its e;
 *  C  damping viscoelastic (LAMMPS's default), one η_n0 per type pair for 5 mm, every pair typed: impactfit's e
 *     for every size (the spread is the answer's "cannot");
 *  D  LIGGGHTS hertz: youngsModulus and poissonsRatio per type, coefficientRestitution per type pair with
 *     impactfit's values, coefficientFriction 0.5 kept: every pair and size at its asked e. */
#include <math.h>
#include <stdio.h>
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

/* the value to type for e at the 5 mm pair of these types with the line's material */
static double solve(const impactfit_code_model *md, double Em, double num, int t1, int t2, double e) {
  pair_request r = contact(md, Em, num, t1, t2, 0.005, 0.005);
  r.q.settings = r.set;
  r.q.e = e;
  r.q.v = V;
  r.q.v_min = r.q.v_max = V;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  double value = NAN;
  if (impactfit_code_solve(&r.q, &a, &err) || !a.reachable) {
    fprintf(stderr, "mixing_cases: %s %s: %s %s\n", md->model, md->option, err.message, a.note ? a.note : "");
    failed = 1;
  } else
    value = a.value;
  impactfit_code_answer_free(&a);
  return value;
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

int main(void) {
  const impactfit_code_model *tsuji = model("lammps", "granular hertz/material", "tsuji");
  const impactfit_code_model *visco = model("lammps", "granular hertz/material", "viscoelastic");
  const impactfit_code_model *lig = model("liggghts", "hertz", NULL);
  if (failed)
    return 1;
  impactfit_error err;
  double E12, nu12;
  if (impactfit_lammps_pair_material(E[0], NU[0], E[1], NU[1], &E12, &nu12, &err)) {
    fprintf(stderr, "mixing_cases: %s\n", err.message);
    return 1;
  }
  double es[3] = {E[0] / (2 * (1 - NU[0] * NU[0])), E[1] / (2 * (1 - NU[1] * NU[1])),
                  impactfit_mix_estar(E[0], NU[0], E[1], NU[1])};
  printf("[\n");
  /* A: tsuji, all three lines */
  double c11 = solve(tsuji, E[0], NU[0], 1, 1, 0.5), c22 = solve(tsuji, E[1], NU[1], 2, 2, 0.8);
  double c12 = solve(tsuji, E12, nu12, 1, 2, 0.65);
  char l1[256], l2[256], l3[256];
  const char *tang = "tangential mindlin NULL 1.0 0.5 damping tsuji";
  snprintf(l1, sizeof l1, "pair_coeff 1 1 hertz/material %.12g %.12g %.12g %s", E[0], c11, NU[0], tang);
  snprintf(l2, sizeof l2, "pair_coeff 2 2 hertz/material %.12g %.12g %.12g %s", E[1], c22, NU[1], tang);
  snprintf(l3, sizeof l3, "pair_coeff 1 2 hertz/material %.12g %.12g %.12g %s", E12, c12, nu12, tang);
  {
    const char *ls[4] = {"pair_style granular", l1, l2, l3};
    begin("lammps", "A: granular hertz/material tsuji, pair_coeff 1 1, 2 2 and 1 2 (impactfit's E and nu for 1 2)", 1);
    lines(ls, 4);
    for (int t = 0; t < 3; t++)
      for (int k = 0; k < 4; k++) {
        int t1 = t == 1 ? 2 : 1, t2 = t == 0 ? 1 : 2;
        double Em = t == 0 ? E[0] : t == 1 ? E[1] : E12, nm = t == 0 ? NU[0] : t == 1 ? NU[1] : nu12;
        double val = t == 0 ? c11 : t == 1 ? c22 : c12;
        double e = forward(tsuji, Em, nm, t1, t2, RADII[k][0], RADII[k][1], val);
        if (fabs(e - asked(t1, t2)) > 1e-9)
          fprintf(stderr, "mixing_cases: A %d-%d: impactfit's own e %.12g is not the asked %.12g\n", t1, t2, e,
                  asked(t1, t2)),
              failed = 1;
        collision(t1, t2, RADII[k], asked(t1, t2), es[t], "tsuji, every line typed");
      }
    printf("]}");
  }
  /* B: tsuji, 1 2 mixed by LAMMPS: its pair runs as hooke with velocity damping (impactfit_lammps_mix) */
  {
    const char *ls[3] = {"pair_style granular", l1, l2};
    double li[3] = {E[0], c11, NU[0]}, lj[3] = {E[1], c22, NU[1]};
    impactfit_lammps_mixed_pair mp;
    const impactfit_code_model *hv = model("lammps", "granular hooke", "velocity");
    if (!hv || impactfit_lammps_mix("hertz/material", "tsuji", li, lj, &mp, &err)) {
      fprintf(stderr, "mixing_cases: %s\n", err.message);
      return 1;
    }
    begin("lammps", "B: tsuji, pair_coeff 1 1 and 2 2 only (LAMMPS mixes 1 2: hooke, velocity damping)", 0);
    lines(ls, 3);
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
  /* C: viscoelastic, one eta_n0 per type pair (for 5 mm), every pair typed */
  {
    double h11 = solve(visco, E[0], NU[0], 1, 1, 0.5), h22 = solve(visco, E[1], NU[1], 2, 2, 0.8);
    double h12 = solve(visco, E12, nu12, 1, 2, 0.65);
    char m1[256], m2[256], m3[256];
    const char *vt = "tangential mindlin NULL 1.0 0.5 damping viscoelastic";
    snprintf(m1, sizeof m1, "pair_coeff 1 1 hertz/material %.12g %.12g %.12g %s", E[0], h11, NU[0], vt);
    snprintf(m2, sizeof m2, "pair_coeff 2 2 hertz/material %.12g %.12g %.12g %s", E[1], h22, NU[1], vt);
    snprintf(m3, sizeof m3, "pair_coeff 1 2 hertz/material %.12g %.12g %.12g %s", E12, h12, nu12, vt);
    const char *ls[4] = {"pair_style granular", m1, m2, m3};
    begin("lammps", "C: viscoelastic, one eta_n0 per type pair (exact at 5 mm), every pair typed", 0);
    lines(ls, 4);
    for (int t = 0; t < 3; t++) {
      int t1 = t == 1 ? 2 : 1, t2 = t == 0 ? 1 : 2;
      double Em = t == 0 ? E[0] : t == 1 ? E[1] : E12, nm = t == 0 ? NU[0] : t == 1 ? NU[1] : nu12;
      double val = t == 0 ? h11 : t == 1 ? h22 : h12;
      pair_request c = contact(visco, Em, nm, t1, t2, 0.005, 0.005);
      c.q.settings = c.set;
      impactfit_code_spread sp;
      if (impactfit_code_forward_spread(&c.q, val, RHO[t1 - 1], RHO[t2 - 1], 0.002, 0.01, 0.3, 3.0, 5, asked(t1, t2),
                                        &sp, &err) == 0)
        fprintf(stderr,
                "C: %d-%d eta_n0 %.6g: e from %.4f (r %.0f, %.0f mm, v %.2g m/s) to %.4f (r %.0f, %.0f mm, v %.2g m/s) "
                "over 2-10 mm and 0.3-3 m/s, worst |e - %.2f| = %.4f: one eta_n0 per type pair cannot be exact; "
                "damping tsuji can (A)\n",
                t1, t2, val, sp.e_min, 1e3 * sp.r1_min, 1e3 * sp.r2_min, sp.v_at_min, sp.e_max, 1e3 * sp.r1_max,
                1e3 * sp.r2_max, sp.v_at_max, asked(t1, t2), sp.worst);
      for (int k = 0; k < 4; k++) {
        double e = forward(visco, Em, nm, t1, t2, RADII[k][0], RADII[k][1], val);
        collision(t1, t2, RADII[k], e, es[t], "viscoelastic, one eta_n0 per pair");
      }
    }
    printf("]}");
  }
  /* D: LIGGGHTS hertz with per-type materials and a restitution matrix */
  {
    double Eq[3] = {2 * es[0], 2 * es[1], 2 * es[2]}; /* the pair's Yeff as one material with nu = 0 */
    double d11 = solve(lig, Eq[0], 0.0, 1, 1, 0.5), d22 = solve(lig, Eq[1], 0.0, 2, 2, 0.8);
    double d12 = solve(lig, Eq[2], 0.0, 1, 2, 0.65);
    char a[256], b[256], c[256];
    snprintf(a, sizeof a, "fix m1 all property/global youngsModulus peratomtype %.12g %.12g", E[0], E[1]);
    snprintf(b, sizeof b, "fix m2 all property/global poissonsRatio peratomtype %.12g %.12g", NU[0], NU[1]);
    snprintf(c, sizeof c, "fix m3 all property/global coefficientRestitution peratomtypepair 2 %.12g %.12g %.12g %.12g",
             d11, d12, d12, d22);
    const char *ls[6] = {a,
                         b,
                         c,
                         "fix m4 all property/global coefficientFriction peratomtypepair 2 0.5 0.5 0.5 0.5",
                         "pair_style gran model hertz tangential history",
                         "pair_coeff * *"};
    begin("liggghts", "D: hertz, coefficientRestitution per type pair (impactfit's values), friction 0.5", 0);
    lines(ls, 6);
    for (int t = 0; t < 3; t++)
      for (int k = 0; k < 4; k++) {
        int t1 = t == 1 ? 2 : 1, t2 = t == 0 ? 1 : 2;
        double e = forward(lig, Eq[t], 0.0, t1, t2, RADII[k][0], RADII[k][1], t == 0 ? d11 : t == 1 ? d22 : d12);
        if (fabs(e - asked(t1, t2)) > 1e-9)
          fprintf(stderr, "mixing_cases: D %d-%d: impactfit's own e %.12g is not the asked %.12g\n", t1, t2, e,
                  asked(t1, t2)),
              failed = 1;
        collision(t1, t2, RADII[k], asked(t1, t2), es[t], "LIGGGHTS, every pair typed");
      }
    printf("]}");
  }
  printf("\n]\n");
  return failed;
}
