"""What a Catan match is called on every page, in the inbox and the lobby: its game by its options."""
from games import play


def test_a_base_game_match_is_called_catan_and_a_ships_match_catan_with_ships(player):
    base = play.match_create(creator=player, game="catan_ships", seats=3, options={"ships": False})
    ships = play.match_create(creator=player, game="catan_ships", seats=3, options={"ships": True})
    assert str(base) == f"Catan #{base.pk}"
    assert str(ships) == f"Catan with ships #{ships.pk}"
