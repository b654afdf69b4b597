"""Guards on every attempt at a secret: a password, an invitation token, an enrollment token.

Two limits from kit/, shared by every API process (see kit.redis_or_memory): a sliding window per
client address (per address and account for sign-in), and a backoff per account across every
address (kit.backoff), so a guess cannot be spread over many addresses.
"""

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from fastapi import Request

from storbench_api.errors import DomainError
from storbench_api.kit.backoff import Backoff, MemoryBackoff, RedisBackoff
from storbench_api.kit.rate_limit import RedisSlidingWindow, SlidingWindow, Window
from storbench_api.kit.redis_or_memory import RedisOrMemory

SIGN_IN_ATTEMPTS = 10
WINDOW_S = 60.0


class TooManyAttempts(DomainError):
    """Too many attempts from one client, or at one account, in a short time."""

    status_code = 429
    code = "rate_limited"


sign_in_window: RedisOrMemory[Window] = RedisOrMemory(
    lambda url: RedisSlidingWindow(SIGN_IN_ATTEMPTS, WINDOW_S, url),
    lambda: SlidingWindow(SIGN_IN_ATTEMPTS, WINDOW_S),
)
account_backoff: RedisOrMemory[Backoff] = RedisOrMemory(RedisBackoff, MemoryBackoff)

_refusal_listeners: list[Callable[[str], None]] = []


def on_refusal(listener: Callable[[str], None]) -> None:
    """Call listener(limiter name) for every refused attempt, once per listener (ops counts them)."""
    if listener not in _refusal_listeners:
        _refusal_listeners.append(listener)


def reset_all() -> None:
    """Forget every attempt (tests)."""
    sign_in_window.get().reset()
    account_backoff.get().reset()


def client_address(request: Request) -> str:
    """The peer address (a proxy in front should be trusted explicitly, not by header)."""
    return request.client.host if request.client else "unknown"


def _refuse(wait: float, limiter: str) -> None:
    if wait > 0:
        for listener in _refusal_listeners:
            listener(limiter)
        seconds = int(wait) + 1
        raise TooManyAttempts(
            f"too many attempts; try again in {seconds} s", headers={"Retry-After": str(seconds)}
        )


def limit_sign_in(request: Request, account: str, purpose: str = "sign-in") -> None:
    """Refuse with 429 after too many attempts for one account from one address, for one purpose."""
    key = f"{client_address(request)}|{account.strip().lower()}"
    _refuse(sign_in_window.get().hit(key if purpose == "sign-in" else f"{purpose}|{key}"), purpose)


def secret_account(purpose: str, secret: str) -> str:
    """The account a token stands for in the backoff: its digest, never the token itself."""
    return f"{purpose}:{hashlib.sha256(secret.encode()).hexdigest()}"


@contextmanager
def account_attempt(request: Request, account: str, wrong: tuple[type[Exception], ...]) -> Iterator[None]:
    """Guard one attempt on an account (or a token) from any address, with backoff.

    Refused attempts never reach the check inside the block. An exception of a `wrong` type leaving
    the block counts as a failed guess; leaving it normally is a success that clears the account's
    failures and lets this address past the account's backoff from now on (see kit.backoff).
    """
    key = account.strip().lower()
    address = client_address(request)
    backoff = account_backoff.get()
    if not backoff.known(key, address):
        _refuse(backoff.attempt(key), "account-backoff")
    try:
        yield
    except wrong:
        backoff.failed(key)
        raise
    backoff.succeeded(key, address)


@contextmanager
def password_attempt(
    request: Request, account: str, wrong: tuple[type[Exception], ...], purpose: str = "sign-in"
) -> Iterator[None]:
    """Guard one password check on an account: per address and purpose, then per account with backoff.

    The per-address window is kept per purpose, so a signed-in session mistyping its current password
    does not use up the sign-ins of its address; the account's backoff counts every failure.
    """
    limit_sign_in(request, account, purpose)
    with account_attempt(request, account, wrong):
        yield
