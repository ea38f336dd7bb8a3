/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DART 6.12.1 (Debian 12's libdart-dev; Gazebo's default engine) as the oracle of impactfit's DART step map
 * and entry (src/codes/dart.c, docs/engines/DART.md).
 *
 * A frictionless sphere (5 mm, 1.309 g; a FreeJoint skeleton with a SphereShape) on a fixed ground (a
 * WeldJoint skeleton with a 10 m x 10 m x 1 m BoxShape whose top is z = 0), or on a second free sphere at rest
 * (5 mm of the same mass, or 8 mm of four times it), no gravity, DART's collision detector (one contact row:
 * collision/dart/DARTCollide.cpp), World::step at dt; the sphere placed (2 − φ) v dt above touching (J = 2:
 * the contact acts from touching on); e = −(relative velocity after)/v once a step leaves the bodies apart,
 * separating, with no impulse. Checked:
 *  (a) per phase, the engine's e equals impactfit's step map (impactfit__stepper_dart) within 1e-6: sphere-ground
 *      and two spheres, dt 0.001 s (DART's default), 0.0005 and 0.004 s, speeds 0.05 m/s (below the bouncing
 *      threshold for every coefficient up to 2), 0.5 and 2 m/s, e = 0.1 ... 0.9 with the naive input (the
 *      sphere's coefficient e, the ground's 1) and impactfit's;
 *  (b) the engine's mean e over the phase with impactfit's input is the asked e within 1e-5, or impactfit's
 *      search says it is out of reach (r v <= 0.1 m/s: no bounce; the engine's e then stays below maxERV/v);
 *  (c) DART's defaults (ERP, maxERV, CFM, the time step, a shape's friction and restitution);
 *  (d) traps: the ground's default coefficient 0 (no bounce), the product of two coefficients, the threshold
 *      r v > 0.1 m/s, setErrorAllowance has no effect on a frictionless row, a larger CFM, and DART's default
 *      collision detector (FCL, spheres as meshes: several rows; e within CFM (1 + r) of the one-row e). */
#include <dart/collision/dart/DARTCollisionDetector.hpp>
#include <dart/collision/fcl/FCLCollisionDetector.hpp>
#include <dart/constraint/ConstraintSolver.hpp>
#include <dart/constraint/ContactConstraint.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/SphereShape.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>

#include <sys/resource.h>

#include "codes/dart_impl.h"
#include "impactfit/stepper.h"
#include "phase_nodes.h"
#include "testutil.h"

#define NAME "dart_impacts"
static const double TOL_PHASE = 1e-6, TOL_MEAN = 1e-5;
static long g_impacts = 0, g_steps = 0;

/* ---------------------------------------------------------------- the engine */

namespace dd = dart::dynamics;

/* a scene: the world, the sphere, the second body */
struct scene {
  dart::simulation::WorldPtr world;
  dd::SkeletonPtr s1, s2; /* s2: the ground (fixed) or the second sphere */
  dd::ShapeNode *n1 = nullptr, *n2 = nullptr;
  bool plane = true;
  double r1 = 0, r2 = 0;
};

static dd::ShapeNode *add_sphere(dd::SkeletonPtr sk, double r, double m) {
  auto pair = sk->createJointAndBodyNodePair<dd::FreeJoint>();
  auto shape = std::make_shared<dd::SphereShape>(r);
  auto *sn = pair.second->createShapeNodeWith<dd::CollisionAspect, dd::DynamicsAspect>(shape);
  dd::Inertia I;
  I.setMass(m);
  I.setMoment(shape->computeInertia(m));
  pair.second->setInertia(I);
  return sn;
}

