/* impactfit — generated C headers from fit files.
 *
 * impactfit_codegen_header() prints the results of a fit file (after impactfit_fitfile_run) as a
 * self-contained C header, include/impactfit/generated/<name>.h by convention:
 *   - a DO NOT EDIT banner naming the generator and its version, the fit file (base name) and the
 *     sweep file (as named in the fit file) with their XXH64 hashes, the problem, its options, fixed
 *     parameters and tolerances, the grid, and for every stage its data filters, objective, method,
 *     points, constants with standard errors, correlation matrix, rms residual and the largest
 *     absolute and relative errors on the data;
 *   - the constants as static const double printed with %.17g (exactly the fitted doubles);
 *   - one static inline function per stage evaluating the fitted formula, named
 *     impactfit_<name>_<stage>(x[, x2]) or, for a stage fitted per group,
 *     impactfit_<name>_<stage>(group_index, x) with the group values in
 *     impactfit_<name>_<stage>_<group column>[IMPACTFIT_<NAME>_<STAGE>_GROUPS].
 * The text holds no time stamp or absolute path: the same inputs give the same bytes.
 * The functions compute what impactfit_fit_model_eval computes, in the same operation order (the
 * polynomial by Horner's rule; formulas through the syntax tree checked against libmatheval).
 */
#ifndef IMPACTFIT_CODEGEN_H
#define IMPACTFIT_CODEGEN_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/fitfile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the header into a malloc'ed, NUL-terminated string (*text, free with free()). EINVAL
 * when the fit file has not been run. */
IMPACTFIT_EXPORT int impactfit_codegen_header(const impactfit_fitfile *f, char **text, size_t *len,
                                              impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_CODEGEN_H */
