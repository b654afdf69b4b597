FROM node:20-bookworm-slim AS spa
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock
COPY fio/ fio/
COPY protocol/ protocol/
COPY backend/ backend/
COPY migrations/ migrations/
COPY alembic.ini ./
# Editable, so the service finds migrations/ and alembic.ini beside its source.
RUN pip install --no-cache-dir --no-deps -e ./fio -e ./protocol -e ./backend
COPY --from=spa /src/frontend/dist /app/frontend/dist
ENV STORBENCH_SPA_DIR=/app/frontend/dist STORBENCH_DATA_DIR=/var/lib/storbench
EXPOSE 8000
CMD ["storbench-api", "serve", "--host", "0.0.0.0", "--port", "8000"]
