/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of DEM codes (demcodes.h) against results derived here independently:
 *  - the linear spring–dashpot (n = 1, m = 0) in closed form: x'' + 2ξ x' + x = 0, x(0) = 0, x'(0) = 1
 *    has x = e^(−ξt) sin(ωt)/ω, ω = √(1 − ξ²). Ending at x = 0 (A): t = π/ω, e = exp(−ξπ/ω).
 *    Ending where the force x + 2ξ x' vanishes (C): tan(ωt) = −2ξω/(1 − 2ξ²) on (π/2ω, π/ω], and
 *    e = −x'(t) = e^(−ξt)(ξ sin(ωt)/ω − cos(ωt)); the over-damped branch alike with sinh and cosh.
 *    Written here from scratch (not the library's form);
 *  - the Hertz spring with a δ^(1/4) damper simulated by the impact engine in the user's units (a
 *    second method for the registry's closed-form path);
 *  - the real codes' restitutions measured with the Debian 12 packages (issue table, 4–6 digits);
 *  - the scaling law of speed-dependent models (derived in check_every_model).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static double kv_A(double xi) { return exp(-xi * M_PI / sqrt(1.0 - xi * xi)); }

static double kv_C(double xi) {
  if (xi > 1.0) { /* over-damped: x = e^(−ξt) sinh(Ωt)/Ω, Ω = √(ξ² − 1); the force vanishes where
                     tanh(Ωt) = 2ξΩ/(2ξ² − 1), and e = e^(−ξt)(ξ sinh(Ωt)/Ω − cosh(Ωt)) */
    double W = sqrt(xi * xi - 1.0), t = atanh(2.0 * xi * W / (2.0 * xi * xi - 1.0)) / W;
    return exp(-xi * t) * (xi * sinh(W * t) / W - cosh(W * t));
  }
  double w = sqrt(1.0 - xi * xi);
  /* ωt in (π/2, π]: the force vanishes after the maximum penetration */
  double wt = atan2(-2.0 * xi * w, 1.0 - 2.0 * xi * xi);
  if (wt < 0.0)
    wt += M_PI;
  if (wt <= 0.5 * M_PI) /* 1 − 2ξ² < 0 with the sign convention of atan2 */
    wt += M_PI;
  if (wt > M_PI)
    wt -= M_PI;
  double t = wt / w;
  return exp(-xi * t) * (xi * sin(wt) / w - cos(wt));
}

static double tsuji_poly(double e) {
  return 1.2728 - 4.2783 * e + 11.087 * e * e - 22.348 * pow(e, 3) + 27.467 * pow(e, 4) - 18.022 * pow(e, 5) +
         4.8218 * pow(e, 6);
}

static const impactfit_dem_model *find(const char *code, const char *model, const char *damping) {
  const impactfit_dem_model *md = NULL;
  impactfit_error err;
  int st = impactfit_dem_model_find(code, NULL, model, damping, &md, &err);
  if (st)
    fprintf(stderr, "lookup %s %s %s: %s\n", code, model, damping ? damping : "", err.message);
  CHECK(st == 0 && md, "registry has %s %s %s", code, model, damping ? damping : "");
  return md;
}

/* two equal spheres of the issue: R = 5 mm, ρ = 2500, E = 1e8, ν = 0.3 */
static impactfit_dem_contact issue_contact(int wall) {
  impactfit_dem_contact c = impactfit_dem_contact_default();
  c.geometry = wall ? IMPACTFIT_DEM_SPHERE_WALL : IMPACTFIT_DEM_SPHERE_SPHERE;
  c.E = 1e8;
  c.nu = 0.3;
  c.r1 = c.r2 = 0.005;
  c.m1 = c.m2 = impactfit_dem_sphere_mass(0.005, 2500.0);
  c.kn = 2.0e5;
  c.tc = 2e-4;
  c.v_char = 0.8;
  return c;
}

static double forward(const impactfit_dem_model *md, const impactfit_dem_contact *c, int clamp, double p, double v) {
  double e = NAN;
  impactfit_error err;
  int st = impactfit_dem_forward(md, c, clamp, p, v, &e, &err);
  if (st)
    fprintf(stderr, "forward %s %s: %s\n", md->code, md->model, err.message);
  return e;
}

static void check_linear_closed_forms(void) {
  /* LAMMPS granular hooke, damping tsuji: C = α(e) √(M kn), so ξ = α/2 */
  const impactfit_dem_model *md = find("lammps", "granular hooke", "tsuji");
  impactfit_dem_contact c = issue_contact(0);
  for (double e = 0.15; e < 0.99; e += 0.1) {
    double xi = 0.5 * tsuji_poly(e);
    CHECK_REL(forward(md, &c, 0, e, 1.0), kv_A(xi), 1e-12, "lammps hooke tsuji A, e = %g", e);
    CHECK_REL(forward(md, &c, 1, e, 1.0), kv_C(xi), 1e-10, "lammps hooke tsuji limit_damping, e = %g", e);
  }
  /* damping velocity: the exact η_n0 is 2ξ√(M kn), ξ = −ln e/√(π² + ln² e) under A */
  md = find("lammps", "granular hooke", "velocity");
  double M = 0.5 * c.m1;
  for (double e = 0.05; e < 0.99; e += 0.15) {
    impactfit_dem_request q = impactfit_dem_default_request();
    q.model = md;
    q.contact = c;
    q.e = e;
    q.v = 0.7;
    impactfit_dem_answer a;
    impactfit_error err;
    CHECK(impactfit_dem_solve(NULL, &q, &a, &err) == 0 && a.reachable, "solve hooke velocity e = %g", e);
    double L = log(e), xi = -L / sqrt(M_PI * M_PI + L * L);
    CHECK_REL(a.value, 2.0 * xi * sqrt(M * c.kn), 1e-9, "hooke velocity eta_n0 at e = %g (A)", e);
    CHECK(!a.speed_dependent, "linear dashpot is speed independent");
    /* with limit_damping the value must give kv_C(ξ) = e for ξ = η/(2√(M kn)) */
    q.clamp = 1;
    CHECK(impactfit_dem_solve(NULL, &q, &a, &err) == 0 && a.reachable, "solve hooke velocity C e = %g", e);
    CHECK_REL(kv_C(a.value / (2.0 * sqrt(M * c.kn))), e, 1e-9, "hooke velocity limit_damping e = %g", e);
    CHECK(strstr(a.input, "limit_damping") != NULL, "the input line has limit_damping");
  }
  /* LAMMPS gran/hooke: C = M γn → γn = 2ξ √(kn/M) */
  md = find("lammps", "gran/hooke", NULL);
  impactfit_dem_request q = impactfit_dem_default_request();
  q.model = md;
  q.contact = c;
  q.e = 0.3;
  q.v = 2.0;
  impactfit_dem_answer a;
  CHECK(impactfit_dem_solve(NULL, &q, &a, NULL) == 0, "solve gran/hooke");
  double L = log(0.3), xi = -L / sqrt(M_PI * M_PI + L * L);
  CHECK_REL(a.value, 2.0 * xi * sqrt(c.kn / M), 1e-9, "gran/hooke gamma_n");
  CHECK(strncmp(a.input, "pair_style gran/hooke 200000 NULL ", 34) == 0, "gran/hooke input: %.200s", a.input);
}

/* The δ^(1/4) damper on a Hertz spring: the registry's closed form against the engine run in the user's
 * units, and against the real codes' measured values (Debian 12 packages, issue table). */
static void check_hertz_family(void) {
  impactfit_dem_contact c = issue_contact(0);
  double R = 0.0025, M = 0.5 * c.m1, Es = 1e8 / (2.0 * (1.0 - 0.09)), K = 4.0 / 3.0 * Es * sqrt(R);
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  const impactfit_dem_model *lmp = find("lammps", "granular hertz/material", "tsuji");
  const double e_in[3] = {0.1, 0.5, 0.9};
  const double lmp_A[3] = {0.2350, 0.6161, 0.9284}, lmp_C[3] = {0.3500, 0.6458, 0.9294};
  const double lig_C[3] = {0.25273, 0.55028, 0.90203}, yade[3] = {0.10008, 0.50001, 0.89992};
  for (int i = 0; i < 3; i++) {
    double e = e_in[i];
    for (int clamp = 0; clamp < 2; clamp++) {
      impactfit_impact_params p = impactfit_impact_default_params();
      p.n = 1.5;
      p.m = 0.25;
      p.k = K;
      p.mass = M;
      p.v = 1.3;
      p.c = tsuji_poly(e) * sqrt(M * K);
      p.transition = clamp ? impactfit_transition_C : impactfit_transition_A;
      p.locate_extrema = 0;
      impactfit_impact_result r;
      CHECK(impactfit_impact_solve(ws, &p, &r, NULL) == 0, "engine run");
      CHECK_REL(forward(lmp, &c, clamp, e, 1.3), r.e_out, 1e-9, "lammps tsuji clamp %d e = %g vs engine", clamp, e);
      CHECK_ABS(forward(lmp, &c, clamp, e, 1.0), clamp ? lmp_C[i] : lmp_A[i], 6e-5,
                "lammps tsuji clamp %d e = %g vs LAMMPS 29Sep2021", clamp, e);
    }
    const impactfit_dem_model *lig = find("liggghts", "hertz", NULL);
    /* the β formula is the exact inverse of the Hertz δ^(1/4) damper ending at δ = 0 */
    CHECK_REL(forward(lig, &c, 0, e, 1.0), e, 1e-12, "liggghts hertz limitForce off, e = %g", e);
    CHECK_ABS(forward(lig, &c, 1, e, 1.0), lig_C[i], 6e-6, "liggghts hertz limitForce on, e = %g vs LIGGGHTS 3.8.0", e);
    const impactfit_dem_model *y = find("yade", "mindlin", "en");
    CHECK_ABS(forward(y, &c, -1, e, 1.0), yade[i], 6e-6, "yade mindlin en = %g vs YADE 2023.02a", e);
  }
  /* YADE near e -> 1 (issue: 0.95 -> 0.9481, 0.99 -> 0.9789) and the jump of its conversion at en = 1 */
  const impactfit_dem_model *y = find("yade", "mindlin", "en");
  CHECK_ABS(forward(y, &c, -1, 0.95, 1.0), 0.9481, 6e-5, "yade en = 0.95");
  CHECK_ABS(forward(y, &c, -1, 0.99, 1.0), 0.9789, 6e-5, "yade en = 0.99");
  impactfit_dem_request q = impactfit_dem_default_request();
  q.model = y;
  q.contact = c;
  q.e = 0.99;
  q.v = 1.0;
  impactfit_dem_answer a;
  CHECK(impactfit_dem_solve(NULL, &q, &a, NULL) == 0 && !a.reachable, "yade en cannot give 0.99");
  const impactfit_dem_model *alt = NULL;
  CHECK(impactfit_dem_suggest(NULL, &q, &alt, &a, NULL) == 0 && alt && !strcmp(alt->damping, "betan"),
        "yade: betan suggested for e = 0.99");
  impactfit_impact_free(ws);
}

/* Every model: the value returned gives the asked e at the design speed (forward = the engine or the
 * closed form), the real e increases with what the user types, and speed-dependent models obey the
 * scaling law: with ζ = C δ_m0^(m+1)/(M v) and δ_m0 ∝ v^(2/(n+1)), the C that gives e scales as
 * C ∝ v^(1 − 2(m+1)/(n+1)). */
static void check_every_model(void) {
  const double es[5] = {0.05, 0.3, 0.5, 0.8, 0.97};
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = impactfit_dem_model_at(i);
    for (int wall = 0; wall < 2; wall++) {
      impactfit_dem_contact c = issue_contact(wall);
      if (!wall) { /* unequal radii and masses */
        c.r2 = 0.002;
        c.m2 = impactfit_dem_sphere_mass(0.002, 7800.0);
      }
      for (int k = 0; k < 5; k++) {
        impactfit_dem_request q = impactfit_dem_default_request();
        q.model = md;
        q.contact = c;
        q.e = es[k];
        q.v = 0.8;
        q.v_min = 0.2;
        q.v_max = 3.0;
        impactfit_dem_answer a;
        impactfit_error err;
        int st = impactfit_dem_solve(NULL, &q, &a, &err);
        CHECK(st == 0, "%s %s %s wall %d e %g: %s", md->code, md->model, md->damping, wall, es[k],
              st ? err.message : "");
        if (st || !a.reachable)
          continue;
        CHECK_REL(forward(md, &c, -1, a.value, 0.8), es[k], 2e-9, "%s %s %s wall %d: round trip e = %g", md->code,
                  md->model, md->damping, wall, es[k]);
        CHECK(a.e_min <= es[k] + 1e-9 && a.e_max >= es[k] - 1e-9, "%s %s: the range holds e", md->code, md->model);
        CHECK(strlen(a.input) > 10, "%s %s: an input text", md->code, md->model);
        if (a.speed_dependent && !md->takes_e) {
          CHECK(a.e_max - a.e_min > 1e-3, "%s %s: speed-dependent spread", md->code, md->model);
          impactfit_dem_request q2 = q;
          q2.v = 2.4;
          impactfit_dem_answer a2;
          CHECK(impactfit_dem_solve(NULL, &q2, &a2, NULL) == 0, "solve at another speed");
          double expo = 1.0 - 2.0 * (md->m + 1.0) / (md->n + 1.0);
          CHECK_REL(a2.value, a.value * pow(2.4 / 0.8, expo), 2e-8, "%s %s %s: scaling law of the damping", md->code,
                    md->model, md->damping);
          /* the range over speeds holds the ends' restitutions and agrees with the solver's */
          double lo, hi, e02 = forward(md, &c, -1, a.value, 0.2), e3 = forward(md, &c, -1, a.value, 3.0);
          CHECK(impactfit_dem_forward_range(md, &c, -1, a.value, 0.2, 3.0, 9, &lo, &hi, NULL) == 0, "forward range");
          CHECK(lo <= fmin(e02, e3) && hi >= fmax(e02, e3), "%s %s: range holds its ends", md->code, md->model);
          CHECK_REL(lo, a.e_min, 1e-15, "%s %s: range min as solve's", md->code, md->model);
          CHECK_REL(hi, a.e_max, 1e-15, "%s %s: range max as solve's", md->code, md->model);
        }
      }
      if (md->takes_e) { /* monotone: more restitution typed, more restitution got */
        double prev = -1.0;
        int mono = 1;
        for (int j = 1; j <= 99; j++) {
          double e1;
          if (impactfit_dem_forward(md, &c, -1, j / 100.0, 0.8, &e1, NULL) != 0) {
            mono &= !strcmp(md->code, "liggghts") && j <= 5; /* LIGGGHTS refuses e <= 0.05 */
            continue;
          }
          mono &= e1 > prev;
          prev = e1;
        }
        CHECK(mono, "%s %s %s: real e increases with the typed %s", md->code, md->model, md->damping, md->param);
      }
    }
  }
}

