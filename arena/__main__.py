"""``python -m arena`` runs the ``dehla`` command line."""

from arena.cli import main

main()
