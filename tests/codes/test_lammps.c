/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LAMMPS in the code registry (src/codes/lammps.c) against results derived here independently:
 *  - the linear spring–dashpot (n = 1, m = 0) in closed form: x'' + 2ξ x' + x = 0, x(0) = 0, x'(0) = 1
 *    has x = e^(−ξt) sin(ωt)/ω, ω = √(1 − ξ²). Ending at x = 0 (A): t = π/ω, e = exp(−ξπ/ω).
 *    Ending where the force x + 2ξ x' vanishes (C): tan(ωt) = −2ξω/(1 − 2ξ²) on (π/2ω, π/ω], and
 *    e = −x'(t) = e^(−ξt)(ξ sin(ωt)/ω − cos(ωt)); the over-damped branch alike with sinh and cosh.
 *    Written here from scratch (not the library's form);
 *  - the Hertz spring with a δ^(1/4) damper simulated by the impact engine in the user's units (a second
 *    method for the registry's closed-form path);
 *  - the restitutions measured in the real LAMMPS 29Sep2021 (the Debian 12 package; 4 digits);
 *  - the version ranges as the LAMMPS sources define them, and fix wall/gran's E* = E/(2(1 − ν)). */
#include "codes_test.h"

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

static void check_linear_closed_forms(void) {
  /* granular hooke, damping tsuji: C = α(e) √(M kn), so ξ = α/2 */
  ct_request r = ct_dem(ct_find("lammps", NULL, "granular hooke", "tsuji"), 0);
  for (double e = 0.15; e < 0.99; e += 0.1) {
    double xi = 0.5 * tsuji_poly(e);
    CHECK_REL(ct_forward(&r, 0, e, 1.0), kv_A(xi), 1e-12, "lammps hooke tsuji A, e = %g", e);
    CHECK_REL(ct_forward(&r, 1, e, 1.0), kv_C(xi), 1e-10, "lammps hooke tsuji limit_damping, e = %g", e);
  }
  /* damping velocity: the exact η_n0 is 2ξ√(M kn), ξ = −ln e/√(π² + ln² e) under A */
  r = ct_dem(ct_find("lammps", NULL, "granular hooke", "velocity"), 0);
  double M = 0.5 * CT_M5, kn = 2e5;
  impactfit_code_answer a = {0};
  impactfit_error err;
  for (double e = 0.05; e < 0.99; e += 0.15) {
    r.q.e = e;
    r.q.v = 0.7;
    r.q.clamp = -1;
    CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "solve hooke velocity e = %g", e);
    double L = log(e), xi = -L / sqrt(M_PI * M_PI + L * L);
    CHECK_REL(a.value, 2.0 * xi * sqrt(M * kn), 1e-9, "hooke velocity eta_n0 at e = %g (A)", e);
    CHECK(!a.speed_dependent && !a.stepped, "linear dashpot: speed independent, continuous time");
    /* with limit_damping the value must give kv_C(ξ) = e for ξ = η/(2√(M kn)) */
    r.q.clamp = 1;
    CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "solve hooke velocity C e = %g", e);
    CHECK_REL(kv_C(a.value / (2.0 * sqrt(M * kn))), e, 1e-9, "hooke velocity limit_damping e = %g", e);
    CHECK(strstr(a.input, "limit_damping") != NULL, "the input line has limit_damping");
  }
  /* gran/hooke: C = M γn → γn = 2ξ √(kn/M) */
  r = ct_dem(ct_find("lammps", NULL, "gran/hooke", NULL), 0);
  r.q.e = 0.3;
  r.q.v = 2.0;
  CHECK(ct_solve(&r, &a, NULL) == 0, "solve gran/hooke");
  double L = log(0.3), xi = -L / sqrt(M_PI * M_PI + L * L);
  CHECK_REL(a.value, 2.0 * xi * sqrt(kn / M), 1e-9, "gran/hooke gamma_n");
  CHECK(strncmp(a.input, "pair_style gran/hooke 200000 NULL ", 34) == 0, "gran/hooke input: %.200s", a.input);
  impactfit_code_answer_free(&a);
}

/* The δ^(1/4) damper on a Hertz spring: the registry against the engine run in the user's units, and against
 * LAMMPS 29Sep2021's measured values (Debian 12, issue table). */
