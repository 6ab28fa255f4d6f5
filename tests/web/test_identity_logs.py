"""Bots' logs and fault evidence stay with the bot's author (and operators), over real HTTP against
a real ``dehla serve``: a second author and the public see them on no page, API response or served
record; a bot with no owner's logs are for operators only; bot text is escaped, and raw logs are
plain text a browser will not sniff into a page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import httpx2 as httpx
import pytest

from ladder.store.paths import ArenaData
from ladder.web.bot_logs import LOG_SHOWN_BYTES, ROOM_HEADINGS
from tests.web.identity_fixtures import (
    EVIDENCE,
    LOG_LINE,
    OTHER_EVIDENCE,
    QUEUE_OFF,
    ROOM1_LOG_LINE,
    SCRIPT,
    Ladder,
    authored_ladder,
    signed_in,
)
from tests.web_helpers import match_file, serving

ESCAPED = "&lt;script&gt;alert(&#34;dehla&#34;)&lt;/script&gt;"
BOTH_ROOMS = (ROOM_HEADINGS[0].decode() + LOG_LINE + "\n" + ROOM_HEADINGS[1].decode() + ROOM1_LOG_LINE + "\n")
"""A seat's log in a duplicate match: its room 0 process's, then its room 1 process's."""
OUTSIDE = "/etc/passwd"
UPLOAD_SECRET = "asha's upload output"
"""An upload's validation output is its author's alone (not even an operator's: it is no match)."""
SECRETS = ("asha's secret plan", "asha's evidence", "the unowned bot's evidence", "validation says")


@dataclass(frozen=True)
class Served:
    ladder: Ladder
    url: str

    def client(self, who: str | None) -> httpx.Client:
        """A browser signed in as ``who`` (``None``: the public)."""
        if who is None:
            return httpx.Client(base_url=self.url, timeout=10)
        return signed_in(self.url, self.ladder.tokens[who])

    def api(self, who: str | None, path: str) -> httpx.Response:
        headers = {} if who is None else {"Authorization": f"Bearer {self.ladder.tokens[who]}"}
        return httpx.get(self.url + path.lstrip("/"), headers=headers, timeout=10)


