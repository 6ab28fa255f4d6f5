"""Hostile bots (``bots/``) and the harness that runs them in a sandbox (``harness.py``)."""
