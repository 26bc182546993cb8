"""The database sessions, with keys only as Django makes them: letters and digits. Django reads
a quoted cookie's octal escapes, so sessionid="\000\000…" arrives as a key of NULs, which
PostgreSQL refuses even to compare: every page answered 500 to it. Any other key is no session."""
from django.contrib.sessions.backends import db


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key):
        return super()._validate_session_key(key) and key.isascii() and key.isalnum()
