"""Password hashing and opaque bearer tokens (only their SHA-256 is ever stored)."""

import hashlib
import hmac
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()
# Verified against when the email is unknown, so both paths cost the same.
_DUMMY_HASH = _hasher.hash("storbench-timing-equaliser")


def hash_password(password: str) -> str:
    """An argon2id hash of password."""
    return _hasher.hash(password)


def verify_password(password: str, password_hash: str | None) -> bool:
    """True when password matches; spends the same time when there is no user."""
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
