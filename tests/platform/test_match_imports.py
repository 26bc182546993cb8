"""Match imports (issues 19.5, 19.7): the size is bounded before the body is read, an import is
private by default and bounded a day."""
from django.urls import reverse

from games import play
from games.models import Match
from tests.conftest import client_for


def _export(race_match, player, opponent):
    from games.reads.export import match_export

    match = play.match_finish(match_id=race_match.pk, reason="ended by an admin").match
    return match_export(match)


def test_a_huge_import_is_refused_before_it_is_read(race_match, player, opponent, outsider, settings):
    """Issue 19.5: a 150 MiB upload was read whole into memory before its 400."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.IMPORT_MAX_BYTES = 10_000
    client = client_for(outsider)
    # Past the bound by its length: refused from the headers, the body never parsed.
    huge = SimpleUploadedFile("m.json", b" " * 200_000, content_type="application/json")
    response = client.post(reverse("match_import"), {"file": huge})
    assert response.status_code == 413 and "too large" in response.content.decode()
    # Within the headers' slack but past the bound: the upload is stopped as it streams in.
    bigger = SimpleUploadedFile("m.json", b" " * 30_000, content_type="application/json")
    response = client.post(reverse("match_import"), {"file": bigger})
    assert response.status_code == 413
    assert Match.objects.count() == 1


def test_imports_are_private_by_default_and_bounded_a_day(race_match, player, opponent, outsider, settings):
    import json

    settings.MAX_IMPORTS_PER_DAY = 2
    data = json.dumps(_export(race_match, player, opponent))
    client = client_for(outsider)
    assert client.post(reverse("match_import"), {"data": data}).status_code == 302
    assert client.post(reverse("match_import"), {"data": data, "public": "1"}).status_code == 302
    private, public = Match.objects.filter(creator=outsider).order_by("pk")
    assert not private.is_public and public.is_public
    assert client.get(private.get_absolute_url()).status_code == 200  # its importer sees it
    assert client_for(player).get(private.get_absolute_url()).status_code == 403
    response = client.post(reverse("match_import"), {"data": data})
    assert response.status_code == 400 and "the limit" in response.content.decode()
    assert Match.objects.filter(creator=outsider).count() == 2
