# Tradewinds: `make run` serves the site, `make test` runs every check. Both install first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test check bench browser nginx gettext worker messages clean crawl

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# With REDIS_URL set, a Celery worker, beat (its own process, as Celery recommends: a worker that
# dies does not take the schedule with it) and the webhooks and push worker run beside the site; without
# it, the jobs run inside the web process. Either way deadlines and chance cards happen on time.
# Each process that dies is started again (in production the supervisor does it: README).
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py demo_users
	@trap 'trap - INT TERM EXIT; kill 0' INT TERM EXIT; \
	if [ -n "$$REDIS_URL" ]; then \
	  while :; do $(WORKER) --loglevel=warning; echo "the worker stopped (exit $$?); starting it again in 2 s" >&2; sleep 2; done & \
	  while :; do $(BEAT) --loglevel=warning; echo "beat stopped (exit $$?); starting it again in 2 s" >&2; sleep 2; done & \
	  while :; do $(WEBHOOK_WORKER) --loglevel=warning; \
	  echo "the webhook worker stopped (exit $$?); starting it again in 2 s" >&2; sleep 2; done & fi; \
	$(PY) manage.py serve --bind $(HOST) --port $(PORT)

# The game jobs' worker (no gossip or mingle: nothing here uses them, and they only add broker
# traffic and errors to a reconnection), and beat, which only queues the periodic jobs.
# tests/ops/test_worker_outage.py starts exactly these.
WORKER = $(VENV)/bin/celery -A config worker -Q celery --concurrency=2 --without-gossip --without-mingle
BEAT = $(VENV)/bin/celery -A config beat
# Webhook deliveries have a queue and a worker of their own (threads: they mostly wait on the
# network), so a receiver that never answers holds up no deadline or chance card.
WEBHOOK_WORKER = $(VENV)/bin/celery -A config worker -Q webhooks,push -n webhooks@%h --pool=threads --concurrency=16 --without-gossip --without-mingle

worker: install
	@trap 'trap - INT TERM EXIT; kill 0' INT TERM EXIT; $(WEBHOOK_WORKER) --loglevel=info & \
	$(BEAT) --loglevel=info & $(WORKER) --loglevel=info

# Browser tests drive a real Chromium: Debian's package where apt is at hand, else Playwright's.
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  (apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null)); \
	else $(PY) -m playwright install chromium; fi

# The tests of the production layout (tests/platform) start nginx with docs/deploy/nginx.conf.
nginx:
	@if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  (apt-get install -y -q nginx >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q nginx >/dev/null)); \
	else echo "install nginx for tests/platform (e.g. apt-get install -y nginx)" >&2; fi

# The catalogs' test (tests/platform/test_message_catalogs.py) and `make messages` run GNU gettext.
gettext:
	@if command -v msgmerge >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  (apt-get install -y -q gettext >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q gettext >/dev/null)); \
	else echo "install GNU gettext for the catalogs' test (e.g. apt-get install -y gettext)" >&2; fi

test: install browser nginx gettext
	$(PY) -m pytest

# The engines' rules, goldens and contract, and the import contracts: about 90 s on a loaded
# two-core machine, no database, server or browser. Before a commit; `make test` before a merge.
check: install
	$(PY) -m pytest -q -p no:cacheprovider tests/engines tests/test_architecture.py -m "not browser"

# The browser crawl of every game at both sizes, longer than in `make test`: before a release.
CRAWL_ACTIONS ?= 60
CRAWL_SEEDS ?= 3
crawl: install browser
	CRAWL_ACTIONS=$(CRAWL_ACTIONS) CRAWL_SEEDS=$(CRAWL_SEEDS) $(PY) -m pytest tests/browser/crawl

bench: install
	$(PY) bench/run.py

# Translations: extract the marked strings into locale/<lang>/LC_MESSAGES/django.po (needs
# GNU gettext), translate the new entries, then run it again to compile the .mo files, which
# are committed so that a checkout runs without gettext. tests/platform/test_message_catalogs.py
# reads MAKEMESSAGES_ARGS from here and runs the same makemessages on a copy of the sources.
MAKEMESSAGES_ARGS = --no-obsolete --add-location=file -l da -l de -l sv \
  --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' --ignore='staticfiles/*'
messages: install gettext
	$(PY) manage.py makemessages $(MAKEMESSAGES_ARGS)
	$(PY) manage.py compilemessages --ignore='.venv/*'

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 test-db-*.sqlite3* tests/artifacts
