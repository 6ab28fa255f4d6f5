"""The layers of docs/architecture.md hold: ``lint-imports`` keeps every contract on this tree,
breaks on a copy with one wrong import, and the engine imports only the standard library and
pydantic (asked of the import graph itself, not a list of what it must not import)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from tests.architecture_helpers import PACKAGES, ROOT

PYDANTIC = ("pydantic", "pydantic_core")
"""pydantic and its compiled core, which it ships and pins."""
LINT = str(Path(sys.executable).with_name("lint-imports"))


def lint(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LINT, "--no-cache"], cwd=folder, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(folder)}, check=False)


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    return folder


def test_the_tree_keeps_every_import_contract() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.mark.parametrize(("module", "wrong", "contract"), [
    ("arena/engine/cards.py", "import arena.referee.table", "Layers"),
    ("arena/engine/hand.py", "import click", "The engine uses nothing outside"),
    ("protocol/convert.py", "import arena.referee.launcher", "Layers"),
    ("sdk/bot.py", "import arena.referee.table", "Layers"),
    ("arena/referee/table.py", "import ladder.store", "Layers"),
    ("sample_bots/random/bot.py", "import arena.contract.messages", "Sample bots"),
    ("arena/replay/frames.py", "import arena.referee.table", "The replay frames"),
    ("arena/referee/tournament/ordering.py", "import arena.referee.launcher", "The tournament's statistics"),
    ("arena/referee/table.py", "import arena.batch", "Only learning code imports the batched engine"),
    ("sdk/tracker.py", "import pettingzoo", "Only the learning environments import PettingZoo"),
    ("arena/referee/table.py", "import sdk.learn.aec", "Only the learning environments import PettingZoo"),
    ("sdk/__init__.py", "import sdk.learn.dehla_v0", "The SDK's package file loads no learning environment"),
])
def test_a_wrong_import_breaks_its_contract(copy: Path, module: str, wrong: str, contract: str) -> None:
    path = copy / module
    original = path.read_text()
    path.write_text(original + f"\n{wrong}  # the wrong import under test\n")
    try:
        done = lint(copy)
    finally:
        path.write_text(original)
    assert done.returncode != 0, done.stdout
    broken = [line for line in done.stdout.splitlines() if line.endswith("BROKEN")]
    assert any(line.startswith(contract) for line in broken), done.stdout


def test_the_engine_imports_only_the_standard_library_and_pydantic() -> None:
    graph = grimp.build_graph(*PACKAGES, include_external_packages=True)
    outside = set()
    for module in graph.find_descendants("arena.engine") | {"arena.engine"}:
        for imported in graph.find_modules_directly_imported_by(module):
            top = imported.split(".")[0]
            if imported.startswith("arena.engine") or top in sys.stdlib_module_names or top in PYDANTIC:
                continue
            outside.add(f"{module} -> {imported}")
    assert not outside, sorted(outside)
