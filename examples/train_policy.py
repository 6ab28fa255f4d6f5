"""Train a policy bot: the heuristic sample bot's choices cloned, then PPO on the vector environment.

    dehla bot new my-policy --template policy
    python examples/train_policy.py my-policy          # about 4 minutes on a quiet core

The options are ``python -m sdk.learn.train``'s (``--help``), which trains the same way without
a teacher (PPO from untrained weights: much slower to beat random play). This script is the one
place that hands the sample bot to the trainer: ``sdk.learn`` is below ``sample_bots`` in the
layers and does not import it (``docs/architecture.md``).
"""

from __future__ import annotations

import os

# One BLAS thread unless told otherwise, set before numpy loads: the matrices are small, and on a
# shared machine a second OpenBLAS thread spins for its share (measured in session 18: 12 imitation
# passes took about 13 CPU s with one thread and about 85 with two under load; docs/performance.md).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from sample_bots.heuristic.bot import HeuristicBot
from sdk.learn.train import main

if __name__ == "__main__":
    raise SystemExit(main(teacher=HeuristicBot()))
