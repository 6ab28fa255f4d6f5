"""No module under ``tests/`` or ``bench/`` imports a test module (``test_*``): only pytest does.
A helper shared between test files lives in a ``tests/*_helpers.py`` module, a shared fixture
in a ``conftest.py``. Asked of each file's syntax tree (``ast``), so every form counts:
``import tests.x.test_y``, ``from tests.x.test_y import name``, ``from tests.x import test_y``
and the relative ``from .test_y import name``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.architecture_helpers import ROOT

FOLDERS = ("tests", "bench")


def _is_test_module(dotted: str) -> bool:
    return any(part.startswith("test_") for part in dotted.split("."))


def _resolve(package: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` in ``package`` names, relative levels resolved."""
    if node.level == 0:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imported_test_modules(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """``(line, module)`` for every test module ``path`` (a file under ``root``) imports."""
    package = ".".join(path.relative_to(root).parent.parts)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_test_module(alias.name):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(package, node)
            if _is_test_module(module):
                yield node.lineno, module
                continue
            for alias in node.names:
                if alias.name.startswith("test_"):
                    yield node.lineno, f"{module}.{alias.name}"


def _files() -> Iterator[Path]:
    for folder in FOLDERS:
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_no_module_imports_a_test_module() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: imports {module}"
             for path in _files() for line, module in imported_test_modules(path)]
    assert not found, "test modules imported (move the shared names to a tests/*_helpers.py):\n" + "\n".join(found)


def test_every_form_of_import_is_caught(tmp_path: Path) -> None:
    folder = tmp_path / "tests" / "ladder"
    folder.mkdir(parents=True)
    path = folder / "mod.py"
    forms = {
        "import tests.ladder.test_run": "tests.ladder.test_run",
        "from tests.ladder.test_run import make_run": "tests.ladder.test_run",
        "from tests.ladder import test_run": "tests.ladder.test_run",
        "from .test_run import make_run": "tests.ladder.test_run",
        "from . import test_run": "tests.ladder.test_run",
        "from ..engine.test_properties import dealers": "tests.engine.test_properties",
    }
    for source, module in forms.items():
        path.write_text(source + "\n")
        assert [m for _, m in imported_test_modules(path, tmp_path)] == [module], source
    path.write_text("from tests.ladder_helpers import make_run\nimport tests.ladder.plays\nfrom . import plays\n")
    assert list(imported_test_modules(path, tmp_path)) == []