/* detector 0: DART's own (one row), 1: DART's default FCL (spheres as meshes) */
static scene make_scene(const impactfit__dart_setup &ds, int detector) {
  scene S;
  S.world = dart::simulation::World::create();
  S.world->setGravity(Eigen::Vector3d::Zero());
  S.world->setTimeStep(ds.dt);
  if (detector == 0)
    S.world->getConstraintSolver()->setCollisionDetector(dart::collision::DARTCollisionDetector::create());
  S.plane = ds.plane;
  S.r1 = ds.r1;
  S.s1 = dd::Skeleton::create("sphere");
  S.n1 = add_sphere(S.s1, ds.r1, ds.m1);
  if (ds.plane) {
    S.s2 = dd::Skeleton::create("ground");
    auto pair = S.s2->createJointAndBodyNodePair<dd::WeldJoint>();
    auto box = std::make_shared<dd::BoxShape>(Eigen::Vector3d(10.0, 10.0, 1.0));
    S.n2 = pair.second->createShapeNodeWith<dd::CollisionAspect, dd::DynamicsAspect>(box);
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.translation() = Eigen::Vector3d(0.0, 0.0, -0.5);
    pair.first->setTransformFromParentBodyNode(T);
  } else {
    S.r2 = ds.r2;
    S.s2 = dd::Skeleton::create("sphere2");
    S.n2 = add_sphere(S.s2, ds.r2, ds.m2);
  }
  for (auto *n : {S.n1, S.n2})
    n->getDynamicsAspect()->setFrictionCoeff(0.0);
  S.world->addSkeleton(S.s2);
  S.world->addSkeleton(S.s1);
  return S;
}

/* the engine's e at phase phi for the sphere's coefficient r1 and the second body's r2 (NaN: no rebound) */
static double engine_e(scene &S, double r1, double r2, double v, double phi) {
  S.n1->getDynamicsAspect()->setRestitutionCoeff(r1);
  S.n2->getDynamicsAspect()->setRestitutionCoeff(r2);
  double h = S.world->getTimeStep(), coord = S.plane ? S.r1 : S.r1 + S.r2;
  Eigen::Vector6d q = Eigen::Vector6d::Zero(), dq = Eigen::Vector6d::Zero();
  q[5] = coord + (2.0 - phi) * (v * h);
  dq[5] = -v;
  S.s1->setPositions(q);
  S.s1->setVelocities(dq);
  if (!S.plane) {
    S.s2->setPositions(Eigen::Vector6d::Zero());
    S.s2->setVelocities(Eigen::Vector6d::Zero());
  }
  auto z2 = [&]() { return S.plane ? 0.0 : S.s2->getPosition(5); };
  auto w2 = [&]() { return S.plane ? 0.0 : S.s2->getVelocity(5); };
  bool acting = false;
  for (long k = 0; k < 200000; k++) {
    double u0 = w2() - S.s1->getVelocity(5);
    S.world->step();
    g_steps++;
    double x = coord - (S.s1->getPosition(5) - z2()), u = w2() - S.s1->getVelocity(5);
    /* an impulse: a step with a contact that changed the speed (FCL's off-centre rows leave the sphere turning,
     * and the FreeJoint's velocity integration then moves the linear velocity a little in every step) */
    bool impulse = S.world->getLastCollisionResult().getNumContacts() > 0 && u != u0;
    acting = acting || impulse || x >= 0.0;
    if (acting && !impulse && x <= 0.0 && u < 0.0) {
      g_impacts++;
      return -u / v;
    }
    if (acting && !impulse && u == 0.0) {
      g_impacts++;
      return 0.0;
    }
  }
  g_impacts++;
  return NAN;
}

/* ---------------------------------------------------------------- impactfit's side */

static const double M1 = 4.0 / 3.0 * M_PI * 0.005 * 0.005 * 0.005 * 2500.0;
static const char *const BODY_NAMES[] = {"sphere-ground", "spheres 1:1", "spheres 1:4"};

static impactfit__dart_setup setup_make(int bodies, double dt) {
  impactfit__dart_setup ds = impactfit__dart_defaults();
  ds.dt = dt;
  ds.plane = bodies == 0;
  ds.m1 = M1;
  ds.r1 = 0.005;
  ds.r2 = bodies == 0 ? NAN : bodies == 1 ? 0.005 : 0.008;
  ds.m2 = bodies == 0 ? NAN : bodies == 1 ? M1 : 4.0 * M1;
  return ds;
}

static const double PHIS[] = {0.0731, 0.2459, 0.4173, 0.5566, 0.7287, 0.9519};
static const int NPHI = (int)(sizeof PHIS / sizeof PHIS[0]);

