// A C++ program using an installed impactfit through find_package: the damping c_opt for a range of
// restitutions, each checked by simulating the impact. The C API is wrapped in a small RAII class.
//
//   Hertz spring n = 1.5, k = 1e8 N/m^1.5, effective mass 0.05 kg, approach velocity 2 m/s.
//
// Usage: damping_table            prints e, c_opt (N s/m) and the simulated e_out
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include <impactfit/impactfit.h>

namespace {

struct Damping {
  double c_opt;  // N s/m
  double e_out;  // restitution of an impact simulated with c_opt
};

class Impactfit {
public:
  Impactfit()
      : inv_(impactfit_inverse_alloc(), impactfit_inverse_free), sim_(impactfit_impact_alloc(), impactfit_impact_free) {
    if (!inv_ || !sim_)
      throw std::runtime_error("impactfit: out of memory");
  }

  // c_opt of the Hertz spring n with a linear damper (condition C) for restitution e, checked by a simulation
  Damping copt(double n, double e, double k, double mass, double v) {
    impactfit_error err;
    impactfit_inverse_params ip = impactfit_inverse_default_params();
    ip.n = n;
    impactfit_copt_result cr;
    if (impactfit_copt_solve(inv_.get(), &ip, e, k, mass, v, 0, &cr, &err) != IMPACTFIT_OK)
      throw std::runtime_error(std::string("copt: ") + err.message);
    impactfit_impact_params p = impactfit_impact_default_params();
    p.n = n;
    p.m = 0.0;
    p.k = k;
    p.c = cr.c_opt;
    p.mass = mass;
    p.v = v;
    impactfit_impact_result r;
    if (impactfit_impact_solve(sim_.get(), &p, &r, &err) != IMPACTFIT_OK)
      throw std::runtime_error(std::string("simulate: ") + err.message);
    return {cr.c_opt, r.e_out};
  }

private:
  std::unique_ptr<impactfit_inverse_workspace, void (*)(impactfit_inverse_workspace *)> inv_;
  std::unique_ptr<impactfit_impact_workspace, void (*)(impactfit_impact_workspace *)> sim_;
};

}  // namespace

int main() {
  try {
    Impactfit fit;
    std::printf("%-6s %-24s %s\n", "e", "c_opt (N s/m)", "simulated e_out");
    for (double e : {0.3, 0.5, 0.7, 0.9}) {
      Damping d = fit.copt(1.5, e, 1e8, 0.05, 2.0);
      std::printf("%-6g %-24.17g %.15f\n", e, d.c_opt, d.e_out);
    }
  } catch (const std::exception &ex) {
    std::fprintf(stderr, "%s\n", ex.what());
    return 1;
  }
  return 0;
}
