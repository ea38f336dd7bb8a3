/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Jolt Physics 5.6.0 in the code registry (src/codes/jolt.c; the engine itself: tests/engines/jolt_impacts.c),
 * against the closed form of its contact row read from the source: above mMinVelocityForRestitution (1 m/s) the
 * step that would bring the bodies together takes the bias r vn, so without damping e = r at every phase (the
 * contact's r the larger of the two bodies': the ground's default 0 leaves body 1's); at or below 1 m/s the
 * speculative row stops the bodies at the surface, e = 0; mLinearDamping c scales the rebound by 1 − c dt per
 * step with a row (so e lies in [r (1 − c dt)^2, r]); the float32 integrator agrees with the double one to
 * float32's resolution; the registry's inverse gives r = e without damping and says NOT REACHABLE below 1 m/s. */
#include <stdint.h>
#include <stdlib.h>

#include "codes/jolt_impl.h"
#include "codes_test.h"

static double e_at(const impactfit_stepper *st, double v, double phi) {
  impactfit_step_impact o;
  impactfit_error err;
  int s = impactfit_step_impact_at(st, v, phi, &o, &err);
  CHECK(s == 0, "jolt: impact at %g: %s", phi, s ? err.message : "");
  return s ? NAN : o.e;
}

static void test_jolt_map(void) {
  impactfit_error err;
  for (int pair = 0; pair < 2; pair++)
    for (int f32 = 0; f32 < 2; f32++) {
      ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
      ct_set1(&r, "mLinearDamping", 0.0);
      r.q.integrator = f32 ? "euler-float32" : "euler";
      if (pair) {
        r.q.bodies.r2 = 0.01;
        r.q.bodies.m2 = 8.0 * CT_M5;
      }
      impactfit_stepper st;
      CHECK(impactfit_code_stepper(ct_q(&r), 0.7, &st, &err) == 0, "jolt: stepper: %s", err.message);
      double tol = f32 ? 2e-6 : 1e-12;
      for (int i = 1; i <= 7; i++) {
        CHECK_ABS(e_at(&st, 2.0, i / 8.0), 0.7, tol, "jolt: e = r at phase %g (pair %d, f32 %d)", i / 8.0, pair, f32);
        CHECK_ABS(e_at(&st, 0.8, i / 8.0), 0.0, 1e-6, "jolt: e = 0 below 1 m/s (phase %g, pair %d)", i / 8.0, pair);
      }
    }
  /* the default damping 0.05 1/s: the rebound scaled by 1 - c dt for each step with a row */
  ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
  impactfit_stepper st;
  CHECK(impactfit_code_stepper(ct_q(&r), 0.7, &st, &err) == 0, "jolt: stepper: %s", err.message);
  double k = 1.0 - 0.05 / 60.0;
  for (int i = 1; i <= 7; i++) {
    double e = e_at(&st, 2.0, i / 8.0);
    CHECK(e <= 0.7 * (1.0 + 1e-12) && e >= 0.7 * k * k * (1.0 - 1e-12), "jolt: damped e %.12g at phase %g", e, i / 8.0);
  }
  /* body 2's mRestitution larger: the contact takes it */
  ct_set(&r, "mRestitution", 2, 0.3, 0.9);
  ct_set1(&r, "mLinearDamping", 0.0);
  CHECK(impactfit_code_stepper(ct_q(&r), 0.3, &st, &err) == 0, "jolt: stepper: %s", err.message);
  CHECK_ABS(e_at(&st, 2.0, 0.5), 0.9, 1e-12, "jolt: the larger of 0.3 and the ground's 0.9");
}

static void test_jolt_registry(void) {
  impactfit_error err;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
  ct_set1(&r, "mLinearDamping", 0.0);
  r.q.e = 0.6;
  r.q.v = 2.0;
  CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "jolt: e 0.6 at 2 m/s: %s", err.message);
  CHECK_ABS(a.value, 0.6, 1e-9, "jolt: the inverse r = e without damping");
  CHECK_ABS(a.e, 0.6, 1e-9, "jolt: the answer's mean");
  CHECK_ABS(a.e_naive, 0.6, 1e-12, "jolt: the naive r = e");
  CHECK(a.run_here && strstr(a.input, "0.6"), "jolt: pasted: %s", a.input);
  r.q.v = 0.9;
  CHECK(ct_solve(&r, &a, &err) == 0 && !a.reachable && strstr(a.note, "NOT REACHABLE") == a.note,
        "jolt: e 0.6 at 0.9 m/s out of reach: %s", a.note);
  impactfit_code_answer_free(&a);
}

