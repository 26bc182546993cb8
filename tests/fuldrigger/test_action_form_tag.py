"""{% action_form %}: the CSRF token, the version and the hx attributes every move's form needs."""
from types import SimpleNamespace

from django.contrib.auth.models import AnonymousUser
from django.middleware.csrf import get_token
from django.template import engines
from django.test import RequestFactory

FORM = "{% load games_tags %}{% action_form action id=\"x\" css=\"c\" %}<button>Go</button></form>"


def render(text, **context):
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    get_token(request)
    return engines["django"].from_string(text).render(context, request)


def test_it_opens_a_form_posting_the_action_with_token_and_version():
    html = render(FORM, match=SimpleNamespace(pk=12, version=34), action={"type": "roll", "a": "<'&>"})
    assert html.startswith('<form id="x" class="c" method="post" action="/matches/12/action/" '
                           'hx-post="/matches/12/action/" hx-target="#match-live" hx-swap="outerHTML">')
    assert 'name="csrfmiddlewaretoken" value="' in html
    assert '<input type="hidden" name="version" value="34">' in html
    # The action's JSON is escaped by the template, quotes and all: the browser posts it back whole.
    assert "name=\"action\" value='{&quot;a&quot;:&quot;&lt;&#x27;&amp;&gt;&quot;,&quot;type&quot;:&quot;roll&quot;}'" in html
    assert html.endswith("<button>Go</button></form>")


def test_it_may_inherit_the_target_and_leave_the_action_to_a_button():
    html = render('{% load games_tags %}{% action_form target="" swap="" %}</form>',
                  match=SimpleNamespace(pk=1, version=2))
    assert "hx-target" not in html and "hx-swap" not in html and 'name="action"' not in html
