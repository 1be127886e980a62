#!/usr/bin/env bash
# `make run`: the API, a Celery worker and Celery beat together on the embedded defaults
# (SQLite, filesystem broker) or on whatever DATABASE_URL / CELERY_BROKER_URL say.
# Ctrl-C stops all three.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}

$PY manage.py migrate --noinput
trap 'trap - INT TERM EXIT; kill 0 2>/dev/null; wait' INT TERM EXIT
.venv/bin/celery -A baloot_site worker --loglevel=INFO --concurrency=2 --without-gossip --without-mingle &
.venv/bin/celery -A baloot_site beat --loglevel=INFO &
echo "API: http://$HOST:$PORT/api/v1/  Swagger UI: http://$HOST:$PORT/api/docs/"
$PY manage.py runserver "$HOST:$PORT" --noreload &
wait -n
