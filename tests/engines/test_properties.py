"""Property tests for every game: Hypothesis picks the actions of random legal games, and after
every step the game's invariants hold, apply is pure and deterministic, states survive JSON and
views hide what their seat may not see."""
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import ENGINES

MAX_STEPS = 120


def fuldrigger_invariants(state):
    from games.engines.fuldrigger import ENGINE

    for seat in range(state["players"]):
        ships = [s for s in state["ships"].values() if s["owner"] == seat]
        forts = [p for p, owner in state["fortresses"].items() if owner == seat]
        assert len(ships) <= 6 and len(forts) <= 6
        assert state["cash"][seat] >= 0
    for ship in state["ships"].values():
        assert not (ship["privateer"] and ship["cargo"]), "a privateer carries no cargo"
    for row in ENGINE.standings(state):
        seat = row["seat"]
        # F2, counted here from the pieces rather than through the engine's own helpers.
        ships = [s for s in state["ships"].values() if s["owner"] == seat]
        forts = [p for p, owner in state["fortresses"].items() if owner == seat]
        cargo = sum(s["cargo"]["paid"] for s in ships if s["cargo"]) + \
            sum(c["paid"] for c in state["crossing"] if c["owner"] == seat)
        assert row["score"] == state["cash"][seat] + 100 * len(ships) + 100 * len(forts) + cargo


def pirater_invariants(state):
    from games.engines.pirater import ENGINE

    layout = {(c["row"], c["col"]): c["kind"] for c in ENGINE.view(state, None)["layout"]["cells"]}
    carried = [s for s in state["ships"] if not s["lost"] and s.get("treasure")]
    on_islands = [t for t in state["treasures"] if t.get("ship") is None]
    assert len(state["treasures"]) >= 1
    assert len(carried) + len(on_islands) <= len(state["treasures"])
    for ship in state["ships"]:
        if not ship["lost"]:
            assert layout[tuple(ship["at"])] not in ("land", "island"), ship


def catan_ships_invariants(state):
    total = 24 if state["players"] > 4 else 19
    for r in ("brick", "lumber", "wool", "grain", "ore"):
        held = state["bank"][r] + sum(h[r] for h in state["hands"]) + \
            sum(s["cargo"].get(r, 0) for s in state["ships"])
        assert held == total, "resources are neither made nor lost"
    assert all(sum(s["cargo"].values()) <= 3 for s in state["ships"])


INVARIANTS = {"fuldrigger": fuldrigger_invariants, "pirater": pirater_invariants,
              "catan_ships": catan_ships_invariants}
PLAYERS = {"fuldrigger": 4, "pirater": 4, "catan_ships": 4}


@pytest.mark.parametrize("game", sorted(INVARIANTS))
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.text(alphabet="0123456789abcdef", min_size=8, max_size=16))
def test_random_legal_games_keep_their_invariants(game, data, seed):
    engine = ENGINES[game]
    state = engine.new_game(PLAYERS[game], seed, {})
    for _ in range(MAX_STEPS):
        if engine.is_over(state):
            break
        system = engine.system_action(state)
        if system is not None:
            seat, action = None, system
        else:
            seat = data.draw(st.sampled_from(engine.to_act(state)), label="seat")
            action = data.draw(st.sampled_from(engine.legal_actions(state, seat)), label="action")
        before = copy.deepcopy(state)
        after, events = engine.apply(state, seat, action)
        assert state == before, "apply never mutates its input"
        assert engine.apply(before, seat, action) == (after, events), "apply is deterministic"
        assert json.loads(json.dumps(after)) == after, "states survive a JSON round trip"
        for viewer in [None, *range(PLAYERS[game])]:
            shown = json.dumps(engine.view(after, viewer))
            assert after["seed"] not in shown
        state = after
        INVARIANTS[game](state)
