"""Shared set-up for the Pirater page tests."""
from games import play
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


def choose_ports(match: Match) -> Match:
    """Edition 2 (P5): each seat, in roll order, chooses through the services the port (or
    realm side) listed in its own seat's place when nobody had chosen; else the first free."""
    engine = get_engine("pirater")
    match.refresh_from_db()
    users = {s.number: s.user for s in match.seats.all()}
    everything = engine.legal_actions(match.state, match.state["current"])
    while match.state["phase"] == "ports":
        seat = match.state["current"]
        free = engine.legal_actions(match.state, seat)
        wanted = everything[seat] if seat < len(everything) else free[0]
        play.action_apply(match_id=match.pk, user=users[seat],
                              action=wanted if wanted in free else free[0])
        match.refresh_from_db()
    return match


def new_match(creator, *others, edition=1, **kwargs) -> Match:
    """A running match. These page tests name squares of edition 1's board, so by default the
    match is dealt again from its seed under edition 1, as a match begun before edition 2 was
    (and plays on so); edition=2 leaves it at the port choice (P5)."""
    match = play.match_create(creator=creator, game="pirater", seats=1 + len(others), **kwargs)
    for user in others:
        play.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    if edition == 2:
        return match
    engine = get_engine("pirater")
    state = engine.new_game(match.seats_count, match.seed, match.options, edition=edition)
    Match.objects.filter(pk=match.pk).update(state=state, rules_version=str(edition),
                                             turn_seats=engine.to_act(state))
    match.refresh_from_db()
    return usable_first_roll(match)
