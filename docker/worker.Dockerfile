# A target host's worker: fio, Celery, the fio and protocol packages only (no FastAPI, SQLAlchemy or DB driver).
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fio python3 python3-venv ca-certificates \
    && rm -rf /var/lib/apt/lists/*
# A TLS-intercepting proxy between this build and the registries: its CA (PEM text, public) as a build arg.
ARG EXTRA_CA_CERTS=""
RUN if [ -n "$EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" >/usr/local/share/ca-certificates/storbench-extra.crt && update-ca-certificates >/dev/null; \
    fi
ENV VIRTUAL_ENV=/opt/storbench-worker PATH=/opt/storbench-worker/bin:$PATH PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt
RUN python3 -m venv /opt/storbench-worker
WORKDIR /app
COPY fio/ fio/
COPY protocol/ protocol/
COPY worker/ worker/
RUN pip install --no-cache-dir --disable-pip-version-check ./fio ./protocol ./worker
COPY docker/worker-healthcheck.py /usr/local/bin/storbench-worker-healthcheck
ENV STORBENCH_WORKER_STATE_DIR=/var/lib/storbench-worker
# Not root: fio only ever writes where this user may, and named volumes take these owners when first mounted.
RUN useradd --system --home-dir /var/lib/storbench-worker storbench-worker \
    && install -d -o storbench-worker -g storbench-worker -m 700 /var/lib/storbench-worker /scratch
USER storbench-worker
CMD ["storbench-worker"]
