"""The store: the DuckDB database (``db``), its versioned schema (``schema``), bulk writes
of imported rows (``writer``), the rows a replayed hand becomes (``rows``), the queries
the pages and commands read (``queries``) and the export of stored hands (``export``)."""
