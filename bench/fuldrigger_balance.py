"""Fuldrigger price balance: every trade route on the world map, its profit, time and risk.

Run from anywhere:  python bench/fuldrigger_balance.py [--all]

For every good and every pair (port that sells it to players, port that buys it from them) it
takes the shortest sea route (board.distance), and among the shortest routes the least dangerous
one, and prints:

- profit: the sell price at the second port less the buy price at the first (one load, F29);
- turns: the expected number of turns to sail that far with 3d6 a turn (F10), counting
  tailwinds (+3 squares, F13), headwinds (-3, F14) and calms (21/36 chance of lying still a
  turn, F17) on the route;
- risk: the dangerous squares on the route and the chance to lose the cargo (storm 3/36 on 2-3,
  ice 4/36 on 5, unknown reef 3/36 on 2-3, pirates 3/36 ship and cargo + 3/36 cargo only on 4;
  F15, F16, F18, F19) and the ship (all of those but the pirates' cargo-only roll);
- expected: (1 - P(cargo lost)) * sell - buy - P(ship lost) * 100 (a ship's price, F20), and
  that per turn; the expected figures count the reefs as known (F18: a captain who survives a
  reef ignores it for the rest of the game), the printed P(loss) counts them as unknown.

It also checks the two rules of the price lists that no route may break: no profit buying and
selling at one port, and no profit between two ports less than 10 squares apart (F30, with the
10 ducats a fortress owner gets on top of the list price, F25). The figures are recorded in
docs/fuldrigger-world.md.
"""
from __future__ import annotations

import math
import sys
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.fuldrigger.board import WORLD  # noqa: E402

SHIP_PRICE = 100
TOLL = 10  # F45
FORTRESS_BONUS = 10  # F25
MIN_CARRY = 10  # F30
MEAN_ROLL = 10.5

# Chance that entering the square loses (ship, cargo); 2d6 odds.
LOSS = {
    "storm": (3 / 36, 3 / 36),
    "ice": (4 / 36, 4 / 36),
    "reef": (3 / 36, 3 / 36),
    "pirates": (3 / 36, 6 / 36),
}
CALM_STOP = 21 / 36  # 2d6 <= 7
DANGEROUS = tuple(LOSS)

EUROPE = {"Northern Europe", "Iberia", "Mediterranean"}
FAR_EAST = {"East Indies", "China", "Japan"}

# 3d6 distribution
ROLL = {}
for a in range(1, 7):
    for b in range(1, 7):
        for c in range(1, 7):
            ROLL[a + b + c] = ROLL.get(a + b + c, 0) + 1 / 216


@lru_cache(maxsize=None)
def expected_turns(squares: int) -> float:
    """Expected turns for a ship to cover `squares` with one 3d6 roll a turn."""
    if squares <= 0:
        return 0.0
    return 1 + sum(p * expected_turns(squares - r) for r, p in ROLL.items())


@lru_cache(maxsize=None)
def sea_distances(a: str) -> dict[str, int]:
    """Like WORLD.distances_from, but without sailing through a port on the way."""
    seen = {a: 0}
    frontier = [a]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            if node != a and WORLD.is_port(node):
                continue
            for nxt in WORLD.neighbours(node):
                if nxt not in seen:
                    seen[nxt] = seen[node] + 1
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return seen


def best_route(a: str, b: str) -> list[str]:
    """A shortest route from a to b; among those, the one least likely to lose the cargo."""
    dist = WORLD.distances_from(a)
    if dist[b] != sea_distances(a)[b]:
        raise ValueError(f"the shortest way from {a} to {b} runs through another port")
    cost: dict[str, float] = {a: 0.0}
    back: dict[str, str] = {}
    for node in sorted(dist, key=dist.get):
        if dist[node] >= dist[b]:
            break
        if node not in cost:
            continue  # a port on the way: ships don't sail through ports (F11)
        for nxt in WORLD.neighbours(node):
            if dist.get(nxt) != dist[node] + 1:
                continue
            if WORLD.is_port(nxt) and nxt != b:
                continue  # entering a port ends the move (F11): no sailing through ports
            hz = WORLD.hazard(nxt)
            c = cost[node] - (math.log(1 - LOSS[hz][1]) if hz in LOSS else 0.0)
            if nxt not in cost or c < cost[nxt] - 1e-12:
                cost[nxt] = c
                back[nxt] = node
    path = [b]
    while path[-1] != a:
        path.append(back[path[-1]])
    return path[::-1]


