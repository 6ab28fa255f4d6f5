"""What a decompression bomb costs the service: the safe unpack against tarfile's own reading.

Each bomb (a PAX header, a GNU long name, one huge member: each about a MiB on the wire and a
GiB unpacked, ``tests/bots/archives.py``) is read in a fresh process, once by
``arena.bots.archive.unpack`` (the upload path) and once by plain ``tarfile`` streaming, which
is where ``extractall`` starts (the baseline). Per run: the compressed bytes read before the
refusal, the seconds, and the process's peak RSS growth over the same process's start.

Run: ``python bench/unpack.py``. The last line is one JSON object.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BOMBS = ("pax_bomb", "long_name_bomb", "big_file_bomb")
MIB = 1 << 20


class _Counting:
    """The upload as a file, counting how far into it the reader got."""

    def __init__(self, data: bytes) -> None:
        import io  # noqa: PLC0415

        self._file = io.BytesIO(data)

    def read(self, size: int = -1) -> bytes:
        return self._file.read(size)

    @property
    def position(self) -> int:
        return self._file.tell()


class _Discarded:
    """A file that keeps nothing: the baseline reads every byte as extractall would, writes none."""

    def write(self, data: bytes) -> int:
        return len(data)


def _one(bomb_name: str, reader: str) -> dict[str, object]:
    """In this (fresh) process: read one bomb one way."""
    from arena.bots.archive import ArchiveError, unpack  # noqa: PLC0415
    from tests.bots import archives  # noqa: PLC0415

    data = getattr(archives, bomb_name)()
    source = _Counting(data)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    outcome = "read"
    with tempfile.TemporaryDirectory() as scratch:
        try:
            if reader == "safe":
                unpack(source, Path(scratch) / "out")  # type: ignore[arg-type]
            else:
                with tarfile.open(fileobj=source, mode="r|gz") as tar:  # type: ignore[call-overload]
                    for member in tar:
                        extracted = tar.extractfile(member) if member.isfile() else None
                        if extracted is not None:
                            shutil.copyfileobj(extracted, _Discarded(), MIB)  # what extractall would write
        except ArchiveError as exc:
            outcome = f"refused: {exc}"
        except tarfile.TarError as exc:
            outcome = f"tarfile error: {exc}"
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"bomb": bomb_name, "reader": reader, "wire_bytes": len(data), "read_bytes": source.position,
            "seconds": round(seconds, 3), "peak_rss_growth_mb": round((peak - before) / 1024, 1), "outcome": outcome}


def main() -> None:
    if len(sys.argv) == 3:
        print(json.dumps(_one(sys.argv[1], sys.argv[2])))
        return
    runs = []
    for bomb in BOMBS:
        for reader in ("safe", "tarfile"):
            done = subprocess.run([sys.executable, __file__, bomb, reader], capture_output=True, text=True,
                                  check=True, cwd=ROOT)
            run = json.loads(done.stdout.strip().splitlines()[-1])
            runs.append(run)
            print(f"{bomb:15} {reader:8} read {run['read_bytes']:>9} of {run['wire_bytes']} bytes, "
                  f"{run['seconds']:6.2f} s, peak RSS +{run['peak_rss_growth_mb']:7.1f} MB: {run['outcome'][:60]}")
    safe = {r["bomb"]: r for r in runs if r["reader"] == "safe"}
    plain = {r["bomb"]: r for r in runs if r["reader"] == "tarfile"}
    print(json.dumps({"bench": "unpack", "runs": runs,
                      "worst_safe_peak_rss_growth_mb": max(float(str(r["peak_rss_growth_mb"])) for r in safe.values()),
                      "worst_tarfile_peak_rss_growth_mb": max(float(str(r["peak_rss_growth_mb"]))
                                                              for r in plain.values()),
                      "all_refused": all(str(r["outcome"]).startswith("refused") for r in safe.values())}))


if __name__ == "__main__":
    main()
