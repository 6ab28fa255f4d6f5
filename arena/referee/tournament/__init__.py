"""``dehla tournament``: several partnerships, every pairing a duplicate match. ``plan`` (the
folder: plan and results), ``play`` (pairings at once), ``standings`` and ``ordering`` (pure
statistics: the cross table, a Bradley-Terry fit), ``report``, ``progress`` and ``command``."""
