/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one answer assumes (docs/SCENE.md "What every answer assumes"): the items the user's settings break
 * first (MuJoCo's pyramidal cone away from rscale 1, gravity, two materials, a speed range), then head-on, the
 * friction, gravity when none, the bodies and the speed, as one text "item; item; ...". */
#include <math.h>
#include <string.h>

#include "codes_impl.h"

/* MuJoCo's contact settings (the model has condim and cone): the pyramidal cone's regulariser scale
 * mu0^2 (1 + mu0^2)/(impratio (condim - 1)) as mujoco.c computes it; 1 for condim 1 and the elliptic cone,
 * NaN for a model without them */
static double cone_scale(const impactfit_code_ctx *c, double *cd, double *mu, double *ir, int *pyramidal) {
  const double *pcd = impactfit_code_value(c, "condim"), *pcone = impactfit_code_value(c, "cone");
  const double *pfr = impactfit_code_value(c, "friction"), *pir = impactfit_code_value(c, "impratio");
  if (!pcd || !pcone || !pfr || !pir)
    return NAN;
  *cd = pcd[0];
  *mu = pfr[0];
  *ir = pir[0];
  *pyramidal = pcone[0] == 0.0 && pcd[0] != 1.0;
  if (!*pyramidal)
    return 1.0;
  double m = fmax(pfr[0], 1e-5);
  return m * m * (1.0 + m * m) / (fmax(pir[0], 1e-15) * (pcd[0] - 1.0));
}

/* the per-body input (other than the free parameter's) whose two bodies' values differ; NULL: one material */
static const char *two_materials(const impactfit_code_ctx *c) {
  const impactfit_code_model *md = c->model;
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (!in->per_body || (md->param_input && !strcmp(in->name, md->param_input)))
      continue;
    const double *a = impactfit_code_body_value(c, in->name, 1), *b = impactfit_code_body_value(c, in->name, 2);
    for (int k = 0; a && b && k < in->count; k++)
      if (!isnan(a[k]) && !isnan(b[k]) && a[k] != b[k])
        return in->name;
  }
  return NULL;
}

static void sep(impactfit_text *t) {
  if (t->len)
    impactfit_text_appendf(t, "; ");
}

/* the friction item: the user's (kept in the paste text) or none typed */
static void friction_item(const impactfit_code_ctx *c, impactfit_text *t) {
  const impactfit_code_model *md = c->model;
  int typed = 0;
  sep(t);
  impactfit_text_appendf(t, "friction: ");
  for (int i = 0; i < md->n_inputs; i++) {
    const impactfit_code_input *in = &md->inputs[i];
    if (!in->optional || !impactfit_code_given(c, in->name))
      continue;
    const double *v = impactfit_code_value(c, in->name);
    impactfit_text_appendf(t, "%s%s %.12g", typed++ ? ", " : "yours (", in->name, v ? v[0] : NAN);
  }
  if (c->req->tangential && *c->req->tangential)
    impactfit_text_appendf(t, "%stangential %s", typed++ ? ", " : "yours (", c->req->tangential);
  if (typed)
    impactfit_text_appendf(t, "), kept in the paste text; the head-on normal law does not depend on it");
  else
    impactfit_text_appendf(t, "none typed (the paste text keeps a placeholder or the code's default; the head-on "
                              "normal law does not depend on it)");
}

static void bodies_item(const impactfit_code_ctx *c, const char *mat, impactfit_text *t) {
  sep(t);
  if (!isfinite(c->r1) && !isfinite(c->m1))
    impactfit_text_appendf(t, "%s given by its effective mass %.6g kg and radius %.6g m",
                           c->wall ? "a sphere on a fixed wall or plane" : "two spheres", c->M, c->R);
  else if (c->wall)
    impactfit_text_appendf(t, "a sphere (radius %.6g m, mass %.6g kg) on a fixed wall or plane", c->r1, c->m1);
  else if (c->r1 == c->r2 && c->m1 == c->m2)
    impactfit_text_appendf(t, "two equal spheres (radius %.6g m, mass %.6g kg)", c->r1, c->m1);
  else
    impactfit_text_appendf(t, "two spheres (radii %.6g and %.6g m, masses %.6g and %.6g kg)", c->r1, c->r2, c->m1,
                           c->m2);
  if (!mat)
    impactfit_text_appendf(t, ", one material");
}

