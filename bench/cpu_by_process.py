"""Where a command's CPU goes, process by process: the test run's own workers against what they start.

Runs a command (by default the README's test command, ``pytest -q -n 4``) with Linux process
accounting on (``accton``, Debian's ``acct``; root), then reads every exited process's record
(``dump-acct``) and keeps those descended from the command. Process ids are reused within a long
run, so a record's parent is the process with that id whose lifetime covers the child's.

Reported: the whole tree's CPU seconds; its Python processes split into the longest-lived few
(the pytest workers: ``--workers``) and the rest (bots, ``dehla`` commands, ``dehla serve``,
schedulers), the rest in CPU buckets; and the other programs by name. Accounting is system-wide
but only the command's tree is counted, so other work on the machine does not add to it (it
does stretch times).

    .venv/bin/python bench/cpu_by_process.py [--workers 4] [-- COMMAND ...]

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

DEFAULT_COMMAND = [sys.executable, "-m", "pytest", "-q", "-n", "4", "-p", "no:cacheprovider"]
BUCKETS = (0.2, 0.5, 1.0, 2.0, 5.0)
PYTHON_NAMES = ("python", "grpc_", "event_engine")
"""A record carries the name of the process's last thread: a Python process whose gRPC threads
outlived its main thread is named after one of them."""


@dataclass(frozen=True, slots=True)
class Exited:
    """One process accounting record."""

    name: str
    cpu: float
    start: float
    end: float
    pid: int
    ppid: int


def read_records(path: Path) -> list[Exited]:
    """``dump-acct``'s lines: name | version | user | system | elapsed (in 1/100 s) | ... | pid | ppid | ... | start."""
    text = subprocess.run(["dump-acct", str(path)], capture_output=True, text=True, check=True).stdout
    records = []
    for line in text.splitlines():
        fields = [field.strip() for field in line.split("|")]
        start = datetime.strptime(fields[14], "%a %b %d %H:%M:%S %Y").timestamp()
        records.append(Exited(fields[0], (float(fields[2]) + float(fields[3])) / 100, start,
                              start + float(fields[4]) / 100, int(fields[9]), int(fields[10])))
    return records


def descendants(records: list[Exited], root_pid: int) -> list[Exited]:
    """The records under ``root_pid``'s process (itself included): a parent must have been alive
    (to the second the records keep) over its child's life, which settles reused ids."""
    by_pid: dict[int, list[int]] = collections.defaultdict(list)
    for index, record in enumerate(records):
        by_pid[record.pid].append(index)
    roots = [i for i in by_pid.get(root_pid, [])]
    if not roots:
        raise SystemExit(f"cpu_by_process: no record of the command's process {root_pid}")
    root = max(roots, key=lambda i: records[i].end - records[i].start)
    under: dict[int, bool] = {root: True}

    def parent(index: int) -> int | None:
        child = records[index]
        found = [j for j in by_pid.get(child.ppid, [])
                 if records[j].start <= child.start + 1 and records[j].end >= child.end - 1]
        return max(found, key=lambda j: records[j].start) if found else None

    def is_under(index: int) -> bool:
        chain = []
        current: int | None = index
        while current is not None and current not in under and len(chain) < 100:
            chain.append(current)
            current = parent(current)
        verdict = current is not None and under.get(current, False)
        for visited in chain:
            under[visited] = verdict
        return verdict

    return [records[i] for i in range(len(records)) if is_under(i)]


def bucket(cpu: float) -> str:
    for top in BUCKETS:
        if cpu < top:
            return f"<{top}"
    return f">={BUCKETS[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4,
                        help="the command's longest-lived Python processes to set apart")
    parser.add_argument("command", nargs="*", help="the command (after --); default: the README's pytest")
    args = parser.parse_args()
    for tool in ("accton", "dump-acct"):
        if shutil.which(tool) is None:
            raise SystemExit(f"cpu_by_process: {tool} is missing (apt-get install acct)")
    command = args.command or DEFAULT_COMMAND
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "acct"
        log.touch()
        subprocess.run(["accton", str(log)], check=True, capture_output=True)
        try:
            process = subprocess.Popen(command)
            code = process.wait()
        finally:
            subprocess.run(["accton", "off"], check=True, capture_output=True)
        tree = descendants(read_records(log), process.pid)
    pythons = sorted((r for r in tree if r.name.startswith(PYTHON_NAMES)), key=lambda r: -r.cpu)
    workers, children = pythons[:args.workers], pythons[args.workers:]
    buckets: dict[str, list[float]] = collections.defaultdict(list)
    for record in children:
        buckets[bucket(record.cpu)].append(record.cpu)
    others: dict[str, list[float]] = collections.defaultdict(list)
    for record in tree:
        if not record.name.startswith(PYTHON_NAMES):
            others[record.name].append(record.cpu)
    result = {
        "bench": "cpu_by_process", "exit_code": code, "total_cpu_s": round(sum(r.cpu for r in tree), 1),
        "processes": len(tree), "workers_cpu_s": [round(r.cpu, 1) for r in workers],
        "python_children": {"count": len(children), "cpu_s": round(sum(r.cpu for r in children), 1),
                            "by_cpu": {name: {"count": len(v), "cpu_s": round(sum(v), 1)}
                                       for name, v in sorted(buckets.items())}},
        "others": {name: {"count": len(v), "cpu_s": round(sum(v), 1)}
                   for name, v in sorted(others.items(), key=lambda item: -sum(item[1]))[:12]},
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
