"""The online server (``primero serve``): FastAPI + uvicorn, WebSockets, SQLAlchemy.

- :mod:`.app`: the application factory :func:`create_app`.
- :mod:`.api`: the REST lobby; :mod:`.ws`: the WebSocket; :mod:`.pages`: the pages.
- :mod:`.runtime`: tables in play; :mod:`.models`: every message's Pydantic model.
- :mod:`.security`: tokens, names, origins; :mod:`.settings`: the options.
"""

from primero.server.app import create_app
from primero.server.settings import DEFAULT_DATABASE_URL, Settings

__all__ = ["DEFAULT_DATABASE_URL", "Settings", "create_app"]
