"""Alembic environment of the primero store: migrations run on the connection given in
``config.attributes["connection"]`` (see :func:`primero.store.migrate`)."""

from __future__ import annotations

from alembic import context

from primero.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only programmatic use is supported
    raise RuntimeError("run the primero migrations through primero.store.migrate()")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