/* The double map's approach through the speculative distance taken at once (its affine map where the float
 * damping factor fl(1 − c h) is 1: u' = u, x' = x + h u, no impulse) against the same map stepped one by one (its
 * type without it): e within 1e-13 at every phase, the same steps, contact steps and signature, for a plane and a
 * pair, with the default and a large damping, from the default step down to 1e-7 s (1.7e5 steps); and e against
 * the float32 map (the engine bit for bit on a plane): the damped velocity rounded to float each step as the
 * engine stores it (the exact 1 − c h was 2e-4 off at 1e-6 s), within r (c h (2 + 1e-3 n) + 1e-6), n the
 * approach's steps (the float32 positions move the bounce by up to 1e-3 n steps) */
static void test_jolt_approach(void) {
  impactfit_error err;
  impactfit_stepper_type plain = impactfit__stepper_jolt64, plain32 = impactfit__stepper_jolt;
  plain.affine = NULL;
  plain.run = NULL;
  plain32.run = NULL;
  long saved32 = 0;
  static const double dts[5] = {1.0 / 60.0, 1e-4, 1e-5, 1e-6, 1e-7}, cs[3] = {0.0, 0.05, 3.0}, vs[2] = {2.0, 1.2};
  double worst = 0.0, worst32 = 0.0;
  for (int id = 0; id < 5; id++)
    for (int pair = 0; pair < 2; pair++)
      for (int ic = 0; ic < 3; ic++) {
        ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
        ct_set1(&r, "mLinearDamping", cs[ic]);
        r.q.dt = dts[id];
        if (pair) {
          r.q.bodies.r2 = 0.01;
          r.q.bodies.m2 = 8.0 * CT_M5;
        }
        impactfit_stepper fast, slow, f32;
        CHECK(impactfit_code_stepper(ct_q(&r), 0.7, &fast, &err) == 0, "jolt: stepper: %s", err.message);
        CHECK(fast.type == &impactfit__stepper_jolt64, "jolt: the default integrator is the double map");
        slow = fast;
        slow.type = &plain;
        f32 = fast;
        f32.type = &impactfit__stepper_jolt;
        int at_once = (float)(1.0f - (float)cs[ic] * (float)dts[id]) == 1.0f;
        /* the stepped comparison at 1e-7 s only where the run is taken at once (else 1.7e5 steps a phase) */
        int stepped = dts[id] > 5e-7 || at_once;
        for (int iv = 0; iv < 2; iv++)
          for (int i = 0; i < 5; i++) {
            double phi = (i + 0.5) / 5.0 + 0.011 * id;
            impactfit_step_impact a, b, c;
            int sa = impactfit_step_impact_at(&fast, vs[iv], phi, &a, &err);
            int sb = sa || !stepped ? 0 : impactfit_step_impact_at(&slow, vs[iv], phi, &b, &err);
            int sc = sa || sb ? 1 : impactfit_step_impact_at(&f32, vs[iv], phi, &c, &err);
            CHECK(sa == 0 && sb == 0 && sc == 0, "jolt approach: dt %g phi %g: %s", dts[id], phi, err.message);
            if (sa || sb || sc)
              continue;
            if (stepped) {
              double d = fabs(a.e - b.e);
              worst = d > worst ? d : worst;
              CHECK(d <= 1e-13, "jolt approach: dt %g c %g v %g pair %d phi %g: e %.17g at once, %.17g stepped",
                    dts[id], cs[ic], vs[iv], pair, phi, a.e, b.e);
              CHECK(a.steps == b.steps && a.contact_steps == b.contact_steps && a.signature == b.signature,
                    "jolt approach: dt %g phi %g: steps %ld/%ld, contact %ld/%ld, signatures %s", dts[id], phi, a.steps,
                    b.steps, a.contact_steps, b.contact_steps, a.signature == b.signature ? "equal" : "differ");
              CHECK(a.work < b.work || b.steps < 16 || !at_once, "jolt approach: dt %g: work %ld at once, %ld stepped",
                    dts[id], a.work, b.work);
            }
            /* the float32 map's run (stepper.h: run) against it stepped, to the bit, where that is cheap */
            if (dts[id] > 5e-7 && phi < 0.3) {
              impactfit_stepper p32 = f32;
              p32.type = &plain32;
              impactfit_step_impact q;
              CHECK(impactfit_step_impact_at(&p32, vs[iv], phi, &q, &err) == 0, "jolt float32: %s", err.message);
              CHECK(q.e == c.e && q.steps == c.steps && q.contact_steps == c.contact_steps &&
                        q.signature == c.signature,
                    "jolt float32 run: dt %g c %g v %g pair %d phi %g: e %.17g/%.17g, steps %ld/%ld", dts[id], cs[ic],
                    vs[iv], pair, phi, c.e, q.e, c.steps, q.steps);
              saved32 += q.work - c.work;
            }
            double n = 0.02 / (vs[iv] * dts[id]), d32 = fabs(a.e - c.e);
            double tol = 0.7 * (cs[ic] * dts[id] * (2.0 + 1e-3 * n) + 1e-6);
            worst32 = d32 > worst32 ? d32 : worst32;
            CHECK(d32 <= tol,
                  "jolt approach: dt %g c %g v %g pair %d phi %g: e %.12g, the float32 map %.12g (tol %.3g)", dts[id],
                  cs[ic], vs[iv], pair, phi, a.e, c.e, tol);
            /* no damping: e = r to float32's rounding of v */
            if (ic == 0)
              CHECK_ABS(a.e, 0.7, 1e-7, "jolt approach: dt %g v %g no damping: e = r", dts[id], vs[iv]);
          }
      }
  printf("test_jolt: the approach at once against stepped: e within %.3g; against the float32 map within %.3g; the "
         "float32 runs saved %ld steps of work\n",
         worst, worst32, saved32);
  CHECK(saved32 > 100000, "jolt float32: the runs take the approach (saved %ld)", saved32);
}

