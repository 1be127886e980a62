#!/bin/sh
# Entry point of every container of the image (web, worker, beat, migrate): wait until the
# database accepts connections, then run the container's command as PID 1 (signals reach it).
# The migrate service of compose.yaml runs `python manage.py migrate` through here once,
# before web, worker and beat start.
set -eu

if [ "${BALOOT_WAIT_FOR_DB:-1}" = "1" ]; then
  python - <<'PY'
import sys
import time

import django
from django.db import connection
from django.db.utils import OperationalError

django.setup()
for attempt in range(60):
    try:
        connection.ensure_connection()
        break
    except OperationalError as exc:
        print(f"waiting for the database ({exc.__class__.__name__})", file=sys.stderr)
        time.sleep(1)
else:
    sys.exit("the database did not come up in 60 s")
PY
fi

exec "$@"
