"""What the tests of the engines' phrase books share."""
import string

import pytest

from games.engines.base import IllegalAction


def fields(text: str) -> set[tuple]:
    """The {fields} of a phrase with their conversion and format spec ({kind!r} is not {kind})."""
    return {(name, conversion, spec) for _, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}


def refusal(act) -> IllegalAction:
    """The IllegalAction that act() raises."""
    with pytest.raises(IllegalAction) as caught:
        act()
    return caught.value
