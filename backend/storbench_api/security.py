"""Password hashing, opaque bearer tokens (only their SHA-256 is ever stored), sealed secrets."""

import base64
import hashlib
import hmac
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from storbench_api.errors import DomainError
from storbench_api.settings import get_settings

_hasher = PasswordHasher()
# Verified against when the email is unknown, so both paths cost the same.
_DUMMY_HASH = _hasher.hash("storbench-timing-equaliser")

# Argon2 is meant to be expensive: each hash takes tens of ms of CPU and 64 MiB. Unauthenticated
# sign-ins in parallel kept both cores busy (a signed-in GET went from 9 ms to 815 ms), so one
# process hashes one password at a time, a few wait briefly, and the rest are told to come back.
HASHING_AT_ONCE = 1
HASHING_WAITERS = 4
HASHING_WAIT_S = 2.0
_hashing = threading.BoundedSemaphore(HASHING_AT_ONCE)
_waiting = 0
_waiting_lock = threading.Lock()


class HashingBusy(DomainError):
    """Every password-hashing slot is taken; the client should retry shortly."""

    status_code = 503
    code = "busy"


@contextmanager
def hashing_slot() -> Iterator[None]:
    """Hold the process's password-hashing slot, or raise HashingBusy (503, Retry-After: 1)."""
    global _waiting
    with _waiting_lock:
        if _waiting >= HASHING_WAITERS + HASHING_AT_ONCE:
            acquired = False
        else:
            _waiting += 1
            acquired = True
    if acquired:
        try:
            acquired = _hashing.acquire(timeout=HASHING_WAIT_S)
        finally:
            if not acquired:
                with _waiting_lock:
                    _waiting -= 1
    if not acquired:
        raise HashingBusy("too many sign-ins at once; try again in a second", headers={"Retry-After": "1"})
    try:
        yield
    finally:
        _hashing.release()
        with _waiting_lock:
            _waiting -= 1


def hash_password(password: str) -> str:
    """An argon2id hash of password."""
    with hashing_slot():
        return _hasher.hash(password)


def verify_password(password: str, password_hash: str | None) -> bool:
    """True when password matches; spends the same time when there is no user."""
    with hashing_slot():
        try:
            return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
        except (VerificationError, InvalidHashError):
            return False


def new_token(prefix: str) -> str:
    """A fresh random token, prefixed so leaked ones are recognisable (sbu_, sbh_)."""
    return f"{prefix}_{secrets.token_urlsafe(32)}"


def token_digest(token: str) -> str:
    """The SHA-256 hex digest a token is looked up by."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_secret(a: str, b: str) -> bool:
    """Constant-time comparison."""
    return hmac.compare_digest(a.encode(), b.encode())


def keyed_name(secret: str, purpose: str, length: int = 20) -> str:
    """A name nobody without the secret can predict (hex, `length` characters)."""
    return hmac.new(secret.encode(), purpose.encode(), hashlib.sha256).hexdigest()[:length]


# Sealing: secrets the server must read back (webhook signing secrets), encrypted at rest with a
# key derived from STORBENCH_SECRET_KEY, so a copy of the database alone does not give them away.
_SEALING_PURPOSE = b"storbench webhook secrets"


class Unsealable(Exception):
    """A sealed value none of the server's keys (current or previous) opens."""


def _fernet(server_key: str) -> Fernet:
    digest = hashlib.sha256(_SEALING_PURPOSE + server_key.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def _sealer(current: str, previous: list[str]) -> MultiFernet:
    return MultiFernet([_fernet(key) for key in [current, *previous]])


def seal(plain: str) -> str:
    """plain encrypted (Fernet, authenticated) under the current server key."""
    return _fernet(get_settings().secret_key).encrypt(plain.encode()).decode()


def unseal(sealed: str) -> str:
    """What seal sealed, opened with the current server key or one of the previous ones."""
    settings = get_settings()
    try:
        return _sealer(settings.secret_key, settings.previous_secret_keys).decrypt(sealed.encode()).decode()
    except InvalidToken as exc:
        raise Unsealable(
            "sealed under a server key that is neither STORBENCH_SECRET_KEY nor one of "
            "STORBENCH_PREVIOUS_SECRET_KEYS"
        ) from exc
