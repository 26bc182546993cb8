"""The games the crawl plays, read from the engine registry, with their variants that matter and
the small per-game hooks a game needs. A new engine is crawled with the defaults by itself; give
it an entry here only when it needs a variant or special help."""
from games.engines import ENGINES

from tests.browser.crawl.crawl_words import RULE_CODE, RULE_CODE_BY_PLACE


class Game:
    """A game as the crawl plays it: its options per variant, and hooks (all optional)."""

    variants = {"default": {}}
    rule_code = RULE_CODE

    def __init__(self, name):
        self.name = name
        self.engine = ENGINES[name]

    def seats(self) -> int:
        return max(self.engine.min_players, 2)

    def names(self, match) -> list[str]:
        """Proper names the game shows (left out of the search for English words)."""
        return []

    def prepare(self, crawler):
        """Before each step: fill in what only a player who counts can (a locator to press
        instead of a random control), or None."""
        return None


class CatanShips(Game):
    variants = {"ships": {"ships": True}, "base": {"ships": False}}

    def prepare(self, crawler):
        # Discarding half the hand needs the right number of cards ticked off: random numbers
        # would be refused every time and the game would wait for us for ever.
        page = crawler.page
        form = page.locator(".cs-discard")
        if not form.count() or not form.first.is_visible():
            return None
        match = crawler.match()
        discarding = match.state.get("discarding") or {}
        need = discarding.get(str(crawler.seat), discarding.get(crawler.seat, 0))
        for box in form.locator("input[type=number]").all():
            take = min(need, int(box.get_attribute("max") or 0))
            box.fill(str(take))
            need -= take
        return form.locator("button")


class Pirater(Game):
    # Squares are named like rule codes ("F5"): a code shows only by its brackets or colon.
    rule_code = RULE_CODE_BY_PLACE


class Fuldrigger(Game):
    def names(self, match):
        state = match.state or {}
        ships = state.get("ships") or []
        if isinstance(ships, dict):
            ships = list(ships.values())
        return [s.get("name", "") for s in ships if isinstance(s, dict)]

    def prepare(self, crawler):
        # When the sail form opens, do what a player does who reads the list first: pick a
        # destination there, then tap (click) its lit square to see it on the map. That tap only
        # chooses it again: the words beside the map promise a second one (issue 33).
        # And half the time a ship can sail, her "Sail…" is pressed, so the crawl reaches the
        # sail form (among the page's many buttons a random step seldom would).
        page = crawler.page
        dest = page.locator("#fd-dest")
        if not dest.count():
            sail = page.locator(".fd-fleet a.button[href*='sail=']")
            return sail.first if crawler.rnd.random() < 0.5 and sail.count() else None
        if dest.input_value():
            return None
        shown = page.evaluate("""() => [...document.querySelectorAll('#fd-pieces .fd-reach a[data-to]')].filter(a => {
            const r = a.querySelector('circle').getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
            return x > 0 && y > 0 && x < innerWidth && y < innerHeight && a.contains(document.elementFromPoint(x, y));
        }).map(a => a.dataset.to)""")
        if not shown:
            return None
        to = crawler.rnd.choice(shown)
        page.select_option("#fd-dest", value=page.get_attribute(f"#fd-dest option[data-to='{to}']", "value"))
        return page.locator(f"#fd-pieces .fd-reach a[data-to='{to}']")


HOOKS = {"catan_ships": CatanShips, "pirater": Pirater, "fuldrigger": Fuldrigger}


def crawled_games() -> list[Game]:
    """Every game of the registry but the test-only ones (the race of tests/race_engine.py)."""
    out = []
    for name in sorted(ENGINES):
        if type(ENGINES[name]).__module__.startswith("tests.") or name == "race":
            continue
        out.append(HOOKS.get(name, Game)(name))
    return out


def crawl_cases() -> list[tuple[str, str]]:
    return [(g.name, variant) for g in crawled_games() for variant in g.variants]


def game(name) -> Game:
    return HOOKS.get(name, Game)(name)
