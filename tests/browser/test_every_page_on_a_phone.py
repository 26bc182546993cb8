"""Every page of the site on a 390 × 844 phone — signed out, signed in, playing, finished, the
admin — with no sideways scroll and no console error on any of them, and on the site's own pages
no target smaller than a thumb's 24 px. A screenshot of each lands in tests/artifacts/phone-*.png."""
import pytest
from django.urls import reverse

from games import play
from games.engines import ENGINES
from games.models import Match
from tests.browser.conftest import ARTIFACTS, broken_words
from tests.conftest import make_user

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LONG_WORD = "Supercalifragilisticexpialidocious" * 2  # one word, wider than the phone


def _site():
    anna, bo = make_user("anna"), make_user("bo")
    boss = make_user("boss", is_staff=True, is_superuser=True)
    running = {}
    for game in sorted(ENGINES):
        engine = ENGINES[game]
        if game == "race":
            continue
        seats = max(engine.min_players, 2)
        match = play.match_create(creator=anna, game=game, seats=seats, title=f"{engine.title} at sea")
        play.match_join(match_id=match.pk, user=bo)
        for n in range(seats - 2):
            play.match_join(match_id=match.pk, user=make_user(f"crew{game[:3]}{n}"))
        if Match.objects.get(pk=match.pk).needs_system:
            play.system_action_apply(match_id=match.pk)
        running[game] = Match.objects.get(pk=match.pk)
    over = play.match_create(creator=anna, game="pirater", seats=2, title="Finished race")
    play.match_join(match_id=over.pk, user=bo)
    play.match_finish(match_id=over.pk, reason="the game reached its end", actor=boss)
    waiting = play.match_create(creator=bo, game="fuldrigger", seats=3, title=LONG_WORD)
    return {"anna": anna, "bo": bo, "boss": boss, "running": running, "over": over, "open": waiting}


def _pages(site):
    over, waiting = site["over"], site["open"]
    signed_out = [reverse("home"), reverse("lobby"), reverse("login"), reverse("signup"),
                  reverse("password_reset"), reverse("leaderboards"),
                  reverse("match_detail", args=[over.pk]), reverse("match_replay", args=[over.pk]),
                  reverse("match_verify", args=[over.pk]), reverse("player", args=["anna"])]
    signed_out += [reverse("rules", args=[g]) for g in sorted(ENGINES) if g != "race"]
    signed_out += [reverse("leaderboard", args=[g]) for g in sorted(ENGINES) if g != "race"]
    signed_in = [reverse("home"), reverse("lobby"), reverse("profile"), reverse("inbox"),
                 reverse("password_change"), reverse("match_import"),
                 reverse("match_detail", args=[waiting.pk]), reverse("match_detail", args=[over.pk]),
                 reverse("head_to_head", args=["anna", "bo"])]
    signed_in += [reverse("match_new") + f"?game={g}" for g in sorted(ENGINES) if g != "race"]
    signed_in += [reverse("match_detail", args=[m.pk]) for m in site["running"].values()]
    admin = [reverse("admin:index"), reverse("admin:games_match_changelist"),
             reverse("admin:games_match_change", args=[over.pk]),
             reverse("admin:games_match_manage", args=[site["running"]["pirater"].pk])]
    return signed_out, signed_in, admin


# The targets a thumb is asked to hit, smaller than 24 × 24 px (WCAG 2.5.8): a link, button, field
# or fold-out heading (with its label, if it sits in one). A link inside a sentence may be narrow
# (the rule's own exception), not short. Not counted: what is off screen until focused (the skip
# link) and the pieces on a game's map, which a phone plays from the buttons beside it.
SMALL_TARGETS = """() => {
  const small = [];
  for (const el of document.querySelectorAll("a[href], button, input:not([type=hidden]), select, summary, textarea")) {
    if (el.closest("svg")) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || box.right < 0 || box.bottom < 0) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    let height = box.height, width = box.width;
    const label = el.closest("label");
    if (label) {
      const around = label.getBoundingClientRect();
      height = Math.max(height, around.height);
      width = Math.max(width, around.width);
    }
    const inline = el.tagName === "A" && getComputedStyle(el).display === "inline";
    if (height < 24 || (width < 24 && !inline)) {
      small.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.name || el.type).trim().slice(0, 30)}" ${Math.round(width)}×${Math.round(height)}`);
    }
  }
  return small;
}"""


def _check(person, path, label):
    response = person.page.goto(person.base + path)
    assert response.status == 200, (path, response.status)
    person.page.wait_for_load_state("networkidle")
    width = person.page.evaluate("document.documentElement.scrollWidth")
    person.page.screenshot(path=str(ARTIFACTS / f"phone-{label}.png"), full_page=True)
    assert width <= PHONE["width"], f"{path} scrolls sideways: {width} px wide in {PHONE['width']}"
    # A table that scrolls sideways breaks no word over two lines ("Runni-ng" in a status cell),
    # and no table's header does ("Point-s" in Catan's points table, "Atta-cker-s" in the rules);
    # nor do the open matches beside a long title ("Fuldri-gger", "turn-s so far"): a phone shows
    # each match as a block.
    broken = broken_words(person.page, ".table-scroll td, .table-scroll th, thead th, .open-matches td:not(.title)")
    assert broken == [], (path, broken[:5])
    assert not person.errors, (path, person.errors)
    if not path.startswith("/admin/"):  # Django's own admin keeps its own sizes
        small = person.page.evaluate(SMALL_TARGETS)
        assert small == [], (path, small[:5])


def test_every_page_fits_a_phone_without_errors(people):
    site = _site()
    signed_out, signed_in, admin = _pages(site)
    visitor = people("phone-visitor", viewport=PHONE)
    for n, path in enumerate(signed_out):
        _check(visitor, path, f"out-{n:02d}")
    anna = people("phone-anna", viewport=PHONE)
    anna.log_in("anna")
    for n, path in enumerate(signed_in):
        _check(anna, path, f"in-{n:02d}")
    boss = people("phone-boss", viewport=PHONE)
    boss.log_in("boss")
    for n, path in enumerate(admin):
        _check(boss, path, f"admin-{n:02d}")
