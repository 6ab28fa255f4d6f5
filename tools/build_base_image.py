"""Build the arena's bot base image (``dehla-arena/bot-base:1``) from local files, if not built yet.

``python tools/build_base_image.py`` (as root, with podman, runc and mmdebstrap;
``$DEHLA_CONTAINER_ENGINE`` picks the engine). Each stage is named by a hash of its inputs and
skipped when present, so a second run takes about a second. ``--versions DATA`` then builds the
image of every version stored in the data folder DATA that has none yet (a new host for an old
store). The last line is one JSON object: the image, whether it was built, the time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from arena.engine.errors import ArenaError
from ladder.versions.base_image import build_base_image
from ladder.versions.images import VERSION_FOLDER, build_version_image


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=Path, metavar="DATA", help="also build stored versions' images")
    args = parser.parse_args()
    try:
        built = build_base_image(say=lambda line: print(line, file=sys.stderr, flush=True))
        versions = []
        if args.versions is not None:
            for folder in sorted((args.versions / "bots").glob("*/*")):
                if folder.is_dir() and VERSION_FOLDER.fullmatch(f"{folder.parent.name}/{folder.name}"):
                    versions.append(build_version_image(folder, folder.parent.name, folder.name))
    except ArenaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"image": built.image, "rootfs": built.rootfs, "built": built.built,
                      "seconds": round(built.seconds, 1), "versions": versions}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
