-- Schema 1 of the RTO Planner store.
--
-- No PRIMARY KEY, UNIQUE or FOREIGN KEY constraints: DuckDB cannot ALTER a table that
-- carries an index (duckdb/duckdb#14664, #17348), and these tables will grow columns.
-- Ids come from sequences; uniqueness (one scenario per name, one version number per
-- scenario) is kept by the store, whose writes are serialised in one lane.
-- Timestamps are UTC without a zone (TIMESTAMPTZ would need pytz to fetch).

CREATE TABLE schema_version (
    version     INTEGER   NOT NULL,   -- one row per applied migration; current = max
    name        VARCHAR   NOT NULL,   -- migration file name
    applied_at  TIMESTAMP NOT NULL,
    app_version VARCHAR   NOT NULL    -- the RTO Planner that applied it
);

CREATE TABLE meta (                   -- small key/value facts about the file
    key   VARCHAR NOT NULL,
    value VARCHAR
);

CREATE SEQUENCE catalog_item_id START 1;
CREATE TABLE catalog_item (
    id                  BIGINT    NOT NULL DEFAULT nextval('catalog_item_id'),
    origin              VARCHAR   NOT NULL,  -- 'shipped' (replaced on app update) | 'user'
    kind                VARCHAR   NOT NULL,
    name                VARCHAR   NOT NULL,
    name_key            VARCHAR   NOT NULL,  -- lower-case alphanumerics, for lookups
    source              VARCHAR   NOT NULL,
    rate_Bps            DOUBLE,
    derate              DOUBLE    NOT NULL DEFAULT 1.0,
    hw_compression      DOUBLE,
    compressed_rate_Bps DOUBLE,
    backup_rate_Bps     DOUBLE,
    ratio               DOUBLE,
    cpu_cost            DOUBLE,
    load_s              DOUBLE,
    unload_s            DOUBLE,
    locate_s            DOUBLE,
    notes               VARCHAR   NOT NULL DEFAULT '',
    extra               JSON,                -- keys the catalog format does not know
    raw                 JSON,                -- the item as written (strings with units)
    added_at            TIMESTAMP NOT NULL,
    updated_at          TIMESTAMP NOT NULL
);

CREATE SEQUENCE scenario_id START 1;
CREATE TABLE scenario (
    id         BIGINT    NOT NULL DEFAULT nextval('scenario_id'),
    name       VARCHAR   NOT NULL,
    created_at TIMESTAMP NOT NULL,
    deleted_at TIMESTAMP                     -- soft delete; purged after the grace period
);

CREATE SEQUENCE scenario_version_id START 1;
CREATE TABLE scenario_version (
    id            BIGINT    NOT NULL DEFAULT nextval('scenario_version_id'),
    scenario_id   BIGINT    NOT NULL,
    version       INTEGER   NOT NULL,        -- 1, 2, 3 ... per scenario
    saved_at      TIMESTAMP NOT NULL,
    comment       VARCHAR   NOT NULL DEFAULT '',
    toml_text     VARCHAR   NOT NULL,        -- exactly as given: export returns these bytes
    content_hash  VARCHAR   NOT NULL,        -- sha256 of toml_text (UTF-8)
    restored_from INTEGER,                   -- the version this one restored, if any
    app_version   VARCHAR   NOT NULL
);

CREATE SEQUENCE plan_result_id START 1;
CREATE TABLE plan_result (
    id                  BIGINT    NOT NULL DEFAULT nextval('plan_result_id'),
    scenario_version_id BIGINT    NOT NULL,
    inputs_hash         VARCHAR   NOT NULL,  -- sha256 of scenario text + effective catalog
    engine_version      VARCHAR   NOT NULL,
    computed_at         TIMESTAMP NOT NULL,
    plan                JSON      NOT NULL   -- plan_to_json(), DESIGN §5
);

-- Imported AWR / Statspack reports and CSV exports (filled by the importers).
CREATE SEQUENCE workload_id START 1;
CREATE TABLE workload (
    id               BIGINT    NOT NULL DEFAULT nextval('workload_id'),
    content_hash     VARCHAR   NOT NULL,     -- sha256 of the file; one row per content
    file_name        VARCHAR   NOT NULL,
    kind             VARCHAR   NOT NULL,     -- awr | statspack | csv ...
    db_name          VARCHAR,
    dbid             BIGINT,
    instance         VARCHAR,
    begin_time       TIMESTAMP,
    end_time         TIMESTAMP,
    elapsed_s        DOUBLE,
    redo_bytes_per_s DOUBLE,
    payload          JSON,
    imported_at      TIMESTAMP NOT NULL
);
