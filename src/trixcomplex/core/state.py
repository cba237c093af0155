"""The match state: one immutable value per moment of the match.

A :class:`MatchState` is a frozen attrs class; :func:`trixcomplex.apply`
returns a new one and shares every unchanged part (hands, finished tricks,
results, the move history) with its predecessor instead of copying it.
States compare by value and are hashable.
"""

from __future__ import annotations

import enum
import warnings
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, TypeAlias

from .cards import Card, cards_of
from .doubling import DoublingWindow
from .kingdoms import kingdom_after
from .moves import Contract, Deal, Pass, Play
from .rulesets import PARTNERSHIP, Ruleset, TrickRules
from .scoring import DealResult
from .tricks import TrickDeal, legal_cards
from .trix import TrixDeal, bad_hand_seat, layable
from .tuplerecord import TupleRecord, tuple_field

if TYPE_CHECKING:
    from .moves import Move

__all__ = ["DealProgress", "History", "MatchState", "Phase", "redeal_seat", "redeal_window"]


class Phase(enum.Enum):
    """What the match is waiting for."""

    DEAL = "DEAL"
    """A shuffle: the chance move :class:`~trixcomplex.Deal` (R-MATCH-2)."""
    CHOOSE = "CHOOSE"
    """The Kingdom owner's choice of contract (R-MATCH-5, R-MATCH-6)."""
    DOUBLE = "DOUBLE"
    """The hidden doubling window before the first trick (R-DBL-2, R-DBL-3)."""
    COMPLEX = "COMPLEX"
    """Tricks of a COMPLEX deal (R-CX-1 … R-CX-6)."""
    TRICKS = "TRICKS"
    """Tricks of a classic trick contract: King of Hearts, Queens, Diamonds or
    Ltoosh (R-CL-2 … R-CL-5; ``state.contract`` says which)."""
    TRIX = "TRIX"
    """Cards laid in a TRIX deal (R-TX-1 … R-TX-5)."""
    OVER = "OVER"
    """The match is finished (R-MATCH-8)."""

    @property
    def plays_tricks(self) -> bool:
        """Whether cards are played to tricks now: COMPLEX or TRICKS.

        >>> Phase.TRICKS.plays_tricks, Phase.COMPLEX.plays_tricks, Phase.TRIX.plays_tricks
        (True, True, False)
        """
        return self is _COMPLEX or self is _TRICKS

    @property
    def plays_cards(self) -> bool:
        """Whether seats play cards now: to tricks (COMPLEX, TRICKS) or to the TRIX rows.

        >>> Phase.TRICKS.plays_cards, Phase.TRIX.plays_cards, Phase.DOUBLE.plays_cards
        (True, True, False)
        """
        return self is _COMPLEX or self is _TRICKS or self is _TRIX


# The phases as module constants.  On Python 3.11 an attribute of a class is not
# specialized: ``Phase.OVER`` inside a function costs about 940 machine instructions
# (the metaclass and the class's MRO looked up each time), a module global about
# 10.  ``state.is_over`` is read once a move by most game loops, and a Monte Carlo
# decision read ``Phase`` members about 7,700 times (issue 44).
_COMPLEX, _TRICKS, _TRIX, _OVER = Phase.COMPLEX, Phase.TRICKS, Phase.TRIX, Phase.OVER


