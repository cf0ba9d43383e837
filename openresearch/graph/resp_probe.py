"""A minimal RESP2 client over a unix socket, and the probes the embedded FalkorDB server's lifecycle needs.

Stdlib only: whether a server is up, who it is and where its data lives must not depend on redis-py's
connection-pool state (graph/falkor_server.py).
"""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path
from typing import BinaryIO, Literal, TypeAlias

Probe = Literal["ready", "loading", "error", "unresponsive", "refused", "absent"]


RespValue: TypeAlias = bytes | int | list["RespValue"] | None


class RespError(Exception):
    pass


def command(sock_path: Path, *args: str, timeout_s: float = 1.0) -> RespValue:
    """Send one command and read one reply. Error replies raise RespError; a closed connection → None."""
    payload = b"*%d\r\n" % len(args)
    for arg in args:
        data = arg.encode()
        payload += b"$%d\r\n%s\r\n" % (len(data), data)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_s)
        sock.connect(str(sock_path))
        sock.sendall(payload)
        reader = sock.makefile("rb")
        try:
            return read_reply(reader)
        finally:
            reader.close()


def read_reply(reader: BinaryIO) -> RespValue:
    line = reader.readline()
    if not line:
        return None
    kind, body = line[:1], line[1:].rstrip(b"\r\n")
    if kind == b"+":
        return body
    if kind == b"-":
        raise RespError(body.decode(errors="replace"))
    if kind == b":":
        return int(body)
    if kind == b"$":
        size = int(body)
        if size < 0:
            return None
        data = reader.read(size + 2)
        return data[:size]
    if kind == b"*":
        count = int(body)
        return None if count < 0 else [read_reply(reader) for _ in range(count)]
    raise RespError(f"unexpected reply {line[:40]!r}")


def probe(sock_path: Path) -> Probe:
    try:
        reply = command(sock_path, "PING")
    except RespError as exc:
        return "loading" if str(exc).startswith("LOADING") else "error"
    except FileNotFoundError:
        return "absent"
    except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError):
        return "refused"
    except TimeoutError:
        return "unresponsive"
    except OSError:
        return "refused"
    return "ready" if reply == b"PONG" else "error"


def server_identity(sock_path: Path) -> tuple[int, float | None] | None:
    """(pid, started_at) of the server answering on ``sock_path``, from INFO server."""
    try:
        reply = command(sock_path, "INFO", "server")
    except (OSError, RespError):
        return None
    if not isinstance(reply, bytes):
        return None
    text = reply.decode(errors="replace")
    pid = re.search(r"^process_id:(\d+)", text, re.M)
    uptime = re.search(r"^uptime_in_seconds:(\d+)", text, re.M)
    if pid is None:
        return None
    return int(pid.group(1)), (time.time() - int(uptime.group(1)) if uptime else None)


def config_get(sock_path: Path, name: str) -> str | None:
    try:
        reply = command(sock_path, "CONFIG", "GET", name)
    except (OSError, RespError):
        return None
    if isinstance(reply, list) and len(reply) == 2 and isinstance(reply[1], bytes):
        return reply[1].decode(errors="replace")
    return None


def same_dir(value: str | None, expected: Path) -> bool:
    if value is None:
        return True  # cannot tell; trust the socket path, which is unique to this data dir
    try:
        return Path(value).resolve() == expected.resolve()
    except OSError:
        return False


def shutdown_save(sock_path: Path) -> bytes | None:
    """SHUTDOWN SAVE. None = connection closed (the normal success), else the error/other reply."""
    try:
        reply = command(sock_path, "SHUTDOWN", "SAVE", timeout_s=60.0)
    except RespError as exc:
        return b"-" + str(exc).encode()
    except OSError:
        return None
    return reply if isinstance(reply, bytes) else None