/* per phase: the engine against the step map; returns the largest |de| */
static double agree(scene &S, const impactfit__dart_setup &ds, double r1, double v, const char *what) {
  impactfit_stepper st;
  impactfit_error err;
  if (impactfit__dart_build(&ds, r1, &st, &err)) {
    CHECK(0, "%s: impactfit builds (%.400s)", what, err.message);
    return INFINITY;
  }
  double worst = 0.0, r2 = ds.restitution2;
  for (int i = 0; i < NPHI; i++) {
    unsigned long s0 = 0, s1 = 0, s2 = 0;
    double want = hz_model_e(&st, v, PHIS[i], &s0);
    hz_model_e(&st, v, PHIS[i] - 1e-7, &s1);
    hz_model_e(&st, v, PHIS[i] + 1e-7, &s2);
    if (s0 != s1 || s0 != s2)
      continue;
    double got = engine_e(S, r1, r2, v, PHIS[i]);
    worst = std::fmax(worst, std::isnan(got) ? INFINITY : std::fabs(got - want));
    CHECK_ABS(got, want, TOL_PHASE, "%s phi %.4f: engine e vs impactfit e(phi)", what, PHIS[i]);
  }
  return worst;
}

static int build_fn(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  return impactfit__dart_build((const impactfit__dart_setup *)ctx, value, st, err);
}

/* ---------------------------------------------------------------- (a) and (b) */

static void one_case(int b, double dt, double v, double e_asked, bool mean, double *worst) {
  impactfit__dart_setup ds = setup_make(b, dt);
  scene S = make_scene(ds, 0);
  char what[200];
  snprintf(what, sizeof what, "%s dt %g v %g e %g", BODY_NAMES[b], dt, v, e_asked);
  impactfit_stepper st;
  impactfit_error err;
  impactfit_step_stats stats;
  /* naive: the sphere's coefficient e, the ground's 1 */
  double dn = agree(S, ds, e_asked, v, what);
  impactfit__dart_build(&ds, e_asked, &st, &err);
  double e_naive = impactfit_step_phase_stats(&st, v, &stats, &err) ? NAN : stats.e_mean;
  double r = NAN;
  int rc = impactfit_step_solve_mean(build_fn, &ds, v, e_asked, 1e-6, 4.0, e_asked, 0.0, &r, &stats, &err);
  char note[2048] = "";
  impactfit__dart_note(&ds, std::isfinite(r) ? r : e_asked, v, note, sizeof note);
  if (rc) {
    /* out of reach only where the e asked lies below the smallest bounce, (0.1/v − CFM)/(1 + CFM): no coefficient
     * up to 0.1/v bounces, and just above it the bodies part faster than asked */
    double r_thr = 0.1 / v, e_lowest = (r_thr - ds.cfm) / (1.0 + ds.cfm);
    /* the search meets the threshold as a jump of e (ENOCONV, naming it) or finds no mean that high (ENOROOT) */
    CHECK((rc == IMPACTFIT_ENOROOT || rc == IMPACTFIT_ENOCONV) && e_asked <= e_lowest &&
              strstr(note, "NO BOUNCE") != nullptr,
          "%s: out of reach only below the smallest bounce %g, and the note says why (rc %d: %.300s)", what, e_lowest,
          rc, err.message);
    double mx = 0.0, lo = INFINITY;
    for (int i = 0; i < NPHI; i++) {
      mx = std::fmax(mx, engine_e(S, r_thr * (1.0 - 1e-9), 1.0, v, PHIS[i]));
      lo = std::fmin(lo, engine_e(S, r_thr * (1.0 + 1e-9), 1.0, v, PHIS[i]));
    }
    CHECK(mx <= ds.erv / v + 1e-12 && lo > e_asked && std::fabs(lo - e_lowest) < 1e-6,
          "%s: the engine at the threshold's coefficient %g: e <= maxERV/v (%g), just above it e = %g > the asked e",
          what, r_thr, mx, lo);
    printf("    %-40s naive %9.6f  out of reach: no bounce up to coefficient %g (engine e <= %.3g), the smallest "
           "bounce %.6f\n",
           what, e_naive, r_thr, mx, lo);
    *worst = std::fmax(*worst, dn);
    return;
  }
  char text[1024];
  impactfit__dart_input(&ds, r, text, sizeof text);
  double typed = atof(strstr(text, "setRestitutionCoeff(") + strlen("setRestitutionCoeff("));
  CHECK_REL(typed, r, 1e-15, "%s: the pasted text holds the value (%.200s)", what, text);
  double df = agree(S, ds, typed, v, what);
  double em = NAN;
  pn_nodes p;
  if (mean && impactfit__dart_build(&ds, typed, &st, &err) == 0 && pn_make(&st, v, 1, &p) == 0) {
    em = 0.0;
    for (int i = 0; i < p.n; i++)
      em += p.w[i] * engine_e(S, typed, 1.0, v, p.phi[i]);
    pn_free(&p);
    CHECK_ABS(em, e_asked, TOL_MEAN, "%s: the engine's mean e over the phase with impactfit's input", what);
  }
  char mt[32] = "-";
  if (mean)
    snprintf(mt, sizeof mt, "%9.1e", em - e_asked);
  printf("    %-40s naive %.9f  impactfit coefficient %.12f  max|de| %.1e  engine mean - e %9s\n", what, e_naive, typed,
         std::fmax(dn, df), mt);
  *worst = std::fmax(*worst, std::fmax(dn, df));
}

