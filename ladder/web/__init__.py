"""The arena's web face: server-rendered pages and a JSON API over the ladder's store.

It reads what ``dehla ladder`` writes and never writes itself; ``dehla serve`` runs it.
"""
