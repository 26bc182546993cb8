"""What a seat or a spectator may see, the standings, and events told in words."""
from __future__ import annotations

from functools import reduce

from games.engines.base import DICE_MACHINERY
from games.engines.fuldrigger.book import (
    WORDS, area_name, cargo_name, good_name, option_words, place_name,
)
from games.engines.fuldrigger.cards import card
from games.engines.fuldrigger.rules import to_act
from games.engines.fuldrigger.state import (
    OPTIONS, cargo_value, clone, fortresses_of, fortunes, ships_of,
)
from games.engines.words import language

HIDDEN = DICE_MACHINERY + ("deck",)


def view(state: dict, seat: int | None) -> dict:
    """The state without its secrets: the dice machinery (base.DICE_MACHINERY: the seed and the
    dice counter), the order of the deck (only the number of cards left and the last card
    turned show) and offers between other players."""
    seen = clone(state)
    for key in HIDDEN:
        seen.pop(key, None)
    seen["deck_left"] = len(state["deck"])
    seen["last_card"] = card(state["last_card"]) if state["last_card"] else None
    seen["offers"] = [o for o in seen["offers"] if seat is not None and seat in (o["from"], o["to"])]
    seen["offer_counts"] = {pair: n for pair, n in state.get("offer_counts", {}).items()
                            if seat is not None and str(seat) in pair.split("-")}
    seen["viewer"] = seat
    seen["to_act"] = to_act(state)
    seen["fortunes"] = fortunes(state)
    turn = state["turn"]
    seen["can_move"] = [] if turn["total"] is None else sorted(
        s["id"] for s in ships_of(state, turn["seat"])
        if s["id"] not in turn["moved"] and s["id"] not in turn["still"])
    return seen


def standings(state: dict) -> list[dict]:
    """Best first by fortune (F1, F2); when the game ended because one fleet was left (F3),
    that player is first whatever his fortune."""
    wealth = fortunes(state)
    survivor_first = state.get("ended") == "last_fleet"

    def key(seat):
        return ((not state["out"][seat]) if survivor_first else True, wealth[seat])

    order = sorted(range(state["players"]), key=key, reverse=True)
    table = []
    for position, seat in enumerate(order):
        if position and key(order[position - 1]) == key(seat):
            rank = table[-1]["rank"]
        else:
            rank = position + 1
        table.append({"seat": seat, "rank": rank, "score": wealth[seat],
                      "detail": {"cash": state["cash"][seat],
                                 "ships": len(ships_of(state, seat)),
                                 "fortresses": len(fortresses_of(state, seat)),
                                 "cargo": cargo_value(state, seat)}})
    return table


# ---- words ---------------------------------------------------------------------------------
# The phrase book and the names of goods and places live in book.py, where the rules can
# reach them without an import cycle; they stay importable from here, where the site looks.


def card_words(card_id: str, lang: str = "en") -> tuple[str, str]:
    """A chance card's title and text; KeyError for a card the deck does not hold."""
    if not WORDS.has(f"card.{card_id}.title"):
        raise KeyError(card_id)
    return WORDS.say(f"card.{card_id}.title", lang), WORDS.say(f"card.{card_id}.text", lang)


def options(lang: str = "en") -> list[dict]:
    """The match options with their labels and help in `lang`."""
    listed = []
    for option in OPTIONS:
        label, help_text = option_words(option.name, lang)
        listed.append({**option.as_dict(), "label": label, "help": help_text})
    return listed


def _who(names: list[str], seat, lang: str) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int):
        return WORDS.say("player", lang, number=seat + 1)
    return WORDS.say("bank", lang)


def _ship(event: dict, key: str, lang: str) -> str:
    if key not in event:
        return WORDS.say("ship_unnamed", lang)
    return WORDS.say("ship", lang, name=event[key])


def _ducats(amount, lang: str) -> str:
    return WORDS.say("ducats_one" if amount == 1 else "ducats_many", lang, count=amount)


