"""A match played elsewhere (or here), imported from the JSON games/reads/export.py writes: every
action replayed from the seed before anything is stored."""
import json

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.play import limits
from games.play.bots import bot_user
from games.engines import IllegalAction, get_engine
from games.engines import actions as declared_actions
from games.engines.dice import seed_hash
from games.errors import BadRequest
from games.models import ActionLog, Match, Seat
from games.reads.export import EXPORT_FORMAT
from games.reads.replay import deal

MAX_IMPORT_ACTIONS = 100_000


def _edition(data: dict):
    """The rules edition an export was played under: its "edition", else its rules version
    (exports from before editions were recorded say "1")."""
    edition = data.get("edition")
    if edition is None and str(data.get("rules_version", "")).isdecimal():
        edition = int(data["rules_version"])
    return 1 if edition is None else edition


def match_import(*, data, user, is_public: bool = False) -> Match:
    """Replay an exported match from its seed; if every action is legal, keep it as a finished,
    unrated match here, with its replay and verification. Private unless the importer says so
    (an import is the importer's claim, not a match played here), and a bounded number a day."""
    limits.check_import(user)
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise BadRequest(_("This is not a Tradewinds match export (%(format)s).") % {"format": EXPORT_FORMAT})
    try:
        engine = get_engine(str(data.get("game")))
    except LookupError:
        raise BadRequest(_("This site has no game called %(game)s.") % {"game": repr(data.get("game"))}) from None
    seed, actions, players = data.get("seed"), data.get("actions"), data.get("players")
    if not isinstance(seed, str) or not isinstance(actions, list) or not isinstance(players, list):
        raise BadRequest(_("The export lacks its seed, players or actions."))
    if len(actions) > MAX_IMPORT_ACTIONS:
        raise BadRequest(_("The export is too long."))
    if data.get("seed_hash") and seed_hash(seed) != data["seed_hash"]:
        raise BadRequest(_("The seed does not match its published hash."))
    count = len(players)
    happened = []
    try:
        edition = _edition(data)
        if getattr(engine, "editions", None) is None:
            options = engine.check_options(data.get("options") or {}, count)
        else:
            options = engine.check_options(data.get("options") or {}, count, edition)
        state = deal(engine, count, seed, options, edition)
        for number, row in enumerate(actions, 1):
            if not isinstance(row, dict) or row.get("kind") not in ActionLog.ENGINE_KINDS:
                raise BadRequest(_("Action %(number)s is malformed.") % {"number": number})
            # Only what the engine reads is kept, as for a move made here.
            why = declared_actions.action_problem(engine, row.get("action"))
            if why:
                raise BadRequest(_("Action %(number)s is malformed.") % {"number": number} + f" ({why})")
            state, events = engine.apply(state, row.get("seat"), row.get("action"))
            state = json.loads(json.dumps(state))
            happened.append(json.loads(json.dumps(events)))
    except IllegalAction as exc:
        raise BadRequest(_("The replay fails: %(reason)s") % {"reason": exc.in_language(translation.get_language())}) from None
    except (TypeError, ValueError, KeyError) as exc:
        raise BadRequest(_("The export is malformed: %(reason)s") % {"reason": exc}) from None
    with transaction.atomic():
        limits.lock_player(user)
        limits.check_import(user)  # again under the lock: racing imports queue here
        match = Match.objects.create(
            game=engine.name, is_public=bool(is_public), rules_version=str(data.get("rules_version", "")), creator=user,
            title=f"{str(data.get('title') or engine.title)[:60]} (imported)", options=options,
            seats_count=count, status=Match.FINISHED, rated=False, seed=seed, seed_hash=seed_hash(seed),
            state=state, standings=engine.standings(state), finish_reason="imported from another site",
            started_at=timezone.now(), finished_at=timezone.now(),
            player_names=[str(p)[:40] for p in players],
        )
        for number in range(count):
            Seat.objects.create(match=match, user=bot_user(100 + number), colour=Seat.COLOURS[number % 8],
                                number=number, is_bot=True)
        ActionLog.objects.bulk_create([
            ActionLog(match=match, seq=seq, seat=row.get("seat"), kind=row["kind"], action=row["action"],
                      events=events)
            for seq, (row, events) in enumerate(zip(actions, happened), 1)])
        match.version = len(actions)
        match.save(update_fields=["version"])
    return match