def route_figures(path: list[str]) -> dict:
    """Length, expected turns and the chances of loss of one voyage along `path`.

    p_ship/p_cargo: a captain's first voyage there (reefs unknown). p_ship_known/p_cargo_known:
    once he knows the reefs (F18: a reef survived is ignored for the rest of the game), which is
    what the expected profits use, as a route is sailed again and again.
    """
    squares = len(path) - 1
    hazards = [WORLD.hazard(n) for n in path[1:]]
    ship_ok = cargo_ok = ship_ok_known = cargo_ok_known = 1.0
    for hz in hazards:
        if hz in LOSS:
            ship_ok *= 1 - LOSS[hz][0]
            cargo_ok *= 1 - LOSS[hz][1]
            if hz != "reef":
                ship_ok_known *= 1 - LOSS[hz][0]
                cargo_ok_known *= 1 - LOSS[hz][1]
    effective = squares + 3 * hazards.count("headwind") - 3 * hazards.count("tailwind")
    turns = expected_turns(max(1, effective)) + CALM_STOP * hazards.count("calm")
    return {
        "squares": squares,
        "turns": turns,
        "dangers": [WORLD.name(n) for n in path[1:] if WORLD.hazard(n) in LOSS],
        "p_ship": 1 - ship_ok,
        "p_cargo": 1 - cargo_ok,
        "p_ship_known": 1 - ship_ok_known,
        "p_cargo_known": 1 - cargo_ok_known,
    }


def offers():
    """(port, good, buy) for every load a player can buy, and (port, good, sell) for every sale."""
    buys, sells = [], []
    for port, goods in WORLD.prices.items():
        for good, entry in goods.items():
            if entry["buy"] is not None:
                buys.append((port, good, entry["buy"]))
            if entry["sell"] is not None:
                sells.append((port, good, entry["sell"]))
    return buys, sells


def all_routes() -> tuple[list[dict], list[str]]:
    buys, sells = offers()
    routes, broken = [], []
    paths: dict[tuple[str, str], dict] = {}
    for port, goods in WORLD.prices.items():
        for good, e in goods.items():
            if e["buy"] is not None and e["sell"] is not None and e["sell"] + FORTRESS_BONUS >= e["buy"]:
                broken.append(f"{port} {good}: buy {e['buy']} <= sell {e['sell']} + {FORTRESS_BONUS}")
    for a, good, buy in buys:
        for b, good2, sell in sells:
            if good2 != good or a == b:
                continue
            d = WORLD.distance(a, b)
            if d < MIN_CARRY:
                if sell + FORTRESS_BONUS > buy:
                    broken.append(f"{good} {a}->{b}: {d} squares, buy {buy}, sell {sell}")
                continue
            if (a, b) not in paths:
                paths[(a, b)] = route_figures(best_route(a, b))
            f = paths[(a, b)]
            profit = sell - buy
            expected = (1 - f["p_cargo_known"]) * sell - buy - f["p_ship_known"] * SHIP_PRICE
            routes.append({
                "good": good, "from": a, "to": b, "buy": buy, "sell": sell, "profit": profit,
                "expected": expected, "per_turn": expected / f["turns"], **f,
            })
    return routes, broken


def isthmus_routes(routes: list[dict]) -> list[dict]:
    """Routes that unload at one side of an isthmus and reload beyond it (F44, toll F45)."""
    direct = {(r["from"], r["to"], r["good"]): r for r in routes}
    out = []
    for (a, b, good), r in direct.items():
        for crossing in WORLD.isthmus:
            for x in crossing["ports"]:
                y = WORLD.isthmus_partner(x)
                if a in (x, y) or b in (x, y):
                    continue
                d1, d2 = WORLD.distance(a, x), WORLD.distance(y, b)
                if d1 + d2 < MIN_CARRY:
                    continue  # the squares carried on both sides count; the overland part adds none
                leg1, leg2 = route_figures(best_route(a, x)), route_figures(best_route(y, b))
                turns = leg1["turns"] + leg2["turns"]
                if turns >= r["turns"]:
                    continue
                p_cargo = 1 - (1 - leg1["p_cargo"]) * (1 - leg2["p_cargo"])
                p_ship = leg1["p_ship"] + leg2["p_ship"]
                p_cargo_known = 1 - (1 - leg1["p_cargo_known"]) * (1 - leg2["p_cargo_known"])
                p_ship_known = leg1["p_ship_known"] + leg2["p_ship_known"]
                expected = (1 - p_cargo_known) * r["sell"] - r["buy"] - TOLL - p_ship_known * SHIP_PRICE
                out.append({**r, "via": crossing["name"], "squares": d1 + d2, "turns": turns,
                            "profit": r["profit"] - TOLL, "expected": expected,
                            "per_turn": expected / turns, "p_cargo": p_cargo, "p_ship": p_ship,
                            "dangers": leg1["dangers"] + leg2["dangers"]})
    return out


