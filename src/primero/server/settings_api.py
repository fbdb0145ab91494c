"""``GET /api/table-settings``: the settings of a new table beside the house rules (the
pause after a hand, the rebuy window, the money a chip is worth; docs/protocol.md
"Between hands", "Settling up"), with their bounds and the server's defaults, for the
lobby's form: the web client writes none of them itself."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from primero.server.models import CreateTable, TableSettingOut
from primero.server.setting_words import SETTING_WORDS
from primero.server.settings import Settings

__all__ = ["router", "table_settings"]

router = APIRouter(prefix="/api", tags=["rules"])


def _given(key: str) -> dict[str, Any]:
    """The schema of ``key`` in :class:`CreateTable`'s body when given (not null)."""
    prop: dict[str, Any] = CreateTable.model_json_schema()["properties"][key]
    return next(s for s in prop.get("anyOf", [prop]) if s.get("type") != "null")


def table_settings(settings: Settings) -> list[TableSettingOut]:
    """The settings of ``SETTING_WORDS``, in its order: bounds from :class:`CreateTable`'s schema
    (the server's own check), defaults from ``settings`` (``--hand-pause``,
    ``--rebuy-seconds``); the money's default is none ("")."""
    defaults: dict[str, int | str] = {
        "hand_pause_seconds": int(settings.hand_pause),
        "rebuy_seconds": int(settings.rebuy_seconds),
    }
    out = []
    for key, (label, help_) in SETTING_WORDS.items():
        given = _given(key)
        whole = given.get("type") == "integer"
        out.append(
            TableSettingOut(
                key=key,
                type="int" if whole else "text",
                default=defaults.get(key, ""),
                min=given.get("minimum"),
                max=given.get("maximum"),
                max_length=given.get("maxLength"),
                pattern=given.get("pattern"),
                only_with="rebuy" if key == "rebuy_seconds" else None,
                label=label,
                help=help_,
            )
        )
    return out


@router.get(
    "/table-settings",
    response_model=list[TableSettingOut],
    summary="The settings of a new table",
)
async def get_table_settings(request: Request) -> list[TableSettingOut]:
    """Every setting of :func:`table_settings`, with this server's defaults."""
    return table_settings(request.app.state.hub.settings)
