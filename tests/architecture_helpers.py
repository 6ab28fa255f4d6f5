"""Shared by the architecture tests: the repository's root and the project's packages."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("arena", "protocol", "sdk", "sample_bots", "ladder")
