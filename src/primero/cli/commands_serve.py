"""``primero serve`` (the online server) and ``primero hands export`` (its archive)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from primero.cli.app import app, in_range, output_folder

__all__ = ["export_command", "serve_command"]

hands_app = typer.Typer(
    name="hands", help="The server's archive of finished hands.", no_args_is_help=True
)
app.add_typer(hands_app, name="hands")

DatabaseUrl = Annotated[
    str,
    typer.Option(
        "--database-url",
        help="SQLAlchemy URL of the database: an SQLite file (default ./primero.db) or "
        "postgresql+psycopg://user@host:5432/name.",
    ),
]


@app.command("serve")
def serve_command(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 0.0.0.0 for every network interface.")
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            help="TCP port, 0 to 65535; 0 picks a free one.",
            callback=in_range("--port", 0, 65535),
        ),
    ] = 8000,
    database_url: DatabaseUrl = "sqlite:///primero.db",
    bot_pause: Annotated[
        float,
        typer.Option(
            help="Seconds a bot waits before acting, 0 or more (0 in tests).",
            callback=in_range("--bot-pause", 0, unit="seconds"),
        ),
    ] = 1.0,
    hand_pause: Annotated[
        float,
        typer.Option(
            help="Seconds a finished hand's result stays before the next deal, 0 to 3600: "
            "the default of a new table's hand_pause_seconds (0 in tests).",
            callback=in_range("--hand-pause", 0, 3600, unit="seconds"),
        ),
    ] = 5.0,
    rebuy_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds the next deal at a rebuy table waits for a person who just went "
            "broke to choose, 0 to 3600: the default of a new table's rebuy_seconds.",
            callback=in_range("--rebuy-seconds", 0, 3600, unit="seconds"),
        ),
    ] = 30.0,
    bot_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a bot's decision (or a hint) may take, 0.1 to 600; then the "
            "timer's move is made for the seat.",
            callback=in_range("--bot-timeout", 0.1, 600, unit="seconds"),
        ),
    ] = 5.0,
    bot_processes: Annotated[
        int,
        typer.Option(
            help="Worker processes for the bots' decisions and hints, off the event loop, "
            "0 to 64 (0: threads of the server's process, which share its CPU with every "
            "table).",
            callback=in_range("--bot-processes", 0, 64),
        ),
    ] = 2,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another page origin allowed to open WebSockets (repeatable)."),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="Another host name accepted in the Host header (repeatable; port ignored). "
            "Without it only the --host address, localhost, 127.0.0.1 and [::1] are served "
            "(DNS rebinding); with --host 0.0.0.0 and no --allow-host, any host."
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated proxy addresses (or *) whose X-Forwarded-For names the "
            "client; without it the client is the connection's address."
        ),
    ] = None,
    create_rate: Annotated[
        int,
        typer.Option(
            help="Tables one client address may create a minute (0: no limit).",
            callback=in_range("--create-rate", 0),
        ),
    ] = 10,
    max_tables: Annotated[
        int,
        typer.Option(
            help="Tables waiting, playing or paused at once; past it, creating is 429 "
            "(0: no limit).",
            callback=in_range("--max-tables", 0),
        ),
    ] = 500,
    away_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds without a connection after which a person is sat out, 0 or more.",
            callback=in_range("--away-seconds", 0, unit="seconds"),
        ),
    ] = 120.0,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (redis://host:6379/0) for several processes on one PostgreSQL "
            "database: each table is driven by one process under a lease; a client may "
            "connect to any of them. Refused with SQLite."
        ),
    ] = None,
    connections_per_address: Annotated[
        int,
        typer.Option(
            help="TCP connections (HTTP and WebSocket) one client address may hold open; "
            "the next is closed at once (0: no limit). Addresses of --forwarded-allow-ips "
            "are not capped.",
            callback=in_range("--connections-per-address", 0),
        ),
    ] = 64,
    head_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a client may take to send a request's head (its line and "
            "headers), 1 to 600; then the connection is closed.",
            callback=in_range("--head-timeout", 1, 600, unit="seconds"),
        ),
    ] = 10.0,
    lease_seconds: Annotated[
        float,
        typer.Option(
            help="With --redis-url: seconds a table's lease lasts unrenewed, 0.5 to 600; a "
            "dead process's tables are taken over after it.",
            callback=in_range("--lease-seconds", 0.5, 600, unit="seconds"),
        ),
    ] = 5.0,
) -> None:
    """Run the online server: the web client at /, the REST API under /api, WebSockets
    under /ws, the API docs at /docs. Ctrl-C stops it (hands in progress are kept).
    Each request is logged, tokens hidden."""
    import uvicorn

    from primero.server import Settings, create_app, gctune
    from primero.server.doors import Doors, protocols, trusted_networks
    from primero.server.security import log_config
    from primero.server.settings import TEST_SEED_ENV, fixed_test_seed

    if fixed_test_seed() is not None:
        typer.echo(
            f"WARNING: {TEST_SEED_ENV} is set: every hand's cards are predictable. "
            "It is for tests only; unset it on a server people play at.",
            err=True,
        )

    hosts = tuple(allow_host or ())
    if host in ("0.0.0.0", "::") and not hosts:
        typer.echo(
            f"primero: listening on {host} with no --allow-host: requests naming any host "
            "are accepted (give --allow-host NAME to refuse other names: DNS rebinding)",
            err=True,
        )
    if redis_url is not None and database_url.startswith("sqlite"):
        typer.echo(
            "primero: --redis-url needs a PostgreSQL --database-url "
            "(postgresql+psycopg://user@host:5432/name): several processes cannot share "
            "an SQLite file",
            err=True,
        )
        raise typer.Exit(2)
    _check_port(host, port)
    _check_database(database_url)
    settings = Settings(
        database_url=database_url,
        bot_pause=bot_pause,
        hand_pause=hand_pause,
        rebuy_seconds=rebuy_seconds,
        bot_timeout=bot_timeout,
        bot_processes=bot_processes,
        allow_origins=tuple(allow_origin or ()),
        listen_host=host,
        allow_hosts=hosts,
        create_rate=create_rate,
        max_tables=max_tables,
        away_seconds=away_seconds,
        redis_url=redis_url,
        lease_seconds=lease_seconds,
        tune_gc=True,
    )
    doors = Doors(
        per_address=connections_per_address,
        total=_connection_cap(),
        head_seconds=head_timeout,
        trusted=trusted_networks(forwarded_allow_ips),
    )
    http_protocol, ws_protocol = protocols(doors)
    config = uvicorn.Config(
        create_app(settings),
        http=http_protocol,
        ws=ws_protocol,
        host=host,
        port=port,
        ws_max_size=1 << 20,
        # No permessage-deflate: compressing each state for each connection was the
        # largest part of the event loop's own work (a state is a few KiB).
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=3,
        log_level="info",
        log_config=log_config(),
        access_log=True,  # RedactTokens hides any token in a request line
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "",
    )
    # Bots and the database writer run in threads: switch to the event loop's thread more
    # often than every 5 ms, so that a person's action is answered promptly under load.
    sys.setswitchinterval(0.0005)
    gctune.tune()  # fewer, shorter pauses of the collector (server/gctune.py)
    _stop_quietly()
    uvicorn.Server(config).run()


def _stop_quietly() -> None:
    """Make Ctrl-C and SIGTERM a normal stop (exit status 0, no traceback).

    uvicorn catches both while it serves, shuts down (the tables' hands are kept and
    resume at the next start), restores the handlers it found and raises the signal again
    "to trigger the expected behaviour": with Python's defaults that is a
    ``KeyboardInterrupt`` traceback (SIGINT) or death by the signal (SIGTERM). The handlers
    it finds are these, which do nothing: the stop it asked for has already happened."""
    import signal

    def stopped(_signum: int, _frame: object) -> None:
        return None

    signal.signal(signal.SIGINT, stopped)
    signal.signal(signal.SIGTERM, stopped)


#: File descriptors kept for the database, Redis, the bot workers and the log files.
RESERVED_DESCRIPTORS = 128


def _connection_cap() -> int:
    """The most connections the server holds at once: the process's file descriptor limit
    less :data:`RESERVED_DESCRIPTORS` (at least 64; 0, no cap, where there is no limit)."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 0
    return max(64, soft - RESERVED_DESCRIPTORS)