static void check_registry(void) {
  const impactfit_dem_model *md;
  impactfit_error err;
  CHECK(impactfit_dem_model_find("pfc", NULL, "x", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "lammps, liggghts, yade"),
        "unknown code lists the codes: %s", err.message);
  CHECK(impactfit_dem_model_find("lammps", NULL, "granular foo", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "gran/hertz/history"),
        "unknown model lists the models: %s", err.message);
  /* no damping: the code's own default (LAMMPS granular: viscoelastic), or the options and the flag to add */
  CHECK(impactfit_dem_model_find("lammps", NULL, "granular hertz/material", NULL, &md, &err) == 0 &&
            !strcmp(md->damping, "viscoelastic") && md->default_damping,
        "missing damping: LAMMPS's default viscoelastic");
  CHECK(impactfit_dem_model_find("yade", NULL, "mindlin", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "'en', 'betan'") && strstr(err.message, "--damping en"),
        "missing damping lists the options and the flag: %s", err.message);
  /* names as users type them: the code in capitals, the model after `pair_style granular`, typos */
  CHECK(impactfit_dem_model_find("LAMMPS", NULL, "hertz/material", "TSUJI", &md, &err) == 0 &&
            !strcmp(md->code, "lammps") && !strcmp(md->model, "granular hertz/material") &&
            !strcmp(md->damping, "tsuji"),
        "LAMMPS, hertz/material, TSUJI");
  CHECK(impactfit_dem_model_find("lammps", NULL, "granular hertz/materail", "tsuji", &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "did you mean 'granular hertz/material'?"),
        "model typo: %s", err.message);
  CHECK(impactfit_dem_model_find("lammps", NULL, "granular hertz/material", "tsuij", &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "did you mean 'tsuji'?"),
        "damping typo: %s", err.message);
  CHECK(impactfit_dem_model_find("lamps", NULL, "x", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "did you mean 'lammps'?"),
        "code typo: %s", err.message);
  /* versions: the entry whose range holds the version answers; formula only unless that version ran here */
  static const char *const between[] = {"29Aug2024", "2Aug2023", "22Jul2025", "17Apr2024", "stable_29Aug2024_update1"};
  for (size_t i = 0; i < sizeof between / sizeof between[0]; i++)
    CHECK(impactfit_dem_model_find("lammps", between[i], "granular hertz/material", "tsuji", &md, &err) == 0 &&
              md->version_min == 20210929 && !impactfit_dem_model_run_for(md, between[i]) &&
              impactfit_dem_model_run_for(md, "29Sep2021") && impactfit_dem_model_run_for(md, NULL),
          "LAMMPS %s tsuji: the 29Sep2021 law, formula only (%s)", between[i], err.message);
  CHECK(impactfit_dem_model_find("lammps", "2Sep2026", "granular hertz/material", "tsuji", &md, &err) == 0 &&
            md->version_min == 20260902 && !impactfit_dem_model_run_for(md, "2Sep2026"),
        "LAMMPS 2Sep2026 tsuji: the sqrt 2 entry");
  CHECK(impactfit_dem_model_find("lammps", "1Sep2026", "granular hertz/material", "tsuji", &md, &err) == 0 &&
            md->version_min == 20210929,
        "LAMMPS 1Sep2026 tsuji: still without sqrt 2");
  CHECK(impactfit_dem_model_find("lammps", "1Jan2020", "granular hertz/material", "tsuji", &md, &err) ==
                IMPACTFIT_EINVAL &&
            strstr(err.message, "give the version 29Sep2021") && strstr(err.message, "pair_granular.cpp"),
        "a version before every range says what to do: %s", err.message);
  CHECK(impactfit_dem_model_find("lammps", "2Aug2023", "gran/hooke", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "give the version 29Sep2021"),
        "gran/hooke was read for 29Sep2021 only: %s", err.message);
  /* every listed version is one a user can type, and each entry's first version opens its range */
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *m = impactfit_dem_model_at(i);
    char text[256];
    snprintf(text, sizeof text, "%s", m->versions);
    for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " "))
      if (tok[0] >= '0' && tok[0] <= '9')
        CHECK(impactfit_dem_version_key(m->code, tok) != 0, "%s %s: listed version '%s' can be typed", m->code,
              m->model, tok);
    CHECK(m->version_min == 0 || impactfit_dem_version_key(m->code, m->first_version) == m->version_min,
          "%s %s: first_version %s opens the range", m->code, m->model, m->first_version);
    CHECK(!m->run_here || (m->run_versions && impactfit_version_in_range(m->run_min, m->version_min, m->version_max)),
          "%s %s: the versions run here lie in the range", m->code, m->model);
  }
  CHECK(impactfit_dem_model_find("lammps", "29Sep2021", "granular hertz/material", "coeff_restitution", &md, &err) ==
                IMPACTFIT_EINVAL &&
            strstr(err.message, "17Apr2024"),
        "coeff_restitution is not in 29Sep2021: %s", err.message);
  CHECK(impactfit_dem_model_find("lammps", "2Aug2024", "granular hertz/material", "coeff_restitution", &md, &err) ==
                0 &&
            !md->run_here,
        "coeff_restitution in later versions, formula only");
  CHECK(impactfit_dem_version_key("lammps", "29Sep2021") == 20210929, "version key 29Sep2021");
  CHECK(impactfit_dem_version_key("lammps", "stable_29Sep2021_update2") == 20210929, "stable_..._update2");
  CHECK(impactfit_dem_version_key("lammps", "2021-09-29") == 20210929, "ISO date");
  CHECK(impactfit_dem_version_key("lammps", "20220106") == 20220106, "Debian date");
  CHECK(impactfit_dem_version_key("liggghts", "3.8.0") == 30800, "3.8.0");
  CHECK(impactfit_dem_version_key("yade", "2023.02a") == 20230200, "2023.02a");
  CHECK(impactfit_dem_version_key("yade", "banana") == 0, "unreadable version");
  /* effective radius and mass, and the LAMMPS wall trap E/(2(1 − ν)) */
  impactfit_dem_contact c = issue_contact(1);
  double R, M;
  CHECK(impactfit_dem_effective(&c, &R, &M, NULL) == 0 && R == c.r1 && M == c.m1, "wall: R = r1, M = m1");
  impactfit_dem_request q = impactfit_dem_default_request();
  q.model = find("lammps", "granular hertz/material", "velocity");
  q.contact = c;
  q.e = 0.5;
  q.v = 1.0;
  impactfit_dem_answer a;
  CHECK(impactfit_dem_solve(NULL, &q, &a, NULL) == 0, "solve wall");
  CHECK_REL(a.K, 4.0 / 3.0 * 1e8 / (2.0 * 0.7) * sqrt(0.005), 1e-15, "LAMMPS fix wall/gran hertz/material stiffness");
  CHECK(strstr(a.input, "fix wall all wall/gran granular hertz/material") != NULL, "wall input: %.200s", a.input);
  /* invalid input: the messages name the value */
  q.e = 1.5;
  CHECK(impactfit_dem_solve(NULL, &q, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "1.5"), "e = 1.5");
  q.e = 0.5;
  q.contact.E = NAN;
  CHECK(impactfit_dem_solve(NULL, &q, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "Young"), "no E");
  q.contact = issue_contact(0);
  q.clamp = 0;
  q.model = find("yade", "mindlin", "en");
  CHECK(impactfit_dem_solve(NULL, &q, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "always clamps"),
        "yade has no switch: %s", err.message);
}

