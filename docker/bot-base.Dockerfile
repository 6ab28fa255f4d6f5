# The base image every submitted bot builds on: Python and the Dehla Arena SDK, and a non-root
# user. Build it from the repository root:
#   docker build -f docker/bot-base.Dockerfile -t dehla-arena/bot-base:1 .
# A bot's own Dockerfile (made by `dehla bot new`) starts FROM this image and copies its folder
# to /bot. The docker runner (arena/sandbox/docker.py) then runs it with no network, a read-only
# root, dropped capabilities and resource limits.
FROM python:3.11-slim
COPY pyproject.toml README.md /opt/dehla/
COPY arena /opt/dehla/arena
COPY protocol /opt/dehla/protocol
COPY sdk /opt/dehla/sdk
COPY sample_bots /opt/dehla/sample_bots
COPY ladder /opt/dehla/ladder
RUN pip install --no-cache-dir /opt/dehla && useradd --uid 10001 --create-home bot
USER bot
WORKDIR /bot
