"""The least-hardware search's caps (`least.py`), in a module of their own so that the
estate command's options can name them without importing the search (and `core/fix`)."""

MAX_SIMULATIONS = 1500
"""Estate simulations the search may run (≈ 10 ms each on the demo estate)."""
WORK_BUDGET = 200_000
"""By default the search simulates at most this many database recoveries in all
(simulations × databases): a simulation of 1,000 databases takes about a second, so an
estate that size gets 200 simulations (minutes, not the half hour 1,500 would take)."""
MIN_SIMULATIONS = 20
"""The fewest simulations the default allows, however large the estate."""
