-- The local store's PostgreSQL, under FerretDB 1.24 (scripts/infra.sh runs this on every `up`;
-- each statement is idempotent). docs/architecture.md "The local store" has the measurements.
--
-- FerretDB keeps each collection as a table of one jsonb column and sends `_id` equality to
-- PostgreSQL as `_jsonb -> $1 @> $2` ($1 = '_id'). Its own `_id` index is a btree on
-- `(_jsonb -> '_id')`, which `@>` cannot use, so every find, update and delete by `_id` read
-- the whole table: 7–10 ms among 7,000 index pages, growing with the collection. A GIN index on
-- the same expression serves `@>`: the same read takes 0.03–0.07 ms in PostgreSQL, whatever the
-- table holds.

-- `_jsonb -> $1` matches the index's `_jsonb -> '_id'` only once $1 is known: plan each statement
-- with its parameters (FerretDB prepares and caches them; a generic plan would scan again).
ALTER DATABASE ferretdb SET plan_cache_mode = force_custom_plan;

-- The index on one FerretDB table; nothing when it is not one or already has it.
CREATE OR REPLACE FUNCTION relay_index_id(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = tbl AND attname = '_jsonb' AND NOT attisdropped)
     OR (SELECT relname FROM pg_class WHERE oid = tbl) LIKE '\_ferretdb\_%'
     OR EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                WHERE i.indrelid = tbl AND pg_get_indexdef(i.indexrelid) LIKE '%USING gin%''_id''%jsonb_path_ops%') THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE INDEX ON %s USING gin ((_jsonb -> %L) jsonb_path_ops)', tbl, '_id');
END $$;

-- Every table FerretDB creates from now on (a collection's first insert: the activity log makes
-- new hourly collections all day) gets it in the same transaction.
CREATE OR REPLACE FUNCTION relay_index_new_tables() RETURNS event_trigger LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE TABLE' AND object_type = 'table' LOOP
    PERFORM relay_index_id(cmd.objid::regclass);
  END LOOP;
END $$;

DROP EVENT TRIGGER IF EXISTS relay_index_new_tables;
CREATE EVENT TRIGGER relay_index_new_tables ON ddl_command_end WHEN TAG IN ('CREATE TABLE')
  EXECUTE FUNCTION relay_index_new_tables();

-- ...and the tables made before this ran (a store provisioned by an earlier version).
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%' LOOP
    PERFORM relay_index_id(t.oid::regclass);
  END LOOP;
END $$;
