"""``random``: plays a uniformly random legal action. The floor every bot should beat."""
