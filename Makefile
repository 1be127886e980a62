# Two commands on a fresh machine: `make run` and `make test`. Everything else is optional.
#   make run    API (Swagger UI at /api/docs/) + Celery worker + beat on the embedded defaults
#   make test   the whole suite (SQLite and the SQLite broker by default; PostgreSQL/Redis when DATABASE_URL /
#               CELERY_BROKER_URL are set, as .ci/run does)
#   make test-fast  the fast tier: no browser, node, worker, server or service (tests/README.md, "Tiers")
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
TS_CLIENT := tests/clients/ts
TS_STAMP := $(TS_CLIENT)/node_modules/.installed
PYTEST_ARGS ?=

.PHONY: run test test-fast test-deps lint format bench bench-analysis bench-tournaments bench-sawa bench-load bench-live bench-leaderboard bench-push bench-capacity bots-eval schema demo clean system-deps

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The TypeScript client the contract tests compile and play (exact versions from its lockfile).
$(TS_STAMP): $(TS_CLIENT)/package.json $(TS_CLIENT)/package-lock.json
	cd $(TS_CLIENT) && npm ci --no-audit --no-fund
	touch $(TS_STAMP)

# Debian packages the test suite drives: headless Chromium for the admin browser check.
system-deps:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium (admin browser check)"; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

run: $(STAMP)
	$(PY) scripts/supervise.py

demo: $(STAMP)
	$(PY) -m games.engine play --seed 1 --bot easy

# The official AsyncAPI parser the event-contract test runs with node (pinned by its lockfile).
ASYNCAPI_CHECKER := tests/clients/asyncapi
$(ASYNCAPI_CHECKER)/node_modules/.installed: $(ASYNCAPI_CHECKER)/package-lock.json
	cd $(ASYNCAPI_CHECKER) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Everything the suite needs installed (CI installs it once, then runs two passes at once).
test-deps: $(STAMP) $(TS_STAMP) system-deps $(ASYNCAPI_CHECKER)/node_modules/.installed

test: test-deps
	$(PY) -m pytest -q $(PYTEST_ARGS)

# The fast tier (tests/README.md, "Tiers"): the engine, unit and in-process API tests. It leaves out the
# slow kinds, the markers pyproject.toml registers, which tests get from the fixtures they use
# (tests/conftest.py); so it needs the Python packages only (no Chromium, no npm) and runs on
# FAST_PROCESSES processes (pytest-xdist: each has its own test database).
FAST_TIER := not (browser or node or worker or server or drill or services or slow)
FAST_PROCESSES ?= 2
test-fast: $(STAMP)
	$(PY) -m pytest -q -m "$(FAST_TIER)" -n $(FAST_PROCESSES) $(PYTEST_ARGS)

# mypy with the Django and DRF plugins over the whole project, tests included ([tool.mypy]).
MYPY_PATHS := baloot_site core accounts moderation players games tournaments live bench scripts tests manage.py

# Then the checks that read the source rather than run it (scripts/check_*.py), one a line.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy $(MYPY_PATHS)
	$(PY) scripts/check_source.py
	$(PY) scripts/check_docs.py

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

schema: $(STAMP)
	$(PY) manage.py spectacular --validate --fail-on-warn --file var/schema.yaml
	@echo "wrote var/schema.yaml"

bench: $(STAMP)
	$(PY) -m bench.engine
	$(PY) -m bench.replay
	$(PY) -m bench.bots_latency
	$(PY) -m bench.http
	$(PY) -m bench.sweep
	$(PY) -m bench.bot_tables --seconds 20

# The post-game analysis ranks the bot levels: self-play of each level on the same decks, every
# decision analysed, mean loss per decision with its 95% CI (bench/analysis_levels.py; about
# ten minutes at 24 matches a level on 2 cores).
ANALYSIS_MATCHES ?= 24
bench-analysis: $(STAMP)
	$(PY) -m bench.analysis_levels --matches $(ANALYSIS_MATCHES)

# The fair-play signals on simulated populations (issue 28): the share of honest accounts flagged
# and the matches it takes to flag a pair that sees each other's hands and the hard bot posing as
# a person (bench/fairplay.py; the played matches are kept in var/fairplay/, so a second run only
# reports; about 40 minutes on 2 cores the first time at these sizes).
FAIRPLAY_ARGS ?= --honest 200 --cheats 60
bench-fairplay: $(STAMP)
	$(PY) -m bench.fairplay $(FAIRPLAY_ARGS)

