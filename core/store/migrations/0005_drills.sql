-- Drills (DESIGN §11): a timed test restore and recovery measured from its evidence (RMAN
-- log, V$ views), tied to the scenario version it was compared with. `drill` holds the
-- measured phases, volumes, notes and sources (core.evidence.drill.Drill.to_dict);
-- `comparison` the plan vs actual per phase as computed when the drill was recorded;
-- `evidence` the files read ([{"file", "kind", "sha256"}]). The drill's number is `id`.
-- No keys or foreign keys (see 0001_init.sql); the store's write lane keeps ids unique.
CREATE SEQUENCE drill_id START 1;
CREATE TABLE drill (
    id               BIGINT    NOT NULL DEFAULT nextval('drill_id'),
    scenario_id      BIGINT    NOT NULL,
    scenario_version INTEGER   NOT NULL,
    drilled_at       TIMESTAMP,            -- when the drill started (database host time)
    recorded_at      TIMESTAMP NOT NULL,   -- UTC
    label            VARCHAR   NOT NULL DEFAULT '',
    drill            JSON      NOT NULL,
    comparison       JSON      NOT NULL,
    evidence         JSON      NOT NULL,
    app_version      VARCHAR   NOT NULL,
    deleted_at       TIMESTAMP
);
