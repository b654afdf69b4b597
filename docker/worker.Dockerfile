# A target host's worker: fio, Celery and the fio package only (no FastAPI, SQLAlchemy or DB driver).
FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends fio && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY fio/ fio/
COPY worker/ worker/
RUN pip install --no-cache-dir ./fio ./worker
CMD ["storbench-worker"]
