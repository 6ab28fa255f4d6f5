"""Moves modules to where the architecture says and rewrites every reference to them (issue 28).

Rerunnable: a module already in its new place is left alone, and the rewriting maps only the old
names, so running it again after merging work written against the old layout moves that work's
new references too. ``python tools/restructure.py`` from the repository's root; ``--check``
lists what is still to do and exits 1 if anything is.

The ladder is grouped by job into sub-packages (``docs/architecture.md``), the web face moves
under the ladder (the replay frames and the duplicate view, which need only the engine, go down
to ``arena/replay``), and names that meant several things now say which: the hand record, the
match record's lines, the match recorder, a report's files, a stored record as the pages read it,
the read model, the sandbox's host binds.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MOVES: dict[str, str] = {
    # rating: TrueSkill and choosing the next match
    "ladder.ratings": "ladder.rating.ratings",
    "ladder.scheduler": "ladder.rating.scheduler",
    # versions: bot versions as content
    "ladder.folders": "ladder.versions.folders",
    "ladder.version_cache": "ladder.versions.version_cache",
    "ladder.images": "ladder.versions.images",
    "ladder.base_image": "ladder.versions.base_image",
    # store: the database, its migrations and what it keeps
    "ladder.paths": "ladder.store.paths",
    "ladder.store": "ladder.store.database",
    "ladder.schema": "ladder.store.schema",
    "ladder.stored_enum": "ladder.store.stored_enum",
    "ladder.migrations": "ladder.store.migrations",
    "ladder.archives": "ladder.store.archives",
    "ladder.match_files": "ladder.store.match_files",
    "ladder.records": "ladder.store.report_files",
    "ladder.timing": "ladder.store.timing_leaks",
    "ladder.ownership": "ladder.store.ownership",
    "ladder.views": "ladder.store.read_model",
    "ladder.read_model": "ladder.store.read_model",
    # execution: a match job and where it runs
    "ladder.jobs": "ladder.execution.jobs",
    "ladder.runners": "ladder.execution.runners",
    "ladder.executors": "ladder.execution.executors",
    "ladder.cluster": "ladder.execution.cluster",
    "ladder.lifetime": "ladder.execution.lifetime",
    "ladder.worker_setup": "ladder.execution.worker_setup",
    # coordinator: scheduling, leasing, playing and recording matches
    "ladder.coordinator": "ladder.coordinator.folder_lock",
    "ladder.loop": "ladder.coordinator.loop",
    "ladder.queue": "ladder.coordinator.queue",
    "ladder.leases": "ladder.coordinator.leases",
    "ladder.results": "ladder.coordinator.results",
    "ladder.interrupts": "ladder.coordinator.interrupts",
    "ladder.deal_seeds": "ladder.coordinator.deal_seeds",
    # submission: a new version in, from a folder or an upload
    "ladder.submit": "ladder.submission.submit",
    "ladder.intake": "ladder.submission.intake",
    "ladder.upload_caps": "ladder.submission.upload_caps",
    # admin: the operator's and the authors' bookkeeping
    "ladder.authors": "ladder.admin.authors",
    "ladder.operator": "ladder.admin.operator",
    "ladder.rerate": "ladder.admin.rerate",
    # cli: the ladder's commands
    "ladder.commands": "ladder.cli.commands",
    "ladder.author_commands": "ladder.cli.author_commands",
    "ladder.operator_commands": "ladder.cli.operator_commands",
    "ladder.remote_submit": "ladder.cli.remote_submit",
    "ladder.lookup": "ladder.cli.lookup",
    "ladder.worker_command": "ladder.cli.worker_command",
    # web: the ladder's face; the replay frames go down beside the engine
    "arena.web.replay.frames": "arena.replay.frames",
    "arena.web.replay.duplicate": "arena.replay.duplicate",
    "arena.web.records": "ladder.web.stored_record",
    "arena.web.commands": "ladder.cli.serve_command",
    "arena.web.replay.routes": "ladder.web.routers.replay",
    "arena.web.replay.cache": "ladder.web.replay_cache",
    "arena.web.replay": "ladder.web.routers",
    "arena.web.api": "ladder.web.routers.api",
    "arena.web.author_api": "ladder.web.routers.author_api",
    "arena.web.author_pages": "ladder.web.routers.author_pages",
    "arena.web.operator_api": "ladder.web.routers.operator_api",
    "arena.web.pages": "ladder.web.routers.pages",
    "arena.web.uploads": "ladder.web.routers.uploads",
    "arena.web.auth": "ladder.web.security.auth",
    "arena.web.csrf": "ladder.web.security.csrf",
    "arena.web.sessions": "ladder.web.security.sessions",
    "arena.web.web_secret": "ladder.web.security.web_secret",
    "arena.web": "ladder.web",
    # one word, one meaning
    "arena.engine.record": "arena.engine.hand_records",
    "arena.referee.match_record": "arena.referee.match_record_lines",
    "arena.referee.recorder": "arena.referee.match_recorder",
    "arena.sandbox.view": "arena.sandbox.host_binds",
}

FOLDERS = {"arena.web", "arena.web.replay", "ladder.migrations"}
"""The moves of whole folders (the others move one file)."""

IDENTIFIERS: dict[str, str] = {
    "HostView": "HostBinds",
    "build_view": "build_host_binds",
}
"""Names renamed with their module (whole words, in Python files only)."""

PACKAGES: dict[str, str] = {
    "ladder.rating": "TrueSkill ratings and choosing the next match: no store, no I/O.",
    "ladder.versions": "Bot versions as content: folders and their hashes, a worker's cache, container images.",
    "ladder.store": "The store: the database, its migrations, what it keeps and the rows the faces read.",
    "ladder.execution": "A match job and where it runs: runners, executors, a Dask cluster, worker set-up.",
    "ladder.coordinator": "Running the ladder: schedule, lease, play through an executor, record.",
    "ladder.submission": "A new version in: from a bot folder (``dehla submit``) or an upload, validated.",
    "ladder.admin": "The operator's and the authors' bookkeeping: tokens, switches, re-rating.",
    "ladder.cli": "The ladder's commands: ``dehla ladder``, ``submit``, ``bots``, ``serve``, ``author``, ``operator``, "
                  "``worker``.",
    "ladder.web.routers": "The web face's routers: pages, the JSON API, an author's pages, uploads, the replay viewer.",
    "ladder.web.security": "Who is asking: API tokens, signed session cookies, CSRF, the service's signing secret.",
    "arena.replay": "A hand's replay as frames for the viewer, and the duplicate view: the engine only.",
}
"""New packages and their one-line docstrings."""

TEXT_SUFFIXES = {".py", ".pyi", ".md", ".toml", ".cfg", ".ini", ".sh", ".yaml", ".yml", ".html", ".txt", ".mako",
                 ".example", ".dockerignore", ".gitignore"}
TEXT_NAMES = {"run", "Dockerfile"}
UNTOUCHED = ("docs/performance.md", "protocol/gen/", "tests/golden/", "tools/restructure.py")
"""History (figures measured on the layout of their day), generated code, golden transcripts and
this script's own table."""