def _offer_side(part: dict, lang: str) -> str:
    bits = []
    if part.get("ducats"):
        bits.append(_ducats(part["ducats"], lang))
    if part.get("ships"):
        bits.append(WORDS.say("offer_ships_many" if len(part["ships"]) > 1 else "offer_ships_one",
                             lang, numbers=", ".join(f"#{n}" for n in part["ships"])))
    if part.get("fortresses"):
        ports = ", ".join(place_name(p, lang) for p in part["fortresses"])
        bits.append(WORDS.say("offer_fortresses_many" if len(part["fortresses"]) > 1
                             else "offer_fortresses_one", lang, ports=ports))
    if not bits:
        return WORDS.say("nothing", lang)
    return reduce(lambda first, second: WORDS.say("and", lang, first=first, second=second), bits)


SPARED = {"privateer": "pirates_spared_privateer", "fortress": "pirates_spared_fortress",
          "convoy": "pirates_spared_convoy"}


def describe(event: dict, names: list[str], lang: str = "en") -> str:
    """One event in words in `lang` ("da", "de-at", ...; English for a language we lack)."""
    lang = language(lang)

    def say(key: str, **fields) -> str:
        return WORDS.say(key, lang, **fields)

    kind = event.get("type")
    who = _who(names, event.get("seat"), lang)
    ship = _ship(event, "name", lang)
    dice_text = "+".join(str(d) for d in event.get("dice", []))
    rolled = sum(event.get("dice", []))
    if kind == "roll":
        counted = event["total"] != sum(event["dice"])
        return say("roll_counts" if counted else "roll", who=who, dice=dice_text,
                   sum=sum(event["dice"]), total=event["total"])
    if kind == "move":
        path = event.get("path", [])
        steps = say("squares_one" if len(path) == 1 else "squares_many", count=len(path))
        return say("move", who=who, name=event["name"], steps=steps,
                   start=place_name(event["from"], lang), end=place_name(event["to"], lang))
    if kind in ("tailwind", "headwind"):
        return say(kind, area=area_name(event["node"], lang), ship=ship)
    if kind in ("storm", "ice", "card_storm"):
        at = {"label": say(f"weather.{kind}"), "area": area_name(event["node"], lang),
              "who": who, "rolled": rolled, "ship": ship}
        if event["sunk"]:
            if event.get("cargo"):
                return say("weather_sinks_cargo", **at, cargo=cargo_name(event["cargo"], lang))
            return say("weather_sinks", **at)
        return say("weather_rides_out", **at)
    if kind == "calm":
        at = {"area": area_name(event["node"], lang), "who": who, "rolled": rolled, "ship": ship}
        if event["becalmed"]:
            return say("calm_becalmed", **at, to=area_name(event["to"], lang))
        return say("calm_breeze", **at)
    if kind == "reef":
        return say("reef_wrecked" if event["wrecked"] else "reef_through",
                   letter=event["letter"], area=area_name(event["node"], lang), who=who,
                   rolled=rolled, ship=ship)
    if kind == "pirates":
        area = area_name(event["node"], lang)
        if event.get("spared"):
            return say(SPARED[event["spared"]], area=area, ship=ship)
        at = {"area": area, "who": who, "rolled": rolled, "ship": ship}
        result = event["result"]
        if result == "ship_lost":
            return say("pirates_ship_lost", **at)
        if result == "cargo_lost":
            return say("pirates_cargo_lost", **at, cargo=cargo_name(event["cargo"], lang))
        return say("pirates_escaped", **at)
    if kind == "bounty":
        return say("bounty", who=who, name=event["name"], port=place_name(event["port"], lang),
                   ducats=_ducats(event["amount"], lang))
    if kind in ("buy_cargo", "sell_cargo"):
        trade = {"who": who, "cargo": cargo_name(event["good"], lang), "ship": ship,
                 "port": place_name(event["port"], lang), "ducats": _ducats(event["price"], lang)}
        if event["duty"]:
            return say(f"{kind}_duty", **trade, duty=event["duty"],
                       whom=_who(names, event["duty_to"], lang))
        return say(kind, **trade)
    if kind in ("buy_ship", "fit_privateer"):
        return say(kind, who=who, ship=ship, port=place_name(event["port"], lang))
    if kind == "buy_fortress":
        return say("buy_fortress", who=who, port=place_name(event["port"], lang))
    if kind == "sell_ship":
        return say("sell_ship", who=who, ship=ship, port=place_name(event["port"], lang),
                   ducats=_ducats(event["price"], lang))
    if kind == "lay_off_privateer":
        return say("lay_off_privateer", who=who, name=event["name"])
    if kind == "attack":
        target = place_name(event["target"], lang)
        them = _who(names, event["defender"], lang)
        if event["result"] == "called_off":
            return say("attack_called_off", who=who, them=them, target=target)
        count = len(event["ships"])
        attack = say("attack_one" if count == 1 else "attack_many", who=who, them=them,
                     target=target, count=count, rolled=rolled)
        if event["result"] == "lost":
            return say("attack_lost", attack=attack, ship=_ship(event, "lost_name", lang))
        if event["result"] == "draw":
            return say("attack_draw", attack=attack)
        if event.get("prize") == "fortress":
            return say("attack_razed" if event.get("razed") else "attack_fortress", attack=attack)
        return say("attack_sunk" if event.get("sunk") else "attack_prize", attack=attack,
                   ship=_ship(event, "prize_name", lang))
    if kind == "isthmus_unload":
        sent = {"who": who, "ship": ship, "cargo": cargo_name(event["good"], lang),
                "port": place_name(event["port"], lang), "end": place_name(event["to"], lang)}
        if event["toll"]:
            return say("isthmus_unload", **sent, toll=event["toll"])
        return say("isthmus_unload_free", **sent)
    if kind == "isthmus_load":
        return say("isthmus_load", who=who, cargo=cargo_name(event["good"], lang), ship=ship,
                   port=place_name(event["port"], lang))
    if kind in ("offer", "withdraw_offer"):
        return say(kind, who=who, whom=_who(names, event["to"], lang))
    if kind == "accept_offer":
        return say("accept_offer", who=who, whom=_who(names, event["from"], lang),
                   give=_offer_side(event["give"], lang), take=_offer_side(event["take"], lang))
    if kind == "decline_offer":
        return say("decline_offer", who=who, whom=_who(names, event["from"], lang))
    if kind in ("end_turn", "turn", "turn_lost", "scurvy", "out"):
        return say(kind, who=who)
    if kind == "scurvy_spared":
        return say(kind)
    if kind == "round":
        return say("round", round=event["round"])
    if kind == "card":
        title, text = event["title"], event["text"]
        if WORDS.has(f"card.{event.get('card')}.title"):
            title, text = card_words(event["card"], lang)
        return say("card_void" if event.get("void") else "card", title=title, text=text)
    if kind == "reshuffle" and event.get("ended"):
        return say("reshuffle_ended")
    if kind in ("reshuffle", "game_over"):
        return say(kind)
    if kind == "home_roll":
        return say("home_roll", who=who, dice=dice_text, sum=rolled)
    if kind == "choose_home":
        return say("choose_home", who=who, city=place_name(event["city"], lang))
    if kind == "first_player":
        return say("first_player", who=who)
    if kind == "drift":
        return say("drift", who=who, name=event["name"], start=place_name(event["from"], lang),
                   end=place_name(event["to"], lang))
    if kind == "card_raid":
        return say("card_raid_lost" if event["lost"] else "card_raid_kept", who=who,
                   rolled=rolled, ship=ship, cargo=cargo_name(event["cargo"], lang))
    if kind in ("card_pay", "card_receive"):
        return say(kind, who=who, ducats=_ducats(event["amount"], lang))
    if kind == "becalmed":
        return say("becalmed", who=who, name=event["name"], place=place_name(event["node"], lang))
    # An event kind newer than this book: its own name is better than nothing.
    return kind.replace("_", " ").capitalize() + "." if isinstance(kind, str) else say("something")


__all__ = ["area_name", "card_words", "describe", "good_name", "option_words", "place_name",
           "standings", "view"]
