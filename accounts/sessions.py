"""The database sessions, with keys only as Django makes them: letters and digits. Django reads
a quoted cookie's octal escapes, so sessionid="\000\000…" arrives as a key of NULs, which
PostgreSQL refuses even to compare: every page answered 500 to it. Any other key is no session.
(The store is made with the cookie's key by the pages' and the sockets' session middleware
alike; its documented constructor is where the key is judged.)"""
from django.contrib.sessions.backends import db


class SessionStore(db.SessionStore):
    def __init__(self, session_key=None):
        if session_key is not None and not (isinstance(session_key, str) and session_key.isascii()
                                            and session_key.isalnum()):
            session_key = None
        super().__init__(session_key)