class History(tuple[Any, ...]):
    """The moves of a match so far: a persistent list sharing its prefix.

    Appending makes a new one-node list pointing at the old one, so every
    state of a match shares its history with its predecessors.
    :meth:`extend` adds many moves as one node (a fast playout's deal).

    >>> from trixcomplex.core.moves import Timeout
    >>> h = History.EMPTY.append(Timeout())
    >>> len(h), list(h), h == History.EMPTY.append(Timeout())
    (1, [Timeout()], True)
    >>> History.EMPTY.extend([Timeout(), Timeout()]) == h.append(Timeout())
    True
    """

    # A node is the tuple (previous node, move, length), built by one call (one
    # node per move).  Not __slots__: a node's __dict__ is not even allocated
    # until the node is hashed; then it keeps the hash (see __hash__).
    EMPTY: ClassVar[History]
    _cached_hash: int | None = None

    if TYPE_CHECKING:
        _prev: History | None
        _move: Move | None
        _len: int
    else:
        _prev = tuple_field(0, "The node before this one (None for the empty history).")
        _move = tuple_field(1, "The latest move (None for the empty history).")
        _len = tuple_field(2, "How many moves.")

    def __new__(cls, prev: History | None = None, move: Move | None = None) -> History:
        return _tnew(cls, (prev, move, 0 if prev is None else prev._len + 1))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("History is immutable")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def append(self, move: Move) -> History:
        """This history with ``move`` added at the end."""
        return _tnew(History, (self, move, self._len + 1))

    def extend(self, moves: Iterable[Move]) -> History:
        """This history with ``moves`` added at the end, in order (one node for them all)."""
        more = tuple(moves)
        if len(more) < 2:
            return self.append(more[0]) if more else self
        return _tnew(_Segment, (self, more[-1], self._len + len(more), more[:-1]))

    @property
    def last(self) -> Move | None:
        """The latest move, or ``None`` for an empty history."""
        return self._move

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves())

    def __contains__(self, move: object) -> bool:
        return move in self.moves()

    def __getitem__(self, index: object) -> NoReturn:
        raise TypeError("a History is not indexed: use moves() or newest_first()")

    def _no_operator(self, _other: object) -> Any:
        return NotImplemented

    __lt__ = __le__ = __gt__ = __ge__ = _no_operator
    __add__ = __mul__ = __rmul__ = _no_operator

    def newest_first(self) -> Iterator[Move]:
        """The moves from the latest back to the first, lazily (walk back only as far as needed)."""
        node = self
        while node._prev is not None:
            yield node._move  # type: ignore[misc]
            if type(node) is _Segment:
                yield from reversed(node._more)
            node = node._prev

    def _reversed(self) -> list[Move]:
        """All moves, newest first."""
        return list(self.newest_first())

    def moves(self) -> tuple[Move, ...]:
        """All moves, oldest first."""
        out = self._reversed()
        out.reverse()
        return tuple(out)

    def since_deal(self) -> tuple[Move, ...]:
        """The moves of the current deal, starting with its :class:`Deal` (empty before one)."""
        out: list[Move] = []
        node = self
        while node._prev is not None:  # newest_first(), unrolled: views read this per call
            move = node._move
            assert move is not None
            out.append(move)
            if isinstance(move, Deal):
                break
            if type(node) is _Segment:
                more = node._more
                for i in range(len(more) - 1, -1, -1):
                    out.append(more[i])
                    if isinstance(more[i], Deal):
                        out.reverse()
                        return tuple(out)
            node = node._prev
        else:
            return ()
        out.reverse()
        return tuple(out)

    def __hash__(self) -> int:
        # hash((prev's hash, move)) move by move, oldest first, without recursion,
        # from the nearest node that knows its hash.  The node asked keeps its hash,
        # and so does every 64th node on the way (a later walk is short) while the
        # others stay without a __dict__.
        value = self._cached_hash
        if value is not None:
            return value
        pending = []
        node: History = self
        value = 0x5EED  # the empty history's
        while node._prev is not None:
            known = node._cached_hash
            if known is not None:
                value = known
                break
            pending.append(node)
            node = node._prev
        for node in reversed(pending):
            if type(node) is _Segment:
                for move in node._more:
                    value = hash((value, move))
            value = hash((value, node._move))
            if node is self or not node._len & 63:
                _keep_hash(node, "_cached_hash", value)
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return False if isinstance(other, tuple) else NotImplemented
        if self._len != other._len:
            return False
        mine, theirs = self._cached_hash, other._cached_hash
        if mine is not None and theirs is not None and mine != theirs:
            return False
        a: History | None = self
        b: History | None = other
        while a is not b:
            assert a is not None and b is not None
            if type(a) is _Segment or type(b) is _Segment:
                return a._reversed() == b._reversed()
            if a._move is not b._move and a._move != b._move:
                return False
            a, b = a._prev, b._prev
        return True

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __repr__(self) -> str:
        return f"<History of {self._len} moves>"

    def __reduce__(self) -> tuple[object, tuple[tuple[Move, ...]]]:
        return (_history_of, (self.moves(),))


class _Segment(History):
    """A history node holding several moves: ``_more`` then ``_move`` (see :meth:`extend`);
    the tuple (previous node, move, length, more)."""

    if TYPE_CHECKING:
        _more: tuple[Move, ...]
    else:
        _more = tuple_field(3, "The moves before ``_move`` in this node, in order.")


def _history_of(moves: tuple[Move, ...]) -> History:
    return History.EMPTY.extend(moves)


_tnew = tuple.__new__
_keep_hash = object.__setattr__

History.EMPTY = History()

_NOBODY: frozenset[int] = frozenset()
_ONLY = tuple(frozenset({s}) for s in range(4))


DealProgress: TypeAlias = DoublingWindow | TrickDeal | TrixDeal
"""What the deal in progress holds: the doubling window (DOUBLE), the trick deal
(COMPLEX, TRICKS) or the TRIX deal (TRIX)."""