char *impactfit__assumes(const impactfit_code_ctx *c, const impactfit_drop_params *drop, double gravity) {
  const impactfit_code_request *req = c->req;
  impactfit_text t = IMPACTFIT_TEXT_INIT;
  double cd = NAN, mu = NAN, ir = NAN;
  int pyramidal = 0;
  double rs = cone_scale(c, &cd, &mu, &ir, &pyramidal);
  int cone_breaks = isfinite(rs) && pyramidal && fabs(rs - 1.0) > 1e-12;
  const char *mat = two_materials(c);
  int range = !drop && isfinite(req->v_min) && isfinite(req->v_max) && req->v_min < req->v_max;
  /* what the user's settings break, first */
  if (cone_breaks)
    impactfit_text_appendf(&t,
                           "MuJoCo's pyramidal cone: the answer is computed for condim %.0f, friction %.12g, impratio "
                           "%.12g (they change the normal force: rscale %.9g)",
                           cd, mu, ir, rs);
  if (gravity > 0.0) {
    sep(&t);
    if (drop)
      impactfit_text_appendf(&t, "gravity taken: %.6g m/s^2 along the normal (a drop test)", gravity);
    else
      impactfit_text_appendf(&t,
                             "gravity taken: %.6g m/s^2 along the normal, into the contact (speeds read at the step "
                             "states)",
                             gravity);
  }
  if (mat) {
    sep(&t);
    impactfit_text_appendf(&t, "two materials (the bodies' %s differ: the code's mixing rule)", mat);
  }
  if (!drop && isfinite(req->r_min) && isfinite(req->r_max)) {
    sep(&t);
    impactfit_text_appendf(&t,
                           "a size range %.6g .. %.6g m (%s; the value solved at the design size, the masses "
                           "following the sizes at the bodies' densities)",
                           req->r_min, req->r_max, c->wall ? "the sphere" : "each sphere");
  }
  if (range) {
    sep(&t);
    impactfit_text_appendf(&t, "a speed range %.6g .. %.6g m/s (design speed %.6g m/s)", req->v_min, req->v_max,
                           req->v);
  }
  /* the rest */
  sep(&t);
  impactfit_text_appendf(&t, "head-on, no tangential motion");
  if (isfinite(rs) && !cone_breaks)
    impactfit_text_appendf(&t,
                           "; MuJoCo's contact: condim %.0f, %s, friction %.12g, impratio %.12g (the normal force as "
                           "with condim 1)",
                           cd,
                           pyramidal   ? "the pyramidal cone"
                           : cd == 1.0 ? "no cone"
                                       : "the elliptic cone",
                           mu, ir);
  else if (!isfinite(rs))
    friction_item(c, &t);
  if (!(gravity > 0.0))
    impactfit_text_appendf(&t, "; no gravity");
  bodies_item(c, mat, &t);
  if (drop)
    impactfit_text_appendf(&t,
                           "; a drop from %.6g m at rest: each impact at its own speed (the first at %.6g m/s, after "
                           "free fall)",
                           drop->height, sqrt(2.0 * gravity * drop->height));
  else if (!range)
    impactfit_text_appendf(&t, "; the impact speed %.6g m/s (one speed)", req->v);
  if (c->model->precision && *c->model->precision) /* the arithmetic the answer models (issue 34: Bullet's builds) */
    impactfit_text_appendf(&t, "; arithmetic: %s", c->model->precision);
  return impactfit_text_take(&t);
}
