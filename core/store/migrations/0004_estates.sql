-- Estates (DESIGN §9) kept with their history, like scenarios: one row per estate, one
-- per saved version with the ESTATE.toml text exactly as given. `base_dir` is the folder
-- the estate file was saved from, where its relative scenario files are looked up.
-- No keys or foreign keys (see 0001_init.sql); the store's write lane keeps names unique.
CREATE SEQUENCE estate_id START 1;
CREATE TABLE estate (
    id         BIGINT    NOT NULL DEFAULT nextval('estate_id'),
    name       VARCHAR   NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE SEQUENCE estate_version_id START 1;
CREATE TABLE estate_version (
    id           BIGINT    NOT NULL DEFAULT nextval('estate_version_id'),
    estate_id    BIGINT    NOT NULL,
    version      INTEGER   NOT NULL,
    saved_at     TIMESTAMP NOT NULL,
    comment      VARCHAR   NOT NULL DEFAULT '',
    toml_text    VARCHAR   NOT NULL,
    content_hash VARCHAR   NOT NULL,
    base_dir     VARCHAR,
    app_version  VARCHAR   NOT NULL
);
