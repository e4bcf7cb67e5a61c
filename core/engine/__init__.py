"""The throughput and timeline engine (DESIGN §3): pure functions over a Scenario."""
