% IMPACTFIT_DROP  A drop test in a code's own step map: the bounce heights it gives and the input whose fit is e.
%
%   D = impactfit_drop(CODE, 'e', E, 'mass', KG, 'radius', M, 'dt', S, 'name', value, ...)
%   D = impactfit_drop(CODE, 'value', X, 'mass', KG, 'radius', M, ...)   % the sequence that X gives
%
%   The ball is released from rest 'height' m (default 1) above a plane under 'gravity' (default 9.81
%   m/s^2) and stepped through every impact and flight with the code's own step map at dt (MuJoCo, ODE,
%   Bullet; another model is an error). The same call as the CLI's `impactfit engine --drop H` and
%   Python's impactfit.drop. Options besides those of impactfit_code ('model', 'integrator', 'dt',
%   'settings', one-value settings by name; no 'v'):
%     'bounces'   apexes to count (1..256, default 15)
%     'peak'      an apex below it (m) ends the sequence uncounted (default 0)
%     'reading'   'heights' (ln h_n on n fitted, h_0 the release height) or 'speeds' (mean of v_out/v_in)
%     'releases'  the fit's distribution over that many releases within one step (default 16)
%     't_max'     the simulated time (s; 0: no bound)
%   E is solved on the release when its whole sequence is determined, else on the mean over the releases
%   (D.solved_on). D has the keys of `impactfit engine --drop H --json`: D.bounce (n, apex, t_apex, v_in,
%   v_out, phase, first_step, contact_steps, determined), D.determined, D.counted, D.ends (counted, low,
%   rest, time), D.e_fit, D.e_mean, D.e_sd, D.value, D.input (the text to paste), D.note.
%
%   Example:
%     d = impactfit_drop('ode', 'model', 'bounce', 'e', 0.75, 'mass', 0.5, 'radius', 0.1, 'dt', 0.01, ...
%                        'bounce', [0.5 0.1], 'peak', 0.002);
%     disp([d.solved_on ' ' num2str(d.e_fit)]); disp(d.input)
%
%   See also IMPACTFIT_ENGINE, IMPACTFIT_CODE.
