"""The service: one FastAPI application over one store, its pages, API and static files."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from arena.web import api, pages
from arena.web.replay import routes as replay_routes
from arena.web.templating import STATIC
from ladder.paths import ArenaData
from ladder.store import Store


def create_app(data: ArenaData) -> FastAPI:
    """The application for the store in ``data``; opening it may raise ``StoreError``."""
    store = Store.open(data)
    store.check_integrity()
    app = FastAPI(title="Dehla Arena", summary="Leaderboard, bots, matches and replays of a Dehla Arena ladder.",
                  docs_url=None, redoc_url=None)
    app.state.store = store
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(api.router)
    app.include_router(replay_routes.router)
    app.include_router(pages.router)
    return app
