"""``GET /api/rules``: every house rule with its default, bounds and words, for the
lobby's form (the web client writes none of them itself)."""

from __future__ import annotations

from fastapi import APIRouter

from primero.engine.rules import RULES
from primero.server.models import HouseRuleOut

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["rules"])


@router.get("/rules", response_model=list[HouseRuleOut], summary="The house rules")
async def house_rules() -> list[HouseRuleOut]:
    """Every house rule of :data:`primero.engine.rules.RULES`, in declaration order (a
    rule added to :class:`primero.Rules` appears here, and in the lobby, by itself)."""
    return [HouseRuleOut(**spec.to_json()) for spec in RULES]
