#!/usr/bin/env bash
# Validates docker-compose.yml with whichever Compose is available (installing Debian's when none is).
set -euo pipefail
cd "$(dirname "$0")/.."
# It has no default secret: give each one a placeholder.
export STORBENCH_SECRET_KEY=check STORBENCH_ADMIN_PASSWORD=check POSTGRES_PASSWORD=check REDIS_PASSWORD=check
if docker compose version >/dev/null 2>&1; then
  docker compose -f docker-compose.yml --profile worker config --quiet
else
  if ! command -v docker-compose >/dev/null 2>&1; then
    echo "==> installing docker-compose to validate docker-compose.yml"
    run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
    run apt-get update -qq
    DEBIAN_FRONTEND=noninteractive run apt-get install -y -qq docker-compose >/dev/null
  fi
  docker-compose -f docker-compose.yml --profile worker config --quiet
fi
echo "docker-compose.yml is valid"
