"""The Celery app as a worker of the fault tests runs it: the real tasks, plus a slow race game
whose timeout lingers long enough for the test to kill the worker in the middle of the job."""
import os
import pathlib
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from config.celery import app  # noqa: E402,F401
from games.engines import ENGINES  # noqa: E402
from tests.race_engine import RaceEngine  # noqa: E402


class SlowRace(RaceEngine):
    name = "slowrace"

    def timeout_action(self, state, seat):
        marker = os.environ.get("SLOW_MARKER")
        if marker:
            pathlib.Path(marker).write_text("the deadline job is running")
        time.sleep(float(os.environ.get("SLOW_SECONDS", "0")))
        return super().timeout_action(state, seat)


ENGINES["slowrace"] = SlowRace()
ENGINES.setdefault("race", RaceEngine())
if os.environ.get("MAIL_DIR"):  # each mail a file there, to count what was sent
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = os.environ["MAIL_DIR"]
# A killed worker's unacknowledged job comes back quickly instead of after an hour.
app.conf.broker_transport_options = {"visibility_timeout": 2}
