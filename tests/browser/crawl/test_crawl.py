"""The browser crawl (issue 24): for every game of the registry and its variants that matter, a
real account starts a match (bots in the other seats) and plays it through the page's own
controls — a seeded random enabled control of the board or the panel clicked, or tapped on a
390×844 touch phone, every fifth one by keyboard (focus, Enter or Space) — and after every step
the page must stay put, keep the focus somewhere useful, offer targets a finger can hit, show
no rule codes, `None`, snake_case or (on a Danish, German or Swedish page) English, pass
axe-core's WCAG 2.1 A/AA rules, log no console error and never scroll sideways. Every other
page a player reaches gets the same checks at both sizes.

CRAWL_ACTIONS (default 12) and CRAWL_SEEDS (a count or a list, default 1) make it longer:
`make crawl`. A failure names the game, size, seed, step, action and element, and the
screenshot under tests/artifacts/crawl/; the same seed replays it."""
import threading
import zlib

import pytest
from django.urls import reverse

from accounts.models import Profile
from games import play
from tests.browser.crawl.crawl_games import crawl_cases, crawled_games, game as game_of
from tests.browser.crawl.crawl_support import LANGUAGES, SIZES, Crawl, Player, Stuck, actions, seeds
from tests.browser.crawl.crawl_words import RULE_CODE
from tests.conftest import make_user

pytestmark = pytest.mark.browser

SHOT_EVERY = 5


def crawl_once(browser, base, dice, name, variant, size, seed):
    game = game_of(name)
    run = f"{name}-{variant}-{size}-seed{seed}"
    username = f"sailor{seed}"
    make_user(username)
    # Half the steps in English, the rest in one of the other languages (which one follows from
    # the run, so over the runs each is used).
    lang = LANGUAGES[zlib.crc32(run.encode()) % len(LANGUAGES)]
    crawl = Crawl(browser, base, size, run, game, seed, username)
    try:
        crawl.log_in(username)
        dice(run)  # the same run deals the same dice: with the seeded choices, it replays
        crawl.create_match(game.variants[variant], title=f"Kattegat {seed} {variant[:1]}")
        total, switch = actions(), actions() // 2
        crawl.check("step 0 (the match as it starts)", names=crawl.names())
        crawl.findings.set_shot(crawl.shot("step000"))
        for n in range(1, total + 1):
            if n == switch + 1:
                crawl.choose_language(lang)
                crawl.settle()
                crawl.check(f"step {n} (the page in {lang})", names=crawl.names())
                crawl.findings.set_shot(crawl.shot(f"step{n:03d}-{lang}"))
            keyboard = n % 5 == 0
            try:
                result = crawl.step(n, keyboard)
            except Stuck as exc:
                crawl.findings.add("stuck", f"step {n}", str(exc))
                crawl.findings.set_shot(crawl.shot(f"step{n:03d}-stuck"))
                break
            if result is None:
                break  # nothing left to act on (the match is over)
            if isinstance(result, str):  # the action could not be made: already a finding
                crawl.findings.set_shot(crawl.shot(f"step{n:03d}-cannot"))
                continue
            where = f"step {n} ({result['done']})"
            new = crawl.check(where, names=crawl.names(), keyboard=keyboard, before=result["before"],
                              region=result["region"], region_shown=result["region_shown"],
                              anchor=result.get("anchor", ()))
            if new or n % SHOT_EVERY == 0 or n == total:
                crawl.findings.set_shot(crawl.shot(f"step{n:03d}"))
        print(f"{run}: {n} steps; {crawl.timing()}")
        return crawl.findings
    finally:
        crawl.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("name", "variant"), crawl_cases())
def test_a_match_played_through_its_page(dice, browser, live_site, name, variant, size):
    reports = []
    for seed in seeds():
        findings = crawl_once(browser, live_site, dice, name, variant, size, seed)
        if findings:
            reports.append(findings.report())
    assert not reports, "\n\n".join(reports)


TITLES = "Kattegat", "Øresund", "Skagerrak"  # match titles are the creator's: no English in them


def _finished_matches():
    """One finished match of each game, with its replay and its dice to verify. Made in a thread
    of its own: the services tell the sockets, which cannot be done from the thread that runs
    Playwright's event loop."""
    anna, boss = make_user("anna"), make_user("boss", is_staff=True, is_superuser=True)
    out = {}

    def make():
        for n, g in enumerate(crawled_games()):
            seats = g.seats()
            match = play.match_create(creator=anna, game=g.name, seats=seats, bot_seats=seats - 1,
                                          title=TITLES[n % len(TITLES)])
            play.match_finish(match_id=match.pk, reason="the game reached its end", actor=boss)
            out[g.name] = match

    worker = threading.Thread(target=make)
    worker.start()
    worker.join()
    assert len(out) == len(crawled_games()), "the finished matches were not made"
    return anna, out


def _pages(finished):
    signed_out = [("home", None), ("lobby", None), ("login", None), ("signup", None)]
    signed_in = [("home", None), ("lobby", None), ("leaderboards", None), ("profile", None), ("inbox", None),
                 ("player anna", None)]
    for g in crawled_games():
        signed_in += [(f"match_new {g.name}", g.name), (f"rules {g.name}", g.name),
                      (f"replay {g.name}", g.name), (f"verify {g.name}", g.name)]
    paths = {"home": reverse("home"), "lobby": reverse("lobby"), "login": reverse("login"),
             "signup": reverse("signup"), "leaderboards": reverse("leaderboards"), "profile": reverse("profile"),
             "inbox": reverse("inbox"), "player anna": reverse("player", args=["anna"])}
    for g in crawled_games():
        m = finished[g.name]
        paths[f"match_new {g.name}"] = reverse("match_new") + f"?game={g.name}"
        paths[f"rules {g.name}"] = reverse("rules", args=[g.name])
        paths[f"replay {g.name}"] = reverse("match_replay", args=[m.pk])
        paths[f"verify {g.name}"] = reverse("match_verify", args=[m.pk])
    return [(label, paths[label], g) for label, g in signed_out], [(label, paths[label], g) for label, g in signed_in]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_other_page_a_player_reaches(browser, live_site, size):
    anna, finished = _finished_matches()
    signed_out, signed_in = _pages(finished)
    player = Player(browser, live_site, size, f"pages-{size}")
    languages = ("en",) + LANGUAGES
    offset = list(SIZES).index(size)
    try:
        pages = [(False, *p) for p in signed_out] + [(True, *p) for p in signed_in]
        for n, (signed_in_now, label, path, game) in enumerate(pages):
            if signed_in_now and n == len(signed_out):
                player.log_in("anna")
            # Each page in two of the four languages over the two sizes.
            lang = languages[(n + 2 * offset) % len(languages)]
            if signed_in_now:
                Profile.objects.filter(user=anna).update(language=lang)  # the profile's wins
            else:
                player.context.add_cookies([{"name": "django_language", "value": lang, "url": live_site}])
            player.lang = lang
            player.rule_code = game_of(game).rule_code if game else RULE_CODE
            response = player.go(path)
            where = f"{label} ({path}) in {lang}"
            if response.status != 200:
                player.findings.add("status", where, f"answered {response.status}")
            player.check(where, names=["Anna", "anna", "Boss", "boss", *TITLES])
            player.findings.set_shot(player.shot(f"{n:02d}-{label.replace(' ', '-')}-{lang}"))
    finally:
        player.close()
    assert not player.findings, player.findings.report()
