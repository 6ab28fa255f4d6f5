"""A sample bot's folder form names the hash of every module of the sample: a changed sample
becomes a new version. (After the ladder moved into sub-packages, a path one level short found
no modules and wrote an empty listing: every sample looked unchanged for ever.)"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from arena.referee.launcher import sample_bot_names
from ladder.versions.folders import sample_folder

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sample_bot_names())
def test_the_listing_hashes_every_module_of_the_sample(tmp_path: Path, name: str) -> None:
    listing = (sample_folder(name, tmp_path) / "SOURCE.sha256").read_text(encoding="utf-8").splitlines()
    modules = sorted((ROOT / "sample_bots" / name).glob("*.py"))
    assert "__main__.py" in [module.name for module in modules]
    assert listing == [f"{hashlib.sha256(m.read_bytes()).hexdigest()}  {m.name}" for m in modules]
