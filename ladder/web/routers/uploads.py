"""``/api/uploads``: an author sends a bot as a tar.gz and follows its validation.

``POST /api/uploads`` takes the raw archive (``Content-Type: application/gzip``, a
``Content-Length`` no larger than the limit), read as a stream into a file under the data folder,
counted as it arrives; it answers ``202`` with the pending upload. ``GET /api/uploads/{id}`` (and
``/log``) shows one upload to its author only: anyone else gets the same 404 as for an id that
does not exist. ``GET /api/uploads`` lists the caller's own. Every refusal is a 4xx with one line.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from arena.bots.archive import size
from ladder.store.ownership import NotYourBotError
from ladder.store.schema import UploadStatus
from ladder.submission.intake import (
    Intake,
    RateLimitedError,
    UploadsOffError,
    UploadView,
    upload_log,
    upload_of,
    uploads_of,
)
from ladder.submission.upload_caps import InFlightError
from ladder.web.bounds import RowId
from ladder.web.security.auth import ApiAuthor

router = APIRouter(prefix="/api/uploads", tags=["uploads"])

GZIP_TYPES = frozenset({"application/gzip", "application/x-gzip"})
GZIP_MAGIC = b"\x1f\x8b"
MAX_WAIT = 20.0
"""Seconds a status request may wait for a verdict (``?wait=``)."""


def service_intake(request: Request) -> Intake:
    intake: Intake = request.app.state.intake
    return intake


@asynccontextmanager
async def intake_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The validation queue runs as long as the service does."""
    intake: Intake = app.state.intake
    intake.start()
    try:
        yield
    finally:
        await run_in_threadpool(intake.stop)


def _declared_length(request: Request, cap: int) -> int:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in GZIP_TYPES:
        raise HTTPException(415, "send the bot folder as a tar.gz with Content-Type: application/gzip "
                                 "(`dehla submit FOLDER --server URL` does)")
    if "transfer-encoding" in request.headers or "content-length" not in request.headers:
        raise HTTPException(411, "Content-Length is required (send the archive as one body, not chunked)")
    length = request.headers["content-length"]
    if not length.isdigit() or len(length) > 19:
        raise HTTPException(400, "Content-Length is not a number of bytes")
    declared = int(length)
    if declared == 0:
        raise HTTPException(400, "the body is empty: send the tar.gz of the bot folder")
    if declared > cap:
        raise HTTPException(413, f"the upload is larger than {size(cap)} (the limit of this server)")
    return declared


@router.post("", status_code=202)
async def post_upload(request: Request, author: ApiAuthor) -> JSONResponse:
    """Upload a bot (the tar.gz of its folder) for validation; poll the returned ``url``."""
    intake = service_intake(request)
    cap = intake.settings.limits.upload_bytes
    declared = _declared_length(request, cap)
    try:
        await run_in_threadpool(intake.check_open, author.id)
    except RateLimitedError as exc:
        raise HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)}) from None
    except UploadsOffError as exc:
        raise HTTPException(503, str(exc)) from None
    try:
        await run_in_threadpool(intake.admit, author.id, declared)
    except InFlightError as exc:
        raise HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)}) from None
    try:
        view = await _receive(request, intake, author.id, declared)
    except ClientDisconnect:  # gone mid-body (or cut for pausing): nobody reads an answer; no traceback logged
        raise HTTPException(400, "the client went away before the body ended") from None
    finally:
        intake.release(author.id, declared)
    body = view.to_json()
    return JSONResponse(body, status_code=202, headers={"Location": body["url"]})


async def _receive(request: Request, intake: Intake, author_id: int, declared: int) -> UploadView:
    """The body into a staged file, then a pending upload (the file removed on any refusal)."""
    with intake.staging() as (staged, file):
        received = 0
        head = b""
        async for chunk in request.stream():
            received += len(chunk)
            if received > declared:
                raise HTTPException(413, f"the body is longer than its Content-Length ({declared} bytes)")
            if len(head) < len(GZIP_MAGIC):
                head += chunk[:len(GZIP_MAGIC)]
            file.write(chunk)
        file.close()
        if received < declared:
            raise HTTPException(400, f"the body ended after {received} of its {declared} bytes")
        if not head.startswith(GZIP_MAGIC):
            raise HTTPException(415, "the body is not gzip data: send the tar.gz of the bot folder")
        try:
            return await run_in_threadpool(intake.record, author_id, staged, received)
        except RateLimitedError as exc:
            raise HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)}) from None
        except NotYourBotError as exc:  # another owner's bot, or a name reserved for the house
            raise HTTPException(403, str(exc)) from None


@router.get("")
def my_uploads(request: Request, author: ApiAuthor) -> list[dict[str, Any]]:
    """The caller's own uploads, newest first."""
    return [view.to_json() for view in uploads_of(service_intake(request).store, author.id)]


@router.get("/{upload_id}")
def one_upload(request: Request, upload_id: RowId, author: ApiAuthor,
               wait: Annotated[float, Query(ge=0, le=MAX_WAIT, description="seconds to wait while it is pending "
                                                                            "(a long poll)")] = 0) -> dict[str, Any]:
    """One upload and its status (``pending``, ``accepted``, ``rejected`` with ``reason``)."""
    intake = service_intake(request)
    view = upload_of(intake.store, upload_id, author.id)
    if view is None:
        raise HTTPException(404, f"no upload {upload_id} of yours")
    if wait and view.status is UploadStatus.PENDING:
        intake.wait_for(upload_id, wait)
        view = upload_of(intake.store, upload_id, author.id)
        assert view is not None
    return view.to_json()


@router.get("/{upload_id}/log")
def upload_output(request: Request, upload_id: RowId, author: ApiAuthor) -> dict[str, Any]:
    """The bot's own output from the upload's failed validation (its author only)."""
    text = upload_log(service_intake(request).store, upload_id, author.id)
    if text is None:
        raise HTTPException(404, f"no log of upload {upload_id} of yours")
    return {"id": upload_id, "log": text}
