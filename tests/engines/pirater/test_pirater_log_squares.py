"""The log says where a ship sailed from and where it ended, in the board's own labels (column
letter and row, straits S1, S2…), in every language."""
import random

from games.engines.pirater import ENGINE
from games.engines.pirater.board import get_board
from games.engines.pirater.view import describe


def _moves(seed: int, limit: int = 400):
    rnd = random.Random(seed)
    state = ENGINE.new_game(2, f"log-squares-{seed}", ENGINE.check_options({}, 2))
    for _ in range(limit):
        if ENGINE.is_over(state):
            return
        seat = ENGINE.to_act(state)[0]
        state, events = ENGINE.apply(state, seat, rnd.choice(ENGINE.legal_actions(state, seat)))
        for event in events:
            if event["type"] == "move":
                yield state, event


def test_a_move_names_the_squares_it_joined():
    board = get_board("single")
    seen = 0
    for state, event in _moves(1):
        row, col = event["to"]
        end = board.square_name(board.node_of[(row, col)])
        assert event["end"] == end and end[0].isalpha() and end[1:].isdigit()
        for lang in ("en", "da", "de", "sv"):
            text = describe(event, ["Anna", "Bo"], lang)
            assert event["start"] in text and event["end"] in text
        seen += 1
    assert seen > 10


def test_straits_are_named_as_the_board_labels_them():
    board = get_board("single")
    straits = [n for n in range(board.size) if board.is_strait[n]]
    assert straits and [board.square_name(n) for n in straits] == [f"S{i + 1}" for i in range(len(straits))]


def test_a_move_logged_before_squares_were_named_still_reads():
    old = {"type": "move", "seat": 0, "ship": 0, "ships": [0], "die": 3, "direction": "n", "captured": []}
    assert describe(old, ["Anna", "Bo"], "en") == "Anna's ship sailed 3 squares north"
