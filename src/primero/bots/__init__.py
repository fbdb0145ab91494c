"""Bots: agents that read a seat's view and return an action (they never see the state)."""
