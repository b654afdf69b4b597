#!/usr/bin/env bash
# Builds the base image every storbench image starts FROM when no registry can be reached:
# a minimal Debian 12 from Debian's own packages (debootstrap), imported as storbench/debian:bookworm.
#   scripts/build-base-image.sh [TAG]     (as root; installs debootstrap when it is missing)
# Then: BASE_IMAGE=storbench/debian:bookworm docker compose build (prod-check does it for you).
set -euo pipefail
tag=${1:-storbench/debian:bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "==> installing debootstrap"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
root=$(mktemp -d /tmp/storbench-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
echo "==> debootstrap --variant=minbase bookworm ($mirror)"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || { tail -20 "$root.log"; exit 1; }
rm -f "$root.log"
# Security and point-release updates too, as the public debian:bookworm-slim image has.
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
# As in Debian's official images: no recommends, no docs, no apt caches left in layers.
echo 'APT::Install-Recommends "false";' >"$root/etc/apt/apt.conf.d/90storbench-no-recommends"
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
echo "==> docker import $tag"
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["bash"]' - "$tag" >/dev/null
echo "built $tag"
