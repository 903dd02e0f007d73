"""The derived SQLite index: its schema, its (re)building and the queries the service runs."""
