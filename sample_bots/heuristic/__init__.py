"""``heuristic``: plays as the rule texts advise (streaks, tens, partner, trumps). Deterministic."""
