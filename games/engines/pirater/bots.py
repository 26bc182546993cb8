"""A simple bot for playouts and empty seats: mostly the move that best serves the treasure
race, sometimes any legal move, so that random games still end."""
from __future__ import annotations

import random

from games.engines.pirater.rules import Context, legal_actions, position, try_move


def _target_distance(board, pos, ctx, node: int) -> int:
    """How far a ship without the treasure is from what it should chase: the island
    anchorages while a treasure lies there, else the nearest enemy treasure ship."""
    targets = [pos.at[c] for c in pos.carry if c >= 0 and ctx.owner[c] != ctx.seat]
    if any(c < 0 for c in pos.carry):
        targets += list(board.anchorage_island)
    if not targets:
        return 0
    return min(board.distances_from(t)[node] for t in targets)


def score_move(state: dict, seat: int, action: dict) -> float:
    ctx = Context(state, seat)
    pos = position(state)
    moved = try_move(ctx, pos, action["ship"], action["die"], action["direction"],
                     action.get("split", False))
    if type(moved) is str:
        return -1.0
    if moved.win:
        return 1000.0
    board = ctx.board
    score = 200.0 * len(moved.took) + 100.0 * (moved.loaded is not None) + 30.0 * len(moved.captured)
    if any(c in moved.group for c in moved.pos.carry if c >= 0):
        score += 10.0 * (ctx.dist[moved.start] - ctx.dist[moved.dest])
    else:
        score += 3.0 * (_target_distance(board, pos, ctx, moved.start)
                        - _target_distance(board, moved.pos, ctx, moved.dest))
    return score


def random_action(state: dict, seat: int, rnd: random.Random) -> dict:
    """One of legal_actions(state, seat), usually the best-looking one."""
    actions = legal_actions(state, seat)
    if not actions:
        raise ValueError("this seat has nothing to do")
    if actions[0]["type"] == "roll":
        powder = [a for a in actions if a["type"] == "declare_powder"]
        if powder and rnd.random() < 0.03:
            return rnd.choice(powder)
        return actions[0]
    if rnd.random() < 0.15:
        return rnd.choice(actions)
    scored = [(score_move(state, seat, a), rnd.random(), i) for i, a in enumerate(actions)]
    return actions[max(scored)[2]]
