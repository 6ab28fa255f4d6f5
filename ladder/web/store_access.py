"""One store per running service, and a read-only session per request.

The service opens the store once at start-up (migrations included, like every ``dehla ladder``
command) and reads it while ladders write: SQLite in WAL mode lets readers and one writer work
at once, so a page shows a result as soon as its transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from ladder.store.database import Store
from ladder.store.paths import ArenaData


def service_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def service_data(request: Request) -> ArenaData:
    return service_store(request).data


def reading_session(request: Request) -> Iterator[Session]:
    """A FastAPI dependency: one session for the request, closed when the response is sent."""
    with service_store(request).reading() as session:
        yield session


SessionDep = Annotated[Session, Depends(reading_session)]
"""A route's read-only session (closed when the response is sent)."""
DataDep = Annotated[ArenaData, Depends(service_data)]
"""The service's data folder."""
StoreDep = Annotated[Store, Depends(service_store)]
"""The service's store itself: for a route that writes through the ladder's own functions."""
