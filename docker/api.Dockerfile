# The API serving the SPA. Every image starts FROM ${BASE_IMAGE}: Debian's public bookworm-slim by
# default, or the one scripts/build-base-image.sh builds from Debian's packages where no registry is
# reachable (BASE_IMAGE=storbench/debian:bookworm).
ARG BASE_IMAGE=debian:bookworm-slim

# The SPA needs Node >= 20.19 (Vite); bookworm has 18, so this throwaway stage takes trixie's.
FROM ${BASE_IMAGE} AS spa
RUN echo 'deb http://deb.debian.org/debian trixie main' >/etc/apt/sources.list.d/trixie.list \
    && printf 'Package: *\nPin: release n=trixie\nPin-Priority: 100\n' >/etc/apt/preferences.d/trixie \
    && apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -t trixie nodejs npm \
    && rm -rf /var/lib/apt/lists/*
# A TLS-intercepting proxy between this build and the registries: its CA (PEM text, public) as a build arg.
ARG EXTRA_CA_CERTS=""
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" >/usr/local/share/ca-certificates/storbench-extra.crt && update-ca-certificates >/dev/null; \
    fi
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM ${BASE_IMAGE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
    && rm -rf /var/lib/apt/lists/*
# A TLS-intercepting proxy between this build and the registries: its CA (PEM text, public) as a build arg.
ARG EXTRA_CA_CERTS=""
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" >/usr/local/share/ca-certificates/storbench-extra.crt && update-ca-certificates >/dev/null; \
    fi
ENV VIRTUAL_ENV=/opt/storbench PATH=/opt/storbench/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt
RUN python3 -m venv /opt/storbench
WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir --disable-pip-version-check -r requirements.lock
# worker/ too: the API builds the worker's wheels from it for new hosts (GET /api/v1/worker/requirements.txt).
COPY fio/ fio/
COPY protocol/ protocol/
COPY worker/ worker/
COPY backend/ backend/
COPY migrations/ migrations/
COPY alembic.ini ./
# Editable, so the service finds migrations/ and alembic.ini beside its source.
RUN pip install --no-cache-dir --disable-pip-version-check --no-deps -e ./fio -e ./protocol -e ./backend
COPY --from=spa /src/frontend/dist /app/frontend/dist
RUN useradd --system --home-dir /var/lib/storbench --create-home storbench
ENV STORBENCH_SPA_DIR=/app/frontend/dist STORBENCH_DATA_DIR=/var/lib/storbench
USER storbench
EXPOSE 8000
CMD ["storbench-api", "serve", "--host", "0.0.0.0", "--port", "8000"]
