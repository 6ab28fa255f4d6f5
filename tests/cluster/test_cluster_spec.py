"""``--cluster`` values and the command lines around the cluster: one clear line for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladder.execution.cluster import MAX_LOCAL_SLOTS, ClusterError, ClusterSpec, total_slots
from tests.coordinator_helpers import dehla
from tests.ladder_helpers import add_random_bots


@pytest.mark.parametrize(("text", "spec"), [
    ("local:1", ClusterSpec(local_slots=1)),
    (f"local:{MAX_LOCAL_SLOTS}", ClusterSpec(local_slots=MAX_LOCAL_SLOTS)),
    ("tcp://scheduler:8786", ClusterSpec(address="tcp://scheduler:8786")),
    ("tcp://127.0.0.1:1", ClusterSpec(address="tcp://127.0.0.1:1")),
    ("tls://[::1]:8786", ClusterSpec(address="tls://[::1]:8786")),
])
def test_the_forms_of_cluster(text: str, spec: ClusterSpec) -> None:
    assert ClusterSpec.parse(text) == spec
    assert str(spec) == text


@pytest.mark.parametrize("text", ["local:0", f"local:{MAX_LOCAL_SLOTS + 1}", "local:", "local:-1", "local:٣",
                                  "local: 2", "tcp://scheduler", "tcp://:8786", "scheduler:8786", "http://s:80",
                                  "tcp://s:99999", "tcp://u:p@s:8786", "tcp://s:8786/x", "tcp://s:8786?a=1", ""])
def test_what_is_not_a_cluster_is_refused_with_the_value_named(text: str) -> None:
    with pytest.raises(ClusterError, match="--cluster"):
        ClusterSpec.parse(text)


@given(st.text(max_size=40))
def test_any_text_is_a_cluster_or_a_cluster_error(text: str) -> None:
    try:
        spec = ClusterSpec.parse(text)
    except ClusterError:
        return
    assert (spec.address is None) != (spec.local_slots is None)


def test_the_slots_are_the_match_resources_of_every_worker() -> None:
    info = {"workers": {"a": {"resources": {"match": 2.0}}, "b": {"resources": {}}, "c": {"resources": {"match": 1}},
                        "d": {}}}
    assert total_slots(info) == 3
    assert total_slots({}) == 0


def test_bad_cluster_options_are_one_line(tmp_path: Path) -> None:
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2"])
    bogus = dehla("ladder", "run", "--cluster", "bogus", data=data)
    assert (bogus.returncode, bogus.stderr) == (2, "error: --cluster 'bogus': give a scheduler's address, "
                                                   "tcp://HOST:PORT (e.g. tcp://scheduler:8786), or local:N for N "
                                                   "worker processes on this machine\n")
    both = dehla("ladder", "run", "--workers", "2", "--cluster", "local:2", data=data)
    assert (both.returncode, both.stderr) == (2, "error: --workers 2 and --cluster: choose one (--workers: a local "
                                                 "process pool; --cluster: the cluster's workers, one match per "
                                                 "slot)\n")
    worker = dehla("worker", "local:2", data=data)
    assert (worker.returncode, worker.stderr) == (2, "error: SCHEDULER 'local:2': a worker joins a running "
                                                     "scheduler, tcp://HOST:PORT (local:N is for `dehla ladder run "
                                                     "--cluster`)\n")