static void part_ab() {
  printf("(a, b) per phase (tolerance %g) and the engine's phase mean with impactfit's input (%g)\n", TOL_PHASE,
         TOL_MEAN);
  const double dts[] = {0.001, 0.0005, 0.004}, speeds[] = {0.05, 0.5, 2.0}, es[] = {0.1, 0.3, 0.5, 0.7, 0.9};
  double worst = 0.0;
  for (int b = 0; b < 3; b++)
    for (int t = 0; t < 3; t++)
      for (int k = 0; k < 3; k++)
        for (int j = 0; j < 5; j++) {
          if (b > 0 && t > 0 && j != 2)
            continue; /* two spheres: every e at the default step, e = 0.5 at the others */
          one_case(b, dts[t], speeds[k], es[j], t == 0 || j == 2, &worst);
        }
  printf("    largest |de| over all: %.2e (tolerance %g)\n", worst, TOL_PHASE);
}

/* ---------------------------------------------------------------- (c) and (d) */

static void part_c() {
  impactfit__dart_setup ds = impactfit__dart_defaults();
  auto world = dart::simulation::World::create();
  dd::DynamicsAspect::Properties props;
  printf("(c) DART's defaults: ERP %g, maxERV %g, CFM %g, time step %g, a shape's friction %g and restitution %g\n",
         dart::constraint::ContactConstraint::getErrorReductionParameter(),
         dart::constraint::ContactConstraint::getMaxErrorReductionVelocity(),
         dart::constraint::ContactConstraint::getConstraintForceMixing(), world->getTimeStep(), props.mFrictionCoeff,
         props.mRestitutionCoeff);
  CHECK(dart::constraint::ContactConstraint::getErrorReductionParameter() == ds.erp &&
            dart::constraint::ContactConstraint::getMaxErrorReductionVelocity() == ds.erv &&
            dart::constraint::ContactConstraint::getConstraintForceMixing() == ds.cfm && world->getTimeStep() == ds.dt,
        "(c) the step map's defaults are DART's");
  CHECK(props.mFrictionCoeff == 1.0 && props.mRestitutionCoeff == 0.0, "(c) a shape's friction 1 and restitution 0");
}

