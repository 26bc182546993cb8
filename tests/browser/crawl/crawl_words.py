"""What the crawl looks for in the text a player sees: rule codes, `None`, snake_case
identifiers, and English words on a page in another language (names left out)."""
import re

# A rule's ID from the digests (/work/shared/rules): F… Fuldrigger, P… Pirater, C… Catan.
RULE_CODE = re.compile(r"\b[FPC]\d{1,2}\b")
# Where a game names its squares the same way (Pirater's "F5"), a rule code shows only by where
# it stands: in brackets, "(P5)", "(F5: 100)", or before a colon, "P20:" — but not after a die,
# where the move list names a fleet's square ("5 C10: E to H10": die 5, the fleet on C10).
RULE_CODE_BY_PLACE = re.compile(r"\(\s*[FPC]\d{1,2}\b[^)]*\)|(?<![1-6] )\b[FPC]\d{1,2}:(?!\d)")
NONE = re.compile(r"\bNone\b")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")

# Common English words that are not also words of Danish, German or Swedish ("to" is Danish
# for two, "have" Danish for to have, "is" ice, "for", "at", "by", "in", "was", "will", "offer",
# "roll", "time" all mean something there), so one of them on a da/de/sv page is an untranslated phrase.
ENGLISH = frozenset("""
the your you with this that which when where there their these those has been would could
should what who whose each every only must not yet nothing happened waiting choose wins won
turn round dice cards points players player ship ships ends days hours minutes ago and of are
or it its than then them they here please left right move sail trade goods none more
""".split())
# Words as a reader sees them; a token joined by "_" or "/" (America/Port_of_Spain) is an
# identifier or a name, not English prose.
TOKEN = re.compile(r"[\w'’/-]+")
PLAIN = re.compile(r"[^\W\d_]+")


# Credits kept in their owners' words: Natural Earth asks for exactly "Made with Natural Earth".
CREDITS = ("Made with Natural Earth",)


def strip_names(text: str, names) -> str:
    """The text without the names in it, whole words only (longest first, so "Cape of Good
    Hope" goes whole; a reef's letter "E" leaves "Earth" alone)."""
    for name in sorted({n.strip() for n in names if n and len(n.strip()) > 1}, key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", text)
    return text


def line_of(text: str, start: int, end: int) -> str:
    """The line around a find, shortened, to quote in a failure."""
    left = text.rfind("\n", 0, start) + 1
    right = text.find("\n", end)
    line = text[left:right if right >= 0 else len(text)].strip()
    if len(line) > 140:
        at = start - left
        line = "…" + line[max(0, at - 60):at + 70] + "…"
    return line


def findings(text: str, *, names=(), lang: str = "en", rule_code=RULE_CODE) -> list[tuple[str, str, str]]:
    """(check, what was found, its line) for each problem in the text."""
    out = []
    for check, pattern in (("rule code", rule_code), ("None", NONE), ("snake_case", SNAKE)):
        for m in pattern.finditer(text):
            out.append((check, m.group(0), line_of(text, m.start(), m.end())))
    if lang != "en":
        bare = strip_names(text, [*names, *CREDITS])
        for m in TOKEN.finditer(bare):
            if PLAIN.fullmatch(m.group(0)) and m.group(0).lower() in ENGLISH:
                # Quoted as the page has it: names take up no line of their own, so the line of
                # the find in the text without names is the same line of the page's text.
                number = bare.count("\n", 0, m.start())
                lines = text.split("\n")
                said = lines[number].strip()[:140] if number < len(lines) else line_of(bare, m.start(), m.end())
                out.append((f"English on a {lang} page", m.group(0), said))
    return out


# Words that promise a choice before a move (issue 33): a first tap (or click) on a board spot
# only chooses it; a second one on the same spot, or a Confirm button, plays. In the site's four
# languages, for the pointer in hand: a phone's words speak of tapping, a desktop's of clicking.
PROMISES = {
    "touch": re.compile(r"tap it again|tap one and confirm|tryk på det igen|tryk igen|tryk på et og bekræft|"
                        r"tippe noch einmal|tippe einen an und bestätige|tryck på den igen|tryck igen|"
                        r"tryck på en och bekräfta", re.I),
    "mouse": re.compile(r"click it again|klik på det igen|klik igen|klicke noch einmal|klicka på den igen|klicka igen",
                        re.I),
}


def promises_a_choice(text: str, touch: bool) -> str | None:
    """The words on the page that promise a choice first for this pointer, or None."""
    found = PROMISES["touch" if touch else "mouse"].search(text)
    return found.group(0) if found else None
