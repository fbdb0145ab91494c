"""The REST API's fuzzing (test_server_fuzz.py: the server does what its OpenAPI
document says) on a fresh PostgreSQL database, where integers are 32- and 64-bit and a
text column refuses a NUL."""

from __future__ import annotations

import atexit
import contextlib
import secrets
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings

from tests import needs

needs.check("postgres")

import psycopg  # noqa: E402

from primero.server import Settings, create_app  # noqa: E402
from tests.server.test_server_fuzz import _consistent, check_case  # noqa: E402
from tests.server_helpers import PG_ADMIN, _template  # noqa: E402


def _database() -> str:
    """A database copied from the migrated template, dropped when the tests end."""
    name = f"primero_fuzz_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_template(admin)}"')

    def drop() -> None:
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True) as admin,
        ):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    atexit.register(drop)
    return f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"


APP = create_app(
    Settings(database_url=_database(), bot_pause=5, create_rate=0, max_tables=0, bot_processes=0)
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
# the same examples in every run (CI reproducible); derandomize=False explores anew
@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_rest_api_on_postgresql_does_what_its_document_says(
    case: schemathesis.Case[Any],
) -> None:
    try:
        consistent = _consistent(case.body)
    except (TypeError, AttributeError):
        consistent = False
    check_case(case, consistent)
