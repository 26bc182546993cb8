"""Refusals that a page shows, answered to htmx without reading as a failure.

Chromium logs "Failed to load resource" in the console for every 4xx an XHR gets, though the
page handles it (issue 33: every refused form did). So a refusal made to an htmx request —
a move the engine refused, a bad form — is answered 200 with the message where the form shows
its errors (HX-Retarget, HX-Reswap) and the refusal's own status in `Refused-Status`; a request
without htmx, and the API, keep their 4xx. The status was never what htmx decided on: the
site's htmx-config swaps a 4xx as a 2xx. Nothing is changed by a refusal either way: this only
rewrites how the answer is sent."""
from django_htmx.http import reswap, retarget

REFUSED_STATUS = "Refused-Status"


def refused(request, response, *, target: str | None = None, swap: str = "outerHTML"):
    """`response` (a refusal: 4xx with its message), as htmx should get it: 200, at `target`
    (a CSS selector; else where the form asked) with `swap`. Unchanged without htmx."""
    if not getattr(request, "htmx", False) or not 400 <= response.status_code < 500:
        return response
    response[REFUSED_STATUS] = str(response.status_code)
    response.status_code = 200
    if target:
        retarget(response, target)
        reswap(response, swap)
    return response
