"""What the tests of the engines' phrase books share."""
import string

import pytest

from games.engines.base import IllegalAction


def fields(text: str) -> set[tuple]:
    """The {fields} of a phrase with their conversion and format spec ({kind!r} is not {kind})."""
    return {(name, conversion, spec) for _, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}


def assert_translated(book, keys) -> None:
    """Each phrase is in every other language, not empty, not left in English, and fills in the
    same {fields} with the same conversions."""
    for key in keys:
        english = book.books["en"][key]
        for lang in ("da", "de", "sv"):
            text = book.books[lang].get(key, "")
            assert text.strip() and text != english, (lang, key)
            assert fields(text) == fields(english), (lang, key)


def refusal(act) -> IllegalAction:
    """The IllegalAction that act() raises."""
    with pytest.raises(IllegalAction) as caught:
        act()
    return caught.value
