"""A listener that remembers its calls, for the tests of MATCH_*_LISTENERS."""
CALLS: list[dict] = []


def record(**kwargs):
    CALLS.append(kwargs)