static void part_d() {
  printf("(d) traps, measured\n");
  impactfit__dart_setup ds = setup_make(0, 0.001);
  scene S = make_scene(ds, 0);
  /* the ground's default coefficient 0: the sphere's 0.8 does not bounce */
  double e0 = engine_e(S, 0.8, 0.0, 1.0, 0.5);
  printf("    sphere 0.8 on a ground left at 0: engine e %.6g (the penetration correction's speed)\n", e0);
  CHECK(e0 <= ds.erv / 1.0 + 1e-12, "(d) the ground's default 0 gives no bounce (e %g)", e0);
  /* the product: 0.8 x 0.5 */
  impactfit__dart_setup dp = ds;
  dp.restitution2 = 0.5;
  double dprod = agree(S, dp, 0.8, 1.0, "(d) sphere 0.8, ground 0.5");
  impactfit_stepper st;
  impactfit_error err;
  impactfit_step_stats stats;
  impactfit__dart_build(&dp, 0.8, &st, &err);
  impactfit_step_phase_stats(&st, 1.0, &stats, &err);
  printf("    sphere 0.8 on a ground of 0.5: impactfit e %.9f = (0.4 - CFM)/(1 + CFM), engine per phase within %.1e\n",
         stats.e_mean, dprod);
  CHECK_ABS(stats.e_mean, (0.4 - 1e-5) / (1.0 + 1e-5), 1e-15, "(d) the product of the coefficients");
  /* both shapes at the default coefficient 0, at 1 and 5 m/s: no bounce, the correction pushes the sphere out (e up
   * to maxERV/v, its number of steps changing with the phase), per phase as impactfit's map */
  impactfit__dart_setup d0 = ds;
  d0.restitution2 = 0.0;
  for (double vz : {1.0, 5.0}) {
    char what[80];
    snprintf(what, sizeof what, "(d) both coefficients 0, %g m/s", vz);
    double dz = agree(S, d0, 0.0, vz, what);
    impactfit__dart_build(&d0, 0.0, &st, &err);
    int sz = impactfit_step_phase_stats(&st, vz, &stats, &err);
    CHECK(sz == 0 && stats.e_max <= 1e-3 / vz * (1.0 + 1e-12), "%s: impactfit's e within maxERV/v", what);
    printf("    both coefficients 0 at %g m/s: impactfit mean e %.12g (at most maxERV/v), engine per phase within "
           "%.1e\n",
           vz, stats.e_mean, dz);
  }
  /* the threshold: r v = 0.1 does not bounce, 0.1001 does */
  double below = engine_e(S, 0.1, 1.0, 1.0, 0.5), above = engine_e(S, 0.1001, 1.0, 1.0, 0.5);
  printf("    coefficient 0.1 at 1 m/s (r v = 0.1): e %.6g; 0.1001: e %.9f\n", below, above);
  CHECK(below <= 1e-3 + 1e-12 && std::fabs(above - (0.1001 - 1e-5) / (1.0 + 1e-5)) < 1e-12, "(d) restitution only when "
                                                                                            "r v > 0.1 m/s");
  /* setErrorAllowance: the frictionless row uses the constant 0 */
  double base = engine_e(S, 0.0, 1.0, 0.05, 0.7);
  dart::constraint::ContactConstraint::setErrorAllowance(1e-3);
  double with = engine_e(S, 0.0, 1.0, 0.05, 0.7);
  dart::constraint::ContactConstraint::setErrorAllowance(0.0);
  printf("    setErrorAllowance(1e-3) on a frictionless row: e %.9g vs %.9g without\n", with, base);
  CHECK(with == base && base > 0.0, "(d) the error allowance does not act on a frictionless row");
  /* a larger CFM */
  dart::constraint::ContactConstraint::setConstraintForceMixing(1e-3);
  impactfit__dart_setup dc = ds;
  dc.cfm = 1e-3;
  double dcfm = agree(S, dc, 0.5, 1.0, "(d) CFM 1e-3");
  dart::constraint::ContactConstraint::setConstraintForceMixing(1e-5);
  printf("    CFM 1e-3, coefficient 0.5: e (0.5 - 1e-3)/(1 + 1e-3) = %.9f, engine per phase within %.1e\n",
         (0.5 - 1e-3) / 1.001, dcfm);
  /* DART's default collision detector: FCL with spheres as meshes */
  for (int b = 0; b < 2; b++) {
    impactfit__dart_setup df = setup_make(b, 0.001);
    scene F = make_scene(df, 1);
    double r = 0.5 * (1.0 + 1e-5) + 1e-5, one_row = 0.5, mn = INFINITY, mx = -INFINITY;
    bool all = true;
    for (int i = 0; i < NPHI; i++) {
      double e = engine_e(F, r, 1.0, 1.0, PHIS[i]);
      all = all && std::isfinite(e);
      mn = std::fmin(mn, e);
      mx = std::fmax(mx, e);
    }
    char note[2048] = "";
    impactfit__dart_note(&df, r, 1.0, note, sizeof note);
    printf("    default FCL detector, %s, impactfit's coefficient for e = 0.5: engine e in [%.9f, %.9f] (one row: "
           "%.9f); bound CFM (1 + r) = %.1e\n",
           BODY_NAMES[b], mn, mx, one_row, 1e-5 * (1.0 + r));
    CHECK(all && mn >= one_row - 1e-12 && mx - one_row <= 1e-5 * (1.0 + r) && strstr(note, "FCL") != nullptr,
          "(d) FCL's several rows: e within CFM (1 + r) above the one-row e, and the note says so");
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  printf(NAME ": DART %s (Debian 12 libdart-dev)\n", DART_VERSION);
  const char *parts = argc > 1 ? argv[1] : "abcd";
  if (strchr(parts, 'c'))
    part_c();
  if (strchr(parts, 'a'))
    part_ab();
  if (strchr(parts, 'd'))
    part_d();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf(NAME ": %ld engine impacts, %ld steps; CPU %.2f s\n", g_impacts, g_steps,
         (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
             1e-6 * (double)ru.ru_stime.tv_usec);
  return tu_report(NAME);
}