static void check_tsuji(void) {
  double R = 0.0025, M = 0.5 * CT_M5, Es = 1e8 / (2.0 * (1.0 - 0.09)), K = 4.0 / 3.0 * Es * sqrt(R);
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  ct_request r = ct_dem(ct_find("lammps", NULL, "granular hertz/material", "tsuji"), 0);
  const double e_in[3] = {0.1, 0.5, 0.9};
  const double lmp_A[3] = {0.2350, 0.6161, 0.9284}, lmp_C[3] = {0.3500, 0.6458, 0.9294};
  for (int i = 0; i < 3; i++)
    for (int clamp = 0; clamp < 2; clamp++) {
      double e = e_in[i];
      impactfit_impact_params p = impactfit_impact_default_params();
      p.n = 1.5;
      p.m = 0.25;
      p.k = K;
      p.mass = M;
      p.v = 1.3;
      p.c = tsuji_poly(e) * sqrt(M * K);
      p.transition = clamp ? impactfit_transition_C : impactfit_transition_A;
      p.locate_extrema = 0;
      impactfit_impact_result res;
      CHECK(impactfit_impact_solve(ws, &p, &res, NULL) == 0, "engine run");
      CHECK_REL(ct_forward(&r, clamp, e, 1.3), res.e_out, 1e-9, "lammps tsuji clamp %d e = %g vs engine", clamp, e);
      CHECK_ABS(ct_forward(&r, clamp, e, 1.0), clamp ? lmp_C[i] : lmp_A[i], 6e-5,
                "lammps tsuji clamp %d e = %g vs LAMMPS 29Sep2021", clamp, e);
    }
  impactfit_impact_free(ws);
}

static void check_versions(void) {
  const impactfit_code_model *md;
  impactfit_error err;
  /* no damping: the code's own default (granular: viscoelastic) */
  CHECK(impactfit_code_model_find("lammps", NULL, "granular hertz/material", NULL, &md, &err) == 0 &&
            !strcmp(md->option, "viscoelastic") && md->default_option,
        "missing damping: LAMMPS's default viscoelastic");
  /* names as users type them: the code in capitals, the model after `pair_style granular`, typos */
  CHECK(impactfit_code_model_find("LAMMPS", NULL, "hertz/material", "TSUJI", &md, &err) == 0 &&
            !strcmp(md->code->name, "lammps") && !strcmp(md->model, "granular hertz/material") &&
            !strcmp(md->option, "tsuji"),
        "LAMMPS, hertz/material, TSUJI");
  CHECK(impactfit_code_model_find("lammps", NULL, "granular hertz/materail", "tsuji", &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "did you mean 'granular hertz/material'?"),
        "model typo: %s", err.message);
  CHECK(impactfit_code_model_find("lammps", NULL, "granular hertz/material", "tsuij", &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "did you mean 'tsuji'?"),
        "damping typo: %s", err.message);
  CHECK(impactfit_code_model_find("lammps", NULL, "granular foo", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "gran/hertz/history"),
        "unknown model lists the models: %s", err.message);
  /* versions: the entry whose range holds the version answers; formula only unless that version ran here */
  static const char *const between[] = {"29Aug2024", "2Aug2023", "22Jul2025", "17Apr2024", "stable_29Aug2024_update1"};
  for (size_t i = 0; i < sizeof between / sizeof between[0]; i++)
    CHECK(impactfit_code_model_find("lammps", between[i], "granular hertz/material", "tsuji", &md, &err) == 0 &&
              md->version_min == 20210929 && !impactfit_code_model_run_for(md, between[i]) &&
              impactfit_code_model_run_for(md, "29Sep2021") && impactfit_code_model_run_for(md, NULL),
          "LAMMPS %s tsuji: the 29Sep2021 law, formula only (%s)", between[i], err.message);
  CHECK(impactfit_code_model_find("lammps", "2Sep2026", "granular hertz/material", "tsuji", &md, &err) == 0 &&
            md->version_min == 20260902 && !impactfit_code_model_run_for(md, "2Sep2026"),
        "LAMMPS 2Sep2026 tsuji: the sqrt 2 entry");
  CHECK(impactfit_code_model_find("lammps", "1Sep2026", "granular hertz/material", "tsuji", &md, &err) == 0 &&
            md->version_min == 20210929,
        "LAMMPS 1Sep2026 tsuji: still without sqrt 2");
  CHECK(impactfit_code_model_find("lammps", "1Jan2020", "granular hertz/material", "tsuji", &md, &err) ==
                IMPACTFIT_EINVAL &&
            strstr(err.message, "give the version 29Sep2021") && strstr(err.message, "pair_granular.cpp"),
        "a version before every range says what to do: %s", err.message);
  CHECK(impactfit_code_model_find("lammps", "2Aug2023", "gran/hooke", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "give the version 29Sep2021"),
        "gran/hooke was read for 29Sep2021 only: %s", err.message);
  CHECK(impactfit_code_model_find("lammps", "29Sep2021", "granular hertz/material", "coeff_restitution", &md, &err) ==
                IMPACTFIT_EINVAL &&
            strstr(err.message, "17Apr2024"),
        "coeff_restitution is not in 29Sep2021: %s", err.message);
  CHECK(impactfit_code_model_find("lammps", "2Aug2024", "granular hertz/material", "coeff_restitution", &md, &err) ==
                0 &&
            !md->run_min,
        "coeff_restitution in later versions, formula only");
  long (*key)(const char *) = impactfit_code_from_name("lammps")->version_key;
  CHECK(key("29Sep2021") == 20210929 && key("stable_29Sep2021_update2") == 20210929 && key("2021-09-29") == 20210929 &&
            key("20220106") == 20220106 && key("3.8.0") == 0,
        "LAMMPS version keys: dates only");
}

