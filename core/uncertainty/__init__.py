"""How sure is the plan (DESIGN §7, §10): provenance and priors for every figure, Monte
Carlo over the plan's own engine, and what the answer means.

* `ranges` — the range texts of `[uncertainty]` (`±15%`, `-40%..+20%`, `3%..9%`);
* `priors` — lognormal priors of catalog figures and class defaults, with their
  evidence (`data/catalog/*.toml` `[[prior]]` tables) and the fit (`fit_points`);
* `provenance` — where each figure comes from (exact, measured, catalog, default,
  estimate), the `[provenance]` texts that state it, and the calibration API
  (`prior_of`, `origin_of`, `state_posterior`);
* `inputs` — which figures are uncertain, their spreads held to the keys' bounds, the
  loader's validation hooks and `apply_values` (floats or arrays into a Scenario);
* `sampling` — seeded draws (triangular or a prior's lognormal), one per input per trial;
* `batch` — the recovery total of many trials through the engine at once;
* `analysis` — `run_risk`: probabilities, percentiles, histogram, CDF, tornado, shares;
* `result` — the plain result data and the JSON of `rto-planner risk --json`.

`ranges`, `priors`, `provenance` and `inputs` are numpy-free (the scenario loader uses
them); import the others where they are used.
"""
