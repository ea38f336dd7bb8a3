/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The numbers of the page's engine pictures (docs/WEB.md), from the stepper the engine runs for the
 * request (registry.c) and the library's stepper.h:
 *   - e over the phase φ of the first contact step: impactfit_step_impact_at at `phases` phases
 *     equally spaced on (0, 1] (their midpoints), the function whose mean the CLI's e_mean is;
 *   - one impact's force against the penetration at phase `phi` (default 0.5): each step's force (the
 *     stepper's impulse/dt) against the penetration at the middle of that step, stepped exactly as
 *     impactfit_step_impact_at steps (the same start, the same step map). For an engine that takes no
 *     fixed step (an adaptive integrator: the law integrated exactly), the law's loop with RK4 at a step
 *     of 1/400 of the contact time.
 * e against dt is the CLI's own answer at each dt (impactfit engine --value X --dt D), asked by the page. */
#include <emscripten.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wasm.h"

enum { MAX_PHASES = 2000, LOOP_STEPS = 200000, LOOP_POINTS = 4000 };

/* the value of "key=..." (NaN when absent) */
static double field_num(const char *words, const char *key) {
  size_t len = strlen(key);
  for (const char *p = words; p && *p;) {
    if (strncmp(p, key, len) == 0 && p[len] == '=')
      return strtod(p + len + 1, NULL);
    p = strchr(p, '\n');
    p = p ? p + 1 : NULL;
  }
  return NAN;
}

typedef struct loop {
  size_t n;
  double x[LOOP_POINTS], f[LOOP_POINTS];
  long steps, contact_steps;
} loop;

/* one impact stepped as impactfit_step_impact_at does (src/law/stepper.c): from (φ − J) v dt with
 * J = 2 + ⌈reach/(v dt)⌉ at speed v, until the bodies are apart and separating with no force */
static int step_loop(const impactfit_stepper *st, double v, double phi, loop *L, impactfit_error *err) {
  memset(L, 0, sizeof *L);
  double vdt = v * st->dt;
  double reach = st->type->reach ? st->type->reach(st, v) : 0.0;
  if (!(isfinite(reach) && reach >= 0.0))
    reach = 0.0;
  double J = 2.0 + ceil(reach / vdt);
  impactfit_step_state s = {.x = (phi - J) * vdt, .u = v};
  int acting = 0;
  for (long k = 0; k < LOOP_STEPS; k++) {
    double x0 = s.x;
    int rc = st->type->step(st, &s);
    if (rc)
      return snprintf(err->message, sizeof err->message, "stepper %s: step %ld failed", st->type->name, k), rc;
    if (!isfinite(s.x) || !isfinite(s.u) || fabs(s.u) > 1e4 * v)
      return snprintf(err->message, sizeof err->message, "the step is unstable: the state blew up after %ld steps",
                      k + 1),
             IMPACTFIT_ENONFINITE;
    if (s.f != 0.0 || s.contact) {
      acting = 1;
      L->contact_steps += s.contact != 0;
    }
    if (acting) {
      L->steps++;
      if (L->n < LOOP_POINTS) {
        L->x[L->n] = 0.5 * (x0 + s.x);
        L->f[L->n] = s.f;
        L->n++;
      }
      if (s.x <= 0.0 && s.u < 0.0 && s.f == 0.0)
        return 0;
    }
  }
  return snprintf(err->message, sizeof err->message, "no end of the impact within %d steps", LOOP_STEPS),
         IMPACTFIT_ENOSEP;
}

/* an adaptive engine: the law's own loop, RK4 at 1/400 of the contact time (found in a few tries) */
static int law_loop(const impactfit_stepper *st, double v, loop *L, impactfit_error *err) {
  impactfit_stepper fine = *st;
  fine.type = impactfit_stepper_rk4;
  fine.dt = 1e-6;
  int rc = 0;
  for (int tries = 0; tries < 12; tries++) {
    rc = step_loop(&fine, v, 0.5, L, err);
    if (rc == IMPACTFIT_ENOSEP) { /* a contact longer than the steps allowed: a longer step */
      fine.dt *= 100.0;
      continue;
    }
    if (rc)
      return rc;
    if (L->contact_steps >= 200 && L->contact_steps <= 2000)
      break;
    fine.dt *= (double)(L->contact_steps > 0 ? L->contact_steps : 1) / 400.0;
  }
  return rc;
}

static void array(wasm_json *j, const char *key, const double *v, size_t n) {
  wasm_json_key(j, key);
  wasm_json_begin(j, '[');
  for (size_t i = 0; i < n; i++)
    wasm_json_num(j, NULL, v[i]);
  wasm_json_end(j, ']');
}

/* the request as registry.c reads it, and phases=N (default 200), phi=P (default 0.5):
 * {"ok":1,"adaptive":0|1,"dt":..,"phi":[..],"e":[..],"loop":{"phi":..,"x":[..],"f":[..],"steps":..}} */
EMSCRIPTEN_KEEPALIVE char *impactfit_wasm_engine_curve(const char *words) {
  impactfit_error err;
  impactfit_stepper st;
  double v;
  int rc = impactfit__wasm_engine_stepper(words, &st, &v, &err);
  if (rc)
    return wasm_json_error(rc, err.message);
  double np = field_num(words, "phases"), phi_loop = field_num(words, "phi");
  size_t phases = isnan(np) ? 200 : (size_t)np;
  if (phases < 1 || phases > MAX_PHASES)
    return wasm_json_error(IMPACTFIT_EINVAL, "phases: expected 1 to 2000");
  if (isnan(phi_loop))
    phi_loop = 0.5;
  if (!(phi_loop > 0.0 && phi_loop <= 1.0))
    return wasm_json_error(IMPACTFIT_EINVAL, "phi: the phase must lie in (0, 1]");
  int adaptive = impactfit__wasm_stepper_continuous(&st);
  double *phi = malloc(sizeof *phi * phases), *e = malloc(sizeof *e * phases);
  loop *L = malloc(sizeof *L);
  char *out = NULL;
  if (!phi || !e || !L) {
    rc = IMPACTFIT_ENOMEM;
    snprintf(err.message, sizeof err.message, "out of memory");
  }
  for (size_t i = 0; !rc && i < phases; i++) {
    impactfit_step_impact r;
    phi[i] = (i + 0.5) / (double)phases;
    if (adaptive && i > 0) /* one e at every phase: the law's (stepper.h) */
      e[i] = e[0];
    else if (!(rc = impactfit_step_impact_at(&st, v, phi[i], &r, &err)))
      e[i] = r.e;
  }
  if (!rc)
    rc = adaptive ? law_loop(&st, v, L, &err) : step_loop(&st, v, phi_loop, L, &err);
  if (rc) {
    out = wasm_json_error(rc, err.message);
  } else {
    wasm_json j;
    if (!wasm_json_open(&j)) {
      wasm_json_begin(&j, '{');
      wasm_json_int(&j, "ok", 1);
      wasm_json_int(&j, "adaptive", adaptive);
      wasm_json_num(&j, "dt", adaptive ? NAN : st.dt);
      wasm_json_num(&j, "v", v);
      array(&j, "phi", phi, phases);
      array(&j, "e", e, phases);
      wasm_json_key(&j, "loop");
      wasm_json_begin(&j, '{');
      wasm_json_num(&j, "phi", adaptive ? NAN : phi_loop);
      wasm_json_num(&j, "dt", adaptive ? NAN : st.dt);
      wasm_json_int(&j, "steps", L->steps);
      array(&j, "x", L->x, L->n);
      array(&j, "f", L->f, L->n);
      wasm_json_end(&j, '}');
      wasm_json_end(&j, '}');
      out = wasm_json_close(&j);
    }
  }
  free(phi);
  free(e);
  free(L);
  return out;
}
