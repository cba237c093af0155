"""A score keeper for games played with real cards: a deal scored from what the players report.

Many tables deal real cards and keep score on paper.  :func:`score_deal` scores one
deal from its outcome as the players tell it (a :class:`DealOutcome`: who took the
K♥, each Queen and each diamond, how many tricks each seat took, which cards were
doubled, by whom and in whose trick, or the TRIX finishing order), through the very
functions that score a played deal (:func:`trixcomplex.rules.reported_trick_result`,
:func:`trixcomplex.rules.reported_trix_result`), after checking that the outcome is
one a deal could have: a mistake on paper raises :class:`OutcomeError` (a
``ValueError``, code ``outcome.inconsistent``) naming the clause it breaks.
:class:`Scorebook` keeps a whole match this way: immutable, checked deal by deal
against the match's flow (Kingdoms, owners, contracts), and saved as JSON.

>>> import trixcomplex as tc
>>> outcome = DealOutcome.of(
...     "COMPLEX", owner=0, tricks=(4, 3, 3, 3),
...     taken={"KH": 1, "QS": 0, "QH": 2, "QD": 3, "QC": 0,
...            "2D": 0, "3D": 0, "4D": 0, "5D": 1, "6D": 1, "7D": 1, "8D": 2,
...            "9D": 2, "TD": 2, "JD": 3, "KD": 3, "AD": 3},
...     doubled={"KH": (2, 0)})   # K♥ doubled by seat 2, in a trick led by seat 0
>>> result = score_deal(outcome)
>>> result.points
(-140, -225, -25, -110)
>>> [(d.case, d.points) for d in result.doubled]   # R-DBL-4 case 1: the taker pays double
[(1, (0, -150, 75, 0))]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from ..core.cards import Card, as_card
from ..core.engine import DealResult, MatchState, Phase, Score, apply, new_match
from ..core.errors import TrixError
from ..core.moves import Contract, Double, Play
from ..core.rules import (
    DIAMONDS,
    DOUBLABLE,
    KING_OF_HEARTS,
    QUEENS,
    TRICKS_PER_DEAL,
    choosable_contracts,
    deal_owner,
    kingdom_after,
    match_outcome,
    reported_trick_result,
    reported_trix_result,
    team_totals,
    trick_winner,
)
from ..core.rulesets import PARTNERSHIP, Ruleset, TrickRules
from ..knowledge.ledger import contract_clause

__all__ = [
    "SCOREBOOK_FORMAT",
    "SCOREBOOK_VERSION",
    "DealOutcome",
    "OutcomeError",
    "Scorebook",
    "played_outcomes",
    "score_deal",
]

COUNTED = DOUBLABLE | DIAMONDS
"""The cards a trick deal's outcome reports: K♥, the Queens and the diamonds (the
only cards whose taker any contract charges; tricks are counted apart)."""

SCOREBOOK_FORMAT = "trixcomplex-scorebook"
SCOREBOOK_VERSION = 1


class OutcomeError(TrixError):
    """A reported deal outcome that no play of the deal could give (code
    ``outcome.inconsistent``); ``rule`` names the clause it breaks."""

    code = "outcome.inconsistent"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(f"{message} ({rule})" if rule else message, rule=rule)


def _seat(value: object, what: str, rule: str = "R-SEAT-1") -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise OutcomeError(f"{what} must be a seat 0..3, not {value!r:.40}", rule=rule)
    return value


def _card(value: object, what: str) -> Card:
    try:
        return as_card(value)
    except (TypeError, ValueError):
        raise OutcomeError(f"{what}: not a card: {value!r:.40}", rule="R-CARD-2") from None


@frozen
class DealOutcome:
    """One deal as the players report it.

    - ``contract`` and ``owner`` (the Kingdom owner, who chose it);
    - trick contracts: ``tricks``, how many tricks each seat took; ``taken``, who took
      each counted card (K♥, the Queens, the diamonds) as ``(card, seat)`` pairs in
      card order (a card not taken is left out: only when the deal ended early,
      R-CL-2 … R-CL-4); ``doubled``, each doubled card as ``(card, doubler, leader)``
      pairs in card order, ``leader`` the seat that led the trick it fell in
      (R-DBL-4's cases 2 and 3 depend on it);
    - TRIX: ``finishing_order``, the four seats in the order they went out (R-TX-4).

    Build it with :meth:`of` (card codes and mappings welcome); :func:`score_deal`
    checks it.
    """

    contract: Contract
    owner: int
    tricks: tuple[int, int, int, int] = (0, 0, 0, 0)
    taken: tuple[tuple[Card, int], ...] = ()
    doubled: tuple[tuple[Card, int, int], ...] = ()
    finishing_order: tuple[int, ...] = ()

    @classmethod
    def of(
        cls,
        contract: Contract | str | Sequence[str],
        owner: int,
        *,
        tricks: Sequence[int] = (0, 0, 0, 0),
        taken: Mapping[Card, int] | Mapping[str, int] | Iterable[tuple[Card | str, int]] = (),
        doubled: Mapping[Card, tuple[int, int]]
        | Mapping[str, tuple[int, int]]
        | Iterable[tuple[Card | str, int, int]] = (),
        finishing_order: Sequence[int] = (),
    ) -> DealOutcome:
        """An outcome from friendly values: the contract by name (``"QUEENS"``, a
        combination as ``["QUEENS", "DIAMONDS"]``), ``taken`` as ``{"KH": 1, ...}``,
        ``doubled`` as ``{"KH": (doubler, leader)}``.  Malformed values raise
        :class:`OutcomeError`; whether the outcome adds up is checked by :func:`score_deal`.

        >>> DealOutcome.of("TRIX", 1, finishing_order=[1, 3, 0, 2]).finishing_order
        (1, 3, 0, 2)
        """
        try:
            chosen = contract if isinstance(contract, Contract) else Contract(contract)
        except (TypeError, ValueError):
            raise OutcomeError(f"not a contract: {contract!r:.60}", rule="R-MATCH-1") from None
        counts = tuple(tricks)
        if len(counts) != 4 or any(type(t) is not int or t < 0 for t in counts):
            raise OutcomeError(
                f"tricks are four counts, one a seat, not {counts!r:.60}", rule="R-CX-4"
            )
        pairs = taken.items() if isinstance(taken, Mapping) else taken
        took = sorted(
            (_card(c, "taken"), _seat(s, f"the taker of {c}", "R-CX-3")) for c, s in pairs
        )
        rows: Iterable[tuple[Any, ...]] = (
            ((c, *v) for c, v in doubled.items()) if isinstance(doubled, Mapping) else doubled
        )
        doubles = []
        for row in rows:
            if len(row) != 3:
                raise OutcomeError(f"a double is (card, doubler, leader), not {row!r:.60}",
                                   rule="R-DBL-4")  # fmt: skip
            card = _card(row[0], "doubled")
            doubler = _seat(row[1], f"the doubler of {card}", "R-DBL-1")
            leader = _seat(row[2], f"the leader of the trick of {card}", "R-DBL-4")
            doubles.append((card, doubler, leader))
        return cls(
            chosen,
            _seat(owner, "the owner", "R-MATCH-3"),
            (counts[0], counts[1], counts[2], counts[3]),
            tuple(took),
            tuple(sorted(doubles)),
            tuple(finishing_order),
        )

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON data (cards as codes); :meth:`from_json` reads it back.

        >>> DealOutcome.of("TRIX", 1, finishing_order=[1, 3, 0, 2]).to_json()["finishing_order"]
        [1, 3, 0, 2]
        """
        return {
            "contract": self.contract.value,
            "owner": self.owner,
            "tricks": list(self.tricks),
            "taken": {str(card): seat for card, seat in self.taken},
            "doubled": {str(card): [doubler, leader] for card, doubler, leader in self.doubled},
            "finishing_order": list(self.finishing_order),
        }

    @classmethod
    def from_json(cls, data: object) -> DealOutcome:
        """The outcome :meth:`to_json` wrote; bad data raises :class:`OutcomeError`."""
        if not isinstance(data, dict) or set(data) != {
            "contract", "owner", "tricks", "taken", "doubled", "finishing_order",
        }:  # fmt: skip
            raise OutcomeError(f"not a deal outcome: {data!r:.80}")
        taken, doubled = data["taken"], data["doubled"]
        if not isinstance(taken, dict) or not isinstance(doubled, dict):
            raise OutcomeError("taken and doubled are objects keyed by card codes")
        for value in doubled.values():
            if not isinstance(value, list) or len(value) != 2:
                raise OutcomeError(f"a double is [doubler, leader], not {value!r:.40}",
                                   rule="R-DBL-4")  # fmt: skip
        contract = data["contract"]
        if isinstance(contract, str) and "+" in contract:
            contract = contract.split("+")
        return cls.of(
            contract, data["owner"], tricks=data["tricks"], taken=taken,
            doubled={c: (v[0], v[1]) for c, v in doubled.items()},
            finishing_order=data["finishing_order"],
        )  # fmt: skip


def _check_trix(outcome: DealOutcome) -> None:
    if sorted(outcome.finishing_order) != [0, 1, 2, 3]:
        raise OutcomeError(
            f"a TRIX finishing order names each seat once, not {outcome.finishing_order!r:.40}",
            rule="R-TX-4",
        )
    if outcome.taken or outcome.doubled or any(outcome.tricks):
        raise OutcomeError("a TRIX deal has no tricks, takers or doubles", rule="R-TX-1")


def _check_tricks(outcome: DealOutcome, ruleset: Ruleset) -> tuple[list[int], list[int]]:
    """Check a trick deal's outcome; each seat's cards as a set, and who took each card."""
    rules = ruleset.trick_rules(outcome.contract)
    if outcome.finishing_order:
        raise OutcomeError("only TRIX has a finishing order", rule="R-TX-4")
    played = sum(outcome.tricks)
    if played > TRICKS_PER_DEAL:
        raise OutcomeError(f"{played} tricks taken: a deal has 13", rule="R-CX-4")
    won = [0, 0, 0, 0]
    taker = [-1] * 52
    for card, seat in outcome.taken:
        bit = 1 << card
        if not COUNTED & bit:
            raise OutcomeError(
                f"{card} is reported taken: only K♥, the Queens and the diamonds are",
                rule="R-CX-5",
            )
        if taker[card] != -1:
            raise OutcomeError(f"{card} is reported taken twice", rule="R-CARD-1")
        taker[card] = seat
        won[seat] |= bit
    for seat in range(4):
        count = won[seat].bit_count()
        if count > 4 * outcome.tricks[seat]:
            raise OutcomeError(
                f"seat {seat} took {count} counted cards in {outcome.tricks[seat]} tricks: "
                "a trick holds four cards",
                rule="R-CX-3",
            )
    untaken = COUNTED & ~(won[0] | won[1] | won[2] | won[3])
    if played == TRICKS_PER_DEAL:
        lost = untaken & _charged(rules)  # every card the contract charges was taken
        if lost:
            missing = " ".join(str(Card(c)) for c in range(52) if lost >> c & 1)
            raise OutcomeError(f"all 13 tricks were played, but nobody took {missing}",
                               rule="R-CX-4")  # fmt: skip
    elif not rules.ends_when_taken:
        raise OutcomeError(f"{played} tricks taken: this contract plays all 13", rule="R-CX-4")
    elif untaken & rules.ends_when_taken:  # R-CL-2 … R-CL-4, or R-OPT-9 for a combination
        raise OutcomeError(
            f"the deal ended after {played} tricks, before its penalty cards were all taken",
            rule=contract_clause(outcome.contract),
        )
    seen: set[Card] = set()
    for card, _doubler, _leader in outcome.doubled:
        if not rules.doublable >> card & 1:
            if not ruleset.doubling:
                rule = "R-OPT-1"  # no doubling at all
            elif outcome.contract is Contract.COMPLEX:
                rule = "R-DBL-1"  # K♥ and the Queens only
            else:
                rule = "R-CL-7"  # K♥ in King of Hearts, the Queens in Queens
            raise OutcomeError(f"{card} cannot be doubled in {outcome.contract.value}", rule=rule)
        if card in seen:
            raise OutcomeError(f"{card} is reported doubled twice", rule="R-DBL-2")
        seen.add(card)
        if taker[card] == -1:
            raise OutcomeError(f"{card} was doubled but nobody is reported taking it",
                               rule="R-DBL-4")  # fmt: skip
    return won, taker


def _charged(rules: TrickRules) -> int:
    """The cards whose taker ``rules`` charge: K♥, the Queens, the diamonds, as charged."""
    return (
        (1 << KING_OF_HEARTS if rules.king_of_hearts else 0)
        | (QUEENS if rules.queen else 0)
        | (DIAMONDS if rules.diamond else 0)
    )


def score_deal(
    outcome: DealOutcome,
    ruleset: Ruleset = PARTNERSHIP,
    *,
    number: int = 1,
    kingdom: int = 1,
) -> DealResult:
    """The :class:`~trixcomplex.DealResult` of the deal ``outcome`` reports, under ``ruleset``.

    It is checked first, and :class:`OutcomeError` names the clause of the first thing
    that cannot be: the contract must be one of the ruleset (R-MATCH-1, R-OPT-9); at
    most 13 tricks, all 13 unless the contract ends once its penalty cards are all
    taken and they are (R-CX-4, R-CL-2 … R-CL-4); each counted card taken once, by a
    seat that took enough tricks to hold it (R-CARD-1, R-CX-3), every one of them when
    all 13 tricks were played; a doubled card must be one the contract lets be
    doubled (R-DBL-1, R-CL-7, R-OPT-1), doubled once (R-DBL-2) and taken (R-DBL-4); a
    TRIX finishing order names each seat once (R-TX-4).  ``number`` and ``kingdom``
    say where the deal lies in its match (as a played deal's result does).

    >>> import trixcomplex as tc
    >>> queens = DealOutcome.of("QUEENS", 1, tricks=(2, 1, 0, 0),
    ...     taken={"QS": 0, "QH": 0, "QD": 1, "QC": 0})   # the deal ends with the last Queen
    >>> score_deal(queens, tc.CLASSIC).points   # R-CL-3: -25 a Queen
    (-75, -25, 0, 0)
    >>> three = DealOutcome.of("QUEENS", 1, tricks=(5, 0, 0, 0), taken={"QS": 0, "QH": 0, "QD": 0})
    >>> score_deal(three, tc.CLASSIC)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    trixcomplex.io.scorekeeper.OutcomeError: the deal ended after 5 tricks, before ... (R-CL-3)
    """
    contract = outcome.contract
    if contract.is_trick_contract:
        try:
            ruleset.trick_rules(contract)
        except KeyError:
            rule = "R-OPT-9" if contract.is_combined else "R-MATCH-1"
            raise OutcomeError(
                f"{contract.value} is not a contract of the ruleset {ruleset.name}", rule=rule
            ) from None
    elif contract not in ruleset.contracts:
        raise OutcomeError(f"{contract.value} is not a contract of the ruleset {ruleset.name}",
                           rule="R-MATCH-1")  # fmt: skip
    outcome = DealOutcome.of(  # the fields checked, as if given to DealOutcome.of
        contract, outcome.owner, tricks=outcome.tricks, taken=outcome.taken,
        doubled=outcome.doubled, finishing_order=outcome.finishing_order,
    )  # fmt: skip
    owner = outcome.owner
    if contract is Contract.TRIX:
        _check_trix(outcome)
        return reported_trix_result(number, kingdom, owner, ruleset, outcome.finishing_order)
    won, taker = _check_tricks(outcome, ruleset)
    doubles = [(card, doubler, taker[card], leader) for card, doubler, leader in outcome.doubled]
    return reported_trick_result(
        number, kingdom, contract, owner, ruleset, outcome.tricks, won, doubles
    )


# -- a whole match ---------------------------------------------------------------------


@frozen
class Scorebook:
    """A whole match kept from reported deals: immutable; :meth:`add` gives the book
    with one more deal, checked against the match's flow as well as on its own.

    >>> import trixcomplex as tc
    >>> book = Scorebook(tc.PARTNERSHIP)
    >>> book = book.add(DealOutcome.of("TRIX", 2, finishing_order=[2, 0, 3, 1]))
    >>> book.score().seats, book.next_kingdom, book.next_owner
    ((150, 50, 200, 100), 1, 2)
    >>> Scorebook.from_json(book.to_json()) == book
    True
    """

    ruleset: Ruleset = PARTNERSHIP
    outcomes: tuple[DealOutcome, ...] = ()
    results: tuple[DealResult, ...] = ()

    @property
    def next_kingdom(self) -> int:
        """The Kingdom of the next deal (5 once the match is over)."""
        return kingdom_after(self.results, self.ruleset)[0]

    @property
    def is_over(self) -> bool:
        """Whether the fourth Kingdom is played out (R-MATCH-8)."""
        return self.next_kingdom > 4

    @property
    def next_owner(self) -> int | None:
        """The owner of the next deal: the same in a Kingdom, the next seat in a new one
        (R-MATCH-4); ``None`` before the first deal (the seat holding 7♥, R-MATCH-3)."""
        if not self.results:
            return None
        number = len(self.results) + 1  # the deck is read for the first deal only
        return deal_owner(number, (), self.results[-1].owner, self.ruleset, self.results)

    def add(self, outcome: DealOutcome) -> Scorebook:
        """The book with ``outcome`` scored as the next deal; :class:`OutcomeError` if it
        cannot be (after the match, R-MATCH-8; the wrong owner, R-MATCH-3, R-MATCH-4; a
        contract already played in this Kingdom or not choosable, R-SET-2, R-OPT-9;
        anything :func:`score_deal` refuses).  The book itself never changes."""
        if self.is_over:
            raise OutcomeError("the match is over: four Kingdoms are played", rule="R-MATCH-8")
        kingdom, used = kingdom_after(self.results, self.ruleset)
        owner = self.next_owner
        if owner is not None and outcome.owner != owner:
            rule = "R-MATCH-5" if self.results[-1].kingdom == kingdom else "R-MATCH-4"
            raise OutcomeError(f"the owner of the next deal is seat {owner}, "
                               f"not seat {outcome.owner}", rule=rule)  # fmt: skip
        remaining = tuple(c for c in self.ruleset.contracts if c not in used)
        if outcome.contract not in choosable_contracts(remaining, self.ruleset):
            names = " or ".join(c.value for c in remaining)
            raise OutcomeError(
                f"{outcome.contract.value} cannot be played now in Kingdom {kingdom}; "
                f"choose {names}",
                rule="R-OPT-9" if outcome.contract.is_combined else "R-SET-2",
            )
        result = score_deal(outcome, self.ruleset, number=len(self.results) + 1, kingdom=kingdom)
        return Scorebook(self.ruleset, (*self.outcomes, outcome), (*self.results, result))

    def score(self) -> Score:
        """The scoresheet so far as a :class:`~trixcomplex.Score` (seat totals, Team Totals,
        each deal's result, the result once the match is over: R-MATCH-7, R-MATCH-8)."""
        seats = [0, 0, 0, 0]
        for result in self.results:
            seats = [seats[s] + result.points[s] for s in range(4)]
        totals = (seats[0], seats[1], seats[2], seats[3])
        outcome, winners = match_outcome(totals, self.ruleset) if self.is_over else (None, ())
        return Score(totals, team_totals(totals), self.results, (0, 0, 0, 0), outcome, winners)

    def to_json(self) -> dict[str, Any]:
        """The book as JSON data: the ruleset's name and each reported deal (the scores are
        derived again when it is read)."""
        return {
            "format": SCOREBOOK_FORMAT,
            "version": SCOREBOOK_VERSION,
            "ruleset": self.ruleset.name,
            "deals": [o.to_json() for o in self.outcomes],
        }

    @classmethod
    def from_json(cls, data: object) -> Scorebook:
        """The book :meth:`to_json` wrote, every deal checked again as it is added."""
        if (
            not isinstance(data, dict)
            or data.get("format") != SCOREBOOK_FORMAT
            or data.get("version") != SCOREBOOK_VERSION
            or not isinstance(data.get("deals"), list)
        ):
            raise OutcomeError(f"not a {SCOREBOOK_FORMAT} version {SCOREBOOK_VERSION} object")
        try:
            ruleset = Ruleset.from_name(data.get("ruleset"))  # type: ignore[arg-type]
        except ValueError as exc:
            raise OutcomeError(str(exc), rule="R-SET-1") from None
        book = cls(ruleset)
        for deal in data["deals"]:
            book = book.add(DealOutcome.from_json(deal))
        return book


# -- from a played match -------------------------------------------------------------


def played_outcomes(state: MatchState) -> tuple[DealOutcome, ...]:
    """The outcome of each finished deal of ``state``'s match, as its players would report
    it, read from the moves played (who took which card, the doubles, the tricks' leaders,
    the finishing order): what a table keeping score by hand would write down.

    >>> import random
    >>> import trixcomplex as tc
    >>> rng = random.Random(2)
    >>> state = tc.new_match()
    >>> while len(state.results) < 2:
    ...     if state.phase is tc.Phase.DEAL:
    ...         state = tc.apply(state, tc.Deal.shuffled(rng))
    ...     else:
    ...         state = tc.apply(state, rng.choice(tc.legal_moves(state)))
    >>> book = Scorebook(state.ruleset)
    >>> for outcome in played_outcomes(state):
    ...     book = book.add(outcome)
    >>> book.results == state.results
    True
    """
    outcomes: list[DealOutcome] = []
    current = new_match(state.ruleset)
    taken: dict[Card, int] = {}
    leaders: dict[Card, int] = {}
    tricks = [0, 0, 0, 0]
    doubled: dict[Card, int] = {}
    for move in state.history.moves():
        before, current = current, apply(current, move)
        if before.phase is Phase.DOUBLE and isinstance(move, Double):
            doubled.update((card, move.seat) for card in move.cards)
        deal = before.trick_deal
        if deal is not None and isinstance(move, Play) and len(deal.trick) == 3:
            cards = (*deal.trick, move.card)
            winner = trick_winner(deal.leader, cards)  # R-CX-3
            tricks[winner] += 1
            for card in cards:
                if COUNTED >> card & 1:
                    taken[card] = winner
                    leaders[card] = deal.leader
        if len(current.results) > len(before.results):
            result = current.results[-1]
            if result.contract is Contract.TRIX:
                outcomes.append(DealOutcome.of("TRIX", result.owner,
                                               finishing_order=result.finishing_order))  # fmt: skip
            else:
                outcomes.append(DealOutcome.of(
                    result.contract, result.owner, tricks=tricks, taken=taken,
                    doubled={c: (d, leaders[c]) for c, d in doubled.items() if c in taken},
                ))  # fmt: skip
            taken, leaders, tricks, doubled = {}, {}, [0, 0, 0, 0], {}
    return tuple(outcomes)
