"""A real HTTP server on 127.0.0.1 (random free port) for download tests: serves a folder, optional Range."""
from __future__ import annotations

import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List


class _Handler(BaseHTTPRequestHandler):
    server: Any

    def log_message(self, *args: Any) -> None:  # keep pytest output clean
        pass

    def do_GET(self) -> None:  # noqa: N802
        cfg = self.server.cfg
        rng = self.headers.get("Range")
        self.server.requests.append({"path": self.path, "range": rng})
        path = os.path.join(self.server.folder, self.path.lstrip("/").split("?")[0])
        if not os.path.isfile(path):
            self.send_error(404, "not found")
            return
        with open(path, "rb") as f:
            data = f.read()
        start = 0
        if rng and cfg.get("range", True):
            start = int(rng.split("=")[1].split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        cut = cfg.get("truncate_first")
        if cut and not self.server.truncated:
            # announce the full length, send part of it, drop the connection
            self.server.truncated = True
            self.wfile.write(body[:cut])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(body)


class FileServer:
    """`with FileServer(folder) as srv:` -> srv.url ('http://127.0.0.1:PORT/'), srv.requests, srv.cfg."""

    def __init__(self, folder: str, **cfg: Any) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.folder = folder
        self.httpd.cfg = cfg
        self.httpd.requests = []
        self.httpd.truncated = False
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    @property
    def requests(self) -> List[Dict[str, Any]]:
        return self.httpd.requests

    def __enter__(self) -> "FileServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connection refused)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}/"
