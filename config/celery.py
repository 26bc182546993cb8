import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tradewinds")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# A worker's process runs one short job after another: opening a database connection for each
# (Celery's Django fix-up closes it before and after every task) cost more CPU than most jobs,
# here and in PostgreSQL. So each pool process keeps its connection (CELERY_DB_REUSE_MAX stops
# the fix-up's closing) and closes it only as Django would after a request: broken, in error or
# older than WORKER_CONN_MAX_AGE, checked before its first use in each task.
WORKER_CONN_MAX_AGE = 600


@signals.worker_process_init.connect
def _keep_connections(**kwargs):
    from django.db import connections

    for alias in connections:
        config = connections.settings[alias]
        if config.get("OPTIONS", {}).get("pool"):
            continue  # DB_POOL=1: connections come from the pool (which refuses CONN_MAX_AGE)
        if config.get("CONN_MAX_AGE") is not None:
            config["CONN_MAX_AGE"] = max(config.get("CONN_MAX_AGE") or 0, WORKER_CONN_MAX_AGE)
        config["CONN_HEALTH_CHECKS"] = True
    signals.task_prerun.connect(_close_old_connections, weak=False)
    signals.task_postrun.connect(_close_old_connections, weak=False)


def _close_old_connections(task=None, **kwargs):
    if task is not None and getattr(task.request, "is_eager", False):
        return  # run in the caller's process, maybe inside its transaction: its connection
    from django.db import close_old_connections

    close_old_connections()


# Heartbeats for /health/ (config/health.py): beat's each time it queues a periodic job, from its
# own process only (the web processes queue jobs too, and prove nothing about beat).
_IN_BEAT = []


@signals.beat_init.connect
def _in_beat(**kwargs):
    _IN_BEAT.append(True)


@signals.before_task_publish.connect
def _beat_heartbeat(**kwargs):
    if _IN_BEAT:
        from config.health import BEAT_HEARTBEAT, beat

        beat(BEAT_HEARTBEAT)
