"""A local HTTP server standing in for the listing platforms in tests: http.server in a thread, on
a free port. Each path answers what the test sets (status, body, headers, a delay), honours
If-None-Match like a real CDN would, and records the requests it got."""

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    content_type: str = "text/calendar; charset=utf-8"
    etag: str = ""
    last_modified: str = ""
    delay_seconds: float = 0.0
    send_length: bool = True  # False: no Content-Length, the body ends when the connection closes
    trickle_seconds: float = 0.0  # send the body in ten pieces this far apart (a server that drips)
    headers: dict = field(default_factory=dict)


class FeedServer:
    def __init__(self):
        self.routes: dict[str, Route] = {}
        self.requests: list[tuple[str, dict]] = []  # (path, headers) in arrival order
        self._stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's naming)
                server.requests.append((self.path, dict(self.headers)))
                route = server.routes.get(self.path)
                if route is None:
                    self.send_error(404)
                    return
                if route.delay_seconds and server._stopping.wait(route.delay_seconds):
                    return
                if route.etag and self.headers.get("If-None-Match") == route.etag:
                    self.send_response(304)
                    self.send_header("ETag", route.etag)
                    self.end_headers()
                    return
                self.send_response(route.status)
                self.send_header("Content-Type", route.content_type)
                if route.send_length:
                    self.send_header("Content-Length", str(len(route.body)))
                if route.etag:
                    self.send_header("ETag", route.etag)
                if route.last_modified:
                    self.send_header("Last-Modified", route.last_modified)
                for name, value in route.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    if route.trickle_seconds:
                        piece = max(1, len(route.body) // 10 + 1)
                        for start in range(0, len(route.body), piece):
                            self.wfile.write(route.body[start : start + piece])
                            self.wfile.flush()
                            if server._stopping.wait(route.trickle_seconds):
                                return
                    else:
                        self.wfile.write(route.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading (size cap): that is the point

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="feed-server", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)

    def serve(self, path: str, body: bytes = b"", **options) -> str:
        """Answer GET `path` with `body` (and Route options); returns the full URL."""
        self.routes[path] = Route(body=body, **options)
        return self.base_url + path

    def requests_to(self, path: str) -> list[dict]:
        return [headers for request_path, headers in self.requests if request_path.split("?")[0] == path.split("?")[0]]
