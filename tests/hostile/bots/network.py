"""Network: tries to reach the outside (TCP, UDP, DNS) and a listener the test holds on the host."""

from __future__ import annotations

import socket

from _hostile import arguments, contained, escaped, report, serve


def attack(tcp: list[str], udp: list[str], dns: list[str]) -> None:
    for target in tcp:
        host, _, port = target.rpartition(":")
        try:
            with socket.create_connection((host, int(port)), timeout=1.0) as conn:
                conn.sendall(b"hello from a sandboxed bot\n")
            escaped("tcp", target=target)
        except OSError as exc:
            contained("tcp", target=target, error=exc.strerror or str(exc))
    for target in udp:
        host, _, port = target.rpartition(":")
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.sendto(b"hello from a sandboxed bot\n", (host, int(port)))
            report("udp-send", "sent", target=target, note="sending proves nothing; the test checks its receiver")
        except OSError as exc:
            contained("udp-send", target=target, error=exc.strerror or str(exc))
    for name in dns:
        try:
            addresses = sorted({info[4][0] for info in socket.getaddrinfo(name, 80)})
            escaped("dns", target=name, addresses=addresses)
        except OSError as exc:
            contained("dns", target=name, error=str(exc))
    interfaces = [name for _, name in socket.if_nameindex()]
    contained("interfaces", names=interfaces)


if __name__ == "__main__":
    args = arguments(extra=[("--tcp", {"action": "append", "default": []}),
                            ("--udp", {"action": "append", "default": []}),
                            ("--dns", {"action": "append", "default": []})])
    serve(lambda view: attack(args.tcp, args.udp, args.dns), args.at)
