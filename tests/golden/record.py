"""Record a complete game for the golden tests: python tests/golden/record.py GAME PLAYERS SEED
[OPTIONS_JSON [EDITION]] > tests/golden/NAME.json (the engine's current edition unless one is
named). Bots play it from the seed; the file keeps the seed,
every action and the final state, so a later rules change that alters a running campaign's
outcome fails tests/engines/test_golden.py."""
import importlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engines import get_engine  # noqa: E402

STEP_LIMIT = 20000


def record(game: str, players: int, seed: str, options: dict, edition: int | None = None) -> dict:
    engine = get_engine(game)
    bots = importlib.import_module(f"games.engines.{game}.bots")
    rnd = random.Random(seed)
    state = engine.new_game(players, seed, options, edition=edition)
    actions = []
    for _ in range(STEP_LIMIT):
        if engine.is_over(state):
            break
        system = engine.system_action(state)
        seat = None if system is not None else engine.to_act(state)[0]
        action = system if system is not None else bots.random_action(state, seat, rnd)
        state, _ = engine.apply(state, seat, action)
        actions.append([seat, action])
    return {"game": game, "edition": state.get("edition", 1), "players": players, "seed": seed,
            "options": options,
            "actions": actions, "final_state": state}


if __name__ == "__main__":
    game, players, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    edition = int(sys.argv[5]) if len(sys.argv) > 5 else None
    print(json.dumps(record(game, players, seed, options, edition), separators=(",", ":"), sort_keys=True))
