"""Which URLs a webhook may reach: public addresses only, unless the operator allows a network.

A team member chooses the URL and the server makes the request, so without this check a webhook
would let anyone in a team probe the server's own network (its loopback, metadata services at
169.254.169.254, private ranges). The name is resolved at registration and again before every
attempt, and the request goes to the address that was checked (a DNS answer that changes in
between cannot redirect it), with redirects never followed.
"""

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from storbench_api.errors import Invalid
from storbench_api.settings import get_settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class DestinationRefused(Exception):
    """The URL may not be reached; the message says why."""


@dataclass(frozen=True)
class Destination:
    """A URL and the checked address the request will connect to."""

    url: SplitResult
    host: str
    port: int
    address: IPAddress


def parse_url(url: str) -> SplitResult:
    """The URL split, if it is an absolute http(s) URL without credentials; else DestinationRefused."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise DestinationRefused(f"not a valid URL: {exc}") from exc
    if parts.scheme not in ("http", "https"):
        raise DestinationRefused("the URL must start with https:// (or http://)")
    if not parts.hostname:
        raise DestinationRefused("the URL has no host name")
    if parts.username is not None or parts.password is not None:
        raise DestinationRefused("credentials in the URL are not accepted; the signature authenticates us")
    if port == 0:
        raise DestinationRefused("port 0 is not a port")
    return parts


# IPv6 prefixes whose addresses carry an IPv4 one and reach it through a relay or gateway: 6to4
# (2002::/16), Teredo (2001::/32) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48). Python calls 6to4 and
# NAT64 addresses global, so 2002:7f00:1:: would reach 127.0.0.1 through a relay on the server's
# network. They are refused outright rather than judged by the IPv4 inside: a Teredo address holds
# it obfuscated next to its server's, a NAT64 gateway may use a prefix of its own that nothing here
# knows, and no webhook receiver publishes such an address in place of a native one.
_TUNNELS = tuple(
    ipaddress.IPv6Network(network) for network in ("2002::/16", "2001::/32", "64:ff9b::/96", "64:ff9b:1::/48")
)


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in get_settings().webhook_allowed_networks]


def refusal_for_address(address: IPAddress) -> str | None:
    """Why a delivery may not go to this address (None: it may)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address in network for network in _allowed_networks()):
        return None
    if any(address in network for network in _TUNNELS):
        kind = "an IPv6 address tunnelling to IPv4 (6to4, Teredo or NAT64)"
    elif address.is_loopback:
        kind = "a loopback address"
    elif address.is_link_local:
        kind = "a link-local address"
    elif address.is_private:
        kind = "a private address"
    elif address.is_multicast or address.is_unspecified or address.is_reserved or not address.is_global:
        kind = "not a public address"
    else:
        return None
    return (
        f"{address} is {kind}: webhooks only reach public addresses "
        "(an operator can allow a network with STORBENCH_WEBHOOK_ALLOWED_NETWORKS)"
    )


def resolve(url: str) -> Destination:
    """The URL's checked destination; DestinationRefused if any address it resolves to is refused."""
    parts = parse_url(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise DestinationRefused(f"the host name '{host}' cannot be resolved") from exc
        addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0]) for info in infos))
        if not addresses:
            raise DestinationRefused(f"the host name '{host}' has no address")
    # Every address must be acceptable: otherwise a name with one public and one private
    # address would reach the private one whenever the resolver put it first.
    for address in addresses:
        reason = refusal_for_address(address)
        if reason is not None:
            raise DestinationRefused(reason)
    return Destination(url=parts, host=host, port=port, address=addresses[0])


def ensure_acceptable(url: str) -> None:
    """Invalid (422 naming the url field) unless a webhook may be registered with this URL."""
    try:
        resolve(url)
    except DestinationRefused as exc:
        raise Invalid(
            f"this URL cannot receive webhooks: {exc}",
            [{"field": "url", "value": url[:200], "reason": str(exc)}],
        ) from exc
