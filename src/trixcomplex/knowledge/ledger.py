"""The ledger: every charge and award of a match, each traced to its rule clause.

:func:`ledger` lists, in the order they happened, the points each seat was
charged or awarded: a trick's stacked charges (R-CX-5 in COMPLEX, R-CL-2 …
R-CL-5 in the classic contracts), each doubled card's points with its case
(R-DBL-4), and each finishing place in TRIX (R-TX-4).  Options that change
the numbers are named in ``options`` (R-OPT-3 swapped scores, R-OPT-6
reversed scores).  The ledger decides nothing: every number comes from the
engine's own scoring functions (``trick_points``, ``doubled_card_points``,
``trix_points``), the one place each charge is decided, applied to the
tricks and finishing orders of the match's history.  Its entries sum
exactly to every seat's deal points and totals.

>>> import random
>>> import trixcomplex as tc
>>> from trixcomplex.bots import RuleBot
>>> match = tc.simulate([RuleBot(), RuleBot()], 1, seed=4).matches[0].record
>>> state = tc.replay(match)
>>> entries = ledger(state)
>>> [sum(e.points for e in entries if e.seat == s) for s in range(4)] == list(state.scores)
True
>>> first = entries[0]
>>> first.deal, first.rule in ("R-CX-5", "R-TX-4", "R-DBL-4")
(1, True)
"""

from __future__ import annotations

from collections.abc import Iterator

from attrs import frozen

from ..core.cards import Card
from ..core.catalog import DEFAULT_LOCALE, N_, check_locale, contract_words, signed, translate
from ..core.engine import MatchState, Phase, apply, new_match
from ..core.moves import Contract, Move, Play
from ..core.rules import doubled_card_points, trick_points, trick_winner, trix_points
from ..core.rulesets import Ruleset

__all__ = [
    "Charges",
    "LedgerEntry",
    "contract_clause",
    "ledger",
    "part_clauses",
    "step",
    "tricks_and_places",
]

_CONTRACT_CLAUSES = {
    Contract.COMPLEX: "R-CX-5",
    Contract.KING_OF_HEARTS: "R-CL-2",
    Contract.QUEENS: "R-CL-3",
    Contract.DIAMONDS: "R-CL-4",
    Contract.LTOOSH: "R-CL-5",
    Contract.TRIX: "R-TX-4",
}


@frozen
class LedgerEntry:
    """One charge or award of a match to one seat.

    - ``deal`` (1 … deals per match), ``kingdom`` and ``contract``: where.
    - ``trick``: the trick's number in its deal (1–13), ``None`` in TRIX;
      ``place``: the finishing place (1–4) in TRIX, else ``None``.
    - ``seat`` and ``points``: who gets what (negative: a charge).
    - ``cards``: the cards involved (the trick's four cards in play order;
      the doubled card; none for a TRIX place).
    - ``rule``: the clause that decides it: R-CX-5 (or R-CL-2 … R-CL-5) for
      a trick's stacked charges, R-DBL-4 for a doubled card, R-TX-4 for a
      finishing place; ``options``: the ruleset options that changed the
      numbers (R-OPT-3, R-OPT-6).
    - For a doubled card: ``doubler``, ``taker``, ``leader`` (of the trick)
      and ``case`` (1, 2 or 3 of R-DBL-4); ``None`` otherwise.
    """

    deal: int
    kingdom: int
    contract: Contract
    trick: int | None
    place: int | None
    seat: int
    points: int
    cards: tuple[Card, ...]
    rule: str
    options: tuple[str, ...] = ()
    doubler: int | None = None
    taker: int | None = None
    leader: int | None = None
    case: int | None = None

    def describe(self, locale: str = DEFAULT_LOCALE) -> str:
        """The entry as one line for a person, in ``locale`` (``"en"`` or ``"ar"``): who
        gets what, for what, and the clauses deciding it (the rule, then the options).

        >>> entry = LedgerEntry(1, 1, Contract.TRIX, None, 1, 2, 200, (), "R-TX-4")
        >>> entry.describe()
        'seat 2 +200: 1st out in TRIX, deal 1 (R-TX-4)'
        >>> entry.describe("ar")
        'المقعد 2 ‎+200: الأول خروجًا في تركس، التوزيعة 1 (R-TX-4)'
        """
        locale = check_locale(locale)
        clauses = ", ".join((self.rule, *self.options))
        who = translate("seat {seat} {points}:", locale, seat=self.seat,
                        points=signed(self.points, locale))  # fmt: skip
        if self.place is not None:
            what = translate(
                "{place} out in TRIX, deal {deal}", locale,
                place=translate(_PLACES[self.place - 1], locale), deal=self.deal,
            )  # fmt: skip
        elif self.case is not None:
            what = translate(
                "{card} doubled by seat {doubler}, taken by seat {taker} in a trick led by "
                "seat {leader}: case {case}",
                locale, card=self.cards[0].symbol, doubler=self.doubler, taker=self.taker,
                leader=self.leader, case=self.case,
            )  # fmt: skip
        else:
            what = translate(
                "trick {trick} of deal {deal} ({contract}), its charges stacked", locale,
                trick=self.trick, deal=self.deal, contract=contract_words(self.contract, locale),
            )  # fmt: skip
        return f"{who} {what} ({clauses})"

    def to_json(self) -> dict[str, object]:
        """The entry as JSON: cards as codes (``"KH"``), the contract by its name.

        >>> from trixcomplex.core.cards import parse_card
        >>> LedgerEntry(1, 1, Contract.TRIX, None, 1, 2, 200, (), "R-TX-4").to_json()["rule"]
        'R-TX-4'
        """
        return {
            "deal": self.deal,
            "kingdom": self.kingdom,
            "contract": self.contract.value,
            "trick": self.trick,
            "place": self.place,
            "seat": self.seat,
            "points": self.points,
            "cards": [str(c) for c in self.cards],
            "rule": self.rule,
            "options": list(self.options),
            "doubler": self.doubler,
            "taker": self.taker,
            "leader": self.leader,
            "case": self.case,
        }


_PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))


@frozen
class Charges:
    """What one move finished, with its ledger entries (for ``replay --explain``): a
    trick (``number`` 1–13, its ``leader``, ``cards`` and ``taker``), or the
    finishing places of a TRIX deal (``number`` 0, no cards, ``taker`` -1)."""

    deal: int
    kingdom: int
    contract: Contract
    number: int
    leader: int
    cards: tuple[Card, ...]
    taker: int
    entries: tuple[LedgerEntry, ...]


def contract_clause(contract: Contract) -> str:
    """The clause deciding ``contract``'s charges: R-CX-5, R-CL-2 … R-CL-5 or R-TX-4;
    R-OPT-9 for a combination of trick contracts, whose trick is charged each
    part's penalties at once (the parts' clauses: :func:`part_clauses`).

    >>> contract_clause(Contract.QUEENS)
    'R-CL-3'
    >>> contract_clause(Contract(["QUEENS", "DIAMONDS"]))
    'R-OPT-9'
    """
    return "R-OPT-9" if contract.is_combined else _CONTRACT_CLAUSES[contract]


def part_clauses(contract: Contract) -> tuple[str, ...]:
    """The clauses of the contracts played in a deal of ``contract``: its own, or
    each part's for a combination (R-OPT-9).

    >>> part_clauses(Contract(["QUEENS", "DIAMONDS"]))
    ('R-CL-3', 'R-CL-4')
    """
    return tuple(_CONTRACT_CLAUSES[part] for part in contract.parts)


def _options(ruleset: Ruleset, contract: Contract) -> tuple[str, ...]:
    found = []
    if ruleset.swapped_scores and any(
        part in (Contract.DIAMONDS, Contract.LTOOSH) for part in contract.parts
    ):
        found.append("R-OPT-3")
    if ruleset.reversed_scores:
        found.append("R-OPT-6")
    return tuple(found)


def _trick(before: MatchState, card: Card) -> Charges:
    """The trick completed by ``card`` in ``before``, its charges from the engine's scoring."""
    deal = before.trick_deal
    contract = before.contract
    assert deal is not None and contract is not None
    rules = before.ruleset.trick_rules(contract)
    cards = (*deal.trick, card)
    leader = deal.leader
    taker = trick_winner(leader, cards)
    total = list(trick_points(cards, leader, taker, deal.doubled, rules))
    where = (before.deal_number, before.kingdom, contract, len(deal.tricks) + 1, None)
    options = _options(before.ruleset, contract)
    doubled_entries: list[LedgerEntry] = []
    for doubled, doubler in deal.doubled:
        if doubled not in cards:
            continue
        case, points = doubled_card_points(doubled, doubler, taker, leader, rules)
        for seat in range(4):
            if points[seat]:
                total[seat] -= points[seat]
                doubled_entries.append(
                    LedgerEntry(*where, seat, points[seat], (doubled,), "R-DBL-4", options,
                                doubler, taker, leader, case)
                )  # fmt: skip
    assert all(p == 0 for s, p in enumerate(total) if s != taker), "a trick charges its taker"
    entries = []
    if total[taker]:
        entries.append(
            LedgerEntry(*where, taker, total[taker], cards, contract_clause(contract), options)
        )
    return Charges(*where[:4], leader, cards, taker, (*entries, *doubled_entries))


def _places(before: MatchState, after: MatchState) -> Charges:
    """The finishing places of the TRIX deal ``after`` ended (from the engine's scoring)."""
    result = after.results[-1]
    order = result.finishing_order
    points = trix_points(order, before.ruleset.trix_places)
    options = _options(before.ruleset, Contract.TRIX)
    entries = tuple(
        LedgerEntry(
            result.number,
            result.kingdom,
            Contract.TRIX,
            None,
            place,
            seat,
            points[seat],
            (),
            "R-TX-4",
            options,
        )
        for place, seat in enumerate(order, start=1)
    )
    return Charges(result.number, result.kingdom, Contract.TRIX, 0, result.owner, (), -1, entries)


def step(before: MatchState, move: Move, after: MatchState) -> Charges | None:
    """What ``move`` (taking ``before`` to ``after``) finished: a trick with its
    charges, the finishing places of a TRIX deal (a :class:`Charges` with
    ``number`` 0 and no cards), or nothing (``None``)."""
    if before.phase.plays_tricks and isinstance(move, Play):
        deal = before.trick_deal
        if deal is not None and len(deal.trick) == 3:
            return _trick(before, move.card)
    elif before.phase is Phase.TRIX and len(after.results) > len(before.results):
        return _places(before, after)
    return None


def tricks_and_places(state: MatchState) -> Iterator[Charges]:
    """Every finished trick of ``state``'s history and the places of every finished
    TRIX deal, in order (:func:`step` over the whole history)."""
    current = new_match(state.ruleset)
    for move in state.history.moves():
        before, current = current, apply(current, move)
        done = step(before, move, current)
        if done is not None:
            yield done


def ledger(state: MatchState) -> tuple[LedgerEntry, ...]:
    """Every charge and award of ``state``'s match so far, in order (see the module).

    The entries of a deal sum to its :attr:`~trixcomplex.DealResult.points`
    seat by seat, and all entries to ``state.scores``; in a deal being
    played, the finished tricks' entries sum to ``tc.score(state).current``.
    """
    return tuple(e for t in tricks_and_places(state) for e in t.entries)
