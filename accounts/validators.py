"""The text rule every way in shares (the site's forms, the API, imports, chat): no control
characters, no lone surrogates. Here, in accounts, because names and profiles need it and
accounts must not depend on games; games.validation builds the rest of its rules on it."""
import re
from collections import Counter

from confusable_homoglyphs import categories, confusables
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# C0 controls, DEL and the C1 controls. Text that may span lines (a chat line does not) keeps
# the newline and the tab.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Lone surrogates: JSON may escape them, but no database can store them as text.
SURROGATE = re.compile(r"[\ud800-\udfff]")


def control_character_message(text: str, *, multiline: bool = False) -> str | None:
    """Why the text may not be kept, or None. Names the character so it can be found."""
    found = (CONTROL_IN_TEXT if multiline else CONTROL).search(text)
    if found:
        return _("Text may not contain control characters (found U+%(code)04X).") % {"code": ord(found.group())}
    if SURROGATE.search(text):
        return _("The text contains characters that are not valid Unicode.")
    return None


def no_control_characters(value) -> None:
    """A Django validator for every one-line text field of a form (titles, names)."""
    message = control_character_message(str(value))
    if message:
        raise ValidationError(message, code="control_characters")


# --- Names that could pass for someone else's ---------------------------------------------
# Unicode's advice for identifiers people read (TR 39, "highly restrictive"): a name keeps to
# one script, or to Latin with the scripts Japanese, Chinese or Korean write beside it, so
# "аnna" with a Cyrillic "а" cannot pass for anna. Digits, spaces and punctuation belong to
# every script (COMMON), accents to the letter they sit on (INHERITED).
SCRIPT_MIXES = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"}, {"LATIN", "HAN", "HANGUL"})
ANY_SCRIPT = {"COMMON", "INHERITED"}


def _looks_latin(character: str) -> bool:
    found = confusables.is_confusable(character, greedy=True, preferred_aliases=["latin"]) or []
    return any(glyph["n"].startswith("LATIN ") for entry in found for glyph in entry["homoglyphs"])


def look_alike_message(name: str) -> str | None:
    """Why a username could be taken for another player's, or None."""
    # Each letter with its script, looked up once.
    letters = [(c, script) for c in name if (script := categories.alias(c)) not in ANY_SCRIPT]
    counts = Counter(script for _c, script in letters)
    scripts = set(counts)
    if len(scripts) > 1 and not any(scripts <= mix for mix in SCRIPT_MIXES):
        # Named by the letter from another alphabet than most of the name's (by its code too: it
        # looks like the one it stands in for).
        most = counts.most_common(1)[0][0]
        odd = next(c for c, script in letters if script != most)
        return _("A name keeps to one alphabet: “%(letter)s” (U+%(code)04X) is from another, so the "
                 "name could pass for someone else’s.") % {"letter": odd, "code": ord(odd)}
    # One other script written only in letters that look Latin ("раура"): a whole name in disguise.
    if scripts and scripts != {"LATIN"} and all(_looks_latin(c) for c, _script in letters):
        return _("This name is written in letters that look like Latin ones, so it could pass for someone "
                 "else’s.")
    return None


def no_look_alikes(value) -> None:
    """A Django validator for usernames, the names players know each other by."""
    message = look_alike_message(str(value))
    if message:
        raise ValidationError(message, code="look_alike")
