/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An engine answer is the same to the bit on one thread and on two (issue 34): where a contact takes thousands of
 * steps, the naive value's phase statistics run beside the inverse's search (src/codes/solve_steps.c) and the
 * first family's reference impacts are recorded on a team (src/law/step_family.c), and without a family the phase
 * statistics' impacts are stepped on a team (src/law/phase.c's jobs); all take their counts in the order one thread
 * does. Each answer's numbers, texts and work count are compared between OMP_NUM_THREADS 1 and 2
 * (omp_set_num_threads), on requests that take each of the two paths. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/codes.h"
#include "../src/law/step_internal.h"
#include "impactfit/impactfit.h"
#include "testutil.h"

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int same_text(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static void answer_at(const char *code, const char *model, const char *integrator, double dt, double v, double e,
                      double value, int threads, impactfit_code_answer *ans) {
  const impactfit_code_model *md;
  impactfit_error err;
  memset(ans, 0, sizeof *ans);
  if (impactfit_code_model_find(code, NULL, model, NULL, &md, &err)) {
    CHECK(0, "%s: %s", code, err.message);
    return;
  }
  impactfit_code_request rq = impactfit_code_request_default();
  rq.model = md;
  rq.integrator = integrator;
  rq.dt = dt;
  rq.v = v;
  rq.e = e;
  rq.value = value;
  rq.bodies.m1 = 0.001309;
  rq.bodies.r1 = 0.005;
  omp_set_num_threads(threads);
  int s = impactfit_code_solve(&rq, ans, &err);
  CHECK(s == 0, "%s %s dt %g v %g on %d threads: %s", code, integrator ? integrator : "", dt, v, threads, err.message);
}

static void compare_code(const char *what, const char *code, const char *model, const char *integrator, double dt,
                         double v, double e, double value) {
  impactfit_code_answer a, b;
  answer_at(code, model, integrator, dt, v, e, value, 1, &a);
  answer_at(code, model, integrator, dt, v, e, value, 2, &b);
  const double x[][2] = {{a.value, b.value},
                         {a.e, b.e},
                         {a.e_min, b.e_min},
                         {a.e_max, b.e_max},
                         {a.e_naive, b.e_naive},
                         {a.e_naive_min, b.e_naive_min},
                         {a.e_naive_max, b.e_naive_max}};
  int same = 1;
  for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
    same &= same_double(x[i][0], x[i][1]);
  CHECK(same, "%s: the numbers differ between one thread and two (e %.17g / %.17g)", what, a.e, b.e);
  CHECK(a.impacts == b.impacts, "%s: impacts %ld on one thread, %ld on two", what, a.impacts, b.impacts);
  CHECK(same_text(a.note, b.note) && same_text(a.input, b.input), "%s: the texts differ", what);
  CHECK(isfinite(a.e) && a.impacts > 0, "%s: no answer (e %g, impacts %ld)", what, a.e, a.impacts);
  impactfit_code_answer_free(&a);
  impactfit_code_answer_free(&b);
}

static void compare(const char *what, const char *integrator, double dt, double v, double e, double value) {
  compare_code(what, "mujoco", "soft contact", integrator, dt, v, e, value);
}

int main(void) {
  /* the naive value's statistics beside the search: a 0.04 s contact at 1e-6 s */
  compare("rk4 dt 1e-6 v 1 inverse", "rk4", 1e-6, 1.0, 0.5, NAN);
  /* the family's nodes recorded on a team: its check impact's work 40188 steps (>= 20000) */
  compare("rk4 dt 1e-6 v 0.1 forward", "rk4", 1e-6, 0.1, NAN, 1.0);
  compare("euler dt 1e-6 v 0.1 forward", "euler", 1e-6, 0.1, NAN, 1.0);
  /* the statistics' impacts on a team where no family is built (src/law/phase.c's jobs; on that path whatever the
   * machine's speed): 451 steps' work an impact, the pieces by their 4-point rules (and in one statistics of the
   * inverse, a piece whose 4-point rules disagree after 22 that agree); in the inverse beside the naive value's
   * statistics (tasks of two sections, the flow's contacts of 1.7e5 steps at 1e-7 s) */
  impactfit__phase_team = 1;
  compare("rk4 dt 1e-6 v 5 inverse", "rk4", 1e-6, 5.0, 0.95, NAN);
  compare("rk4 dt 1e-7 v 0.1 inverse", "rk4", 1e-7, 0.1, 0.05, NAN);
  compare("rk4 dt 1e-6 v 5 forward", "rk4", 1e-6, 5.0, NAN, 0.0166800153836);
  /* the same with the 4-point rules off from the first piece (Chrono's PlainCoulomb damping, a fractional power at
   * every piece's ends: the 8-point rules on the team) */
  compare_code("chrono PlainCoulomb dt 6.5e-6 v 0.1 inverse", "chrono", "PlainCoulomb", NULL, 6.5e-6, 0.1, 0.5, NAN);
  compare_code("chrono PlainCoulomb dt 6.5e-6 v 0.1 forward", "chrono", "PlainCoulomb", NULL, 6.5e-6, 0.1, NAN, 0.5);
  impactfit__phase_team = 0;
  return tu_report("test_threads");
}