NEW_MODULES = set(MOVES.values()) | set(PACKAGES)
DOTTED = re.compile(r"(?<![\w.])(?:arena|ladder)(?:\.\w+)+")
FROM_IMPORT = re.compile(r"^(?P<indent>[ \t]*)from (?P<package>(?:arena|ladder)(?:\.\w+)*) import "
                         r"(?P<names>\([^)]*\)|[^\n#]+)", re.MULTILINE)
SLASHED = re.compile(r"(?<![\w/.-])(?:arena|ladder)(?:/[\w.-]+)+/?")


def module_file(dotted: str) -> Path | None:
    """The file or folder a dotted module name names in the tree, if any."""
    base = ROOT / dotted.replace(".", "/")
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if base.is_dir():
        return base
    return None


def rewrite_dotted(name: str) -> str:
    """``name`` (a module, or a module's attribute) under the new layout."""
    parts = name.split(".")
    for cut in range(len(parts), 1, -1):
        prefix = ".".join(parts[:cut])
        if prefix not in MOVES:
            continue
        rest = parts[cut:]
        if prefix in NEW_MODULES and rest and ".".join([prefix, rest[0]]) in NEW_MODULES:
            return name  # already new: a submodule of the package that took the old module's name
        if prefix in NEW_MODULES and not rest:
            return name  # the new package itself (``ladder.store``, ``ladder.coordinator``)
        return ".".join([MOVES[prefix], *rest])
    return name


def rewrite_from_import(match: re.Match[str]) -> str:
    """``from PACKAGE import a, b`` where a and b are moved modules: from their new packages; and
    ``from ladder.store import Store``, whose package took the old module's name."""
    package, names_text = match["package"], match["names"]
    names = [n.strip() for n in names_text.strip().strip("()").replace("\n", " ").split(",") if n.strip()]
    modules = [(n.split(" as ")[0].strip(), n) for n in names]
    moved = [f"{package}.{name}" in MOVES and f"{package}.{name}" not in NEW_MODULES for name, _ in modules]
    if not any(moved):
        if package in MOVES and package in NEW_MODULES:
            if all(f"{package}.{name}" in NEW_MODULES for name, _ in modules):
                return match[0]  # ``from ladder.store import schema``: already new
            return match[0].replace(f"from {package} import", f"from {MOVES[package]} import", 1)
        return match[0]  # the dotted pass rewrites the package's name
    if not all(moved):
        raise SystemExit(f"cannot split a mixed import: {match[0]!r}")
    groups: dict[str, list[str]] = {}
    for name, text in modules:
        parent, leaf = MOVES[f"{package}.{name}"].rsplit(".", 1)
        imported = text
        if leaf != name:  # the module's new name, bound to the old one: rename its uses by hand
            imported = f"{leaf} as {name}" if " as " not in text else text.replace(name, leaf, 1)
        groups.setdefault(parent, []).append(imported)
    indent = match["indent"]
    return "\n".join(f"{indent}from {parent} import {', '.join(texts)}" for parent, texts in groups.items())


