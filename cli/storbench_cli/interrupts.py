"""Ctrl-C while the service is still answering a request whose answer is needed to undo it.

A Ctrl-C that lands while `POST /runs` is being answered would otherwise leave a run that the service
has already started, with no id to cancel it by. One SIGINT handler serves the whole command, so there
is no moment between two handlers: inside `deferred()` the first Ctrl-C is remembered (and acted on
by the caller once the answer is in), a second one, or any Ctrl-C outside, raises KeyboardInterrupt.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class CtrlC:
    """The command's SIGINT handler: remembered inside `deferred()`, KeyboardInterrupt elsewhere."""

    def __init__(self) -> None:
        self.pressed = False
        self._notice: str | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self._notice is None or self.pressed:
            raise KeyboardInterrupt
        self.pressed = True
        print(self._notice, file=sys.stderr, flush=True)

    @contextmanager
    def deferred(self, notice: str) -> Iterator[None]:
        """Within the block, remember a first Ctrl-C (saying `notice`) instead of raising."""
        self._notice = notice
        try:
            yield
        finally:
            self._notice = None


@contextmanager
def ctrl_c_handled() -> Iterator[CtrlC]:
    """Handle SIGINT with a `CtrlC` for the block, unless it is ignored (a background job of a script)."""
    handler = CtrlC()
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        # Ignored, or handled by a program that embeds us: theirs to decide.
        yield handler
        return
    signal.signal(signal.SIGINT, handler)
    try:
        yield handler
    finally:
        signal.signal(signal.SIGINT, previous)
