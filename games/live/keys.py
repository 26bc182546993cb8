"""The names the live path shares between the publisher, the sockets and the signals: groups
and the cache's marks of ended sessions and changed passwords."""
from games.change import digest


def group_name(match_id) -> str:
    """Every socket of a match: told when who may watch changes without a new version."""
    return f"match-{match_id}"


def session_group(session_key: str) -> str:
    # A session key is a credential: the group and the cache know it only by a digest.
    return f"session-{digest(session_key)}"


def user_group(user_id) -> str:
    return f"user-{user_id}"


def token_group(token_digest: str) -> str:
    return f"token-{token_digest[:32]}"


def ended_key_of(session_digest: str) -> str:
    return f"live:ended:{session_digest}"


def ended_key(session_key: str) -> str:
    return ended_key_of(digest(session_key))


def credentials_key(user_id) -> str:
    return f"live:credentials:{user_id}"
