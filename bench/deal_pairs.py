"""Deal-pair scores of finished ``dehla match`` records: pooled, or compared deal by deal.

``python -m bench.deal_pairs pool RECORD [RECORD ...]``
``python -m bench.deal_pairs paired RECORD_A RECORD_B [RECORD_A2 RECORD_B2 ...]``

``pool``: the deal-pair scores (partnership A's side) of every record together: pairs, won,
drawn, lost, the share (a drawn pair a half) and the mean per pair with its 95% interval, as
``dehla match`` prints them for one record. For one change tested on several presets, none
decided alone (docs/bots.md, session 28).

``paired``: two records of the same deals (the same ``--seed`` and preset), each bot as A against
the same B: the mean of A's pair score minus B's, deal by deal, over the deals both played, with
its 95% interval (the deals' own luck cancels, so it is tighter than the two records' intervals).
More such couples (other seeds) pool their differences.

Either kind of file may also be the output of ``python -m bench.ceiling A..B ...`` (its ``deal N:
S`` lines, several slices' outputs concatenated): ``paired`` then compares the deals by number.

A record is read as the referee reads one (``read_match_record``) and its ``match_end`` line
through the record's own line model; a record without one, or with a line either refuses, is
named (with the line's number) in a one-line error. Last line: one
JSON object.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from itertools import chain
from pathlib import Path

from arena.engine.errors import RecordError
from arena.referee.match_record_lines import MatchEndLine, read_line
from arena.referee.match_recorder import read_match_record
from arena.referee.stats import mean_interval


class DealPairsError(Exception):
    """A record this tool cannot read scores from (the message names it)."""


def deal_scores(path: Path) -> list[float]:
    """The deal-pair scores of the record at ``path`` (its last ``match_end`` line)."""
    end: MatchEndLine | None = None
    try:
        for number, data in enumerate(read_match_record(path), start=1):
            if data["type"] == "match_end":
                line = read_line(data, f"{path}:{number}")
                end = line if isinstance(line, MatchEndLine) else end
    except RecordError as error:
        raise DealPairsError(str(error)) from None
    if end is None:
        raise DealPairsError(f"{path}: no match_end line (a match still running, or not a match record)")
    if end.deal_scores is None:
        raise DealPairsError(f"{path}: its match_end has no deal_scores (not a duplicate match)")
    return list(end.deal_scores)


CEILING_DEAL = re.compile(r"  deal (?P<number>\d+): (?P<score>[+-]\d+(?:\.\d+)?)")
"""The line ``bench.ceiling`` prints as each pair of a slice ends: the deal's number and score."""


def numbered_scores(path: Path) -> dict[int, float]:
    """The deal-pair scores of a record (its deals numbered from 0) or of ``bench.ceiling``'s
    per-deal lines, by deal number."""
    try:
        with path.open(encoding="utf-8", errors="replace") as text:
            first = text.readline()
            scores = None if first.startswith("{") else _ceiling_scores(path, chain([first], text))
    except OSError as error:
        raise DealPairsError(f"{path}: cannot be read ({error.strerror})") from None
    return dict(enumerate(deal_scores(path))) if scores is None else scores


def _ceiling_scores(path: Path, lines: Iterable[str]) -> dict[int, float]:
    """The ``deal N: S`` lines of a ``bench.ceiling`` output, by deal number."""
    scores: dict[int, float] = {}
    for number, line in enumerate(lines, start=1):
        found = CEILING_DEAL.fullmatch(line.rstrip("\n"))
        if found is None:
            continue
        deal, score = int(found["number"]), float(found["score"])
        if scores.get(deal, score) != score:
            raise DealPairsError(f"{path}:{number}: deal {deal} again, with another score")
        scores[deal] = score
    if not scores:
        raise DealPairsError(f"{path}: neither a match record nor bench.ceiling's per-deal lines")
    return scores


def summary(scores: list[float]) -> dict[str, object]:
    stats = mean_interval(scores)
    return {"pairs": stats.n, "won": sum(s > 0 for s in scores), "drawn": sum(s == 0 for s in scores),
            "lost": sum(s < 0 for s in scores), "share": round(stats.won_share, 4), "mean": round(stats.mean, 3),
            "ci": [round(stats.low, 3), round(stats.high, 3)]}


def pool(paths: list[Path]) -> dict[str, object]:
    return {"mode": "pool", "records": len(paths)} | summary(
        [s for p in paths for s in numbered_scores(p).values()])


def paired(couples: list[tuple[Path, Path]]) -> dict[str, object]:
    firsts: list[float] = []
    seconds: list[float] = []
    for a, b in couples:
        first, second = numbered_scores(a), numbered_scores(b)
        common = sorted(first.keys() & second.keys())
        if not common:
            raise DealPairsError(f"{a} and {b}: no deal in common")
        firsts += [first[deal] for deal in common]
        seconds += [second[deal] for deal in common]
    if len(firsts) < 2:
        raise DealPairsError("fewer than 2 deals in common in all")
    stats = mean_interval([x - y for x, y in zip(firsts, seconds, strict=True)])
    return {"mode": "paired", "pairs": len(firsts), "a": summary(firsts), "b": summary(seconds),
            "difference": round(stats.mean, 3), "ci": [round(stats.low, 3), round(stats.high, 3)]}


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("pool", "paired") or (argv[0] == "paired" and len(argv) % 2 == 0):
        print(__doc__)
        return 2
    paths = [Path(p) for p in argv[1:]]
    try:
        result = pool(paths) if argv[0] == "pool" else paired(list(zip(paths[::2], paths[1::2], strict=True)))
    except DealPairsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
