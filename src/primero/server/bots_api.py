"""``GET /api/bots``: the bot kinds a table's seats may name (the lobby's seat choices)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from primero.bots import BOT_KINDS

__all__ = ["BotKinds", "router"]

router = APIRouter(prefix="/api", tags=["bots"])


class BotKinds(BaseModel):
    """The bot kinds, in the registry's order."""

    kinds: list[str] = Field(
        description='bot kinds a seat of `POST /api/tables` may name, e.g. "random"'
    )


@router.get("/bots", response_model=BotKinds, summary="The bot kinds")
async def bot_kinds() -> BotKinds:
    """Every kind of :data:`primero.bots.BOT_KINDS` (a later kind appears here by itself)."""
    return BotKinds(kinds=list(BOT_KINDS))
