# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the Octave package archive impactfit-VERSION.tar.gz (cmake --build BUILD --target octave-pkg):
# DESCRIPTION, INDEX, COPYING, inst/ (the help files impactfit_*.m) and src/ (the MEX sources with a
# Makefile that builds them against the installed library, pkg-config impactfit), in Octave's own
# format for `pkg install impactfit-VERSION.tar.gz` and `pkg load impactfit`.
# Run with cmake -DSRC=... -DOUT=... -DVERSION=... -DFUNCTIONS="a;b" -DDATE=YYYY-MM-DD -P octave_pkg.cmake
set(stage "${OUT}/octave-pkg/impactfit")
file(REMOVE_RECURSE "${OUT}/octave-pkg")
file(MAKE_DIRECTORY "${stage}/inst" "${stage}/src")
list(JOIN FUNCTIONS " " funcs)
file(WRITE "${stage}/DESCRIPTION"
"Name: impactfit
Version: ${VERSION}
Date: ${DATE}
Author: impactfit developers
Maintainer: impactfit developers
Title: Exact damping constants of continuous contact-force models
Description: The damping constants of continuous contact-force models that give a
 coefficient of restitution exactly (Hertz spring with a damper, Hunt-Crossley, any damping
 exponent), the published formulas' real error, and the exact input for DEM codes and
 multibody engines. MEX functions over the impactfit C library, the same values as the
 impactfit program to the last digit.
License: GPLv3+
Depends: octave (>= 6.0.0)
SystemRequirements: libimpactfit (the impactfit C library and its pkg-config file)
")
file(WRITE "${stage}/INDEX" "impactfit >> impactfit\nContact damping from a restitution\n ${funcs}\n")
file(COPY "${SRC}/LICENSE" DESTINATION "${stage}")
file(RENAME "${stage}/LICENSE" "${stage}/COPYING")
# Octave's pkg puts .m files in the package's folder and .mex files in its architecture folder, so a
# help file next to its MEX function (the build tree's layout) does not work there: each function is a
# .m file with the help text that calls the MEX function __NAME_mex__ and names itself in its errors.
foreach(f ${FUNCTIONS})
  file(READ "${SRC}/octave/${f}.m" help)
  file(WRITE "${stage}/inst/${f}.m" "${help}
function varargout = ${f} (varargin)
  try
    [varargout{1:max (1, nargout)}] = __${f}_mex__ (varargin{:});
  catch err
    error (err.identifier, '%s', strrep (err.message, '__${f}_mex__', '${f}'));
  end_try_catch
endfunction
")
  file(COPY "${SRC}/octave/src/${f}.c" DESTINATION "${stage}/src")
endforeach()
file(COPY "${SRC}/octave/src/impactfit_mex.h" "${SRC}/bindings/kernels.h" DESTINATION "${stage}/src")
set(IMPACTFIT_OCTAVE_FUNCTIONS "${funcs}")
configure_file("${SRC}/octave/pkg/Makefile" "${stage}/src/Makefile" @ONLY)
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${OUT}/impactfit-${VERSION}.tar.gz" impactfit
                WORKING_DIRECTORY "${OUT}/octave-pkg" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "octave_pkg.cmake: tar failed (${rc})")
endif()
message(STATUS "Octave package: ${OUT}/impactfit-${VERSION}.tar.gz")
