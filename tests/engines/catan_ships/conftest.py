import pytest


@pytest.fixture(autouse=True)
def _jobs_in_process():
    # The engine tests need no Django: this overrides the suite-wide autouse fixture of the
    # same name (which needs pytest-django's `settings`) so they also run with -p no:django.
    yield
