"""The ladder: a store of submitted bots and their matches, TrueSkill ratings, a scheduler
that picks informative matches, and the commands that run and show it (``docs/ladder.md``)."""
