"""A local HTTP receiver for webhook tests: records every request, answers from a script."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    """One request as the receiver saw it."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """Answers with the next (status, headers) of `answers` (the last one repeats)."""

    url: str
    answers: list[tuple[int, dict[str, str]]]
    received: list[Received] = field(default_factory=list)


@contextmanager
def receiver(answers: list[tuple[int, dict[str, str]]]) -> Iterator[Receiver]:
    """A receiver on 127.0.0.1 (a free port) for the duration of the block."""
    state = Receiver(url="", answers=list(answers))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            state.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            index = min(len(state.received) - 1, len(state.answers) - 1)
            status, headers = state.answers[index]
            payload = b"x" * 2000 if status >= 500 else b'{"ok": true}'
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
