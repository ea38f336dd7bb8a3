% IMPACTFIT_DEM  The exact input that makes a real DEM code give the restitution you ask for.
%
%   R = impactfit_dem(CODE, MODEL, E, V, 'name', value, ...)
%   R = impactfit_dem(CODE, MODEL, [], V, 'value', X, ...)      % the forward problem
%
%   impactfit knows, per code, version and model, the normal force the code computes,
%   F = K d^n + C d^m d', and whether it clamps the force at zero (the registry: `impactfit dem
%   --list`). It solves for the damping C that gives the coefficient of restitution E (0 < E < 1)
%   exactly at the impact speed V (m/s: the relative normal speed, or the sphere's speed at a wall)
%   and converts it into the number the code takes.
%
%   CODE: 'lammps', 'liggghts', 'yade' or 'chrono'. MODEL: the code's model, e.g.
%   'granular hertz/material', 'gran/hertz/history', 'hertz', 'mindlin'. An unknown code, version,
%   model or damping option is an error (impactfit:invalidInput) listing what is known.
%
%   Options (name/value pairs):
%     'version', S      the code's version (default: Debian 12's: 29Sep2021, 3.8.0, 2023.02a)
%     'damping', S      the damping option where the model has several ('tsuji', 'en', ...)
%     'limit', 'on'|'off'|true|false   the code's force clamp (LAMMPS limit_damping, LIGGGHTS
%                       limitForce); default: the code's default
%     'wall', true      a sphere against a fixed flat wall of the same material (r2, m2 ignored)
%     'E', PA, 'nu', NU Young's modulus (Pa) and Poisson's ratio (models that take a material)
%     'kn', KN          the code's own stiffness (models that take one; units in `impactfit dem --list`)
%     'radius', R       radius of both spheres (m); or 'r1', 'r2' (r2 = r1 when not given)
%     'density', RHO    density of both spheres (kg/m^3; masses (4/3) pi r^3 rho); or 'rho1', 'rho2';
%                       or masses 'm1', 'm2' (kg; m2 = m1)
%     'vchar', V        characteristic velocity of LIGGGHTS/Chrono hooke (m/s; default: V)
%     'tc', S           contact time of YADE's ViscElMat(tc, en) (s)
%     'value', X        with E = []: the real e the code gives when X is typed
%
%   The numeric inputs (E, V and the numeric options) are vectorised: the non-scalar ones must have
%   the same number of elements; the fields take the shape of the first of them.
%
%   R is a struct: value (the number to type; NaN when E is out of the model's reach), e_naive (the
%   e the code gives when E itself is typed; NaN when the model takes no e), reachable (1/0), zeta
%   (scaled damping), C (N s/m^(m+1)), K (N/m^n), R (m, effective radius), M (kg, effective mass).
%   With 'value': value, e_real, R, M. For a scalar call also input (char: the exact text to paste),
%   and, when solving for E, note (char) and, when E is out of reach, alternative ([] or a struct
%   with model, damping, value, input, note, end: another model of the same code that reaches E).
%   The same values as `impactfit dem ... --json`.
%
%   Example:
%     r = impactfit_dem('lammps', 'granular hertz/material', 0.5, 1, 'damping', 'tsuji', ...
%                       'E', 1e8, 'nu', 0.3, 'radius', 0.005, 'density', 2500);
%     r.value   % 0.36665: type this instead of e = 0.5
%     disp(r.input)
%
%   See also IMPACTFIT_COPT, IMPACTFIT_HC_EPS.
