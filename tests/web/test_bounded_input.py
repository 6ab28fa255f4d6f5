"""Hostile request values (issue 23): ids beyond 64 bits, text UTF-8 cannot hold, and lax types.

Every route of the application is enumerated, so a route added later is covered too: each
integer in a path or a query gets a value beyond 64 bits and must answer 422 (bounded), never a
500; at the store's largest id it must answer 404 or 422 (absent), never a 500. Every request
body must be a ``RequestModel`` (strict types). In-process: no process boundary matters here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import pytest
from fastapi import FastAPI, params
from fastapi.routing import APIRoute, iter_route_contexts
from fastapi.testclient import TestClient

from ladder.admin.authors import add_author
from ladder.rating.scheduler import Pairing
from ladder.store.paths import ArenaData
from ladder.store.schema import Role
from ladder.web.app import create_app
from ladder.web.bounds import MAX_ID
from ladder.web.request_models import RequestModel
from tests.database import contents, database_url
from tests.ladder_helpers import add_bots, open_store
from tests.operator_helpers import Played, play_history

HUGE = 99_999_999_999_999_999_999
"""Beyond 64 bits: SQLite's driver raised ``OverflowError`` on it (a 500)."""


@dataclass(frozen=True)
class Served:
    client: TestClient
    app: FastAPI
    root: Path
    operator: dict[str, str]


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[Served]:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    play_history(store, [Played(Pairing((1, 1), (2, 2)), "dehla-pakad", "duplicate:2", "done", 0, (1.0, 2.0),
                                None, ())])
    token = add_author(store, "olga", role=Role.OPERATOR).token
    store.close()
    app = create_app(ArenaData(tmp_path, database_url(tmp_path)))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Served(client, app, tmp_path, {"Authorization": f"Bearer {token}"})


def _sample(annotation: object) -> str:
    """A value of a parameter that is not the one under test."""
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return str(next(iter(annotation)).value)
    return "1" if annotation is int else "s1"


def api_routes(app: FastAPI) -> dict[str, APIRoute]:
    """Every route by its full path (FastAPI includes routers lazily: ``app.routes`` holds them
    unexpanded)."""
    found = {}
    for context in iter_route_contexts(app.routes):
        if isinstance(context.original_route, APIRoute) and context.path is not None:
            found[context.path] = context.original_route
    return found


def int_parameters(app: FastAPI) -> Iterator[tuple[str, str, str, str]]:
    """(method, path template, parameter, 'path' or 'query') of every integer a route takes."""
    for path, route in api_routes(app).items():
        for where, fields in (("path", route.dependant.path_params), ("query", route.dependant.query_params)):
            for field in fields:
                if field.field_info.annotation is int:
                    for method in sorted(route.methods or ()):
                        yield method, path, field.alias, where


def call(served: Served, method: str, template: str, name: str, where: str, value: int) -> tuple[int, str]:
    route = api_routes(served.app)[template]
    values = {field.alias: str(value) if field.alias == name else _sample(field.field_info.annotation)
              for field in route.dependant.path_params}
    url = template.format(**values)
    params = {name: str(value)} if where == "query" else {}
    answer = served.client.request(method, url, params=params, headers=served.operator, follow_redirects=False)
    return answer.status_code, answer.text


def test_the_enumeration_finds_every_kind_of_id(served: Served) -> None:
    found = {(path, name) for _, path, name, _ in int_parameters(served.app)}
    for expected in [("/matches/{match_id}", "match_id"), ("/api/matches/{match_id}", "match_id"),
                     ("/matches/{match_id}/record", "match_id"),
                     ("/api/matches/{match_id}/hands/{hand}/replay", "hand"),
                     ("/versions/{version_id}/validation/{check}/{seat}", "version_id"),
                     ("/api/uploads/{upload_id}", "upload_id"), ("/matches", "page"),
                     ("/api/operator/bots/{name}/versions/{number}/disable", "number"),
                     ("/matches/{match_id}/replay", "step")]:
        assert expected in found, expected


def test_an_id_beyond_64_bits_is_a_422_naming_it_on_every_route(served: Served) -> None:
    checked = 0
    for method, template, name, where in int_parameters(served.app):
        status, text = call(served, method, template, name, where, HUGE)
        assert status == 422, (method, template, name, status, text[:300])
        assert name in text, (template, text[:300])
        checked += 1
    assert checked >= 25


def test_the_largest_id_is_absent_not_an_error_on_every_route(served: Served) -> None:
    before = contents(database_url(served.root))
    for method, template, name, where in int_parameters(served.app):
        status, text = call(served, method, template, name, where, MAX_ID)
        assert status < 500, (method, template, name, status, text[:300])
    assert contents(database_url(served.root)) == before


