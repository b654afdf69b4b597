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


@dataclass
class Trickler:
    """A receiver that answers one byte a second; counts requests open, cut off by the sender, finished."""

    url: str
    started: int = 0
    open_now: int = 0
    cut_off: int = 0
    finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


@contextmanager
def trickler(total_bytes: int = 120) -> Iterator[Trickler]:
    """A slow receiver on 127.0.0.1: its answer (status line first) comes one byte a second.

    It gives up by itself after total_bytes seconds, and at once when the block ends, so a test
    never leaves a connection behind.
    """
    state = Trickler(url="")
    closing = threading.Event()
    # The whole answer is a header being written: a client has nothing complete before the end.
    head, tail = b"HTTP/1.1 200 OK\r\nX-Slow: ", b"\r\nContent-Length: 0\r\n\r\n"
    answer = head + b"z" * max(total_bytes - len(head) - len(tail), 1) + tail

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with state.lock:
                state.started += 1
                state.open_now += 1
            outcome = "finished"
            try:
                for byte in answer:
                    if closing.wait(1.0):
                        outcome = "abandoned"
                        break
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
            except OSError:  # the sender hung up
                outcome = "cut_off"
            with state.lock:
                state.open_now -= 1
                if outcome == "cut_off":
                    state.cut_off += 1
                elif outcome == "finished":
                    state.finished += 1
            self.close_connection = True

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/slow"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        closing.set()
        server.shutdown()
        server.server_close()
