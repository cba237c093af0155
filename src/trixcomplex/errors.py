"""The error raised for a move the rules do not allow."""

from __future__ import annotations

__all__ = ["IllegalMoveError"]


class IllegalMoveError(ValueError):
    """A move that is not legal in the state it was applied to.

    ``move`` is the rejected move, ``rule`` the RULES.md clause it breaks
    (e.g. ``"R-CX-2"``) and ``reason`` the explanation for a person; the
    message joins them: ``seat 1 plays 5S: seat 1 must follow suit ♥ (R-CX-2)``.
    The state the move was applied to is unchanged and still valid.
    """

    def __init__(self, move: object, reason: str, rule: str) -> None:
        self.move = move
        self.reason = reason
        self.rule = rule
        super().__init__(f"{move}: {reason} ({rule})")

    def __reduce__(self) -> tuple[object, tuple[object, str, str]]:
        return (type(self), (self.move, self.reason, self.rule))
