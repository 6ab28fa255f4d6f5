"""docker/nginx.conf, the reverse proxy of docker/compose.yaml: its limits agree with the
service's, nginx accepts it (``nginx -t``), and, run in front of a real ``dehla serve``, it
serves an honest request and refuses what it should (a body over the upload limit, a flood of
uploads) before the service sees it. nginx missing skips the run, except in CI (scripts/setup.sh
dev installs it)."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from arena.bots.archive import DEFAULT_LIMITS
from ladder.web.connection_limits import DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, MAX_HEAD_BYTES
from tests.deploy_helpers import services
from tests.environment_helpers import unavailable
from tests.web.uploads_helpers import arena
from tests.web_helpers import serving

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "docker" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def directive(name: str) -> str:
    found = re.findall(rf"^\s*{name}\s+([^;]+);", CONF.read_text(), re.MULTILINE)
    assert len(found) == 1, f"{name}: {found}"
    return found[0].strip()


def seconds(value: str) -> float:
    assert value.endswith("s"), value
    return float(value[:-1])


def test_the_proxys_limits_agree_with_the_services() -> None:
    assert seconds(directive("client_header_timeout")) <= DEFAULT_HEADER_TIMEOUT
    assert seconds(directive("client_body_timeout")) <= DEFAULT_BODY_TIMEOUT
    body = directive("client_max_body_size")
    assert body.endswith("m") and DEFAULT_LIMITS.upload_bytes <= int(body[:-1]) * 1024 * 1024 \
        <= DEFAULT_LIMITS.upload_bytes + 1024 * 1024
    assert directive("large_client_header_buffers") == f"4 {MAX_HEAD_BYTES // 1024}k"
    assert directive("proxy_request_buffering") == "on"
    assert directive("limit_conn").startswith("per_address ")


def test_only_the_proxy_is_published_and_the_web_service_counts_it_as_every_client() -> None:
    spec = services()
    published = {name for name, service in spec.items() if service.get("ports")}
    assert published == {"proxy"}
    assert spec["proxy"]["volumes"][0] == "./nginx.conf:/etc/nginx/nginx.conf:ro"
    command = spec["web"]["command"]
    total = command[command.index("--max-connections") + 1]
    assert command[command.index("--max-connections-per-client") + 1] == total


def nginx_or_skip() -> str:
    if not Path(NGINX).exists():
        unavailable("nginx is missing (apt-get install nginx; scripts/setup.sh dev does it as root)")
    return NGINX


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rendered(folder: Path, upstream: str, port: int) -> Path:
    """The compose file's config with this machine's paths: the upstream, a self-signed
    certificate, a loopback port, and a prefix of its own (pid, logs, temporary bodies)."""
    tls = folder / "tls"
    tls.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", str(tls / "privkey.pem"), "-out", str(tls / "fullchain.pem")],
                   check=True, capture_output=True, timeout=60)
    text = (CONF.read_text().replace("server web:8000;", f"server {upstream};")
            .replace("/etc/nginx/tls/", f"{tls}/").replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
            .replace("listen 80;", f"listen 127.0.0.1:{free_port()};")
            .replace("include /etc/nginx/mime.types;", "include /etc/nginx/mime.types;\n"
                     f"    client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy;\n"
                     f"    access_log {folder}/access.log;"))
    config = folder / "nginx.conf"
    config.write_text(f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n" + text)
    return config


def test_nginx_accepts_the_config(tmp_path: Path) -> None:
    nginx = nginx_or_skip()
    checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(rendered(tmp_path, "127.0.0.1:9", 1))],
                             capture_output=True, text=True, timeout=60, check=False)
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


@pytest.fixture()
def proxied(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A real ``dehla serve`` behind nginx with the compose file's config: the proxy's URL, a token."""
    nginx = nginx_or_skip()
    data = arena(tmp_path)
    with serving(data.root, "--runner", "local", "--validations", "0") as url:
        port = free_port()
        (tmp_path / "proxy").mkdir()
        config = rendered(tmp_path / "proxy", url.removeprefix("http://").rstrip("/"), port)
        proxy = subprocess.Popen([nginx, "-p", str(tmp_path / "proxy"), "-c", str(config), "-g", "daemon off;"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            base = f"https://127.0.0.1:{port}/"
            for _ in range(100):  # until it listens (a bounded poll)
                try:
                    httpx.get(base, verify=False, timeout=1)
                    break
                except httpx.TransportError:
                    assert proxy.poll() is None, proxy.communicate()[1]
            yield base, data.asha
        finally:
            proxy.terminate()
            proxy.wait(timeout=10)


def test_the_proxy_serves_honest_requests_and_refuses_greedy_ones(proxied: tuple[str, str]) -> None:
    base, token = proxied
    assert httpx.get(base, verify=False, timeout=10).status_code == 200
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/gzip"}
    huge = httpx.post(base + "api/uploads", content=b"\x1f\x8b" + b"\0" * (34 * 1024 * 1024), headers=headers,
                      verify=False, timeout=60)
    assert huge.status_code == 413  # nginx's: the service never saw it
    answers = [httpx.post(base + "api/uploads", content=b"\x1f\x8b", headers=headers, verify=False,
                          timeout=30).status_code for _ in range(8)]
    assert answers.count(429) >= 3, answers  # burst 4 at 12 a minute: the rest refused by the proxy
