"""The embedded DuckDB store: catalog, scenarios with history, imported workloads, results."""
