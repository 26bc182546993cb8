"""A listener that remembers its calls, for the tests of MATCH_*_LISTENERS."""
CALLS: list[dict] = []


def record(**kwargs):
    CALLS.append(kwargs)


FAILED: list[dict] = []


def fail_once(**kwargs):
    """Fails the first time it hears of a change (a mail server away), then succeeds."""
    if kwargs not in FAILED:
        FAILED.append(kwargs)
        raise ConnectionError("the mail server is away")