def _check_port(host: str, port: int) -> None:
    """Bind ``host``:``port`` once before uvicorn starts, so that a taken port is one line.

    Raises:
        typer.Exit: status 2, with the reason on standard error, when another socket
            already listens there (EADDRINUSE). Port 0 (any free port) is not checked.
    """
    import errno
    import socket

    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                return  # uvicorn reports any other failure itself
            typer.echo(
                f"primero: port {port} on {host} is taken (another server?); "
                "choose another with --port",
                err=True,
            )
            raise typer.Exit(2) from None


def _check_database(database_url: str) -> None:
    """Open the database of ``--database-url`` and bring its schema up to date before the
    server starts, so that a bad URL or an unreachable database is one clear line.

    Raises:
        typer.Exit: status 2, with the reason on standard error, when SQLAlchemy cannot
            parse the URL, has no driver for it, or cannot connect or migrate.
    """
    from sqlalchemy.exc import SQLAlchemyError

    from primero.store import Store

    try:
        store = Store(database_url)
        try:
            store.migrate()
        finally:
            store.close()
    except SQLAlchemyError as exc:
        _database_error(exc)


def _database_error(exc: Exception) -> NoReturn:
    """Say in one line why ``--database-url`` cannot be used, and exit with status 2."""
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    typer.echo(f"primero: cannot use --database-url: {reason}", err=True)
    raise typer.Exit(2) from None


