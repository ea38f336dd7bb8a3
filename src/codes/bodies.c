/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bodies of a head-on contact, one convention for every code and front end (include/impactfit/codes.h):
 * body 1 a sphere, body 2 a fixed wall (the default) or a second sphere. */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"

impactfit_code_bodies impactfit_code_bodies_default(void) {
  impactfit_code_bodies b;
  b.pair = -1;
  b.r1 = b.r2 = b.rho1 = b.rho2 = b.m1 = b.m2 = b.meff = b.reff = NAN;
  return b;
}

double impactfit_code_sphere_mass(double r, double rho) { return 4.0 / 3.0 * IMPACTFIT__PI * r * r * r * rho; }

static int given(double x) { return !isnan(x); }

/* meff and reff instead of the bodies */
static int resolve_direct(const impactfit_code_bodies *b, int wall, impactfit_code_ctx *c, impactfit_error *err) {
  if (!given(b->meff) || !given(b->reff))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "give both meff (the effective mass, kg) and reff (the effective radius, m), or neither");
  if (given(b->r1) || given(b->r2) || given(b->rho1) || given(b->rho2) || given(b->m1) || given(b->m2))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "give meff and reff, or the bodies (radii, densities or masses), not both");
  if (!(isfinite(b->reff) && b->reff > 0.0 && isfinite(b->meff) && b->meff > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "effective radius and mass must both be > 0 (got R = %.17g m, M = %.17g kg)", b->reff,
                           b->meff);
  c->wall = wall;
  c->R = b->reff;
  c->M = b->meff;
  c->r1 = c->r2 = c->m1 = c->m2 = NAN; /* the bodies themselves are not known */
  return 0;
}

/* the masses from the masses or the densities given */
static int resolve_masses(const impactfit_code_bodies *b, int wall, impactfit_code_ctx *c, impactfit_error *err) {
  int masses = given(b->m1) || given(b->m2), densities = given(b->rho1) || given(b->rho2);
  if (masses && densities)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "give densities or masses, not both");
  if (masses) {
    c->m1 = b->m1;
    c->m2 = wall ? NAN : given(b->m2) ? b->m2 : b->m1;
    return 0;
  }
  if (!densities)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "give the sphere's density (density, kg/m^3) or its mass (mass, kg)%s",
                           wall ? "" : " (the second sphere's: rho2, m2; default the first's)");
  double rho1 = b->rho1, rho2 = given(b->rho2) ? b->rho2 : b->rho1;
  if (!(rho1 > 0.0) || (!wall && !(rho2 > 0.0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "densities must be > 0 kg/m^3 (got %.17g, %.17g)", rho1,
                           wall ? NAN : rho2);
  c->m1 = impactfit_code_sphere_mass(c->r1, rho1);
  c->m2 = wall ? NAN : impactfit_code_sphere_mass(c->r2, rho2);
  return 0;
}

int impactfit_code_bodies_resolve(const impactfit_code_bodies *b, impactfit_code_ctx *c, impactfit_error *err) {
  if (!b || !c)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no bodies given");
  int body2 = given(b->r2) || given(b->rho2) || given(b->m2);
  if (b->pair == 0 && body2)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "a wall is not a body: r2, rho2 and m2 do not apply");
  int wall = b->pair == 0 || (b->pair < 0 && !body2);
  if (given(b->meff) || given(b->reff))
    return resolve_direct(b, wall, c, err);
  c->wall = wall;
  c->r1 = b->r1;
  c->r2 = wall ? NAN : given(b->r2) ? b->r2 : b->r1;
  int st = resolve_masses(b, wall, c, err);
  if (st)
    return st;
  if (!(isfinite(c->r1) && c->r1 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the sphere's radius must be > 0 (m) (got %.17g)", c->r1);
  if (!(isfinite(c->m1) && c->m1 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the sphere's mass must be > 0 (kg) (got %.17g)", c->m1);
  if (!wall && !(isfinite(c->r2) && c->r2 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the second sphere's radius r2 must be > 0 (m) (got %.17g)", c->r2);
  if (!wall && !(isfinite(c->m2) && c->m2 > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the second sphere's mass m2 must be > 0 (kg) (got %.17g)", c->m2);
  c->R = wall ? c->r1 : c->r1 * c->r2 / (c->r1 + c->r2);
  c->M = wall ? c->m1 : c->m1 * c->m2 / (c->m1 + c->m2);
  return 0;
}
