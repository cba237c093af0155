"""Rulesets: which game of the Trix family a match plays, as frozen data.

The default, :data:`PARTNERSHIP`, is Trix Complex Partnership.  Each of its
relatives is a :class:`Ruleset` value too, not a fork of the code:
:data:`INDIVIDUAL_COMPLEX` (regular Trix Complex, played for oneself),
:data:`CLASSIC` (five-contract Trix) and
:data:`CLASSIC_PARTNERSHIP`.  House rules are fields with defaults; make a
variant with :meth:`Ruleset.evolve`.  The clause IDs (R-SET, R-IND, R-CL,
R-CLP, R-OPT) are defined with the other clauses on the "Rules" page of the
documentation.

>>> CLASSIC.deals_per_match, CLASSIC.partnership
(20, False)
>>> no_doubling = CLASSIC.evolve(doubling=False)
>>> no_doubling.name, no_doubling.doubling
('classic+doubling=False', False)
>>> RULESETS["partnership"] is PARTNERSHIP
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs
from attrs import field, frozen

from .cards import Card, Rank, Suit, suit_mask
from .moves import COMBINATIONS, Contract

__all__ = [
    "CLASSIC",
    "CLASSIC_PARTNERSHIP",
    "INDIVIDUAL_COMPLEX",
    "PARTNERSHIP",
    "RULESETS",
    "Ruleset",
    "TrickRules",
]

KING_OF_HEARTS = Card.of(Rank.KING, Suit.HEARTS)
"""K♥, the card of the King of Hearts contract."""
QUEENS = sum(1 << Card.of(Rank.QUEEN, s) for s in Suit)
"""The set of the four Queens."""
DIAMONDS = suit_mask(Suit.DIAMONDS)
"""The set of the 13 diamonds."""
DOUBLABLE = QUEENS | (1 << KING_OF_HEARTS)
"""The cards that can ever be doubled: K♥ and the Queens (R-DBL-1)."""
_KING_OF_HEARTS = 1 << KING_OF_HEARTS

CLASSIC_CONTRACTS = (
    Contract.KING_OF_HEARTS,
    Contract.QUEENS,
    Contract.DIAMONDS,
    Contract.LTOOSH,
    Contract.TRIX,
)
"""The five contracts of classic Trix, in their usual order."""
COMBINABLE = CLASSIC_CONTRACTS[:4]
"""The trick contracts a combined deal may join (R-OPT-9)."""


@frozen
class TrickRules:
    """How one trick contract is played and scored under one ruleset.

    Derived from a :class:`Ruleset` by :meth:`Ruleset.trick_rules`; the
    engine reads it, users rarely need it.  Points are signed as scored
    (negative penalties, positive with ``reversed_scores``).

    - ``trick``, ``diamond``, ``queen``, ``king_of_hearts``: the points for
      each trick, each ♦, each Queen and the K♥ taken (0 where not charged).
    - ``doublable``: the cards that can be doubled (a card set; 0: no window).
    - ``ends_when_taken``: the deal ends once all these cards are taken (0:
      all 13 tricks are played).
    - ``no_heart_lead``: hearts may not be led while holding another suit.
    - ``discard_first``: a seat void in the led suit must discard one of these
      cards if it holds one (0: any card).
    - ``standard``: exactly the partnership game's COMPLEX.  Informational (a bot may
      pick a strategy by it); the engine plays and scores every contract by
      the same functions and never branches on it.
    """

    trick: int
    diamond: int
    queen: int
    king_of_hearts: int
    doublable: int
    ends_when_taken: int
    no_heart_lead: bool
    discard_first: int
    standard: bool


def combine_trick_rules(parts: Iterable[TrickRules]) -> TrickRules:
    """The rules of one deal playing several trick contracts at once (R-OPT-9).

    Every penalty of each part is charged (each part charges its own kind, so
    the points add up); the deal ends once every part's end condition holds
    (all their penalty cards taken; all 13 tricks if one part plays them all);
    the K♥ lead restriction holds if it holds for a part; the doublable and the
    discard-first cards are those of any part.

    >>> q, d = CLASSIC.trick_rules(Contract.QUEENS), CLASSIC.trick_rules(Contract.DIAMONDS)
    >>> both = combine_trick_rules((q, d))
    >>> both.queen, both.diamond, both.ends_when_taken == QUEENS | DIAMONDS
    (-25, -10, True)
    """
    parts = tuple(parts)
    every_trick = any(not p.ends_when_taken for p in parts)
    ends = 0
    doublable = discard = 0
    for p in parts:
        ends |= p.ends_when_taken
        doublable |= p.doublable
        discard |= p.discard_first
    return TrickRules(
        trick=sum(p.trick for p in parts),
        diamond=sum(p.diamond for p in parts),
        queen=sum(p.queen for p in parts),
        king_of_hearts=sum(p.king_of_hearts for p in parts),
        doublable=doublable,
        ends_when_taken=0 if every_trick else ends,
        no_heart_lead=any(p.no_heart_lead for p in parts),
        discard_first=discard,
        standard=False,
    )


def _tuple_of_contracts(value: Any) -> tuple[Contract, ...]:
    return tuple(Contract(c) for c in value)


@frozen
class Ruleset:
    """One game of the Trix family, as data (R-SET-1).

    Every field but ``name`` and ``contracts`` is an option with the default
    of the partnership game; the "Rules" documentation page gives each its clause.
    """

    name: str
    """The name records use (``"partnership"``, ``"classic"``, …)."""
    contracts: tuple[Contract, ...] = field(converter=_tuple_of_contracts)
    """The contracts of one Kingdom, each played once, in their default order (R-SET-2)."""
    partnership: bool = True
    """Team Totals decide the match (else the individual totals do)."""
    doubling: bool = True
    """K♥ and Queens may be doubled (R-DBL, R-CL-7); ``False``: no window (R-OPT-1)."""
    fixed_order: bool = False
    """Contracts are played in ``contracts`` order; nobody chooses (R-OPT-5)."""
    penalty_cards_first: bool = False
    """A seat void in the led suit must discard a penalty card (R-OPT-2)."""
    free_heart_leads: bool = False
    """Hearts may be led at any time in King of Hearts (R-OPT-4)."""
    swapped_scores: bool = False
    """Diamonds cost −15 each and Ltoosh −10 a trick (R-OPT-3)."""
    reversed_scores: bool = False
    """Every point is negated and the lowest total wins (R-OPT-6)."""
    show_twos: bool = False
    """In TRIX every seat's 2s are shown after everyone's first turn (R-OPT-7)."""
    bad_hand_redeal: bool = False
    """A seat with four 2s (or three 2s and the fourth suit's 3) may demand a
    new deal when TRIX is chosen (R-OPT-8)."""
    combined_contracts: bool = False
    """The Kingdom owner may play two or more of the four classic trick contracts
    as one deal, scoring all of them; the Kingdom has fewer deals (R-OPT-9)."""
    worst_seat_loses: bool = False
    """Partnership only: the team of the seat with the worst individual total
    loses, whatever the Team Totals (R-OPT-10)."""

    _rules: Mapping[Contract, TrickRules] = field(
        init=False, eq=False, hash=False, repr=False, alias="_rules"
    )

    def __attrs_post_init__(self) -> None:
        if not self.contracts or len(set(self.contracts)) != len(self.contracts):
            raise ValueError("a ruleset needs one or more distinct contracts")
        if any(c.is_combined for c in self.contracts):
            raise ValueError(
                "a ruleset lists single contracts; combinations come from "
                "combined_contracts (R-OPT-9)"
            )
        for option in _OPTION_NAMES:
            value = getattr(self, option)
            if type(value) is not bool:
                raise ValueError(f"ruleset option {option} is True or False, not {value!r}")
        if self.worst_seat_loses and not self.partnership:
            raise ValueError("worst_seat_loses needs a partnership ruleset (R-OPT-10)")
        if self.combined_contracts and not set(COMBINABLE) <= set(self.contracts):
            raise ValueError(
                "combined_contracts needs the four trick contracts KING_OF_HEARTS, QUEENS, "
                "DIAMONDS and LTOOSH among the ruleset's contracts (R-OPT-9)"
            )
        # Read-only all the way down: a ruleset shared by many matches can never be
        # changed through one of them (R-SET-1).
        derived = {c: self._derive(c) for c in self.contracts if c.is_trick_contract}
        if self.combined_contracts:
            for combination in COMBINATIONS:
                derived[combination] = combine_trick_rules(derived[p] for p in combination.parts)
        rules = MappingProxyType(derived)
        object.__setattr__(self, "_rules", rules)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled and copied from its fields; the read-only rules are derived again.
        return (_ruleset_of, tuple(getattr(self, a.name) for a in attrs.fields(Ruleset) if a.init))

    @property
    def deals_per_kingdom(self) -> int:
        """Deals in one Kingdom: one per contract (at most, under R-OPT-9)."""
        return len(self.contracts)

    @property
    def deals_per_match(self) -> int:
        """Deals in a match: four Kingdoms (at most, under R-OPT-9, where combined
        deals leave fewer)."""
        return 4 * len(self.contracts)

    @property
    def trix_places(self) -> tuple[int, int, int, int]:
        """Points for 1st … 4th to go out in TRIX (R-TX-4), signed as scored."""
        sign = -1 if self.reversed_scores else 1
        return (200 * sign, 150 * sign, 100 * sign, 50 * sign)

    def trick_rules(self, contract: Contract) -> TrickRules:
        """How ``contract`` is played and scored under this ruleset."""
        return self._rules[contract]

    def deal_total(self, contract: Contract) -> int:
        """What every finished deal of ``contract`` sums to over the four seats, whatever
        is doubled (R-CX-6, R-DBL-5, R-TX-4, R-CL-8, R-OPT-3, R-OPT-6, R-OPT-9).

        A trick contract charges every one of its penalties exactly once: a deal
        that charges tricks plays all 13, and one that does not ends only once all
        its penalty cards are taken; a doubled card's cost is shared out, never
        changed (R-DBL-4).  TRIX hands out the four places.

        >>> PARTNERSHIP.deal_total(Contract.COMPLEX), PARTNERSHIP.deal_total(Contract.TRIX)
        (-500, 500)
        >>> [CLASSIC.deal_total(c) for c in CLASSIC.contracts]
        [-75, -100, -130, -195, 500]
        """
        if contract is Contract.TRIX:
            return sum(self.trix_places)
        rules = self.trick_rules(contract)
        return 13 * (rules.trick + rules.diamond) + 4 * rules.queen + rules.king_of_hearts

    @staticmethod
    def from_name(name: str) -> Ruleset:
        """The ruleset a record names: a preset (``"classic"``) or a preset with
        options as :meth:`evolve` names them (``"classic+doubling=False"``).

        Raises ``ValueError`` naming what is wrong.

        >>> Ruleset.from_name("classic+doubling=False") == CLASSIC.evolve(doubling=False)
        True
        """
        if not isinstance(name, str):
            raise ValueError(f"a ruleset name is a string, not {type(name).__name__}")
        base, plus, options = name.partition("+")
        if base not in RULESETS:
            known = ", ".join(RULESETS)
            raise ValueError(f"unknown ruleset {base[:40]!r} (known: {known})")
        if not plus:
            return RULESETS[base]
        if not options:
            raise ValueError(f"no ruleset options after '+' in {name[:80]!r}")
        changes: dict[str, Any] = {}
        for item in options.split(","):
            key, eq, value = item.partition("=")
            if key == "contracts" and eq:
                try:
                    changes[key] = tuple(Contract(c) for c in value.split("/"))
                except ValueError:
                    raise ValueError(
                        f"bad ruleset contracts {value[:60]!r} in {name[:80]!r}"
                    ) from None
            elif key in _OPTIONS and eq and value in ("True", "False"):
                changes[key] = value == "True"
            else:
                raise ValueError(f"bad ruleset option {item[:40]!r} in {name[:80]!r}")
        ruleset = RULESETS[base].evolve(**changes)
        if ruleset.name != name:
            raise ValueError(
                f"not a canonical ruleset name: {name[:80]!r} (options sorted, each once, "
                f"each differing from the preset; here {ruleset.name[:80]!r})"
            )
        return ruleset

    def evolve(self, **changes: Any) -> Ruleset:
        """This ruleset with some fields changed, under its canonical name (R-SET-1).

        The name is the preset it derives from (``partnership`` for a ruleset
        built by hand) and, sorted, every field that differs from that preset:
        the options as ``option=True``, a changed contract list as
        ``contracts=A/B/…``.  :meth:`from_name` reads it back to an equal
        ruleset, and the same game reached by any route (strings or
        :class:`~trixcomplex.Contract` members, one call or several) gets the
        same name.  A ``name`` cannot be chosen here: build a
        :class:`Ruleset` for a house game with a name of its own.

        >>> CLASSIC.evolve(doubling=False).evolve(fixed_order=True).name
        'classic+doubling=False,fixed_order=True'
        >>> CLASSIC.evolve(doubling=False).evolve(doubling=True).name
        'classic'
        >>> PARTNERSHIP.evolve(contracts=("TRIX", "COMPLEX"), fixed_order=True).name
        'partnership+contracts=TRIX/COMPLEX,fixed_order=True'
        """
        if "name" in changes:
            raise ValueError(
                "a ruleset's name is derived from its preset and options (R-SET-1); "
                "build Ruleset(name, ...) for a house game with a name of its own"
            )
        unknown = set(changes) - _FIELDS
        if unknown:
            raise ValueError(f"not a ruleset field: {', '.join(sorted(unknown))}")
        changed = attrs.evolve(self, **changes)
        base_name = self.name.partition("+")[0]
        if base_name not in RULESETS:
            base_name = PARTNERSHIP.name
        base = RULESETS[base_name]
        diffs = [
            f"{k}={getattr(changed, k)}"
            for k in _OPTIONS
            if getattr(changed, k) != getattr(base, k)
        ]
        if changed.contracts != base.contracts:
            diffs.append("contracts=" + "/".join(c.value for c in changed.contracts))
        diffs.sort()
        name = base_name + ("+" + ",".join(diffs) if diffs else "")
        return attrs.evolve(changed, name=name)

    def _derive(self, contract: Contract) -> TrickRules:
        sign = -1 if self.reversed_scores else 1
        trick = diamond = queen = king = 0
        doublable = ends = discard = 0
        if contract is Contract.COMPLEX:
            trick, diamond, queen, king = 15, 10, 25, 75
            doublable = DOUBLABLE
        elif contract is Contract.KING_OF_HEARTS:
            king, doublable = 75, _KING_OF_HEARTS
            ends = discard = _KING_OF_HEARTS
        elif contract is Contract.QUEENS:
            queen, doublable = 25, QUEENS
            ends = discard = QUEENS
        elif contract is Contract.DIAMONDS:
            diamond = 15 if self.swapped_scores else 10
            ends = discard = DIAMONDS
        elif contract is Contract.LTOOSH:
            trick = 10 if self.swapped_scores else 15
        return TrickRules(
            trick=-sign * trick,
            diamond=-sign * diamond,
            queen=-sign * queen,
            king_of_hearts=-sign * king,
            doublable=doublable if self.doubling else 0,
            ends_when_taken=ends,
            no_heart_lead=contract is Contract.KING_OF_HEARTS and not self.free_heart_leads,
            discard_first=discard if self.penalty_cards_first else 0,
            standard=contract is Contract.COMPLEX and self.doubling and not self.reversed_scores,
        )


def _ruleset_of(*values: Any) -> Ruleset:
    return Ruleset(*values)


_OPTION_NAMES = tuple(a.name for a in attrs.fields(Ruleset) if a.type in (bool, "bool") and a.init)
_OPTIONS = frozenset(_OPTION_NAMES)
_FIELDS = frozenset(a.name for a in attrs.fields(Ruleset) if a.init)


PARTNERSHIP = Ruleset("partnership", (Contract.COMPLEX, Contract.TRIX))
"""Trix Complex Partnership, the default game (R-MATCH-1 … R-SUM-1)."""

INDIVIDUAL_COMPLEX = Ruleset(
    "individual-complex", (Contract.COMPLEX, Contract.TRIX), partnership=False
)
"""Regular Trix Complex, played for oneself: the same 8 deals; the highest individual total
wins, ties shared (R-IND-1)."""

CLASSIC = Ruleset("classic", CLASSIC_CONTRACTS, partnership=False)
"""Classic five-contract Trix: 20 deals, individual scores (R-CL-1)."""

CLASSIC_PARTNERSHIP = Ruleset("classic-partnership", CLASSIC_CONTRACTS, show_twos=True)
"""Classic Trix for partners sitting opposite: own scores and Kingdoms, Team Totals
decide, 2s shown in TRIX (R-CLP-1)."""


RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {r.name: r for r in (PARTNERSHIP, INDIVIDUAL_COMPLEX, CLASSIC, CLASSIC_PARTNERSHIP)}
)
"""The presets by name, as records name them."""
