"""Importers: AWR / Statspack reports and CSV exports turned into workload figures."""