/* One start state of the approach through the speculative distance (the state the step with the speculative bias
 * leaves: jolt.c's run takes over from there), its run taken at once (impactfit__jolt_run, jump 1) and one step at a
 * time (jump 0, the step map's own arithmetic): the steps, the speed, the coordinate and the stepper's memory to the
 * bit. Returns the steps; the binades the run crossed into *crossed (bit 0 the speed's, bit 1 y's). */
typedef struct run_case {
  int f32;
  double dt, damping, coord, spec, v, y, u; /* u: the speed at the start (v: the approach speed, the at-rest scale) */
  long n_max;
} run_case;

static long run_both(const run_case *c, impactfit__jolt_work *wk, int *crossed) {
  impactfit__jolt_setup js = impactfit__jolt_defaults();
  js.dt = c->dt;
  js.damping = c->damping;
  js.r1 = c->coord;
  js.spec = c->spec;
  impactfit_stepper st;
  impactfit_error err;
  CHECK(impactfit__jolt_build(&js, 0.5, c->f32, &st, &err) == 0, "jolt run: build: %s", err.message);
  impactfit_step_state s0 = {.u = c->u, .x = c->coord - c->y, .contact = 1, .branch = 2 /* B_SPEC */};
  s0.mem[1] = c->v;
  s0.mem[2] = c->y;
  s0.mem[3] = s0.x;
  impactfit_step_state a = s0, b = s0;
  long na = impactfit__jolt_run(&st, &a, c->n_max, 1, wk), nb = impactfit__jolt_run(&st, &b, c->n_max, 0, NULL);
  CHECK(na == nb && a.u == b.u && a.x == b.x && memcmp(a.mem, b.mem, sizeof a.mem) == 0,
        "jolt run: f32 %d dt %.17g c %g coord %g spec %g u %.17g y %.17g: %ld steps at once, %ld one by one; u "
        "%.17g / %.17g, y %.17g / %.17g",
        c->f32, c->dt, c->damping, c->coord, c->spec, c->u, c->y, na, nb, a.u, b.u, a.mem[2], b.mem[2]);
  *crossed = (ilogb(a.u) != ilogb(s0.u)) | (ilogb(a.mem[2]) != ilogb(s0.mem[2])) << 1;
  return nb;
}

