-- The local store's PostgreSQL, under FerretDB 1.24 (scripts/infra.sh runs this on every `up`;
-- each statement is idempotent). docs/architecture.md "The local store" has the measurements.
--
-- FerretDB keeps each collection as a table of one jsonb column and sends field equality to
-- PostgreSQL as `_jsonb -> $1 @> $2` ($1 = the field's name). The indexes it creates — `_id` on
-- every collection, and those the application declares (an API key's digest, a target's
-- endpoint) — are btrees on `(_jsonb -> 'field')`, which `@>` cannot use, so every find, update
-- and delete by them read the whole table: 7–10 ms among 7,000 activity index pages, growing
-- with the collection. A GIN index on the same expressions serves `@>`: the same read takes
-- 0.03–0.07 ms in PostgreSQL, whatever the table holds. So each such btree gets a GIN twin.
--
-- The twins are made with `fastupdate = off`. With GIN's default, new entries wait in an unsorted
-- pending list (up to gin_pending_list_limit, 4 MB) until a vacuum merges them, and every lookup
-- reads that whole list: 10.8 ms for one `_id` among 1,000,000 bulk-retry documents with 179,201
-- entries pending, where the merged index answers in about 0.1 ms. Each row adds one key here
-- (an `_id`, a digest), so inserting it straight into the index costs little.
SET client_min_messages = warning;

-- `_jsonb -> $1` matches the index's `_jsonb -> 'field'` only once $1 is known: plan each
-- statement with its parameters (FerretDB prepares and caches them; a generic plan would scan).
-- (the database this runs in: infra.sh's `ferretdb`, or a test's private one)
DO $$ BEGIN
  EXECUTE format('ALTER DATABASE %I SET plan_cache_mode = force_custom_plan', current_database());
END $$;

-- An index's key columns when each is a field of a FerretDB table's `_jsonb`
-- (`((_jsonb -> 'field'::text))`), else NULL.
CREATE OR REPLACE FUNCTION relay_field_columns(idx regclass) RETURNS text[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  n int := (SELECT indnkeyatts FROM pg_index WHERE indexrelid = idx);
  columns text[] := '{}';
  expr text;
BEGIN
  FOR k IN 1 .. coalesce(n, 0) LOOP
    expr := pg_get_indexdef(idx, k, false);
    IF expr !~ '^\(\(_jsonb -> ''[^'']+''::text\)\)$' THEN
      RETURN NULL;
    END IF;
    columns := columns || expr;
  END LOOP;
  RETURN CASE WHEN cardinality(columns) > 0 THEN columns END;
END $$;

-- The GIN twin of one index FerretDB made: nothing when the index is not a btree on fields of a
-- FerretDB table (a twin itself, one of FerretDB's own tables) or when its twin exists.
CREATE OR REPLACE FUNCTION relay_gin_twin(idx regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tbl oid := (SELECT indrelid FROM pg_index WHERE indexrelid = idx);
  columns text[] := relay_field_columns(idx);
BEGIN
  IF columns IS NULL
     OR (SELECT amname FROM pg_am JOIN pg_class c ON c.relam = pg_am.oid WHERE c.oid = idx) <> 'btree'
     OR (SELECT relname FROM pg_class WHERE oid = tbl) LIKE '\_ferretdb\_%'
     OR EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
                WHERE i.indrelid = tbl AND a.amname = 'gin' AND relay_field_columns(i.indexrelid) = columns) THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE INDEX ON %s USING gin (%s) WITH (fastupdate = off)', tbl::regclass,
                 (SELECT string_agg(c || ' jsonb_path_ops', ', ') FROM unnest(columns) AS c));
END $$;

-- Every index FerretDB creates from now on (each new collection's `_id` index: the activity log
-- makes new hourly collections all day) gets its twin in the same transaction.
CREATE OR REPLACE FUNCTION relay_gin_twins() RETURNS event_trigger LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    PERFORM relay_gin_twin(cmd.objid::regclass);
  END LOOP;
END $$;

DROP EVENT TRIGGER IF EXISTS relay_gin_twins;
CREATE EVENT TRIGGER relay_gin_twins ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION relay_gin_twins();

-- ...and the indexes made before this ran (a store provisioned by an earlier version).
DO $$
DECLARE
  i record;
BEGIN
  FOR i IN SELECT x.indexrelid FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%' LOOP
    PERFORM relay_gin_twin(i.indexrelid::regclass);
  END LOOP;
END $$;

-- Twins made by an earlier version of this file kept GIN's pending list: switch it off, and
-- merge what is pending now (turning it off does not).
DO $$
DECLARE
  i record;
BEGIN
  FOR i IN SELECT c.oid AS idx FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE a.amname = 'gin' AND relay_field_columns(c.oid) IS NOT NULL
             AND NOT coalesce('fastupdate=off' = ANY (c.reloptions), false)
             AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%' LOOP
    EXECUTE format('ALTER INDEX %s SET (fastupdate = off)', i.idx::regclass);
    PERFORM gin_clean_pending_list(i.idx::regclass);
  END LOOP;
END $$;

-- the first version of this file (2026-11-24) indexed `_id` alone, from CREATE TABLE
DROP EVENT TRIGGER IF EXISTS relay_index_new_tables;
DROP FUNCTION IF EXISTS relay_index_new_tables();
DROP FUNCTION IF EXISTS relay_index_id(regclass);