def round_trips(routes: list[dict]) -> list[dict]:
    """Out and home between two ports with the best cargo each way (none: sail in ballast)."""
    best: dict[tuple[str, str], dict] = {}
    for r in routes:
        key = (r["from"], r["to"])
        if key not in best or r["expected"] > best[key]["expected"]:
            best[key] = r
    trips = []
    for (a, b), out in best.items():
        if a > b and (b, a) in best:
            continue  # counted from the other end
        home = best.get((b, a))
        if home is None:
            turns = 2 * out["turns"]
        else:
            turns = out["turns"] + home["turns"]
        home_expected = home["expected"] if home and home["expected"] > 0 else 0.0
        out_expected = max(out["expected"], 0.0)
        total = out_expected + home_expected
        trips.append({"a": a, "b": b, "out": out, "home": home, "turns": turns, "expected": total,
                      "profit": (out["profit"] if out_expected else 0) + (home["profit"] if home_expected else 0),
                      "per_turn": total / turns})
    return trips


def trip_line(t: dict) -> str:
    cargo = t["out"]["good"] if t["out"]["expected"] > 0 else "ballast"
    back = t["home"]["good"] if t["home"] and t["home"]["expected"] > 0 else "ballast"
    return (f"{WORLD.name(t['a']):<15} <-> {WORLD.name(t['b']):<15} {cargo:>9} / {back:<9} "
            f"{t['turns']:>5.1f} t  profit {t['profit']:>4}  expected {t['expected']:>6.1f}  /turn {t['per_turn']:>5.1f}")


def line(r: dict) -> str:
    via = f" via {r['via']}" if r.get("via") else ""
    return (f"{r['good']:<10} {WORLD.name(r['from']):<15} -> {WORLD.name(r['to']):<15}{via:<11} "
            f"{r['squares']:>3} sq {r['turns']:>4.1f} t  buy {r['buy']:>3} sell {r['sell']:>3}  "
            f"profit {r['profit']:>4}  P(loss) {r['p_cargo']:>4.0%}  exp {r['expected']:>6.1f}  "
            f"/turn {r['per_turn']:>5.1f}  dangers {len(r['dangers'])}")


def region(port: str) -> str:
    return WORLD.nodes[port]["region"]