def slashed_moves() -> list[tuple[str, str]]:
    """The moves as paths, longest first: ``ladder/views.py`` and, for folders, ``arena/web/``."""
    pairs = []
    for old, new in MOVES.items():
        old_path, new_path = old.replace(".", "/"), new.replace(".", "/")
        pairs.append((old_path + "/", new_path + "/") if old in FOLDERS else (old_path + ".py", new_path + ".py"))
    return sorted(pairs, key=lambda pair: -len(pair[0]))


def rewrite_slashed(token: str) -> str:
    for old, new in slashed_moves():
        if token == old or (old.endswith("/") and token.startswith(old)):
            return new + token[len(old):]
        if old.endswith("/") and token == old[:-1]:
            return new[:-1]
    return token


def rewrite_text(text: str, python: bool) -> str:
    if python:
        text = FROM_IMPORT.sub(rewrite_from_import, text)
        for old, new in IDENTIFIERS.items():
            text = re.sub(rf"\b{old}\b", new, text)
    text = DOTTED.sub(lambda m: rewrite_dotted(m[0]), text)
    return SLASHED.sub(lambda m: rewrite_slashed(m[0]), text)


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    files = []
    for name in listed:
        path = ROOT / name
        if name.startswith(UNTOUCHED) or not path.is_file():
            continue
        if path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES:
            files.append(path)
    return files


def move_files(dry: bool) -> list[str]:
    """``git mv`` each old module still in place; new packages get their ``__init__``."""
    done = []
    for dotted, doc in PACKAGES.items():
        init = ROOT / dotted.replace(".", "/") / "__init__.py"
        if not init.exists():
            done.append(f"create {init.relative_to(ROOT)}")
            if not dry:
                init.parent.mkdir(parents=True, exist_ok=True)
                init.write_text(f'"""{doc}"""\n')
    for old, new in sorted(MOVES.items(), key=lambda item: -len(item[0])):
        source = module_file(old)
        if source is None or (source.is_dir() and old in NEW_MODULES):
            continue
        target = ROOT / new.replace(".", "/")
        target = target.with_suffix(".py") if source.suffix == ".py" else target
        if target.exists() and source.is_dir():
            for child in sorted(source.iterdir()):  # a folder merged into one that exists
                if child.name == "__pycache__":
                    continue
                if child.name == "__init__.py" and (target / child.name).exists():
                    done.append(f"remove {child.relative_to(ROOT)} (its package has one)")
                    if not dry:
                        subprocess.run(["git", "rm", "-q", str(child)], cwd=ROOT, check=True)
                    continue
                done.append(f"move {child.relative_to(ROOT)} -> {(target / child.name).relative_to(ROOT)}")
                if not dry:
                    git_mv(child, target / child.name)
            if not dry and source.exists():  # (git rm takes a folder it empties)
                shutil.rmtree(source / "__pycache__", ignore_errors=True)
                source.rmdir()
            continue
        if target.exists():
            raise SystemExit(f"both {source.relative_to(ROOT)} and {target.relative_to(ROOT)} exist")
        done.append(f"move {source.relative_to(ROOT)} -> {target.relative_to(ROOT)}")
        if not dry:
            target.parent.mkdir(parents=True, exist_ok=True)
            git_mv(source, target)
            leftover = source.parent / "__pycache__"
            if source.suffix == ".py" and leftover.is_dir():
                shutil.rmtree(leftover, ignore_errors=True)
    return done


def git_mv(source: Path, target: Path) -> None:
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", str(source)], cwd=ROOT,
                             capture_output=True, check=False).returncode == 0
    if tracked:
        subprocess.run(["git", "mv", str(source), str(target)], cwd=ROOT, check=True)
    else:
        shutil.move(source, target)


def rewrite_files(dry: bool) -> list[str]:
    changed = []
    for path in tracked_text_files():
        text = path.read_text(encoding="utf-8")
        new = rewrite_text(text, python=path.suffix in {".py", ".pyi"})
        if new != text:
            changed.append(f"rewrite {path.relative_to(ROOT)}")
            if not dry:
                path.write_text(new, encoding="utf-8")
    return changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="list what is still to do; exit 1 if anything is")
    dry = parser.parse_args().check
    steps = move_files(dry)
    steps += rewrite_files(dry)
    for step in steps:
        print(step)
    if dry:
        return 1 if steps else 0
    ruff = Path(sys.executable).parent / "ruff"  # the development tools' (scripts/setup.sh dev)
    if steps and ruff.exists():  # imports sorted again under their new names
        subprocess.run([str(ruff), "check", "--select", "I", "--fix", "--quiet", "."], cwd=ROOT, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
