// Uses an installed (or add_subdirectory'd) impactfit from C++ only: c_opt of a Hertz spring
// with a linear damper, printed with %.17g for run.sh to compare with `impactfit copt ... --json`.
// usage: consumer_cxx [N E K MASS V]   (default 1.5 0.7 1e9 0.5 2)
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <impactfit/impactfit.h>

int main(int argc, char **argv) {
  double a[5] = {1.5, 0.7, 1e9, 0.5, 2.0};
  for (int i = 1; i < argc && i <= 5; i++)
    a[i - 1] = std::strtod(argv[i], nullptr);
  std::unique_ptr<impactfit_inverse_workspace, void (*)(impactfit_inverse_workspace *)> ws(impactfit_inverse_alloc(),
                                                                                           impactfit_inverse_free);
  impactfit_inverse_params p = impactfit_inverse_default_params();
  p.n = a[0];
  impactfit_copt_result r;
  impactfit_error err;
  int st = ws ? impactfit_copt_solve(ws.get(), &p, a[1], a[2], a[3], a[4], 0, &r, &err) : IMPACTFIT_ENOMEM;
  if (st) {
    std::fprintf(stderr, "consumer_cxx: copt: %s\n", st == IMPACTFIT_ENOMEM ? "out of memory" : err.message);
    return 1;
  }
  std::printf("impactfit %s (C++)\nc_opt %.17g\n", impactfit_version(), r.c_opt);
  return 0;
}
