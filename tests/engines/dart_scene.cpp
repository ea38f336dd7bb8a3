/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DART 6.12.1 (Debian's libdart-dev) on the user's scene (issue 33, docs/SCENE.md): does the friction coefficient
 * enter the normal response? A sphere (r 0.1 m, 0.5 kg, restitution 0.75 against a ground box of restitution 1)
 * released from rest 1 m above the ground under g = 9.81, dt 1e-3, DART's default constraint solver (the boxed
 * LCP, Dantzig): the apexes (local maxima of the gap at the step starts above 2 mm) with friction coefficients
 * 0.5, 1 and 100 on both shapes are bit for bit the same, and those without friction (0) differ from them only at
 * rounding in the first bounce (the LCP with friction rows is a different computation; the drop's own sensitivity
 * then grows the difference bounce by bounce, as every drop test's does: drop.h). Not an impactfit entry yet:
 * the check of a claim on the scene page. */
#include <cmath>
#include <cstdio>

#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/ShapeNode.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/SphereShape.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>

using namespace dart;

static int drop(double mu, double *apex, int n) {
  auto world = simulation::World::create();
  world->setGravity(Eigen::Vector3d(0, 0, -9.81));
  world->setTimeStep(1e-3);
  auto ground = dynamics::Skeleton::create("ground");
  auto gb = ground->createJointAndBodyNodePair<dynamics::WeldJoint>().second;
  auto box = std::make_shared<dynamics::BoxShape>(Eigen::Vector3d(10, 10, 1));
  auto gsn = gb->createShapeNodeWith<dynamics::CollisionAspect, dynamics::DynamicsAspect>(box);
  Eigen::Isometry3d tf = Eigen::Isometry3d::Identity();
  tf.translation() = Eigen::Vector3d(0, 0, -0.5);
  gsn->setRelativeTransform(tf);
  gsn->getDynamicsAspect()->setFrictionCoeff(mu);
  gsn->getDynamicsAspect()->setRestitutionCoeff(1.0);
  auto ball = dynamics::Skeleton::create("ball");
  auto pair = ball->createJointAndBodyNodePair<dynamics::FreeJoint>();
  auto sphere = std::make_shared<dynamics::SphereShape>(0.1);
  auto sn = pair.second->createShapeNodeWith<dynamics::CollisionAspect, dynamics::DynamicsAspect>(sphere);
  sn->getDynamicsAspect()->setFrictionCoeff(mu);
  sn->getDynamicsAspect()->setRestitutionCoeff(0.75);
  dynamics::Inertia inertia;
  inertia.setMass(0.5);
  inertia.setMoment(sphere->computeInertia(0.5));
  pair.second->setInertia(inertia);
  Eigen::Vector6d q = Eigen::Vector6d::Zero();
  q[5] = 0.1 + 1.0;
  ball->setPositions(q);
  world->addSkeleton(ground);
  world->addSkeleton(ball);
  double g2 = 1.0, g1 = 1.0;
  int found = 0;
  for (int k = 0; k < 20000 && found < n; k++) {
    world->step();
    double g0 = ball->getPositions()[5] - 0.1;
    if (k >= 1 && g1 > g2 && g1 >= g0 && g1 > 0.002)
      apex[found++] = g1;
    g2 = g1;
    g1 = g0;
  }
  return found;
}

int main() {
  double none[16], ref[16], got[16];
  int n0 = drop(0.0, none, 15), n1 = drop(0.5, ref, 15), fails = 0;
  printf("dart_scene: DART drop, r 0.1 m, restitution 0.75, dt 1e-3: %d apexes without friction, %d with mu 0.5\n", n0,
         n1);
  for (double mu : {1.0, 100.0}) {
    int n = drop(mu, got, 15), same = n == n1;
    for (int k = 0; k < n && k < n1; k++)
      same &= got[k] == ref[k];
    printf("  mu %-5g: %2d apexes, %s mu 0.5\n", mu, n, same ? "bit for bit those of" : "DIFFERENT from");
    fails += !same;
  }
  double first = std::fabs(ref[0] / none[0] - 1.0), worst = 0.0;
  for (int k = 0; k < n0 && k < n1; k++)
    worst = std::fmax(worst, std::fabs(ref[k] / none[k] - 1.0));
  printf("  mu 0.5 against none: first apex %.3g relative, the largest over %d bounces %.3g (the drop's growth)\n",
         first, n1, worst);
  fails += !(first <= 1e-9) || n0 != n1;
  printf("dart_scene: %s\n", fails ? "FAILED" : "all checks passed");
  return fails ? 1 : 0;
}