def main(show_all: bool = False) -> int:
    routes, broken = all_routes()
    print(f"Fuldrigger world: {len(WORLD.ports)} ports, {len(WORLD.nodes) - len(WORLD.ports)} sea squares, "
          f"{len(WORLD.goods)} goods, {sum(g['tokens'] for g in WORLD.goods.values())} cargo tokens")
    print()
    print("Europe -> Far East (squares / turns at 10.5 a turn):")
    for home in WORLD.homes:
        cells = [f"{WORLD.name(p)} {WORLD.distance(home, p)} / {WORLD.distance(home, p) / MEAN_ROLL:.1f}"
                 for p in ("cape_town", "bombay", "batavia", "canton", "nagasaki")]
        print(f"  {WORLD.name(home):<11} " + ", ".join(cells))
    via_suez = min(WORLD.distance(h, "alexandria") for h in WORLD.homes) + WORLD.distance("suez", "batavia")
    print(f"  via Suez (nearest home -> Alexandria, Suez -> Batavia): {via_suez}")
    print()

    profitable = [r for r in routes if r["profit"] > 0]
    print(f"{len(routes)} routes of 10 squares or more; {len(profitable)} with a profit.")
    by_region: dict[str, list[dict]] = {}
    for r in profitable:
        by_region.setdefault(region(r["from"]), []).append(r)
    for name in sorted(by_region):
        rs = sorted(by_region[name], key=lambda r: -r["per_turn"])
        print(f"\nBest routes from {name} (by expected profit per turn):")
        for r in rs[: (len(rs) if show_all else 5)]:
            print("  " + line(r))

    cross = sorted(isthmus_routes(routes), key=lambda r: -r["per_turn"])
    print("\nIsthmus crossings that beat sailing round (toll 10, a second ship beyond):")
    for r in cross[:8]:
        print("  " + line(r))

    trips = round_trips(routes)
    print("\nBest round trips (best cargo each way, expected profit per turn):")
    for t in sorted(trips, key=lambda t: -t["per_turn"])[:12]:
        print("  " + trip_line(t))
    print("\nBest round trips from the home ports:")
    for home in WORLD.homes:
        mine = [t for t in trips if home in (t["a"], t["b"])]
        for label, group in (("Europe", EUROPE), ("Far East", FAR_EAST), ("elsewhere", None)):
            pick = [t for t in mine if (region(t["b"] if t["a"] == home else t["a"]) in group if group
                                        else region(t["b"] if t["a"] == home else t["a"]) not in EUROPE | FAR_EAST)]
            if pick:
                print(f"  {label:<9} " + trip_line(max(pick, key=lambda t: t["per_turn"])))

    print("\nSummary")
    euro = [r for r in profitable if region(r["from"]) in EUROPE and region(r["to"]) in EUROPE]
    safe_euro = [r for r in euro if not r["dangers"]]
    spice = [r for r in profitable if r["good"] == "spices" and region(r["from"]) in FAR_EAST
             and region(r["to"]) in EUROPE]
    best_safe = max(safe_euro, key=lambda r: r["profit"])
    best_spice = max(spice, key=lambda r: r["profit"])
    print(f"  best safe run inside Europe:   {line(best_safe)}")
    print(f"  best Far East spice run:       {line(best_spice)}")
    top = max(profitable, key=lambda r: r["profit"])
    print(f"  largest profit of any route:   {line(top)}")
    top_turn = max(profitable, key=lambda r: r["per_turn"])
    print(f"  best expected profit per turn: {line(top_turn)}")
    profits = sorted(r["profit"] for r in profitable)
    median = profits[len(profits) // 2]
    print(f"  profitable routes: profit min {profits[0]}, median {median}, max {profits[-1]}; "
          f"{sum(20 <= p <= 80 for p in profits)} of {len(profits)} between 20 and 80")
    # The best route per (from, good): what a player would actually do with that cargo.
    best_per_cargo: dict[tuple[str, str], dict] = {}
    for r in profitable:
        key = (r["from"], r["good"])
        if key not in best_per_cargo or r["per_turn"] > best_per_cargo[key]["per_turn"]:
            best_per_cargo[key] = r
    chosen = sorted(r["profit"] for r in best_per_cargo.values())
    print(f"  best voyage per cargo bought ({len(chosen)}): profit median {chosen[len(chosen) // 2]}, "
          f"{sum(20 <= p <= 80 for p in chosen)} between 20 and 80")
    far = [r for r in profitable if FAR_EAST & {region(r["from"]), region(r["to"])} and
           EUROPE & {region(r["from"]), region(r["to"])}]
    near = [r for r in profitable if r not in far]
    for label, rs in (("Europe <-> Far East", far), ("all other", near)):
        print(f"  {label:<19} routes: {len(rs):>3}, mean profit {sum(r['profit'] for r in rs) / len(rs):5.1f}, "
              f"mean P(loss) {sum(r['p_cargo'] for r in rs) / len(rs):4.0%}, "
              f"mean expected/turn {sum(r['per_turn'] for r in rs) / len(rs):5.1f}")
    print("\nDangers met sailing out from the home ports (mean over homes and ports of a region):")
    groups: dict[str, list[tuple[int, float]]] = {}
    for home in WORLD.homes:
        for port in WORLD.ports:
            if port in WORLD.homes:
                continue
            f = route_figures(best_route(home, port))
            groups.setdefault(region(port), []).append((len(f["dangers"]), f["p_cargo"]))
    for name, rows in sorted(groups.items(), key=lambda kv: sum(r[1] for r in kv[1]) / len(kv[1])):
        print(f"  {name:<17} dangers {sum(r[0] for r in rows) / len(rows):4.1f}  "
              f"P(cargo lost, reefs unknown) {sum(r[1] for r in rows) / len(rows):4.0%}")
    print(f"\nRule checks (same-port profit, profit under {MIN_CARRY} squares): "
          f"{'none broken' if not broken else len(broken)}")
    for b in broken:
        print("  BROKEN: " + b)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main("--all" in sys.argv))
