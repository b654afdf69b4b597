"""The run directory: made fresh inside the target, pinned by a descriptor, the only place fio writes.

It is created with mkdir (never reused: an existing one is an error), mode 0700 so nobody but the
worker can plant anything in it, under a name the server derives from a secret. fio is told paths
under /proc/self/fd/N/, the directory the worker opened and checked, so renaming or replacing any
part of the path afterwards cannot send fio anywhere else.
"""

import os
import re
import stat
from pathlib import Path

from storbench_worker.prepare import CannotRun

# What a run directory's name may look like: one plain part, whatever the server sends.
_NAME = re.compile(r"storbench-[A-Za-z0-9-]{1,120}")


def check_name(name: str) -> str:
    """The server's name for the run directory, if it is one plain storbench- part."""
    if not _NAME.fullmatch(name):
        raise CannotRun(f"the server sent an invalid run directory name {name!r}; refusing to run")
    return name


class RunDirectory:
    """A run directory inside a resolved target, open as a descriptor fio inherits."""

    def __init__(self, target: Path, name: str, create: bool) -> None:
        self.path = target / check_name(name)
        self._fd: int | None = None
        if create:
            try:
                os.mkdir(self.path, 0o700)
            except FileExistsError:
                raise CannotRun(
                    f"{self.path} already exists: a run directory is always made fresh; "
                    "remove it if it is left from an earlier run"
                ) from None
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError as exc:
            raise CannotRun(f"cannot open the run directory {self.path}: {exc.strerror}") from None
        self._fd = fd
        opened = os.fstat(fd)
        try:
            there = os.lstat(self.path)
        except OSError as exc:
            self.close()
            raise CannotRun(f"the run directory {self.path} vanished: {exc.strerror}") from None
        if (opened.st_dev, opened.st_ino) != (there.st_dev, there.st_ino) or opened.st_mode & 0o077:
            self.close()
            raise CannotRun(f"{self.path} was replaced or is open to other users; refusing to run there")

    @property
    def fd(self) -> int:
        """The open descriptor (inherited by fio)."""
        if self._fd is None:
            raise RuntimeError("run directory closed")
        return self._fd

    @property
    def fio_prefix(self) -> str:
        """The directory as fio sees it: through the descriptor, so no path lookup can be redirected."""
        return f"/proc/self/fd/{self.fd}/"

    def unexpected_entries(self) -> list[str]:
        """Anything in the directory that is neither a regular file nor a directory (none is expected)."""
        found = []
        for root, dirs, files in os.walk(f"/proc/self/fd/{self.fd}/", followlinks=False):
            for name in dirs + files:
                mode = os.lstat(os.path.join(root, name)).st_mode
                if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                    found.append(os.path.relpath(os.path.join(root, name), f"/proc/self/fd/{self.fd}/"))
        return found

    def close(self) -> None:
        """Let go of the descriptor (the directory itself is removed by the scratch record)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
