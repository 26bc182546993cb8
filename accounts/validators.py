"""The text rule every way in shares (the site's forms, the API, imports, chat): no control
characters, no lone surrogates. Here, in accounts, because names and profiles need it and
accounts must not depend on games; games.validation builds the rest of its rules on it."""
import re

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