def test_every_request_body_is_a_strict_request_model(served: Served) -> None:
    """A JSON body is a ``RequestModel``; a form field (the sign-in's token) is bounded text."""
    fields = [field for route in api_routes(served.app).values() for field in route.dependant.body_params]
    assert any(not isinstance(field.field_info, params.Form) for field in fields), "the operator API takes bodies"
    for field in fields:
        annotation = field.field_info.annotation
        if isinstance(field.field_info, params.Form):
            assert annotation is str and any(getattr(m, "max_length", None) for m in field.field_info.metadata)
        else:
            assert isinstance(annotation, type) and issubclass(annotation, RequestModel), annotation


@pytest.mark.parametrize("lax", ["yes", "true", 1, "1", "on"])
def test_a_bool_is_a_json_bool_only(served: Served, lax: object) -> None:
    answer = served.client.post("/api/operator/authors", json={"name": "ravi", "operator": lax},
                                headers=served.operator)
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"] == ["body", "operator"]
    assert "ravi" not in str(contents(database_url(served.root)))


def test_a_json_bool_is_still_taken(served: Served) -> None:
    """The negative control: the honest request."""
    answer = served.client.post("/api/operator/authors", json={"name": "ravi", "operator": True},
                                headers=served.operator)
    assert answer.status_code == 201 and answer.json()["author"]["role"] == "operator"


def test_a_number_is_not_a_reason(served: Served) -> None:
    answer = served.client.post("/api/operator/matches/1/void", json={"reason": 7}, headers=served.operator)
    assert answer.status_code == 422 and answer.json()["detail"][0]["loc"] == ["body", "reason"]


@pytest.mark.parametrize(("path", "body"), [
    ("/api/operator/authors", b'{"name": "ravi", "email": "\\udcff@example.org"}'),
    ("/api/operator/authors", b'{"name": "ravi\\ud800"}'),
    ("/api/operator/matches/1/void", b'{"reason": "\\ud800 lone"}'),
])
def test_text_utf8_cannot_hold_is_a_422_and_nothing_is_stored(served: Served, path: str, body: bytes) -> None:
    before = contents(database_url(served.root))
    answer = served.client.post(path, content=body, headers={**served.operator, "Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert "lone surrogate" in answer.text
    assert contents(database_url(served.root)) == before


@pytest.mark.parametrize("body", [b'{"name": "ravi\xff"}', b'{"reason": "\xc3\x28"}', b"\xff\xfe\xfd\xfc{"])
def test_a_body_of_bytes_that_are_not_utf8_is_a_4xx_with_one_line(served: Served, body: bytes) -> None:
    for path in ("/api/operator/authors", "/api/operator/matches/1/void"):
        answer = served.client.post(path, content=body,
                                    headers={**served.operator, "Content-Type": "application/json"})
        assert answer.status_code in (400, 422), answer.text
        detail = answer.json()["detail"]
        assert isinstance(detail, list) or "not UTF-8" in detail, detail


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/gzip", None])
def test_a_body_not_utf8_and_not_declared_json_is_a_422_echoing_it_escaped(served: Served,
                                                                         content_type: str | None) -> None:
    """FastAPI hands a body it does not read as JSON to the model as bytes, and its 422 echoes the
    input: encoding that echo as UTF-8 failed (a 500). The honest request is the control."""
    headers = {**served.operator, **({"Content-Type": content_type} if content_type else {})}
    before = contents(database_url(served.root))
    for path in ("/api/operator/authors", "/api/operator/matches/1/void"):
        answer = served.client.post(path, content=b"\xff\xfe name", headers=headers)
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"][0]["input"] == "\\xff\\xfe name"
    assert contents(database_url(served.root)) == before
    honest = served.client.post("/api/operator/authors", json={"name": "ravi"}, headers=served.operator)
    assert honest.status_code == 201  # the negative control


def test_an_api_body_over_64_kib_is_a_413_before_it_is_read(served: Served) -> None:
    """FastAPI reads a JSON body whole before the token is checked: anyone could post a gigabyte."""
    big = b'{"name": "ravi", "email": "' + b"x" * (70 * 1024) + b'"}'
    for headers in ({}, served.operator):
        declared = served.client.post("/api/operator/authors", content=big,
                                      headers={**headers, "Content-Type": "application/json"})
        assert declared.status_code == 413, declared.text
        assert declared.json()["detail"] == "the body is larger than 64 KiB (the limit of this endpoint)"
    chunked = served.client.post("/api/operator/authors", content=iter([big[:40_000], big[40_000:]]),
                                 headers={**served.operator, "Content-Type": "application/json"})
    assert chunked.status_code == 413, chunked.text
    assert "ravi" not in str(contents(database_url(served.root)))
    honest = served.client.post("/api/operator/authors", json={"name": "ravi", "email": "r@example.org"},
                                headers=served.operator)
    assert honest.status_code == 201  # the negative control
