-- Duplicate checks of `import` look rows up by key (issue 14): the report's snapshot key
-- moves out of the JSON payload into its own column, and both keys get an index, so a
-- batch costs the same per file however many reports are stored. (An index keeps DuckDB
-- from dropping or retyping `workload` columns; such a change rebuilds the table anyway.)
-- The indexes come before the UPDATE: DuckDB cannot index a table with updates pending
-- in the same transaction.
ALTER TABLE workload ADD COLUMN snap_key VARCHAR;
CREATE INDEX workload_content_hash ON workload (content_hash);
CREATE INDEX workload_snap_key ON workload (snap_key);
UPDATE workload SET snap_key = json_extract_string(payload, '$.snap_key')
    WHERE kind IN ('awr', 'statspack');