@pytest.fixture(scope="module")
def served_logs(played: ArenaData, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    ladder = authored_ladder(played, tmp_path_factory.mktemp("logs") / "data")
    big = ladder.data.validation / _hash12(ladder) / "validate-random.seat2.log"
    big.write_bytes(b"<b>x</b>\n" * (LOG_SHOWN_BYTES // 9 + 1000))
    linked = ladder.data.validation / _hash12(ladder) / "validate-self.seat3.log"
    linked.unlink()
    linked.symlink_to(OUTSIDE)
    with serving(ladder.data.root, *QUEUE_OFF) as url:
        yield Served(ladder, url)


def _hash12(ladder: Ladder) -> str:
    from sqlalchemy import select  # noqa: PLC0415

    from ladder.store.database import Store  # noqa: PLC0415
    from ladder.store.schema import BotVersion  # noqa: PLC0415

    with Store.open(ladder.data).reading() as session:
        return session.scalars(select(BotVersion.content_hash).where(BotVersion.id == ladder.asha_version)).one()[:12]


def _urls(served: Served) -> list[str]:
    """Every page and API response that could carry a bot's output, for the match asha's bot played."""
    lad = served.ladder
    m, version = lad.match_id, lad.asha_version
    logs = [f"/matches/{m}/logs/{seat}{raw}" for seat in range(4) for raw in ("", "/raw")]
    validation = [f"/versions/{version}/validation/{check}/{seat}{raw}" for check, seats in
                  (("validate-self", range(4)), ("validate-random", (0, 2))) for seat in seats for raw in ("", "/raw")]
    return ["/", "/matches", f"/matches/{m}", f"/matches/{m}/record", f"/matches/{m}/replay?hand=1",
            "/bots/random", "/bots/heuristic", "/me", *logs, *validation,
            f"/me/uploads/{lad.asha_rejected_upload}/log", f"/me/uploads/{lad.asha_rejected_upload}/log/raw",
            f"/api/uploads/{lad.asha_rejected_upload}/log",
            f"/api/matches/{m}", f"/api/matches/{m}/hands/1/replay?seat=all", "/api/bots/random", "/api/matches",
            "/api/me/bots", "/api/uploads", "/api/me/matches",
            *(f"/api{url}" for url in logs if not url.endswith("/raw")),
            *(f"/api{url}" for url in validation if not url.endswith("/raw"))]


def _everything(served: Served, who: str | None) -> str:
    browser = served.client(who)
    seen = []
    for url in _urls(served):
        answer = served.api(who, url) if url.startswith("/api") else browser.get(url)
        assert answer.status_code in (200, 303, 401, 403, 404), (url, answer.status_code)
        seen.append(answer.text)
    return "\n".join(seen)


@pytest.mark.parametrize("who", [None, "bilal"])
def test_the_public_and_a_second_author_see_no_bot_output_anywhere(served_logs: Served, who: str | None) -> None:
    everything = _everything(served_logs, who)
    for secret in (*SECRETS, UPLOAD_SECRET):
        assert secret not in everything, (who, secret)


def test_the_operator_sees_all_of_it_so_the_scan_above_can_fail(served_logs: Served) -> None:
    """The negative control: the same URLs do carry every bot's output, to an operator."""
    everything = _everything(served_logs, "omar")
    for secret in SECRETS:
        assert secret in everything, secret


def test_the_owner_sees_her_bots_output_but_not_the_unowned_bots(served_logs: Served) -> None:
    everything = _everything(served_logs, "asha")
    for secret in ("asha's secret plan", "asha's evidence", "validation says", UPLOAD_SECRET):
        assert secret in everything, secret
    assert "the unowned bot's evidence" not in everything


def test_a_log_page_is_for_its_owner_and_shows_the_log_escaped(served_logs: Served) -> None:
    lad = served_logs.ladder
    url = f"/matches/{lad.match_id}/logs/{lad.asha_seat}"
    page = served_logs.client("asha").get(url)
    assert page.status_code == 200
    assert "asha&#39;s secret plan " + ESCAPED in page.text and SCRIPT not in page.text
    assert page.headers["cache-control"] == "private, no-store"
    for who, status in ((None, 403), ("bilal", 403), ("omar", 200)):
        assert served_logs.client(who).get(url).status_code == status, who
    assert "shown only to the bot&#39;s author" in served_logs.client("bilal").get(url).text
    unowned = f"/matches/{lad.match_id}/logs/{lad.other_seat}"
    assert served_logs.client("asha").get(unowned).status_code == 403  # no owner: operators only
    assert served_logs.client("omar").get(unowned).status_code == 200


def test_a_raw_log_is_plain_utf8_text_never_sniffed_as_a_page(served_logs: Served) -> None:
    lad = served_logs.ladder
    raw = served_logs.client("asha").get(f"/matches/{lad.match_id}/logs/{lad.asha_seat}/raw")
    assert raw.status_code == 200
    assert raw.headers["content-type"] == "text/plain; charset=utf-8"
    assert raw.headers["x-content-type-options"] == "nosniff"
    assert raw.headers["content-security-policy"] == "default-src 'none'"
    assert raw.text == BOTH_ROOMS


def test_the_api_gives_a_log_to_its_owner_only(served_logs: Served) -> None:
    lad = served_logs.ladder
    path = f"/api/matches/{lad.match_id}/logs/{lad.asha_seat}"
    log = served_logs.api("asha", path).json()
    assert log["text"] == BOTH_ROOMS and log["bot"] == "random" and not log["truncated"]
    assert served_logs.api("bilal", path).status_code == 403
    assert served_logs.api(None, path).status_code == 401
    assert served_logs.api("asha", f"/api/matches/{lad.match_id}/logs/{lad.other_seat}").status_code == 403
    assert served_logs.api("asha", f"/api/matches/{lad.match_id}/logs/4").status_code == 404


def test_validation_logs_are_the_owners_and_capped(served_logs: Served) -> None:
    lad = served_logs.ladder
    page = served_logs.client("asha").get(f"/versions/{lad.asha_version}/validation/validate-self/0")
    assert page.status_code == 200 and "validation says " + ESCAPED in page.text
    assert served_logs.client("bilal").get(f"/versions/{lad.asha_version}/validation/validate-self/0").status_code \
        == 403
    big = served_logs.client("asha").get(f"/versions/{lad.asha_version}/validation/validate-random/2")
    assert 'data-truncated="1"' in big.text and "<b>x</b>" not in big.text and "&lt;b&gt;x&lt;/b&gt;" in big.text
    raw = served_logs.client("asha").get(f"/versions/{lad.asha_version}/validation/validate-random/2/raw")
    assert len(raw.content) == LOG_SHOWN_BYTES
    api = served_logs.api("asha", f"/api/versions/{lad.asha_version}/validation/validate-random/2").json()
    assert api["truncated"] and api["shown_bytes"] == LOG_SHOWN_BYTES and api["size"] > LOG_SHOWN_BYTES
    # the random sample bot held seats 1 and 3 of that check: not hers, not shown
    assert served_logs.client("asha").get(f"/versions/{lad.asha_version}/validation/validate-random/1").status_code \
        == 404


def test_fault_evidence_on_the_match_page_and_api_is_for_the_seats_owner(served_logs: Served) -> None:
    lad = served_logs.ladder
    public = served_logs.client(None).get(f"/matches/{lad.match_id}").text
    assert public.count('data-evidence="withheld"') == 2
    assert 'id="match-logs"' not in public
    mine = served_logs.client("asha").get(f"/matches/{lad.match_id}").text
    assert ESCAPED in mine and SCRIPT not in mine and mine.count('data-evidence="withheld"') == 1
    assert f'<a href="/matches/{lad.match_id}/logs/{lad.asha_seat}" data-log=' in mine.split('id="match-logs"')[1]
    assert f'/matches/{lad.match_id}/logs/{lad.other_seat}"' not in mine
    faults = {f["seat"]: f for f in served_logs.api("asha", f"/api/matches/{lad.match_id}").json()["faults"]}
    assert faults[lad.asha_seat]["evidence"] == EVIDENCE and not faults[lad.asha_seat]["evidence_withheld"]
    assert faults[lad.other_seat]["evidence"] is None and faults[lad.other_seat]["evidence_withheld"]
    everyone = served_logs.api("omar", f"/api/matches/{lad.match_id}").json()["faults"]
    assert {f["evidence"] for f in everyone} == {EVIDENCE, OTHER_EVIDENCE}


def test_a_served_record_keeps_only_the_viewers_own_evidence(served_logs: Served) -> None:
    lad = served_logs.ladder
    url = f"/matches/{lad.match_id}/record"

    def evidence(who: str | None) -> dict[int, str | None]:
        lines = [json.loads(line) for line in served_logs.client(who).get(url).text.splitlines() if line]
        end = next(line for line in lines if line["type"] == "match_end")
        return {fault["seat"]: fault["evidence"] for fault in end["faults"]}

    assert evidence(None) == {lad.asha_seat: None, lad.other_seat: None}
    assert evidence("bilal") == {lad.asha_seat: None, lad.other_seat: None}
    assert evidence("asha") == {lad.asha_seat: EVIDENCE, lad.other_seat: None}
    stored = match_file(lad.data, lad.match_id, f"m{lad.match_id:06d}.jsonl")
    assert served_logs.client("omar").get(url).content == stored  # as stored, for whoever may see it all


def test_a_log_that_is_a_link_is_not_followed(served_logs: Served) -> None:
    lad = served_logs.ladder
    page = served_logs.client("omar").get(f"/versions/{lad.asha_version}/validation/validate-self/3/raw")
    assert page.status_code == 404
    assert "is a link; not followed" in page.text and "root:" not in page.text
