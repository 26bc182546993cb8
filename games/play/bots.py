"""Bots on the platform: the accounts that hold bot seats, and the choice of a bot's move.

Each game's engine package has a bots module with `best_action(state, seat, rnd)` (or at least
`random_action`). The bot's randomness is seeded from the state, so its moves are repeatable;
the moves are logged like any other, and replays never call the bot."""
import importlib
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from accounts.models import Profile
from games.engines import get_engine

BOT_PREFIX = "bot-"


def bot_user(number: int):
    """The n-th bot account (created on first use; it cannot log in)."""
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=f"{BOT_PREFIX}{number}", defaults={"password": make_password(None), "is_active": False})
    if created:
        Profile.objects.create(user=user, display_name=f"Bot {number}")
    return user


def bot_action(game: str, state: dict, seat: int) -> dict:
    rnd = random.Random(f"{state['seed']}:{state.get('draws', 0)}:{seat}")
    try:
        module = importlib.import_module(f"games.engines.{game}.bots")
    except ImportError:  # a game without a bot of its own: any legal move
        return rnd.choice(get_engine(game).legal_actions(state, seat))
    choose = getattr(module, "best_action", None) or module.random_action
    return choose(state, seat, rnd)
