"""Build the arena's bot base image (``dehla-arena/bot-base:1``) from local files, if not built yet.

``python tools/build_base_image.py`` (as root, with podman and mmdebstrap; ``$DEHLA_CONTAINER_ENGINE``
picks the engine). Each stage is named by a hash of its inputs and skipped when present, so a
second run takes seconds. The last line is one JSON object: the image, whether it was built, the time.
"""

from __future__ import annotations

import json
import sys

from ladder.base_image import BaseImageError, build_base_image


def main() -> int:
    try:
        built = build_base_image(say=lambda line: print(line, file=sys.stderr, flush=True))
    except BaseImageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"image": built.image, "rootfs": built.rootfs, "built": built.built,
                      "seconds": round(built.seconds, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
