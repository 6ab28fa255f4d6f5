# The base image every submitted bot builds on: Debian bookworm's Python 3.11, the Dehla Arena
# package and its libraries (the versions the referee itself runs), and a non-root user `bot`.
# No registry is needed: `python tools/build_base_image.py` makes the root file system with
# mmdebstrap, imports it as ROOTFS, puts the wheels in the build context and builds this file
# with no network. A bot's own Dockerfile (made by `dehla bot new`) starts FROM
# dehla-arena/bot-base:1 and copies its folder to /bot.
ARG ROOTFS
FROM ${ROOTFS}
RUN --mount=type=bind,source=.,target=/context \
    python3 /context/pip.whl/pip install --no-index --no-deps --no-cache-dir \
        --break-system-packages --disable-pip-version-check --root-user-action ignore /context/wheels/*.whl \
    && useradd --uid 10001 --create-home bot \
    && mkdir -p /bot /run/dehla
USER bot
WORKDIR /bot