# Tournaments at full size played by bots (issue 29): a 256-team knockout and a 64-team, 6-round
# Swiss, every match log checked, the scheduling work per round timed (bench/tournaments.py;
# SQLite in a temporary folder; about half an hour on one core with matches to 152).
TOURNAMENT_ARGS ?=
bench-tournaments: $(STAMP)
	$(PY) -m bench.tournaments $(TOURNAMENT_ARGS)

# Sawa adjudication (rules-saudi.md S22) at its worst case, 4 cards a hand (bench/sawa.py).
bench-sawa: $(STAMP)
	$(PY) -m bench.sawa

# gunicorn + the Celery workers of both queues + beat against PostgreSQL and Redis on this machine
# (loopback); bot replies per level (bench/load.py).
bench-load: $(STAMP)
	$(PY) -m bench.load

# The live stream on this machine (loopback): commit-to-client latency with a real worker next to
# polling, idle connections one process holds, fan-out to 1,000 clients (bench/live.py).
bench-live: $(STAMP)
	$(PY) -m bench.live

# A slow push target next to the games (issue 23): easy bots' reply p50/p95 with no push device and
# with 100 devices at a tarpit, side by side, and the push worker's throughput to a fast local
# push service, with the workers make run starts (bench/push_isolation.py; embedded defaults).
bench-push: $(STAMP)
	$(PY) -m bench.push_isolation

# Capacity (issue 24): human-paced four-human tables, bot tables and spectators on their streams,
# ramped until move p95 passes 200 ms or stream lag p95 500 ms; the largest number of tables
# sustained, on the embedded default, then PostgreSQL + Redis with one and two web processes
# (bench/capacity.py; loopback, each run capped by --max-seconds, 240 s by default).
CAPACITY_ARGS ?=
bench-capacity: $(STAMP)
	$(PY) -m bench.capacity $(CAPACITY_ARGS)
	$(PY) -m bench.capacity --backend postgres $(CAPACITY_ARGS)
	$(PY) -m bench.capacity --backend postgres --web 2 $(CAPACITY_ARGS)

# Leaderboards at 100,000 players: page 1, a deep page and your rank on both boards, with the
# query plans (bench/leaderboard.py; PostgreSQL when DATABASE_URL is set, in a database of its own).
bench-leaderboard: $(STAMP)
	$(PY) -m bench.leaderboard

# Bot strength (duplicate deals, full matches) and the self-play rates next to people's, in
# gamerules then (smaller) in saudi; hours on 2 cores at these sizes (docs/bots.md). The bots
# keep their production budgets but the hard bot's, which HARD_EVAL_BUDGET sets (seconds).
EVAL_ROUNDS ?= 2000
EVAL_MATCHES ?= 100
EVAL_RATE_ROUNDS ?= 1000
SAUDI_EVAL_ROUNDS ?= 500
HARD_EVAL_BUDGET ?= 0.25
bots-eval: $(STAMP)
	$(PY) -m bench.bots_eval --ruleset gamerules --a hard --b normal --rounds $(EVAL_ROUNDS) \
		--matches $(EVAL_MATCHES) --hard-budget $(HARD_EVAL_BUDGET)
	$(PY) -m bench.bots_eval --ruleset gamerules --a normal --b easy --rounds $(EVAL_ROUNDS) \
		--matches $(EVAL_MATCHES) --rates easy,normal,hard --rate-rounds $(EVAL_RATE_ROUNDS) \
		--hard-budget $(HARD_EVAL_BUDGET)
	$(PY) -m bench.bots_eval --ruleset saudi --a hard --b normal --rounds $(SAUDI_EVAL_ROUNDS) \
		--matches 0 --hard-budget $(HARD_EVAL_BUDGET)
	$(PY) -m bench.bots_eval --ruleset saudi --a normal --b easy --rounds $(SAUDI_EVAL_ROUNDS) \
		--matches 0 --rates easy,normal --rate-rounds $(SAUDI_EVAL_ROUNDS)

clean:
	rm -rf $(VENV) .pytest_cache var
