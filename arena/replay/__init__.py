"""A hand's replay as frames for the viewer, and the duplicate view: the engine only."""
