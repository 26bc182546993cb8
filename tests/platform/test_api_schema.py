"""Schemathesis over /api/openapi.json, the document django-ninja generates from the code:
generated requests (valid ones, and ones that break the schema on purpose) find no 500 and no
response that breaks the schema, and every request that breaks the schema is refused with a 4xx
(the API is strict about what it accepts). A second run sends no token: public endpoints answer,
the others refuse with 401."""
import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from accounts.models import ApiToken
from games import play
from tests.conftest import make_user

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())


@pytest.fixture
def api_key(db):
    # As Django's test client does: keep the test's connection open across these requests.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    anna, bo = make_user("anna"), make_user("bo")
    match = play.match_create(creator=anna, game="race", seats=2)
    play.match_join(match_id=match.pk, user=bo)
    yield ApiToken.issue(anna)[1]
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_answers_within_its_schema(case, api_key):
    # identity: the in-process WSGI client does not undo GZipMiddleware as an HTTP client would.
    case.call_and_validate(headers={"Authorization": f"Token {api_key}", "Accept-Encoding": "identity"},
                           checks=[schemathesis.checks.not_a_server_error,
                                   schemathesis.checks.status_code_conformance,
                                   schemathesis.checks.content_type_conformance,
                                   schemathesis.checks.response_schema_conformance,
                                   schemathesis.checks.negative_data_rejection,
                                   schemathesis.checks.unsupported_method])


@schema.parametrize()
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_without_a_token_answers_within_its_schema(case, api_key):
    case.call_and_validate(headers={"Accept-Encoding": "identity"},
                           checks=[schemathesis.checks.not_a_server_error,
                                   schemathesis.checks.status_code_conformance,
                                   schemathesis.checks.content_type_conformance,
                                   schemathesis.checks.response_schema_conformance])
