/* SPDX-License-Identifier: GPL-3.0-or-later */
/* YADE in the code registry (src/codes/yade.c) against the restitutions measured in the real YADE 2023.02a
 * (Debian 12; MindlinPhys(en): 5 digits, and near e = 1), and the registry's behaviour where Thornton's
 * conversion cannot reach e (e = 0.99): another model of the code that can, betan. */
#include "codes_test.h"

static void test_mindlin(void) {
  ct_request r = ct_dem(ct_find("yade", NULL, "mindlin", "en"), 0);
  const double e_in[3] = {0.1, 0.5, 0.9}, yade[3] = {0.10008, 0.50001, 0.89992};
  for (int i = 0; i < 3; i++)
    CHECK_ABS(ct_forward(&r, -1, e_in[i], 1.0), yade[i], 6e-6, "yade mindlin en = %g vs YADE 2023.02a", e_in[i]);
  /* near e -> 1 (issue: 0.95 -> 0.9481, 0.99 -> 0.9789) and the jump of its conversion at en = 1 */
  CHECK_ABS(ct_forward(&r, -1, 0.95, 1.0), 0.9481, 6e-5, "yade en = 0.95");
  CHECK_ABS(ct_forward(&r, -1, 0.99, 1.0), 0.9789, 6e-5, "yade en = 0.99");
  impactfit_code_answer a = {0};
  r.q.e = 0.99;
  r.q.suggest = 1;
  CHECK(ct_solve(&r, &a, NULL) == 0 && !a.reachable, "yade en cannot give 0.99");
  CHECK(a.alternative && !strcmp(a.alternative->model->option, "betan") && a.alternative->reachable,
        "yade: betan suggested for e = 0.99");
  /* no switch: the force is always clamped */
  impactfit_error err;
  r.q.clamp = 0;
  r.q.e = 0.5;
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "always clamps"), "yade has no switch: %s",
        err.message);
  impactfit_code_answer_free(&a);
}

static void test_versions(void) {
  long (*key)(const char *) = impactfit_code_from_name("yade")->version_key;
  CHECK(key("2023.02a") == 2023002000 && key("2022.01a") == 2022001000 && key("1.00.0") == 1000000 &&
            key("banana") == 0,
        "yade version keys");
  const impactfit_code_model *md;
  impactfit_error err;
  CHECK(impactfit_code_model_find("yade", "2022.01a", "mindlin", "en", &md, &err) == 0 && !md->run_min &&
            strstr(md->source, "2022.01a"),
        "yade 2022.01a: the entry before Thornton's conversion, formula only");
  CHECK(impactfit_code_model_find("yade", NULL, "mindlin", NULL, &md, &err) == IMPACTFIT_EINVAL &&
            strstr(err.message, "'en', 'betan'") && strstr(err.message, "--damping en"),
        "missing damping lists the options and the flag: %s", err.message);
}

int main(void) {
  test_mindlin();
  test_versions();
  return tu_report("test_yade");
}
