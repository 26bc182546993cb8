"""The crawl's checks find what they are meant to find: a page made with each defect (and its
fixed twin) in a real Chromium, no server needed."""
import pytest

from tests.browser.crawl.crawl_support import PAGE_JS, Player, _gone_with_a_change
from tests.browser.crawl.crawl_words import RULE_CODE_BY_PLACE, findings

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="{lang}"><head><title>t</title><style>
body {{ margin: 0; font: 16px sans-serif; }} .spot {{ position: absolute; width: 14px; height: 14px; padding: 0; }}
.big {{ width: 30px; height: 30px; }} .lid {{ position: absolute; left: 200px; top: 200px; width: 80px; height: 80px;
background: #fff; }}</style></head><body><main>{body}</main></body></html>"""


class Sheet(Player):
    """A player on a page made by the test, not served."""

    def __init__(self, browser, lang="en"):
        super().__init__(browser, "http://127.0.0.1:1", "phone", "self-test")
        self.lang = lang

    def show(self, body, lang="en"):
        self.page.set_content(PAGE.format(lang=lang, body=body))
        return self.page.evaluate("sizes => window.__crawlPage.page(sizes)", True)


@pytest.fixture
def sheet(browser):
    s = Sheet(browser)
    yield s
    s.close()


def _jumped(sheet, label, before, anchor, keyboard=False) -> bool:
    """The crawl's checks of the page as it is now, after a step from scroll position `before`
    acted in `anchor`: whether they call it a scroll jump."""
    sheet.findings.items.clear(), sheet.findings.order.clear()
    sheet.check(label, before=before, anchor=anchor, keyboard=keyboard, axe=False)
    return any(k[0] == "scroll jump" for k in sheet.findings.order)


def test_small_targets_close_together_are_found_and_spaced_ones_pass(sheet):
    near = sheet.show('<button class="spot" style="left:10px;top:10px">a</button>'
                      '<button class="spot" style="left:30px;top:10px">b</button>')
    assert len(near["targets"]["small"]) == 2
    spaced = sheet.show('<button class="spot" style="left:10px;top:10px">a</button>'
                        '<button class="spot" style="left:60px;top:10px">b</button>')
    assert spaced["targets"]["small"] == []
    big = sheet.show('<button class="spot big" style="left:10px;top:10px">a</button>'
                     '<button class="spot big" style="left:42px;top:10px">b</button>')
    assert big["targets"]["small"] == []


def test_a_link_in_a_sentence_is_exempt_but_a_lone_small_link_is_not(sheet):
    page = sheet.show('<p style="font-size:12px;line-height:14px">Read the <a href="#r">rules</a> first. '
                      '<a href="#x">next</a></p>')
    assert page["targets"]["small"] == []
    lone = sheet.show('<div style="font-size:10px;line-height:10px"><a href="#a">a</a> <a href="#b">b</a></div>')
    assert len(lone["targets"]["small"]) == 2


def test_a_covered_target_and_a_hidden_one(sheet):
    page = sheet.show('<button class="spot big" style="left:220px;top:220px">under</button><div class="lid"></div>'
                      '<details><summary>more</summary><button>inside a closed details</button></details>')
    covered = page["targets"]["covered"]
    assert [c["target"] for c in covered] == ['button.spot.big "under"']
    assert "div.lid" in covered[0]["by"]


def test_focus_on_the_body_is_told(sheet):
    sheet.show("<button id=b>go</button>")
    assert sheet.page.evaluate("() => window.__crawlPage.focus()")["body"]
    sheet.page.focus("#b")
    assert not sheet.page.evaluate("() => window.__crawlPage.focus()")["body"]


def test_the_words_a_player_must_not_read():
    found = {(check, what) for check, what, _ in findings(
        "Home city: Copenhagen (F7)\nhome None\nThe bank: draw_card\nDas Spiel ist vorbei: the match deadline passed.",
        lang="de", names=["Copenhagen"])}
    assert {("rule code", "F7"), ("None", "None"), ("snake_case", "draw_card"),
            ("English on a de page", "the")} <= found
    assert findings("Skibet sejler til Cape of Good Hope", lang="da", names=["Cape of Good Hope"]) == []
    assert findings("Kystlinjer fra Natural Earth", lang="da", names=["E"]) == []
    assert findings("Tidszone: America/Port_of_Spain", lang="sv") == []
    # Pirater names squares like rule codes: there only the bracketed or colon form counts.
    assert findings("Dit skib på F5 sejler til C8", rule_code=RULE_CODE_BY_PLACE) == []
    assert [w for _, w, _ in findings("Hjemhavn (P5) · P20: tre", rule_code=RULE_CODE_BY_PLACE)] == ["(P5)", "P20:"]
    # Pirater's move list: a die, then the square of the fleet that moves, then its moves.
    assert findings("Træk: terning, skib, retning\n5 C10: Ø til H10\n2 P11: N til P9", rule_code=RULE_CODE_BY_PLACE) == []


def test_a_page_that_keeps_the_part_acted_in_in_place_has_not_jumped_but_one_that_scrolls_away_has(sheet):
    filler = '<section class="above"><p style="height:{h}px">above</p></section>'
    sheet.show(filler.format(h=600) + '<section class="acted"><button id="go">go</button></section>'
               '<p style="height:6000px">below</p>')
    sheet.page.evaluate("() => window.scrollTo(0, 500)")
    before = sheet.page.evaluate("() => window.scrollY")
    anchor = sheet.page.locator("#go").evaluate("e => window.__crawlPage.anchor(e)")
    assert [a["kind"] for a in anchor] == ["section.acted"]
    # What lies above grows by 300 px, and the page scrolls as much: the section stays put on screen.
    sheet.page.evaluate("() => { document.querySelector('.above p').style.height = '900px'; window.scrollBy(0, 300); }")
    assert sheet.page.evaluate("() => window.scrollY") - before == 300
    assert sheet._kept_in_place(anchor)
    assert not _jumped(sheet, "kept", before, anchor)
    # The same scroll with nothing changed above: the section went 300 px up the screen.
    sheet.page.evaluate("() => { document.querySelector('.above p').style.height = '600px'; window.scrollTo(0, 800); }")
    assert not sheet._kept_in_place(anchor)
    assert _jumped(sheet, "moved", before, anchor)


def test_a_page_that_scrolls_back_to_the_part_acted_in_which_would_have_hidden_has_not_jumped(sheet):
    """As on a phone under Fuldrigger's sticky map: a ship sold at the foot of a long list, the
    list shrinks under the map, and the page brings the list back into view."""
    sheet.show('<div style="position:sticky;top:0;height:300px;background:#cde">map</div>'
               '<section class="fleet"><p style="height:5000px">ships</p><button id="sell">sell</button></section>'
               '<section class="after"><p style="height:12000px">more</p></section>')
    sheet.page.eval_on_selector("#sell", "b => b.scrollIntoView({block: 'end'})")
    before = sheet.page.evaluate("() => window.scrollY")
    anchor = sheet.page.locator("#sell").evaluate("e => window.__crawlPage.anchor(e)")
    # The list loses 4,800 px: left where it was, it would lie under the map; the page shows it.
    sheet.page.evaluate("""() => { document.querySelector('.fleet p').style.height = '200px';
        const r = document.querySelector('.fleet').getBoundingClientRect(); window.scrollBy(0, r.top - 300); }""")
    dy = sheet.page.evaluate("() => window.scrollY") - before
    assert dy < -200 and sheet._kept_in_place(anchor, dy)
    # A page that scrolls as far while the list would have shown anyway has jumped.
    sheet.page.evaluate("() => { document.querySelector('.fleet p').style.height = '5000px'; }")
    sheet.page.eval_on_selector("#sell", "b => b.scrollIntoView({block: 'end'})")
    before = sheet.page.evaluate("() => window.scrollY")
    sheet.page.evaluate("() => window.scrollBy(0, -700)")
    assert not sheet._kept_in_place(anchor, sheet.page.evaluate("() => window.scrollY") - before)


def test_a_page_that_follows_the_focus_when_the_part_acted_in_is_gone_has_not_jumped(sheet):
    """As Fuldrigger's port panel goes with its last ship sold: the game focuses its turn, higher
    up, and brings it into view. Gone with nothing focused, the same scroll is a jump."""
    page = ('<section class="turn"><p style="height:300px">turn</p><button id="roll">roll</button></section>'
            '<p style="height:1500px">players</p><section class="port"><button id="sell">sell</button></section>'
            '<p style="height:3000px">below</p>')
    for focused in (True, False):
        sheet.show(page)
        sheet.page.eval_on_selector("#sell", "b => { b.scrollIntoView({block: 'center'}); b.focus(); }")
        before = sheet.page.evaluate("() => window.scrollY")
        anchor = sheet.page.locator("#sell").evaluate("e => window.__crawlPage.anchor(e)")
        sheet.page.evaluate("""focused => { document.querySelector('.port').remove();
            const roll = document.querySelector('#roll');
            if (focused) roll.focus(); else document.activeElement.blur();
            roll.scrollIntoView({block: 'center'}); }""", focused)
        assert before - sheet.page.evaluate("() => window.scrollY") > 500
        assert _jumped(sheet, "sold", before, anchor) is not focused


def test_a_page_that_shows_a_keyboard_player_where_the_focus_went_has_not_jumped(sheet):
    """As Catan's "Confirm", pressed by key in its bar at the screen's foot while the page stands
    below the board: the bar goes, the game focuses the next lit place on the board far above, and
    the page moves to show it. By mouse or finger the same move is a jump; so is a move by key
    past a focus that was in view already."""
    page = ('<section class="live"><p style="height:{above}px">board</p><button id="spot">spot</button>'
            '<p style="height:1500px">panel</p><button id="confirm">confirm</button></section>'
            '<p style="height:3000px">below</p>')
    for keyboard, above, jump in ((True, 0, False), (False, 0, True), (True, 700, True)):
        sheet.show(page.format(above=above))
        sheet.page.evaluate("above => { document.querySelector('#confirm').focus({preventScroll: true});"
                            " window.scrollTo(0, above ? 500 : document.querySelector('#confirm').offsetTop - 400); }",
                            above)
        before = sheet.page.evaluate("() => window.scrollY")
        anchor = sheet.page.locator("#confirm").evaluate("e => window.__crawlPage.anchor(e)")
        # The bar goes and the next place takes the focus, the page moving to show it (or, with
        # the place in view already, moving anyway).
        sheet.page.evaluate("""above => { const spot = document.querySelector('#spot');
            document.querySelector('#confirm').remove();
            spot.focus({preventScroll: true});
            if (above) window.scrollTo(0, 0); else spot.scrollIntoView({block: 'nearest'}); }""", above)
        assert before - sheet.page.evaluate("() => window.scrollY") >= 500
        assert _jumped(sheet, "confirmed", before, anchor, keyboard=keyboard) is jump, (keyboard, above)


def test_a_page_shortened_under_the_screen_by_the_part_acted_in_going_has_not_jumped(sheet):
    """As Pirater's orders panel at the page's foot goes with the match's end (the orders just
    resumed played it out): the page is shorter than where the screen was, and the browser shows
    its foot. The same scroll with the page as long is a jump."""
    page = ('<p style="height:6000px">board</p><section class="orders"><p style="height:1500px">orders</p>'
            '<button id="resume">resume</button></section><p style="height:200px">chat</p>')
    for gone in (True, False):
        sheet.show(page)
        sheet.page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        before = sheet.page.evaluate("() => window.scrollY")
        anchor = sheet.page.locator("#resume").evaluate("e => window.__crawlPage.anchor(e)")
        sheet.page.evaluate("""gone => { if (gone) document.querySelector('.orders').remove();
            else window.scrollBy(0, -1500); }""", gone)
        assert before - sheet.page.evaluate("() => window.scrollY") > 500
        assert _jumped(sheet, "ended", before, anchor) is not gone


def test_a_page_that_keeps_what_the_player_looks_at_in_place_has_not_jumped(sheet):
    """As Catan's confirm bar, pinned to the screen's foot, is pressed while the player reads
    their orders below the board: the live part above grows by 322 px and the page scrolls as
    much (static/js/site.js), so the orders stay where they were on the screen. The same scroll
    with nothing grown above carries the orders away: a jump."""
    # (Scroll anchoring off, as the match page has it: the page scrolls by the site's script only.)
    page = ('<div style="overflow-anchor:none"><div id="match-live">'
            '<section class="board"><p style="height:2000px">board</p></section>'
            '<div style="position:fixed;bottom:0;left:0;right:0"><button id="yes">confirm</button></div></div>'
            '<section class="orders"><p style="height:3000px">orders</p></section></div>')
    for grown in (True, False):
        sheet.show(page)
        sheet.page.evaluate("() => window.scrollTo(0, 2500)")
        before = sheet.page.evaluate("() => { window.__crawlPage.markScreen(); return window.scrollY; }")
        anchor = sheet.page.locator("#yes").evaluate("e => window.__crawlPage.anchor(e)")
        sheet.page.evaluate("""grown => { if (grown) document.querySelector('.board p').style.height = '2322px';
            window.scrollBy(0, 322); }""", grown)
        assert _jumped(sheet, "confirmed", before, anchor) is not grown


def test_a_target_under_a_menu_the_player_opened_is_not_covered_but_one_under_a_floating_box_is(sheet):
    # Catan's board spots open their choices as a list floating over the board: what it covers
    # is reached again by closing it (a tap elsewhere, Escape), as under any open menu. The same
    # box floating there for good does cover it.
    menu = ('<{tag}{open} style="position:absolute;left:150px;top:150px"><{head} class="spot big">spot</{head}>'
            '<div style="position:absolute;left:40px;top:40px;width:120px;background:#fff;z-index:5">'
            '<button style="width:120px;height:60px">choice</button></div></{tag}>'
            '<button class="spot big" style="left:220px;top:220px">under</button>')
    assert sheet.show(menu.format(tag="details", open=" open", head="summary"))["targets"]["covered"] == []
    floating = sheet.show(menu.format(tag="div", open="", head="span"))["targets"]["covered"]
    assert [c["target"] for c in floating] == ['button.spot.big "under"']


def test_a_press_remembers_what_the_control_it_landed_on_shows(sheet):
    # Fuldrigger's map is a control of its own (focusable, to pan by keys); a finger's tap on it
    # is carried to a ship beside the point tapped (Chromium's touch adjustment), whose link opens
    # the sail form further down (data-shows): the press is judged by what it landed on.
    sheet.show('<div id="pane" tabindex="0" style="position:relative;width:200px;height:200px;background:#def">'
               '<a href="#far" data-shows="#far" style="position:absolute;left:90px;top:90px;width:30px;'
               'height:30px;display:block" aria-label="ship"></a></div><p id="far">far</p>')
    # (set_content's document.open took the listeners the crawl adds to every document: again.)
    sheet.page.add_script_tag(path=str(PAGE_JS))
    sheet.page.mouse.click(105, 105)
    assert sheet.page.evaluate("() => window.__crawl.shows") == "#far"
    sheet.page.mouse.click(20, 180)    # open sea
    assert sheet.page.evaluate("() => window.__crawl.shows") is None


def test_a_sliver_of_a_target_at_the_screens_edge_is_not_counted_as_covered(sheet):
    body = ('<button class="spot big" style="left:10px;top:{top}px;height:40px">edge</button>'
            '<div class="lid" style="left:0;top:{lid}px;width:100px;height:100px"></div>')
    sheet.page.set_viewport_size({"width": 390, "height": 844})
    # 2 px of the button show at the screen's top, and what lies over its foot covers them.
    page = sheet.show(body.format(top=-38, lid=0))
    assert page["targets"]["covered"] == []
    page = sheet.show(body.format(top=-20, lid=0))
    assert [c["target"] for c in page["targets"]["covered"]] == ['button.spot.big "edge"']


def test_a_form_the_browser_held_back_marks_the_field_it_brought_into_view(sheet):
    # Standing orders' "Add order" says it shows the list of orders (where the new one appears);
    # with a field left empty the browser sends nothing and brings that field into view instead.
    sheet.show('<ol id="far" style="height:1500px"><li>orders</li></ol><form onsubmit="return false">'
               '<select required><option value="">–</option><option>a</option></select>'
               '<div style="height:1200px"></div><button data-shows="#far">Add order</button></form>')
    sheet.page.add_script_tag(path=str(PAGE_JS))
    sheet.page.locator("button").click()
    assert sheet.page.evaluate("() => window.__crawl.heldBack") is True
    assert sheet.page.evaluate("() => document.querySelector('[data-crawl-held]').tagName") == "SELECT"
    assert sheet.page.evaluate("() => window.__crawlPage.inView('[data-crawl-held]').shown") > 0
    # Filled, the form goes (its own handler keeps the page): nothing is held back.
    sheet.page.locator("select").select_option(index=1)
    sheet.page.locator("button").click()
    assert sheet.page.evaluate("() => window.__crawl.heldBack") is False
    assert sheet.page.evaluate("() => document.querySelectorAll('[data-crawl-held]').length") == 0


def test_a_control_a_change_moved_before_the_press_is_judged_from_where_the_page_stood_when_pressed(sheet):
    """A bot's move shrinks the turn above the orders between the crawl's look and its press:
    the button goes above the screen and Playwright scrolls to it, as a player does to find it
    again; the page's own movement is judged from there. With no change, the same movement
    before the press is the page's own: judged from where the crawl looked."""
    page = ('<div id="match-live" data-version="1"><p id="turn" style="height:5000px">turn</p></div>'
            '<section class="orders"><p style="height:300px">orders</p><button id="pause">pause</button>'
            '<p style="height:6000px">chat</p></section>')
    for changed in (True, False):
        sheet.show(page)
        sheet.page.add_script_tag(path=str(PAGE_JS))   # (set_content took the crawl's listeners)
        sheet.page.evaluate("() => document.getElementById('pause').scrollIntoView({block: 'center'})")
        before = sheet.page.evaluate("() => { window.__crawlPage.markScreen(); return window.scrollY; }")
        sheet.page.evaluate("""changed => { document.getElementById('turn').style.height = '500px';
            if (changed) document.getElementById('match-live').dataset.version = '2'; }""", changed)
        sheet.page.click("#pause")
        pressed_at = sheet.page.evaluate("() => window.scrollY")
        assert before - pressed_at > 1000   # scrolled up to the button
        assert sheet.where_pressed(before) == (pressed_at if changed else before)


def test_a_control_gone_with_a_change_is_what_a_player_finds_but_one_gone_with_none_is_not(sheet):
    """A control listed at one version of the match and gone (or hidden) by the press: taken by a
    change (a socket's swap, a bot's move) when the page's version has moved on; with none, a
    fault of the page. One still there is not gone."""
    page = '<div id="match-live" data-version="{v}">{button}</div>'
    button = '<button data-crawl="7" {attr}>pause</button>'
    for version, attr, gone in ((1, "", False), (2, "", False), (2, "hidden", True), (1, "hidden", False)):
        sheet.show(page.format(v=version, button=button.format(attr=attr)))
        assert _gone_with_a_change(sheet.page.locator('[data-crawl="7"]'), 1) is gone
    for version, gone in ((1, False), (2, True)):
        sheet.show(page.format(v=version, button=""))
        assert _gone_with_a_change(sheet.page.locator('[data-crawl="7"]'), 1) is gone
