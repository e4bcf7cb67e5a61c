"""How sure is the plan (DESIGN §7): ranges on the inputs, Monte Carlo over the plan's
own engine, and what the answer means.

* `ranges` — the range texts of `[uncertainty]` (`±15%`, `-40%..+20%`, `3%..9%`);
* `inputs` — which figures are uncertain, their default ranges by provenance, the
  loader's validation hook and `apply_values` (floats or arrays into a Scenario);
* `sampling` — seeded triangular draws, one per input per trial;
* `batch` — the recovery total of many trials through the engine at once;
* `analysis` — `run_risk`: probabilities, percentiles, histogram, CDF, tornado, shares;
* `result` — the plain result data and the JSON of `rto-planner risk --json`.

`ranges` and `inputs` are numpy-free (the scenario loader uses them); import the others
where they are used.
"""
