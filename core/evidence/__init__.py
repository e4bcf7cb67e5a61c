"""Evidence (DESIGN §11): drills measured from restore evidence, plan vs actual, the
recovery clock, PREVIEW into a scenario and calibration from drills.

Qt-free like the rest of `core`; the readers of the files themselves are in
`core.importers` (rman_log, rman_status, longops, recovery_snapshots, preview,
restore_evidence). See docs/evidence.md.
"""
