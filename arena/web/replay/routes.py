"""The replay viewer's page and data."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
