"""Options, setup and turn order (P5–P7, P20–P28 combinations)."""
import pytest

from pirater_support import ENGINE, IllegalAction, game, get_board, play

VARIANTS = ["curse_island", "hurricane", "double_board", "shipwreck", "powder_ship", "one_two",
            "opposing_realms", "headwind_realm", "flotilla"]


def test_engine_members():
    """The registry's view of Pirater: name, title and seat bounds of the basic game."""
    assert (ENGINE.name, ENGINE.title, ENGINE.min_players, ENGINE.max_players) == \
        ("pirater", "Pirater", 2, 4)


def test_options_offer_one_bool_per_variant_and_the_settings():
    """P20–P28 every variant is a yes/no option; the double board and flotilla have settings."""
    options = {o["name"]: o for o in ENGINE.options()}
    for name in VARIANTS:
        assert options[name]["kind"] == "bool" and options[name]["default"] is False
    assert options["double_treasure"]["kind"] == "choice"
    assert set(options["double_treasure"]["choices"]) == {"one_each", "both_on_one", "one_only"}
    assert options["flotilla_split"]["kind"] == "choice"
    assert ENGINE.check_options({}, 2)["flotilla"] is False


@pytest.mark.parametrize("players", [0, 1, 5, 9])
def test_basic_game_is_for_two_to_four(players):
    """P5 the basic game seats 2 to 4."""
    with pytest.raises(IllegalAction, match="2 to 4"):
        ENGINE.check_options({}, players)


@pytest.mark.parametrize("players", [2, 4, 9])
def test_double_board_is_for_five_to_eight(players):
    """P22 the double board seats 5 to 8."""
    with pytest.raises(IllegalAction, match="5 to 8"):
        ENGINE.check_options({"double_board": True}, players)
    assert ENGINE.check_options({"double_board": True}, 5)["double_board"]


@pytest.mark.parametrize("variant", ["opposing_realms", "headwind_realm"])
@pytest.mark.parametrize("players", [3, 4])
def test_realm_variants_need_exactly_two(variant, players):
    """P26 P27 the two realms variants are for exactly two players."""
    with pytest.raises(IllegalAction, match="exactly 2"):
        ENGINE.check_options({variant: True}, players)
    assert ENGINE.check_options({variant: True}, 2)[variant]


@pytest.mark.parametrize("variant", ["opposing_realms", "headwind_realm"])
def test_realm_variants_refuse_the_double_board(variant):
    """P22 P26 P27 a two-player variant can't be played on the double board."""
    with pytest.raises(IllegalAction, match="double board"):
        ENGINE.check_options({variant: True, "double_board": True}, 6)


def test_two_two_player_variants_together_are_refused():
    """P26 P27 Opposing Realms and Headwind Realm exclude each other."""
    with pytest.raises(IllegalAction, match="together"):
        ENGINE.check_options({"opposing_realms": True, "headwind_realm": True}, 2)


def test_flotilla_and_curse_island_are_refused_together():
    """P20 P28 both decide where the ships start."""
    with pytest.raises(IllegalAction, match="start"):
        ENGINE.check_options({"flotilla": True, "curse_island": True}, 3)


def test_hurricane_on_the_double_board_is_refused():
    """P21 P22 a hurricane among five dice has no meaning in the rules."""
    with pytest.raises(IllegalAction, match="Hurricane"):
        ENGINE.check_options({"hurricane": True, "double_board": True}, 6)


@pytest.mark.parametrize("raw, message", [
    ({"kraken": True}, "Unknown option"),
    ({"flotilla": "maybe"}, "yes or no"),
    ({"double_treasure": "three"}, "one of"),
    ({"flotilla_split": 7}, "one of"),
])
def test_bad_option_values_are_refused(raw, message):
    """Options are checked, never ignored."""
    with pytest.raises(IllegalAction, match=message):
        ENGINE.check_options(raw, 2)


