"""Hosts in Linux network namespaces, each with its own address on a veth bridge (needs root)."""

import os
import shutil
import subprocess
from dataclasses import dataclass, field


def ip(*args: str) -> None:
    """Run `ip ARGS`, raising on failure."""
    subprocess.run(["ip", *args], check=True, capture_output=True)


@dataclass
class Network:
    """The namespaces and links made, so they can be cut and removed."""

    bridge: str
    subnet: str
    namespaces: list[str] = field(default_factory=list)
    bridge_ends: list[str] = field(default_factory=list)
    made_bridge: bool = False

    @property
    def bridge_address(self) -> str:
        """The bridge's own address: where the API and the broker listen for the hosts."""
        return f"{self.subnet}.1"

    def prefix(self, index: int) -> tuple[str, ...]:
        """The command prefix running a program in host `index`'s namespace (0-based)."""
        return ("ip", "netns", "exec", self.namespaces[index])

    def remove(self) -> None:
        """Remove everything made, whatever state it is in."""
        for namespace in self.namespaces:
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        for end in self.bridge_ends:
            subprocess.run(["ip", "link", "del", end], capture_output=True)
        if self.made_bridge:
            subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)


def make_network(hosts: int, subnet: str, tag: str) -> Network | None:
    """A bridge at SUBNET.1 and one namespace per host at SUBNET.(10+i); None where not allowed.

    `tag` (a few letters) keeps the names of concurrent users apart; everything made is removed
    again if any step fails.
    """
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return None
    suffix = os.getpid() % 1000
    network = Network(bridge=f"{tag}br{os.getpid() % 10000}", subnet=subnet)
    try:
        ip("link", "add", network.bridge, "type", "bridge")
        network.made_bridge = True
        ip("addr", "add", f"{subnet}.1/24", "dev", network.bridge)
        ip("link", "set", network.bridge, "up")
        for index in range(1, hosts + 1):
            namespace = f"{tag}host{index}-{os.getpid() % 10000}"
            inside, outside = f"{tag}v{index}i{suffix}", f"{tag}v{index}o{suffix}"
            ip("netns", "add", namespace)
            network.namespaces.append(namespace)
            ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            network.bridge_ends.append(outside)
            ip("link", "set", inside, "netns", namespace)
            ip("link", "set", outside, "master", network.bridge)
            ip("link", "set", outside, "up")
            ip("-n", namespace, "addr", "add", f"{subnet}.{10 + index}/24", "dev", inside)
            ip("-n", namespace, "link", "set", inside, "up")
            ip("-n", namespace, "link", "set", "lo", "up")
    except subprocess.CalledProcessError:
        network.remove()
        return None
    return network
