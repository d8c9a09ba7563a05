"""Alembic environment: the hall runs migrations itself (paiju.server.store.db.migrate)."""

from alembic import context

from paiju.server.store.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # run from the alembic command line: sqlalchemy.url in the config
    from paiju.server.store.db import make_engine

    engine = make_engine(context.config.get_main_option("sqlalchemy.url") or "")
    connection = engine.connect()

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