class MatchState(TupleRecord, kw_only=True):
    """The whole match at one moment; build it with :func:`trixcomplex.new_match`.

    Fields (keyword-only):

    - ``phase``: what the match waits for (:class:`Phase`).
    - ``deal_number``: deals dealt so far, 0 before the first and 8 in the last
      (20 in classic Trix).
    - ``owner``: the current Kingdom's owner (``None`` before the first deal).
    - ``contract``: the contract of the deal being played, or ``None``.
    - ``hands``: the four hands as card sets (52-bit ints).
    - ``turn``: the seat to move in CHOOSE, COMPLEX, TRICKS and TRIX, else ``None``.
    - ``deal``: what the phase holds: the :class:`~trixcomplex.DoublingWindow`
      in DOUBLE, the :class:`~trixcomplex.TrickDeal` in COMPLEX and TRICKS,
      the :class:`~trixcomplex.TrixDeal` in TRIX, else ``None``.  The
      properties ``window``, ``trick_deal`` and ``trix`` give it typed.
    - ``scores``: the seats' cumulative scores over finished deals.
    - ``results``: the finished deals.
    - ``history``: every move so far, the shuffles included.
    - ``ruleset``: the game played (:data:`~trixcomplex.PARTNERSHIP` by default).

    Two values are derived from the fields and kept with them, because every
    card asks for them (not fields: they compare, hash and pickle with the
    state, and ``evolve`` and cattrs rebuild them):

    - ``trick_rules``: ``ruleset.trick_rules(contract)`` in a trick deal,
      else ``None``;
    - ``legal_cards``: the cards the seat to move may play now, as a card set
      (the trick's ``legal_cards``, R-CX-2, R-CL-2, R-OPT-2; TRIX's
      ``layable``, R-TX-2; empty for a TRIX pass and when no card is to be
      played).  :func:`~trixcomplex.legal_moves` lists its plays and the deal
      runner checks a card against it: the legality of a card is decided
      once, when the state is made.

    Hands and the doubling window are secrets: give a seat a
    :func:`~trixcomplex.view`, never the state itself.

    >>> import random
    >>> import attrs
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(2)))
    >>> state = tc.apply(state, tc.Choose(state.owner, tc.Contract.TRIX))
    >>> plays = [move.card for move in tc.legal_moves(state) if type(move) is tc.Play]
    >>> plays == list(cards_of(state.legal_cards))  # no card to lay: the pass (R-TX-3)
    True
    >>> state.trick_rules is None, attrs.evolve(state) == state
    (True, True)

    A frozen value (a :class:`~trixcomplex.core.tuplerecord.TupleRecord`: built in
    one call, one per move): equal states compare and hash alike, ``attrs``'
    ``fields``, ``evolve`` and ``asdict`` work on it, and it pickles.
    """

    __slots__ = ()

    phase: Phase
    deal_number: int
    owner: int | None
    contract: Contract | None
    hands: tuple[int, int, int, int]
    turn: int | None
    deal: DealProgress | None
    scores: tuple[int, int, int, int]
    results: tuple[DealResult, ...]
    history: History
    ruleset: Ruleset = PARTNERSHIP

    if TYPE_CHECKING:
        trick_rules: TrickRules | None
        legal_cards: int
    else:
        trick_rules = tuple_field(
            11,
            "How the trick contract being played is played and scored: "
            "``ruleset.trick_rules(contract)`` in COMPLEX and TRICKS, else ``None``; "
            "derived from the fields, not a field.",
        )
        legal_cards = tuple_field(
            12,
            "The cards the seat to move may play now, as a card set (R-CX-2, R-CL-2, "
            "R-OPT-2, R-TX-2; 0 when it must pass, R-TX-3, or no card is to be played); "
            "derived from the fields, not a field.",
        )

    def __new__(
        cls,
        *,
        phase: Phase,
        deal_number: int,
        owner: int | None,
        contract: Contract | None,
        hands: tuple[int, int, int, int],
        turn: int | None,
        deal: DealProgress | None,
        scores: tuple[int, int, int, int],
        results: tuple[DealResult, ...],
        history: History,
        ruleset: Ruleset = PARTNERSHIP,
    ) -> MatchState:
        return _tnew(cls, (
            phase, deal_number, owner, contract, hands, turn, deal, scores, results, history,
            ruleset, *in_play(contract, hands, turn, deal, ruleset),
        ))  # fmt: skip

    @property
    def window(self) -> DoublingWindow | None:
        """The open doubling window (only in DOUBLE)."""
        deal = self.deal
        return deal if type(deal) is DoublingWindow else None

    @property
    def trick_deal(self) -> TrickDeal | None:
        """The trick deal being played (COMPLEX, or King of Hearts, Queens, Diamonds,
        Ltoosh, a combined contract)."""
        deal = self.deal
        return deal if type(deal) is TrickDeal else None

    @property
    def complex(self) -> TrickDeal | None:
        """Deprecated: the old name of :attr:`trick_deal` (it plays every trick contract)."""
        warnings.warn(
            "MatchState.complex is deprecated: use MatchState.trick_deal", DeprecationWarning, 2
        )
        return self.trick_deal

    @property
    def trix(self) -> TrixDeal | None:
        """The TRIX deal being played."""
        deal = self.deal
        return deal if type(deal) is TrixDeal else None

    @property
    def kingdom(self) -> int:
        """The current Kingdom, 1–4 (0 before the first deal)."""
        results = self.results
        if len(results) == self.deal_number:  # between deals, or over: the last deal's
            return results[-1].kingdom if results else 0
        return kingdom_after(results, self.ruleset)[0]

    @property
    def remaining_contracts(self) -> tuple[Contract, ...]:
        """The contracts of the current Kingdom not played yet, in the ruleset's order.

        While a deal is played its own contract (each part of a combined one)
        counts as played; between deals, the contracts the next deal may
        choose from.
        """
        if self.phase is _OVER:
            return ()
        played = kingdom_after(self.results, self.ruleset)[1]
        if self.contract is not None:
            played = played.union(self.contract.parts)
        return tuple([c for c in self.ruleset.contracts if c not in played])

    @property
    def to_act(self) -> frozenset[int]:
        """The seats that may move now (empty while waiting for a deal and when over)."""
        if self.turn is not None:
            if self.ruleset.bad_hand_redeal:
                bad = redeal_seat(self)
                if bad is not None and bad != self.turn:
                    return frozenset((self.turn, bad))
            return _ONLY[self.turn]
        deal = self.deal
        if type(deal) is DoublingWindow:
            return deal.waiting()
        return _NOBODY

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, sorted by suit then rank."""
        return cards_of(self.hands[seat])

    @property
    def is_over(self) -> bool:
        """Whether the match is finished."""
        return self.phase is _OVER


def redeal_window(state: MatchState) -> bool:
    """Whether a bad hand may demand a redeal now, whoever holds one (R-OPT-8):
    with ``bad_hand_redeal``, in TRIX before any card is laid or pass made."""
    if not state.ruleset.bad_hand_redeal or state.phase is not _TRIX:
        return False
    last = state.history.last
    return not (last is None or type(last) is Play or type(last) is Pass)


def redeal_seat(state: MatchState) -> int | None:
    """The seat that may demand a redeal now (R-OPT-8), or ``None``.

    Only in the :func:`redeal_window`; at most one seat can hold a bad hand.
    """
    return bad_hand_seat(state.hands) if redeal_window(state) else None


def in_play(
    contract: Contract | None,
    hands: tuple[int, int, int, int],
    turn: int | None,
    deal: DealProgress | None,
    ruleset: Ruleset,
) -> tuple[TrickRules | None, int]:
    """What a state derives from its fields for the card play: ``(trick_rules,
    legal_cards)`` (see :class:`MatchState`), by the rule functions themselves
    (``Ruleset.trick_rules``; the trick's ``legal_cards``, TRIX's ``layable``).
    The deal runner builds its states with the same two values, from the same
    functions, as it goes.

    A record that is not a state of a card phase (no turn, no contract the
    ruleset plays by tricks) has no rules and no legal card: ``(None, 0)``.
    """
    kind = type(deal)
    try:
        if kind is TrickDeal:
            rules = ruleset.trick_rules(contract)  # type: ignore[arg-type]
            return rules, legal_cards(hands[turn], deal.trick, rules)  # type: ignore[index, union-attr]
        if kind is TrixDeal:
            return None, layable(hands[turn], deal.playable)  # type: ignore[index, union-attr]
    except (KeyError, IndexError, TypeError):  # not a card phase's fields (a hand-made record)
        pass
    return None, 0


def new_state(
    phase: Phase,
    deal_number: int,
    owner: int | None,
    contract: Contract | None,
    hands: tuple[int, int, int, int],
    turn: int | None,
    deal: DealProgress | None,
    scores: tuple[int, int, int, int],
    results: tuple[DealResult, ...],
    history: History,
    ruleset: Ruleset,
) -> MatchState:
    """``MatchState(...)`` from its fields given positionally, in order, in one call
    (see :mod:`trixcomplex.core._speed`), its derived values worked out by
    :func:`in_play`.  The deal runner builds the states of its runs in place
    (``tuple.__new__``), with the derived values it has at hand."""
    if deal is None or type(deal) is DoublingWindow:  # no card to play: (None, 0), no call
        return _tnew(MatchState, (
            phase, deal_number, owner, contract, hands, turn, deal, scores, results, history,
            ruleset, None, 0,
        ))  # fmt: skip
    rules, legal = in_play(contract, hands, turn, deal, ruleset)  # not ``*in_play(...)``
    return _tnew(MatchState, (  # in the display: that builds a list to make the tuple
        phase, deal_number, owner, contract, hands, turn, deal, scores, results, history,
        ruleset, rules, legal,
    ))  # fmt: skip