@pytest.mark.parametrize("players", ["2", 2.0, True, None])
def test_player_count_must_be_a_whole_number(players):
    with pytest.raises(IllegalAction):
        ENGINE.check_options({}, players)


def test_new_game_checks_its_options():
    with pytest.raises(IllegalAction):
        ENGINE.new_game(5, "seed", {})
    with pytest.raises(IllegalAction):
        ENGINE.new_game(2, "", {})


def test_sensible_combinations_are_accepted():
    """P20–P28 variants combine where the rules allow."""
    ENGINE.check_options({v: True for v in ("curse_island", "hurricane", "shipwreck",
                                             "powder_ship", "one_two")}, 4)
    ENGINE.check_options({"opposing_realms": True, "flotilla": True, "shipwreck": True,
                          "powder_ship": True, "one_two": True, "hurricane": True}, 2)
    ENGINE.check_options({"double_board": True, "flotilla": True, "shipwreck": True,
                          "powder_ship": True, "one_two": True, "double_treasure": "both_on_one"}, 8)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_three_ships_beside_his_port(players):
    """P5 each player's three ships start on the squares nearest his port's anchorage."""
    state = game(players)
    board = get_board("single")
    ports = [s["ports"] for s in state["seats"]]
    assert all(len(p) == 1 for p in ports) and len({p[0] for p in ports}) == players
    for seat, (port,) in enumerate(ports):
        at = sorted(board.node_of[tuple(s["at"])] for s in state["ships"] if s["seat"] == seat)
        assert at == sorted(board.ports[port]["start"])


def test_two_players_sail_from_opposite_corners():
    """P5 reading: with two players the ports are diagonally opposite."""
    state = game(2)
    board = get_board("single")
    (a,), (b,) = (s["ports"] for s in state["seats"])
    (ra, ca), (rb, cb) = board.ports[a]["anchorage"], board.ports[b]["anchorage"]
    assert ra != rb and ca != cb


def test_treasure_starts_on_treasure_island():
    """P6 the treasure is placed on Treasure Island."""
    state = game(4)
    assert state["treasures"] == [{"id": 0, "island": 0, "ship": None}]


def test_highest_opening_roll_begins_and_ties_roll_again_in_edition_1():
    """P7, edition 1: everyone rolls both dice; the highest begins; a tie for highest rolls
    again (edition 2 orders every seat, test_pirater_edition2)."""
    saw_tie = False
    for k in range(60):
        state = ENGINE.new_game(4, f"open-{k}", {}, edition=1)
        rolls = [e for e in state["start"] if e["type"] == "start_roll"]
        assert all(len(e["dice"]) == 2 for e in rolls)
        first = state["start"][-1]
        assert first["type"] == "first_player" and first["seat"] == state["current"] == state["first"]
        # replay the rounds: the rollers of each round are the tied leaders of the one before
        rollers, i = list(range(4)), 0
        while True:
            this = rolls[i:i + len(rollers)]
            assert [e["seat"] for e in this] == rollers
            i += len(rollers)
            top = max(sum(e["dice"]) for e in this)
            rollers = [e["seat"] for e in this if sum(e["dice"]) == top]
            if len(rollers) == 1:
                break
            saw_tie = True
        assert rollers == [first["seat"]] and i == len(rolls)
    assert saw_tie


def test_play_passes_clockwise_and_the_round_counts_returns_to_the_first():
    """P7 play passes clockwise (edition 1: seat order follows the ports clockwise)."""
    state = ENGINE.new_game(3, "clockwise", {}, edition=1)
    first = state["current"]
    seen = [first]
    while len(seen) < 4:
        seat = state["current"]
        state, events = play(state, seat, ENGINE.timeout_action(state, seat))
        if state["current"] != seat:
            seen.append(state["current"])
    assert seen == [first, (first + 1) % 3, (first + 2) % 3, first]
    assert state["round"] == 2
