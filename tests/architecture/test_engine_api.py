"""The engine's public API is the names ``arena.engine`` exports (``__all__``): the project's
packages outside the engine import nothing else of it. They may import a name from the module
that defines it (``from arena.engine.hand import HandState``): which module that is may change,
and a move updates every import in the same commit. Tests, benchmarks and tools may reach
further in; they are not clients."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import arena.engine
from tests.architecture_helpers import PACKAGES, ROOT

ENGINE = "arena.engine"


def _engine_imports(path: Path) -> Iterator[tuple[int, str, str]]:
    """``(line, module, name)`` for every engine name ``path`` imports (``name`` empty for a
    whole module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if node.module == ENGINE or node.module.startswith(ENGINE + "."):
                for alias in node.names:
                    yield node.lineno, node.module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(ENGINE + "."):
                    yield node.lineno, alias.name, ""


def _client_files() -> Iterator[Path]:
    engine = ROOT / "arena" / "engine"
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if engine not in path.parents and "gen" not in path.relative_to(ROOT).parts:
                yield path


def test_clients_import_only_what_the_engine_exports() -> None:
    exported = set(arena.engine.__all__)
    wrong = [f"{path.relative_to(ROOT)}:{line}: {module} {name or '(whole module)'}"
             for path in _client_files()
             for line, module, name in _engine_imports(path)
             if name not in exported]
    assert not wrong, "not in arena.engine.__all__:\n" + "\n".join(wrong)


def test_every_exported_name_resolves() -> None:
    for name in arena.engine.__all__:
        assert getattr(arena.engine, name) is not None, name


def test_the_check_sees_a_reach_past_the_api(tmp_path: Path) -> None:
    module = tmp_path / "client.py"
    module.write_text("from arena.engine.hand import NOBODY, HandState\nimport arena.engine.trick\n")
    seen = {(m, n) for _, m, n in _engine_imports(module) if n not in arena.engine.__all__}
    assert seen == {("arena.engine.hand", "NOBODY"), ("arena.engine.trick", "")}