/* the wall: R = r1, M = m1, and fix wall/gran's E* = E/(2(1 − ν)) for hertz/material */
static void check_wall(void) {
  ct_request r = ct_dem(ct_find("lammps", NULL, "granular hertz/material", "velocity"), 1);
  r.q.e = 0.5;
  impactfit_code_answer a = {0};
  CHECK(ct_solve(&r, &a, NULL) == 0, "solve wall");
  CHECK(a.R == CT_R5 && a.wall, "wall: R = r1");
  CHECK_REL(a.mass, CT_M5, 1e-15, "wall: M = m1");
  CHECK_REL(a.K, 4.0 / 3.0 * 1e8 / (2.0 * 0.7) * sqrt(0.005), 1e-15, "LAMMPS fix wall/gran hertz/material stiffness");
  CHECK(strstr(a.input, "fix wall all wall/gran granular hertz/material") != NULL, "wall input: %.200s", a.input);
  impactfit_code_answer_free(&a);
}

/* a speed-dependent model: the inverse's value gives the asked e back at v, and more and less over a range
 * around it (e rises with the speed for a δ^(1/2) damper on a Hertz spring) */
static void check_speed_range(void) {
  ct_request r = ct_dem(ct_find("lammps", NULL, "gran/hertz/history", NULL), 0);
  r.q.e = 0.4;
  r.q.v = 1.7;
  impactfit_code_answer a = {0}, f = {0};
  CHECK(ct_solve(&r, &a, NULL) == 0 && a.reachable, "solve gran/hertz/history");
  ct_request g = r;
  g.q.e = NAN;
  g.q.value = a.value;
  g.q.v_min = 0.5;
  g.q.v_max = 5.0;
  g.q.points = 5;
  CHECK(ct_solve(&g, &f, NULL) == 0 && f.forward, "forward request over a range");
  CHECK_REL(f.e, 0.4, 1e-9, "forward of the inverse");
  double e05 = ct_forward(&r, -1, a.value, 0.5), e5 = ct_forward(&r, -1, a.value, 5.0);
  CHECK(f.e_speed_min == fmin(e05, e5) && f.e_speed_max == fmax(e05, e5) && f.e_speed_min < 0.4 && f.e_speed_max > 0.4,
        "the range's e [%g, %g] spans the asked e and is the ends' (monotone in v)", f.e_speed_min, f.e_speed_max);
  impactfit_code_answer_free(&a);
  impactfit_code_answer_free(&f);
}

/* An e out of the model's reach: the other model suggested takes the user's kn. granular hertz's kn (Pa, K = kn
 * sqrt(R)) and granular hooke's (N/m) are not the same spring: the number is kept in the other unit and the
 * alternative's note says so first; its answer reaches the asked e with that kn (its own forward) */
static void check_suggest_kn(void) {
  ct_request r = ct_dem(ct_find("lammps", NULL, "granular hertz", "tsuji"), 1);
  r.q.e = 0.01;
  r.q.v = 1.0;
  r.q.suggest = 1;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  CHECK(ct_solve(&r, &a, &err) == 0 && !a.reachable && a.alternative, "lammps hertz tsuji e 0.01: %s", err.message);
  const impactfit_code_answer *b = a.alternative;
  if (b) {
    CHECK(!strcmp(b->model->model, "granular hooke") && strstr(b->input, "hooke 200000 ") &&
              strstr(b->note, "kn = 200000 is your number in this model's unit (N/m): not the same spring as your "
                              "kn in Pa") == b->note,
          "lammps: the hooke alternative keeps kn 2e5 and says it is another spring: %s | %s", b->model->model,
          b->note);
    CHECK_ABS(b->e, 0.01, 1e-9, "lammps: the alternative reaches e");
  }
  impactfit_code_answer_free(&a);
}

int main(void) {
  check_suggest_kn();
  check_linear_closed_forms();
  check_tsuji();
  check_versions();
  check_wall();
  check_speed_range();
  return tu_report("test_lammps");
}
