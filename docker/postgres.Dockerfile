# PostgreSQL 15 from Debian's packages (what the public postgres:15 image gives, buildable FROM a local base).
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
# No packaged cluster: the entrypoint creates one in the volume on first start.
RUN mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
    && apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o postgres -g postgres -m 700 /var/lib/postgresql/data \
    && install -d -o postgres -g postgres -m 2775 /var/run/postgresql
COPY docker/postgres-entrypoint.sh /usr/local/bin/storbench-postgres
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
CMD ["storbench-postgres"]
