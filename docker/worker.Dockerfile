# A target host's worker: fio, Celery, the fio and protocol packages only (no FastAPI, SQLAlchemy or DB driver).
FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends fio && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY fio/ fio/
COPY protocol/ protocol/
COPY worker/ worker/
RUN pip install --no-cache-dir ./fio ./protocol ./worker
CMD ["storbench-worker"]
