"""The engine: the rules of Primero and nothing else (docs/rules.md R1–R10).

Cards and the evaluator (``cards``, ``hands``, ``batch``), the rules and house rules
(``rules``, ``rulebook``), a hand as its record (``actions``, ``legal``, ``state``,
``pots``, ``dealing``, ``history``, ``names``), what one seat may see (``views``, the one
place hidden cards are hidden), a match of hands (``match``) and exact odds (``odds``).
It imports nothing outside itself (checked by the import contracts in pyproject.toml).
"""
