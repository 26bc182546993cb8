"""Shared set-up for the Pirater page tests."""
from games import services
from games.engines import get_engine
from games.engines.dice import seed_hash
from games.models import Match


def usable_first_roll(match: Match) -> Match:
    """Give a fresh match a seed whose first roll can be used, so tests never depend on luck
    (P11 would otherwise pass the turn at once)."""
    engine = get_engine("pirater")
    for n in range(500):
        trial = dict(match.state, seed=f"usable-{n}")
        if engine.apply(trial, trial["current"], {"type": "roll"})[0]["phase"] == "move":
            Match.objects.filter(pk=match.pk).update(state=trial, seed=trial["seed"], seed_hash=seed_hash(trial["seed"]))
            match.refresh_from_db()
            return match
    raise AssertionError("no seed with a usable first roll")


def new_match(creator, *others, **kwargs) -> Match:
    match = services.match_create(creator=creator, game="pirater", seats=1 + len(others), **kwargs)
    for user in others:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return usable_first_roll(match)
