"""Refresh the front-end files the service vendors (``ladder/web/static/vendor/``) from the npm registry.

``python tools/vendor_assets.py`` downloads each pinned package's tarball from registry.npmjs.org,
checks it against the registry's ``integrity`` hash (sha512, Subresource Integrity form), extracts
only the files listed below (and the licence) and rewrites ``vendor/manifest.json`` and
``vendor/VENDORED.md`` with each file's sha256. The service itself never fetches anything: every
asset it serves is in the repository (``tests/web/test_vendored.py`` checks the hashes).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REGISTRY = "https://registry.npmjs.org"
VENDOR = Path(__file__).resolve().parent.parent / "arena" / "web" / "static" / "vendor"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    files: tuple[str, ...]
    """Paths inside the tarball's ``package/`` folder; the licence is always taken too."""


PACKAGES = (
    Package("htmx.org", "2.0.11", ("dist/htmx.min.js",)),
    Package("swagger-ui-dist", "5.35.0", ("swagger-ui-bundle.js", "swagger-ui.css")),
)
LICENCE_NAMES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "license")


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:
        body: bytes = response.read()
    return body


def checked_tarball(package: Package) -> bytes:
    """The package's tarball, refused unless it matches the registry's sha512 integrity hash."""
    meta = json.loads(fetch(f"{REGISTRY}/{package.name}/{package.version}"))
    integrity: str = meta["dist"]["integrity"]
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise SystemExit(f"{package.name}@{package.version}: integrity {algorithm} is not sha512; not vendored")
    tarball = fetch(meta["dist"]["tarball"])
    if base64.b64encode(hashlib.sha512(tarball).digest()).decode() != expected:
        raise SystemExit(f"{package.name}@{package.version}: the tarball does not match its integrity hash")
    return tarball


def extract(package: Package, tarball: bytes) -> dict[str, str]:
    """Write the wanted files under ``vendor/<name>/``; returns {vendored path: sha256}."""
    target = VENDOR / package.name
    target.mkdir(parents=True, exist_ok=True)
    hashes: dict[str, str] = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        members = {member.name.removeprefix("package/"): member for member in archive.getmembers() if member.isfile()}
        licence = next((name for name in LICENCE_NAMES if name in members), None)
        if licence is None:
            raise SystemExit(f"{package.name}@{package.version}: no licence file in the tarball")
        for wanted in (*package.files, licence):
            member = members.get(wanted)
            if member is None:
                raise SystemExit(f"{package.name}@{package.version}: {wanted} is not in the tarball")
            stream = archive.extractfile(member)
            assert stream is not None
            body = stream.read()
            out = target / ("LICENSE" if wanted == licence else Path(wanted).name)
            out.write_bytes(body)
            hashes[out.relative_to(VENDOR).as_posix()] = hashlib.sha256(body).hexdigest()
    return hashes


def main() -> None:
    manifest = []
    for package in PACKAGES:
        files = extract(package, checked_tarball(package))
        manifest.append({"name": package.name, "version": package.version, "files": files})
        print(f"{package.name}@{package.version}: {len(files)} files", file=sys.stderr)
    (VENDOR / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    lines = ["# Vendored front-end files", "",
             "Written by `python tools/vendor_assets.py` (npm tarballs checked against the registry's",
             "integrity hash); `manifest.json` is the same list, which `tests/web/test_vendored.py` checks.", "",
             "| package | version | file | sha256 |", "|---|---|---|---|"]
    lines += [f"| {entry['name']} | {entry['version']} | {path} | `{digest}` |"
              for entry in manifest for path, digest in entry["files"].items()]
    (VENDOR / "VENDORED.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
