"""TrueSkill ratings and choosing the next match: no store, no I/O."""
