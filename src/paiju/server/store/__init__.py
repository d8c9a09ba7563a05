"""The hall's store: what is written before anything is shown.

- ``db`` — the schema (SQLAlchemy tables), ``Store`` and the one-transaction writes
  (``*_tx``), ``migrate`` (Alembic, ``migrations/``);
- ``writer.Writer`` — one thread owns the write connection and commits in groups
  (``Write``, ``Fenced``, ``StoreUnavailable``);
- ``records`` — stored hands as records: replayed at start-up, checked, exported, imported.
"""
