% IMPACTFIT_ENGINE  The exact contact input for a multibody or robotics engine at your time step.
%
%   R = impactfit_engine(CODE, 'e', E, 'v', V, 'mass', KG, 'radius', M, 'name', value, ...)
%   R = impactfit_engine(CODE, 'value', X, 'v', V, 'mass', KG, 'radius', M, ...)  % the e that X gives
%   R = impactfit_engine(CODE, 'v', V, 'mass', KG, 'radius', M, ...)    % the e of the settings as they are
%
%   The same function as impactfit_code (help impactfit_code): one registry of every code. At the
%   time steps people run, e depends on where the first contact step falls; R gives the mean of e
%   over that phase (an impact from a random height), one impact's range and the continuous-time e.
%
%   Example:
%     r = impactfit_engine('mujoco', 'e', 0.5, 'v', 1, 'mass', 0.001309, 'radius', 0.005);
%     disp(r.input)
%
%   See also IMPACTFIT_CODE, IMPACTFIT_DEM.