static uint64_t xs_next(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static double xs_unit(uint64_t *x) { return (double)(xs_next(x) >> 11) * 0x1p-53; }

/* The approach's runs taken at once (jolt.c: integer arithmetic on the rounding grids: floor sums between ties of a
 * rounding, single steps at ties and binade crossings) against the same steps one by one, to the bit: start states
 * over both maps, the default step down to 1e-7 s, damping 0 to 30 1/s (R = 0 to about 1500 float ulps of the speed a
 * step), coordinates at and between binades, speeds across powers of two; and states built to meet each kind of tie:
 * no damping with the travel half a unit of y's grid every step (float32: h = 2^-20, |w| = 1537 2^-10, y on the float
 * grid of 2^-29; double: h = 2^-10, |w| = (2^23 + 1) 2^-44, y on 2^-53; y's first unit odd and even: the sum rounds to
 * even, then at the same decrement), and steps whose travel w h rounds by a tie every 4096 (float32, h = 4095 2^-32)
 * or 2048 steps (double, h = (2^40 − 1) 2^-60; 51 in the two approaches). No run may be refused (its first and last step, taken again by the
 * step map, agree), and every kind of tie and binade crossing must occur. */
static void test_jolt_run_exact(void) {
  static const double dts[] = {1.0 / 60.0, 1e-3, 1e-4, 1e-5, 3e-6, 1e-6, 7e-7, 6e-7, 5e-7, 1e-7};
  static const double cs[] = {0.0, 0.05, 0.05, 0.5, 3.0, 30.0};
  static const double coords[] = {0.005, 0.015625, 0.0078125, 0.03, 0.5};
  uint64_t x = UINT64_C(88172645463325252);
  impactfit__jolt_work wk = {0};
  long steps = 0, cases = 0;
  int crossed = 0, any_w = 0, any_y = 0;
  for (int k = 0; k < 360; k++) {
    run_case c = {.f32 = k & 1,
                  .dt = dts[xs_next(&x) % 10],
                  .damping = cs[xs_next(&x) % 6],
                  .coord = coords[xs_next(&x) % 5],
                  .spec = xs_unit(&x) < 0.5 ? 0.02 : 0.001 + 0.05 * xs_unit(&x)};
    double v = exp(log(0.05) + xs_unit(&x) * log(100.0));
    if (k % 4 == 2) /* just above a power of two: the speed's binade crossed within the approach */
      v = ldexp(1.0 + 1e-3 * xs_unit(&x), ilogb(v));
    c.v = v;
    c.u = (float)v;
    c.y = c.coord + c.spec * xs_unit(&x);
    c.y = c.f32 ? (float)c.y : c.y;
    /* at most 3e5 steps one by one a case (the reference's cost) */
    c.n_max = (long)fmin(3e5, 0.2 * c.spec / (v * c.dt) + 10.0);
    steps += run_both(&c, &wk, &crossed);
    any_w |= crossed & 1;
    any_y |= crossed & 2;
    cases++;
  }
  impactfit__jolt_work rnd = wk;
  /* the ties built by hand */
  for (int odd = 0; odd < 2; odd++) {
    run_case c32 = {.f32 = 1, .dt = 0x1p-20, .coord = 0.01, .spec = 0.02, .v = 1.5, .u = 1537 * 0x1p-10};
    c32.y = 0x1p-6 + (4096 + odd) * 0x1p-29; /* Y's first unit odd or even */
    c32.n_max = 100000;
    steps += run_both(&c32, &wk, &crossed);
    run_case c64 = {.dt = 0x1p-10, .coord = 0.5, .spec = 0.3, .u = (0x1p23 + 1) * 0x1p-44};
    c64.v = c64.u;
    c64.y = 0.75 + (4096 + odd) * 0x1p-53;
    c64.n_max = 100000;
    steps += run_both(&c64, &wk, &crossed);
    cases += 2;
  }
  impactfit__jolt_work flat = wk;
  for (int f32 = 0; f32 < 2; f32++) {
    run_case c = {.f32 = f32,
                  .dt = f32 ? 4095 * 0x1p-32 : (0x1p40 - 1) * 0x1p-60,
                  .damping = 0.05,
                  .coord = 0.005,
                  .spec = 0.02,
                  .v = 0.3,
                  .u = (float)0.3,
                  .y = f32 ? (float)0.0249 : 0.0249,
                  .n_max = 100000};
    steps += run_both(&c, &wk, &crossed);
    cases++;
  }
  /* a tie of the travel whose rounding to even leaves the sum a tie (float32: |w| = M 2^-25 with M = 10483712 at
   * the 200th step, A = fl(w h) / 2^-45 even and 2^9 mod 2^10, y in [2^-12, 2^-11): t = 10 bits below y's grid): the
   * run must stop there (rounding the travel up would round the sum up, the step map's rounds it by Y's parity) */
  for (int k = 0; k < 4; k++) {
    run_case c = {.f32 = 1,
                  .dt = 4095 * 0x1p-32,
                  .damping = 0.05,
                  .coord = 0x1p-12,
                  .spec = 2.5e-4,
                  .v = 0.3125,
                  .u = (10483712 + 200) * 0x1p-25,
                  .y = (float)4.5e-4 + k * 0x1p-35,
                  .n_max = 100000};
    steps += run_both(&c, &wk, &crossed);
    cases++;
  }
  printf("test_jolt: the approach's runs at once against one by one: %ld cases, %ld steps to the bit in %ld steps one "
         "by one and %ld runs; ties met: %ld of the sum in the random cases, %ld without damping, %ld of the travel "
         "built; binades crossed: speed %d, y %d\n",
         cases, steps, wk.plain, wk.jumps, rnd.ties_sum, flat.ties_sum - rnd.ties_sum,
         wk.ties_travel - flat.ties_travel, any_w, any_y);
  CHECK(wk.refused == 0, "jolt run: %ld runs refused (their first or last step disagreed with the step map)",
        wk.refused);
  CHECK(rnd.ties_sum >= 10 && flat.ties_sum - rnd.ties_sum >= 4 && wk.ties_travel - flat.ties_travel >= 40 && any_w &&
            any_y,
        "jolt run: every kind of tie and crossing met (sum %ld, without damping %ld, travel %ld; speed %d, y %d)",
        rnd.ties_sum, flat.ties_sum - rnd.ties_sum, wk.ties_travel - flat.ties_travel, any_w, any_y);
  CHECK(wk.plain + wk.jumps < steps / 100, "jolt run: the work %ld + %ld of %ld steps", wk.plain, wk.jumps, steps);
}

/* The work of the approach at the default damping (the float damping factor rounds every step: no affine run), a
 * 5 mm sphere from the far end of the speculative distance to its bounce or stop, at the steps DEM users run: the
 * steps exactly those of the map one by one (2e5 at 1e-6 s and 0.1 m/s), the work (steps one by one and runs at once)
 * within a budget of 48 where it was every step (before the runs at once: the whole cost of every Jolt answer at
 * these steps, 94 ms of CPU for one inverse) */
static void test_jolt_run_work(void) {
  static const double cs[][2] = {{1e-6, 0.1}, {1e-6, 1.0}, {6e-7, 0.1}, {1e-5, 0.1}, {1e-6, 1.5}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
    for (int f32 = 0; f32 < 2; f32++) {
      double dt = cs[i][0], v = cs[i][1];
      run_case c = {.f32 = f32,
                    .dt = dt,
                    .damping = 0.05,
                    .coord = 0.005,
                    .spec = 0.02,
                    .v = v,
                    .u = (float)v,
                    .y = 0.005 + 0.02 - 1e-7,
                    .n_max = 1000000};
      c.y = f32 ? (float)c.y : c.y;
      impactfit__jolt_work wk = {0};
      int crossed;
      long n = run_both(&c, &wk, &crossed);
      CHECK(n >= 0.02 / (v * dt) && n < 0.021 / (v * dt) && wk.plain + wk.jumps <= 48 && wk.refused == 0,
            "jolt run work: dt %g v %g f32 %d: %ld steps in %ld one by one and %ld runs (budget 48)", dt, v, f32, n,
            wk.plain, wk.jumps);
    }
}

static int req_build(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  return impactfit_code_stepper((const impactfit_code_request *)ctx, value, st, err);
}

/* At or below mMinVelocityForRestitution the registry's inverse answers NOT REACHABLE without the search on the
 * phase mean (jolt.c: jolt_entry_solve). Against the plain search on the same request (impactfit_step_solve_mean
 * over [1e-6, 2]: ENOROOT, every mean met 0) and the phase statistics at restitutions across that range (all 0:
 * the step map does not depend on r there), on a plane and a pair, the default threshold and a threshold that is
 * not a float (0.1 m/s at 0.0999999 m/s: the float rounding of the speed stays below it), both step maps; the
 * answer states the ends' means [0, 0] in the same words as before, and costs the naive value's phase statistics
 * alone (they stand for the ends'), not the search's */
static void test_jolt_below_threshold(void) {
  static const struct {
    int pair, f64;
    double vmin, v, dt;
  } cs[] = {{0, 0, 1.0, 0.1, 1e-4}, {1, 0, 1.0, 0.5, 1e-4}, {0, 1, 0.1, 0.0999999, 1e-4}, {1, 1, 1.0, 0.999, 1e-5}};
  for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
    ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
    if (cs[k].pair) {
      r.q.bodies.r2 = CT_R5;
      r.q.bodies.m2 = CT_M5;
    }
    if (!cs[k].f64)
      r.q.integrator = "euler-float32";
    ct_set1(&r, "mMinVelocityForRestitution", cs[k].vmin);
    r.q.v = cs[k].v;
    r.q.dt = cs[k].dt;
    r.q.e = 0.5;
    impactfit_error err;
    impactfit_step_stats S, P;
    double x = NAN;
    int s = impactfit_step_solve_mean(req_build, ct_q(&r), r.q.v, 0.5, 1e-6, 2.0, 0.5, 1e-10, &x, &S, &err);
    CHECK(s == IMPACTFIT_ENOROOT && S.e_min == 0.0 && S.e_max == 0.0,
          "jolt below threshold %zu: the search: %d [%g, %g]", k, s, S.e_min, S.e_max);
    long one = -1;
    static const double rs[] = {1e-6, 0.01, 0.5, 0.97, 2.0};
    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
      impactfit_stepper st;
      s = impactfit_code_stepper(ct_q(&r), rs[i], &st, &err) || impactfit_step_phase_stats(&st, r.q.v, &P, &err);
      CHECK(s == 0 && P.e_mean == 0.0 && P.e_min == 0.0 && P.e_max == 0.0, "jolt below threshold %zu: r %g: e %g", k,
            rs[i], s ? NAN : P.e_mean);
      one = i == 0 ? P.impacts : one;
      CHECK(P.impacts == one, "jolt below threshold %zu: r %g: %ld impacts, not %ld", k, rs[i], P.impacts, one);
    }
    impactfit_code_answer a;
    memset(&a, 0, sizeof a);
    s = ct_solve(&r, &a, &err);
    CHECK(s == 0 && !a.reachable && a.e_reach_min == 0.0 && a.e_reach_max == 0.0 &&
              strstr(a.note, "NOT REACHABLE at dt = ") == a.note &&
              strstr(a.note, "no value in [1e-06, 2] gives a mean e of 0.5 at this step: the means range over [0, "
                             "0]. "),
          "jolt below threshold %zu: %s", k, s ? err.message : a.note);
    CHECK(s == 0 && a.impacts == one, "jolt below threshold %zu: the answer's cost %ld impacts, not %ld", k,
          s ? -1L : a.impacts, one);
    impactfit_code_answer_free(&a);
  }
  /* an approach through the speculative distance longer than the step limit (2e6 steps at 0.1 m/s and 1e-7 s)
   * is taken at once with no force and not counted against the limit: the phase statistics exist, the same
   * answer as at the larger steps */
  ct_request r = ct_make(ct_find("jolt", NULL, NULL, NULL));
  r.q.v = 0.1;
  r.q.dt = 1e-7;
  r.q.e = 0.5;
  impactfit_code_answer a;
  impactfit_error err;
  memset(&a, 0, sizeof a);
  int s = ct_solve(&r, &a, &err);
  CHECK(s == 0 && !a.reachable && a.e_reach_min == 0.0 && a.e_reach_max == 0.0 &&
            strstr(a.note, "no value in [1e-06, 2] gives a mean e of 0.5 at this step: the means range over [0, "
                           "0]. ") == a.note + strlen("NOT REACHABLE at dt = 1e-07 s with euler: "),
        "jolt below threshold at 1e-7 s: %s", s ? err.message : a.note);
  impactfit_code_answer_free(&a);
}

int main(void) {
  test_jolt_map();
  test_jolt_approach();
  test_jolt_run_exact();
  test_jolt_run_work();
  test_jolt_registry();
  test_jolt_below_threshold();
  return tu_report("test_jolt");
}
