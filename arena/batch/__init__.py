"""The batched engine: many hands at once on arrays, a fast twin of ``arena.engine``.

For learning and large simulations: ``BatchTables`` steps N tables with one call, its rules
compiled with numba (the ``learn`` extra); ``BiddingBatchTables`` does the same for the bidding
games (Twenty-eight, Twenty-nine). ``arena.engine`` stays the reference and the
referee's only engine; nothing of the referee, the SDK, the bots or the ladder imports this
package (an import contract), and ``differential`` holds it to the reference.
"""

from arena.batch.bidding_config import SUPPORTED_BIDDING_PRESETS
from arena.batch.bidding_tables import BiddingBatchResults, BiddingBatchTables
from arena.batch.config import SUPPORTED_PRESETS, unsupported_options
from arena.batch.errors import (
    BatchError,
    BatchShapeError,
    FinishedTableError,
    IllegalBatchActionError,
    UnsupportedRulesError,
)
from arena.batch.layout import Phase
from arena.batch.tables import BatchResults, BatchTables
from arena.engine.action_ids import (
    NO_ACTION,
    NUM_ACTIONS,
    NUM_BIDDING_ACTIONS,
    action_id,
    action_of,
    bidding_action_id,
    bidding_action_of,
)

__all__ = [
    "NO_ACTION",
    "NUM_ACTIONS",
    "NUM_BIDDING_ACTIONS",
    "SUPPORTED_BIDDING_PRESETS",
    "SUPPORTED_PRESETS",
    "BatchError",
    "BatchResults",
    "BatchShapeError",
    "BatchTables",
    "BiddingBatchResults",
    "BiddingBatchTables",
    "FinishedTableError",
    "IllegalBatchActionError",
    "Phase",
    "UnsupportedRulesError",
    "action_id",
    "action_of",
    "bidding_action_id",
    "bidding_action_of",
    "unsupported_options",
]
