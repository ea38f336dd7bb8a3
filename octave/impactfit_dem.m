% IMPACTFIT_DEM  The exact input that makes a real DEM code give the restitution you ask for.
%
%   R = impactfit_dem(CODE, MODEL, E, V, 'name', value, ...)
%   R = impactfit_dem(CODE, MODEL, [], V, 'value', X, ...)      % the forward problem
%
%   The same function as impactfit_code (help impactfit_code): one registry of every code, one
%   convention of bodies (a sphere on a fixed wall by default; 'pair', true for two equal spheres).
%
%   Example:
%     r = impactfit_dem('lammps', 'granular hertz/material', 0.5, 1, 'damping', 'tsuji', ...
%                       'E', 1e8, 'nu', 0.3, 'radius', 0.005, 'density', 2500, 'pair', true);
%     r.value   % 0.36665: type this instead of e = 0.5
%     disp(r.input)
%
%   See also IMPACTFIT_CODE, IMPACTFIT_ENGINE.
