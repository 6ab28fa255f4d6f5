"""The service: one FastAPI application over one store, its pages, API and static files."""

from __future__ import annotations

import gc
import json
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ladder.store.database import Store
from ladder.store.paths import ArenaData
from ladder.submission.intake import Intake, IntakeSettings
from ladder.web.board_cache import GenerationCache
from ladder.web.body_limit import BodyLimit, TooLargeError
from ladder.web.bot_logs import LogsWithheldError
from ladder.web.queries import NotFoundError
from ladder.web.routers import api, author_api, author_pages, live, local, operator_api, pages, play, uploads
from ladder.web.routers import replay as replay_routes
from ladder.web.seats.tables import SeatSettings, TableRegistry
from ladder.web.security.csrf import CsrfGuard
from ladder.web.security.sessions import CookiePolicy, SessionCookies
from ladder.web.security.web_secret import web_secret
from ladder.web.templating import STATIC, templates


def create_app(data: ArenaData, intake: IntakeSettings | None = None, *, secure_cookies: bool = False,
               check_csrf: bool = True, seats: SeatSettings | None = None) -> FastAPI:
    """The application for the store in ``data``; opening it may raise ``StoreError``, reading the
    session secret ``WebSecretError``. Its lifespan runs the uploads' validation queue (``intake``)
    and ends the tables with a person (``seats``: who may play, on what clock) when it stops.
    ``check_csrf`` is False only in the test that shows it matters."""
    store = Store.open(data)
    store.check_integrity()
    policy = CookiePolicy(web_secret(data.root), secure_always=secure_cookies)
    app = FastAPI(title="Dehla Arena", summary="Leaderboard, bots, matches and replays of a Dehla Arena ladder.",
                  docs_url=None, redoc_url=None, lifespan=service_lifespan)
    app.state.store = store
    app.state.intake = Intake(store, intake or IntakeSettings())
    app.state.board_cache = GenerationCache()
    app.state.tables = TableRegistry(data.root, seats or SeatSettings())
    app.state.cookie_policy = policy
    app.add_middleware(CsrfGuard, enabled=check_csrf)  # inside the sessions: it reads the session's token
    app.add_middleware(SessionCookies, policy=policy)
    app.add_middleware(BodyLimit)  # outermost: before anything reads a body
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(uploads.router)
    app.include_router(api.router)
    app.include_router(operator_api.router)
    app.include_router(replay_routes.router)
    app.include_router(local.router)
    app.include_router(play.router)
    app.include_router(live.router)
    app.include_router(author_api.router)
    app.include_router(author_pages.router)
    app.include_router(pages.router)
    app.add_api_route("/docs", api_docs, include_in_schema=False, response_class=HTMLResponse)
    app.add_exception_handler(NotFoundError, not_found)
    app.add_exception_handler(LogsWithheldError, withheld)
    app.add_exception_handler(HTTPException, http_problem)
    app.add_exception_handler(RequestValidationError, bad_request)
    return app


@asynccontextmanager
async def service_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The uploads' queue runs while the service does; tables with a person end with it (their
    bots stopped, their records left as far as they were played)."""
    async with uploads.intake_lifespan(app):
        try:
            yield
        finally:
            await run_in_threadpool(app.state.tables.stop_all)


def api_docs() -> HTMLResponse:
    """FastAPI's OpenAPI UI from the vendored Swagger UI (no CDN; no validator badge call)."""
    return get_swagger_ui_html(openapi_url="/openapi.json", title="Dehla Arena API",
                               swagger_js_url="/static/vendor/swagger-ui-dist/swagger-ui-bundle.js",
                               swagger_css_url="/static/vendor/swagger-ui-dist/swagger-ui.css",
                               swagger_favicon_url="/static/favicon.svg",
                               swagger_ui_parameters={"validatorUrl": None})


def _is_api(request: Request) -> bool:
    return request.url.path == "/api" or request.url.path.startswith("/api/")


def problem(request: Request, status: int, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    """JSON ``{"detail": ...}`` under /api, the error page elsewhere (with the error's headers:
    ``Retry-After``, ``WWW-Authenticate``)."""
    if _is_api(request):
        return JSONResponse({"detail": detail}, status_code=status, headers=headers)
    return templates.TemplateResponse(request, "error.html", {"status": status, "detail": detail},
                                      status_code=status, headers=headers)


async def not_found(request: Request, exc: Exception) -> Response:
    return problem(request, 404, str(exc))


async def withheld(request: Request, exc: Exception) -> Response:
    return problem(request, 403, str(exc))


async def http_problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail if exc.status_code != 404 or exc.detail != "Not Found" else f"no page at {request.url.path}"
    if isinstance(exc.__cause__, TooLargeError):
        return problem(request, 413, str(exc.__cause__))
    if isinstance(exc.__cause__, UnicodeDecodeError):  # FastAPI's "error parsing the body", said plainly
        detail = f"the body is not UTF-8 (byte {exc.__cause__.start}): send JSON encoded as UTF-8"
    return problem(request, exc.status_code, str(detail), exc.headers)


def _escaped(raw: bytes) -> str:
    """Bytes echoed in a refusal: UTF-8 where they are, escapes (``\\xff``) where not."""
    return raw.decode("utf-8", "backslashreplace")


async def bad_request(request: Request, exc: Exception) -> Response:
    """A bad query parameter: the default 422 JSON under /api, one line on a page."""
    assert isinstance(exc, RequestValidationError)
    if _is_api(request):
        # FastAPI's body, but ASCII-escaped JSON: the input it echoes may hold a lone surrogate,
        # which UTF-8 cannot encode, or be a body not declared as JSON, bytes that are not UTF-8
        # (echoed with escapes): either refusal was a 500.
        body = {"detail": jsonable_encoder(exc.errors(), custom_encoder={bytes: _escaped})}
        return Response(json.dumps(body, ensure_ascii=True), status_code=422, media_type="application/json")
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "request"
    return problem(request, 422, f"{where}: {first.get('msg', 'invalid')}")


YOUNG_COLLECTION_EVERY = 20_000
"""Allocations between collections of the youngest generation (Python's default is 700)."""


def settle_garbage_collector() -> None:
    """Once the service has started: move what start-up loaded (modules, the store's schema,
    templates: about 145,000 objects) out of the collector's reach, and collect young objects less
    often. Otherwise a full collection now and then walks all of them inside a request: measured on
    the bench's store, a bot page's p95 went from 170 ms to about 80 ms with this
    (``bench/web.py``, which calls it as ``dehla serve`` does)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, 50, 100)
