"""Listeners for the failing-jobs tests, in a module of their own so that the jobs (which import
them by dotted path) and the tests share one list of what was heard."""
HEARD = []


def poisoned(*, first_seq, **kwargs):
    HEARD.append(first_seq)
    if first_seq == 1:
        {["a list"]: "as a key"}  # the TypeError of issue 29's listener, for ever


def heard(*, first_seq, **kwargs):
    HEARD.append(first_seq)
