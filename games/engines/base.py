"""What every engine shares: the error it raises and how it declares and checks its options."""
from dataclasses import dataclass, field
from typing import Any


class IllegalAction(ValueError):
    """An action the rules forbid; its message is shown to the player as it is."""


@dataclass(frozen=True)
class Option:
    """One setting a match creator may choose.

    kind is "bool", "int" or "choice"; int options have bounds, choice options their choices.
    """

    name: str
    label: str
    kind: str
    default: Any
    help: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple = field(default_factory=tuple)

    def as_dict(self) -> dict:
        data = {"name": self.name, "label": self.label, "kind": self.kind,
                "default": self.default, "help": self.help}
        if self.kind == "int":
            data.update(min=self.min, max=self.max)
        if self.kind == "choice":
            data["choices"] = list(self.choices)
        return data

    def clean(self, raw: Any) -> Any:
        if raw is None or raw == "":
            return self.default
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if str(raw).lower() in ("1", "true", "on", "yes"):
                return True
            if str(raw).lower() in ("0", "false", "off", "no"):
                return False
            raise IllegalAction(f"{self.label}: expected yes or no, got {raw!r}.")
        if self.kind == "int":
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise IllegalAction(f"{self.label}: expected a whole number, got {raw!r}.") from None
            if isinstance(raw, bool):
                raise IllegalAction(f"{self.label}: expected a whole number, got {raw!r}.")
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise IllegalAction(f"{self.label}: must be between {self.min} and {self.max}.")
            return value
        if self.kind == "choice":
            if raw not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices)
                raise IllegalAction(f"{self.label}: must be one of {allowed}.")
            return raw
        raise ValueError(f"unknown option kind {self.kind}")


def clean_options(declared: list[Option], raw: dict | None) -> dict:
    """Every declared option with a checked value; an unknown name is an error, not ignored."""
    raw = dict(raw or {})
    known = {o.name for o in declared}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise IllegalAction(f"Unknown option: {', '.join(unknown)}.")
    return {o.name: o.clean(raw.get(o.name)) for o in declared}
