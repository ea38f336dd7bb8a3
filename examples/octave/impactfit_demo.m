% impactfit_demo.m -- the impactfit MEX functions from Octave (or MATLAB).
%
% Run from the repository after `bash scripts/main.sh` (which builds them into build/octave):
%     octave-cli --no-history -p build/octave examples/octave/impactfit_demo.m
% or, in a session:  addpath('build/octave'); run('examples/octave/impactfit_demo.m')

% 1. The optimal damping of Poursina & Nikravesh (2020) for a steel ball (n = 3/2, k = 1e8 N/m^1.5,
%    effective mass 0.05 kg) hitting at 2 m/s, for a range of restitutions: one vectorised call.
e = 0.3:0.1:0.9;
[c, zeta, e_out] = impactfit_copt(1.5, e, 1e8, 0.05, 2);
printf('%6s %14s %12s %20s\n', 'e', 'c_opt (N s/m)', 'zeta', 'e_out');
printf('%6.2f %14.6g %12.6g %20.15f\n', [e; c; zeta; e_out]);

% 2. Simulate those impacts back: the restitution comes out as asked, and the struct carries the
%    contact duration, peak force, penetration, ...
r = impactfit_simulate(1.5, c, 0, 1e8, 0.05, 2);
printf('\nmax |e_sim - e| = %.2g; contact durations %.4g .. %.4g s; peak forces %.4g .. %.4g N\n', ...
       max(abs(r.e_out - e)), min(r.t_contact), max(r.t_contact), min(r.f_max), max(r.f_max));

% 3. Zhang et al. (2021): alpha(e) for n = 1.5 and their damping exponents, under condition C (contact
%    ends at zero force) and A (at delta = 0); a matrix of points in one call.
m = [0.25; 0.5; 1; 1.5; 2];
E = [0.2 0.5 0.8];
alphaC = impactfit_zhang_alpha(1.5, repmat(m, 1, 3), repmat(E, 5, 1));
alphaA = impactfit_zhang_alpha(1.5, repmat(m, 1, 3), repmat(E, 5, 1), 'transition', 'A');
printf('\nalpha (n = 1.5)    C: e = 0.2, 0.5, 0.8          A: e = 0.2, 0.5, 0.8\n');
printf('m = %4.2f   %8.5f %8.5f %8.5f   %8.5f %8.5f %8.5f\n', [m alphaC alphaA]');

% 4. Hunt-Crossley: the exact damping ratio and lambda for k = 1e8 N/m^1.5, v = 2 m/s.
[eps, lambda] = impactfit_hc_eps([0.5 0.7 0.9], 1e8, 2);
printf('\nHunt-Crossley eps = %s, lambda = %s N s/m^2.5\n', mat2str(eps, 6), mat2str(lambda, 6));

% 5. Errors are Octave errors with an identifier.
try
  impactfit_copt(1.5, 1.2);
catch err
  printf('\n%s: %s\n', err.identifier, err.message);
end
