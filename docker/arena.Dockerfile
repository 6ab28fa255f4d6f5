# The arena's own image: every service of docker/compose.yaml but PostgreSQL runs it (the Dask
# scheduler too, so that the scheduler, the workers and the coordinator run the same Dask).
# Debian bookworm's Python 3.11, bubblewrap and util-linux for the sandbox, and the project with
# its `postgres` (psycopg 3) and `cluster` (Dask distributed) extras in /opt/dehla.
#   docker compose -f docker/compose.yaml build        (the context is the repository's root)
# BASE picks another Debian bookworm image (a local mirror's, or one made with mmdebstrap);
# pip reads PIP_INDEX_URL, PIP_FIND_LINKS and PIP_CERT (a proxy's CA bundle) from build arguments.
ARG BASE=docker.io/library/debian:bookworm-slim
FROM ${BASE}
ARG PIP_INDEX_URL
ARG PIP_EXTRA_INDEX_URL
ARG PIP_FIND_LINKS
ARG PIP_CERT
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv bubblewrap util-linux ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md /src/
COPY arena /src/arena
COPY protocol /src/protocol
COPY sdk /src/sdk
COPY sample_bots /src/sample_bots
COPY ladder /src/ladder
RUN python3 -m venv /opt/dehla \
    && /opt/dehla/bin/pip install --no-cache-dir --disable-pip-version-check "/src[postgres,cluster]" \
    && rm -rf /src \
    && mkdir -p /var/lib/dehla
ENV PATH=/opt/dehla/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DEHLA_DATA=/var/lib/dehla \
    PYTHONUNBUFFERED=1
WORKDIR /var/lib/dehla
