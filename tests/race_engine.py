"""A tiny race game for platform tests, following the engine contract: roll a die, advance or
stay; a wind blows (a system action) at the start of every round after the first; each seat
holds a secret number nobody else may see. First to the finish line wins."""
import copy

from games.engines.base import IllegalAction, Option, clean_options, quoted
from games.engines.dice import roll


OPTIONS = [Option("finish", "Finish line", "int", 30, min=5, max=200),
           Option("wind", "Wind each round", "bool", True)]


class RaceEngine:
    name = "race"
    title = "Race (test game)"
    min_players = 2
    max_players = 4
    version = "1"

    def options(self, lang="en"):  # the race speaks English only
        return [o.as_dict() for o in OPTIONS]

    def check_options(self, options, players):
        cleaned = clean_options(OPTIONS, options)
        if not self.min_players <= int(players) <= self.max_players:
            raise IllegalAction("Race is for 2 to 4 players.")
        return cleaned

    def new_game(self, players, seed, options):
        options = self.check_options(options, players)
        state = {"seed": seed, "draws": 0, "round": 1, "players": players, "current": 0, "phase": "roll",
                 "positions": [0] * players, "last_roll": None, "wind_due": False,
                 "finish": options["finish"], "wind": options["wind"]}
        state["secrets"] = [roll(state, 1, 100)[0] for _ in range(players)]
        return state

    def is_over(self, state):
        return max(state["positions"]) >= state["finish"]

    def to_act(self, state):
        if self.is_over(state) or state["wind_due"]:
            return []
        return [state["current"]]

    def system_action(self, state):
        return {"type": "wind"} if state["wind_due"] and not self.is_over(state) else None

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "roll":
            return [{"type": "roll"}]
        return [{"type": "advance"}, {"type": "stay"}]

    def apply(self, state, seat, action):
        if not isinstance(action, dict):
            raise IllegalAction("An action is an object.")
        kind = action.get("type")
        state = copy.deepcopy(state)
        if seat is None:
            if kind != "wind" or not state["wind_due"]:
                raise IllegalAction("The system has nothing to do now.")
            faces = roll(state, 1)
            last = min(range(state["players"]), key=lambda s: state["positions"][s])
            state["positions"][last] += faces[0]
            state["wind_due"] = False
            return state, [{"type": "wind", "seat": last, "dice": faces}]
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if kind == "roll" and state["phase"] == "roll":
            faces = roll(state, 1)
            state["last_roll"], state["phase"] = faces[0], "move"
            return state, [{"type": "roll", "seat": seat, "dice": faces},
                           {"type": "peek", "seat": seat, "private": [seat], "secret": state["secrets"][seat]}]
        if kind in ("advance", "stay") and state["phase"] == "move":
            moved = state["last_roll"] if kind == "advance" else 0
            state["positions"][seat] += moved
            events = [{"type": kind, "seat": seat, "squares": moved}]
            state["phase"], state["last_roll"] = "roll", None
            if not self.is_over(state):
                state["current"] = (seat + 1) % state["players"]
                if state["current"] == 0:
                    state["round"] += 1
                    state["wind_due"] = state["wind"]
            return state, events
        raise IllegalAction(f"You cannot {kind if isinstance(kind, str) and len(kind) <= 40 else quoted(kind)} now.")

    def timeout_action(self, state, seat):
        return {"type": "roll"} if state["phase"] == "roll" else {"type": "stay"}

    def standings(self, state):
        order = sorted(range(state["players"]), key=lambda s: -state["positions"][s])
        out = []
        for seat in order:
            rank = 1 + sum(1 for other in order if state["positions"][other] > state["positions"][seat])
            out.append({"seat": seat, "rank": rank, "score": state["positions"][seat], "detail": {}})
        return out

    def view(self, state, seat):
        view = {k: v for k, v in state.items() if k not in ("seed", "draws", "secrets")}
        if seat is not None:
            view["my_secret"] = state["secrets"][seat]
        return view

    def describe(self, event, names, lang="en"):
        who = names[event["seat"]] if "seat" in event and event["seat"] < len(names) else "?"
        kind = event["type"]
        if kind == "roll":
            return f"{who} rolled {event['dice'][0]}"
        if kind == "peek":
            return f"{who} peeked at the secret {event['secret']}"
        if kind == "wind":
            return f"A wind pushed {who} {event['dice'][0]} squares"
        return f"{who} chose to {kind}"


RACE = RaceEngine()
