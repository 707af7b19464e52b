-- A CSV import's header, stored once (issue 38, H2): its records are staged in lead_import_rows as JSON arrays of their
-- fields, named by these columns when applied, rather than as objects repeating every column name in every row (a
-- header of 1 MiB over 300 rows staged 300 MB). NULL for NDJSON, whose records are staged as their lines, and for CSV
-- imports staged before this migration, whose records are objects. JSON text, as the staged records are (jsonb refuses
-- a NUL escape, which a column name may hold).
ALTER TABLE lead_imports ADD COLUMN columns text;