@hands_app.command("export")
def export_command(
    out: Annotated[Path, typer.Option("--out", help="Folder to write DIR/TABLE/N.prh into.")],
    database_url: DatabaseUrl = "sqlite:///primero.db",
    table: Annotated[str | None, typer.Option("--table", help="Only this table's hands.")] = None,
) -> None:
    """Write every finished hand as a complete .prh record, DIR/TABLE/N.prh (TABLE: the
    table id, N: the hand number), overwriting, and each table's ledger (buy-ins and net
    per seat) as DIR/TABLE/ledger.json. It holds every card: the operator's archive, not
    for players.

    Exits with code 2, writing nothing, when the SQLite file of ``--database-url`` does not
    exist (export never creates a database) or when ``--table`` names no table there."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    try:
        url = make_url(database_url)
    except SQLAlchemyError as exc:
        _database_error(exc)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        path = Path(str(url.database))
        if not path.is_file():
            typer.echo(
                f"primero: no database at {path.resolve()}: run it where `primero serve` keeps "
                "primero.db, or give --database-url",
                err=True,
            )
            raise typer.Exit(2)
    try:
        _export(database_url, out, table)
    except SQLAlchemyError as exc:
        _database_error(exc)


def _export(database_url: str, out: Path, table: str | None) -> None:
    """The body of ``hands export`` once the database is known to exist.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database cannot be opened or read.
        typer.Exit: status 2 for a ``--table`` the database does not hold.
        typer.BadParameter: ``out`` cannot be a folder.
    """
    from primero.engine.history import dump_record
    from primero.server.fairproof import revealed_record
    from primero.store import Store
    from primero.store.evening import ledgers

    store = Store(database_url)
    try:
        store.migrate()
        if table is not None:
            known = store.table_ids()
            if table not in known:
                there = ", ".join(known) if known else "none"
                typer.echo(
                    f"primero: no table {table!r} in the database: the tables there are: {there}",
                    err=True,
                )
                raise typer.Exit(2)
        output_folder(out, "--out")
        count = 0
        rows = {r.id: r for r in store.load(table)}
        for table_id, number, text in store.finished_hands(table):
            folder = out / table_id
            folder.mkdir(parents=True, exist_ok=True)
            row = rows.get(table_id)
            if row is not None and "[fair]" in text:  # a revealed seed goes in
                text = dump_record(revealed_record(text, row))
            (folder / f"{number}.prh").write_text(text, encoding="utf-8")
            count += 1
        for table_id, ledger in ledgers(store.engine, table).items():  # buy-ins and net
            folder = out / table_id
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "ledger.json").write_text(json.dumps(ledger, indent=2), encoding="utf-8")
    finally:
        store.close()
    typer.echo(f"{count} hand{'s' if count != 1 else ''} written under {out}")