/* The bodies as a user gives them, and the forward problem of a request. */
static void check_bodies_and_forward(void) {
  impactfit_dem_bodies b = impactfit_dem_bodies_default();
  impactfit_dem_contact c = impactfit_dem_contact_default();
  impactfit_error err;
  const double m = 4.0 / 3.0 * M_PI * 0.005 * 0.005 * 0.005 * 2500.0; /* (4/3) π r³ ρ, written out */
  b.radius = 0.005;
  b.density = 2500.0;
  CHECK(impactfit_dem_bodies_contact(&b, &c, NULL) == 0 && c.geometry == IMPACTFIT_DEM_SPHERE_SPHERE, "bodies");
  CHECK(c.r1 == 0.005 && c.r2 == 0.005 && isnan(c.R_eff) && isnan(c.M_eff), "radius of both");
  CHECK_REL(c.m1, m, 1e-15, "m1 from the density");
  CHECK_REL(c.m2, m, 1e-15, "m2 from the density");
  b = impactfit_dem_bodies_default();
  b.wall = 1;
  b.r1 = 0.01;
  b.rho1 = 1000.0;
  CHECK(impactfit_dem_bodies_contact(&b, &c, NULL) == 0 && c.geometry == IMPACTFIT_DEM_SPHERE_WALL, "wall");
  CHECK(isnan(c.r2) && isnan(c.m2), "a wall has no second body");
  CHECK_REL(c.m1, 4.0 / 3.0 * M_PI * 1e-6 * 1000.0, 1e-15, "wall: m1 from rho1");
  b = impactfit_dem_bodies_default();
  b.r1 = 0.01;
  b.r2 = 0.02;
  b.m1 = 3.0;
  CHECK(impactfit_dem_bodies_contact(&b, &c, NULL) == 0 && c.r2 == 0.02 && c.m1 == 3.0 && c.m2 == 3.0,
        "the second body's mass is the first's unless given");
  b = impactfit_dem_bodies_default();
  b.mass = 0.5;
  b.reff = 0.25;
  CHECK(impactfit_dem_bodies_contact(&b, &c, NULL) == 0 && c.M_eff == 0.5 && c.R_eff == 0.25 && isnan(c.m1),
        "effective mass and radius directly");
  b = impactfit_dem_bodies_default();
  b.radius = 0.005;
  b.rho1 = 2500.0;
  b.rho2 = 0.0;
  CHECK(impactfit_dem_bodies_contact(&b, &c, &err) == IMPACTFIT_EINVAL && strstr(err.message, "densities must be > 0"),
        "rho2 = 0: %s", err.message);
  b.rho1 = b.rho2 = NAN;
  CHECK(impactfit_dem_bodies_contact(&b, &c, &err) == IMPACTFIT_EINVAL, "no density and no masses");

  /* the clamps an audit covers: LAMMPS's limit_damping off and on, YADE always clamped */
  int cl[2] = {-1, -1};
  CHECK(impactfit_dem_model_clamps(find("lammps", "granular hertz/material", "tsuji"), cl) == 2 && cl[0] == 0 &&
            cl[1] == 1,
        "lammps tsuji: limit_damping off and on");
  CHECK(impactfit_dem_model_clamps(find("yade", "mindlin", "en"), cl) == 1 && cl[0] == 1, "yade: always clamped");
  /* what the stiffness comes from: every model, and the three kinds by name */
  for (size_t i = 0; i < impactfit_dem_model_count(); i++) {
    const impactfit_dem_model *md = impactfit_dem_model_at(i);
    impactfit_dem_stiffness_input from = impactfit_dem_model_stiffness_input(md);
    int viscel_tc = !strcmp(md->code, "yade") && !strcmp(md->model, "viscel") && !strcmp(md->damping, "en");
    CHECK(from == (viscel_tc            ? IMPACTFIT_DEM_FROM_TC
                   : md->needs_material ? IMPACTFIT_DEM_FROM_MATERIAL
                                        : IMPACTFIT_DEM_FROM_KN),
          "stiffness input of %s %s %s", md->code, md->model, md->damping);
  }
  CHECK(impactfit_dem_model_stiffness_input(find("lammps", "gran/hooke", NULL)) == IMPACTFIT_DEM_FROM_KN, "kn");
  CHECK(impactfit_dem_model_stiffness_input(find("liggghts", "hertz", NULL)) == IMPACTFIT_DEM_FROM_MATERIAL, "E, nu");

  /* LIGGGHTS hertz, force not clamped (A): its β conversion is the exact inverse of the Kelvin–Voigt
   * oscillator (dem.h), so typing e gives e at every speed */
  impactfit_dem_request q = impactfit_dem_default_request();
  impactfit_dem_forward_answer fa;
  q.model = find("liggghts", "hertz", NULL);
  q.contact = issue_contact(0);
  q.v = 1.3;
  CHECK(impactfit_dem_forward_request(&q, 0.5, &fa, NULL) == 0, "forward request");
  CHECK_REL(fa.e, 0.5, 1e-9, "liggghts hertz A: typed e is the real e");
  CHECK(fa.e_min == fa.e && fa.e_max == fa.e && fa.v_min == 1.3 && fa.v_max == 1.3, "one speed when no range");
  CHECK(fa.transition == impactfit_transition_A && fa.value == 0.5 && strstr(fa.input, "hertz"), "end A, input");
  q.clamp = 1;
  CHECK(impactfit_dem_forward_request(&q, 0.5, &fa, NULL) == 0 && fa.transition == impactfit_transition_C && fa.e > 0.5,
        "limitForce on: the clamped force gives a higher e (%.17g)", fa.e);
  /* a speed-dependent model: the inverse's value gives the asked e back at v, and more and less
   * over a range around it (e rises with the speed for a δ^(1/2) damper on a Hertz spring) */
  q = impactfit_dem_default_request();
  q.model = find("lammps", "gran/hertz/history", NULL);
  q.contact = issue_contact(0);
  q.e = 0.4;
  q.v = 1.7;
  impactfit_dem_answer a;
  CHECK(impactfit_dem_solve(NULL, &q, &a, NULL) == 0 && a.reachable, "solve gran/hertz/history");
  q.v_min = 0.5;
  q.v_max = 5.0;
  q.range_points = 5;
  CHECK(impactfit_dem_forward_request(&q, a.value, &fa, NULL) == 0, "forward request over a range");
  CHECK_REL(fa.e, 0.4, 1e-9, "forward of the inverse");
  double lo, hi;
  CHECK(impactfit_dem_forward_range(q.model, &q.contact, -1, a.value, 0.5, 5.0, 5, &lo, &hi, NULL) == 0 &&
            fa.e_min == lo && fa.e_max == hi && lo < 0.4 && hi > 0.4,
        "the range's e [%g, %g] spans the asked e", fa.e_min, fa.e_max);
  /* LIGGGHTS hooke takes the characteristic velocity; without one it is the design speed */
  q = impactfit_dem_default_request();
  q.model = find("liggghts", "hooke", NULL);
  q.contact = issue_contact(0);
  q.contact.v_char = NAN;
  q.v = 2.0;
  double e2;
  c = issue_contact(0);
  c.v_char = 2.0;
  CHECK(impactfit_dem_forward_request(&q, 0.3, &fa, NULL) == 0 &&
            impactfit_dem_forward(q.model, &c, -1, 0.3, 2.0, &e2, NULL) == 0 && fa.e == e2,
        "v_char defaults to v");
  q.v = -1.0;
  CHECK(impactfit_dem_forward_request(&q, 0.3, &fa, &err) == IMPACTFIT_EINVAL && strstr(err.message, "speed"),
        "negative speed: %s", err.message);
}

int main(void) {
  check_linear_closed_forms();
  check_bodies_and_forward();
  check_hertz_family();
  check_every_model();
  check_registry();
  return tu_report("test_demcodes");
}
