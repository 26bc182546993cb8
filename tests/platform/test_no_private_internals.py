"""No module reaches into Django's or redis-py's private parts (issue 26): a patch release may
change any of them without a word. Each of these once sat in the read path."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("accounts", "bench", "community", "config", "games", "notifications")
# Names private to Django's ORM and cache, redis-py's client, and the like.
PRIVATE = re.compile(
    r"\b(klass_info|get_related_populators|_result_cache|_prefetch_done|_prefetched_objects_cache"
    r"|annotation_col_map|get_converters|_iterable_class|_get_connection_pool|_client\(|_class\b"
    r"|_fields_cache|fields_cache)")
# `from django.x import _name`, `from redis.x import _name` (an alias may be private: `as _lazy`).
IMPORT = re.compile(r"^\s*from\s+(django|redis|channels|channels_redis)\S*\s+import\s+\(?([^)#\n]*)", re.M)


def _private_imports(text):
    for match in IMPORT.finditer(text):
        names = [part.split(" as ")[0].strip() for part in match.group(2).split(",")]
        if any(name.startswith("_") for name in names):
            yield match.group(0).strip()


def _modules():
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def test_no_module_uses_a_private_attribute_of_django_or_redis():
    found = []
    for path in _modules():
        text = path.read_text()
        for number, line in enumerate(text.splitlines(), 1):
            if PRIVATE.search(line.split("#")[0]):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
        found += [f"{path.relative_to(ROOT)}: {line}" for line in _private_imports(text)]
    assert found == []


def test_the_check_finds_what_it_looks_for():
    assert PRIVATE.search("queryset._result_cache = rows")
    assert PRIVATE.search("compiler.klass_info")
    assert list(_private_imports("from django.db.models.query import Q, _private_thing"))
    assert not list(_private_imports("from django.utils.translation import gettext_lazy as _lazy"))
    assert not PRIVATE.search("Match._meta.concrete_fields")
