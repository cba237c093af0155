"""The engine's fast paths, in one place, each with its measured reason.

Everything here does exactly what a plainer form would do (the tests hold
each to it), only faster where the engine runs it once per card or per
state:

- :func:`positional_builder` — every frozen record of the engine
  (:class:`~trixcomplex.MatchState`, the deals, a trick, a step) is built by
  its one builder, generated from its fields in declaration order:
  ``tuple.__new__(cls, values)`` in one plain call, instead of the record's
  keyword ``__new__`` (measured on Python 3.11: about 0.9 µs for a
  ``MatchState(**fields)`` against 0.25 µs, paid for every card applied).
  ``tests/test_speed.py`` pins each record's field order, so a field moved
  fails there rather than silently building a wrong record.
- :func:`plain_bits`, :func:`below`, :func:`shuffled_deck` — the playout
  draws as :class:`random.Random` draws, calling its ``getrandbits`` itself.
  The card draw runs in the deal runner's one loop
  (``runner.run_deal(..., draw=)``): the body of :func:`below`, then the
  r-th card of the legal set, written once for both kinds of deal.

.. rubric:: Drawing as random.Random draws

The playout's card loop and shuffle call the generator's ``getrandbits``
directly, exactly as ``random.Random.choice`` and ``shuffle`` do, instead of
calling them: ``choice(seq)`` is ``seq[self._randbelow(len(seq))]`` and
``_randbelow_with_getrandbits(n)`` is ``k = n.bit_length(); r =
getrandbits(k); while r >= n: r = getrandbits(k)``; ``shuffle(x)`` swaps
``x[i]`` with ``x[_randbelow(i + 1)]`` for i from len(x) - 1 down to 1.  This
is the code of CPython 3.11, 3.12 and 3.13 alike (Lib/random.py).  It saves
two Python calls per card (``choice`` and ``_randbelow``) and lets the card
loop pick the card from the legal set without listing the moves first (the
r-th card in card order is the r-th move listed).  Measured
(``benchmarks/bench.py --passes 9 --only playout``, three runs alternating
with the code before): the playout row went from 0.368x to 0.479x the
yardstick, all of it from this draw and pick (docs/performance.rst).  It is
used only when ``rng.choice``, ``rng.shuffle``, ``rng._randbelow`` and
``rng.getrandbits`` are those very functions (:func:`plain_bits`); any other
generator is called through its own methods.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from .cards import ALL_CARDS, Card

__all__ = ["below", "plain_bits", "positional_builder", "shuffled_deck"]

T = TypeVar("T")


def positional_builder(cls: type[T], *derived: str) -> Callable[..., T]:
    """The builder of the frozen tuple record ``cls``: a function taking its
    fields positionally, in declaration order, and returning
    ``tuple.__new__(cls, fields)`` (the object the record's own constructor
    builds).  Generated from ``attrs.fields(cls)``, so its parameters are the
    fields' names, followed by the ``derived`` values a record keeps after
    its fields (``TrixDeal.playable``).

    >>> from trixcomplex.core.tricks import Trick
    >>> build = positional_builder(Trick)
    >>> cards = (Card(1), Card(2), Card(3), Card(4))
    >>> build(0, cards, 2) == Trick(0, cards, 2)
    True
    >>> import inspect; list(inspect.signature(build).parameters)
    ['leader', 'cards', 'taker']
    """
    names = [field.name for field in attrs.fields(cls)] + list(derived)  # type: ignore[arg-type]
    args = ", ".join(names)
    source = f"def build({args}):\n    return _tnew(cls, ({args},))\n"
    namespace: dict[str, Any] = {"_tnew": tuple.__new__, "cls": cls}
    exec(source, namespace)
    build: Callable[..., T] = namespace["build"]
    build.__name__ = build.__qualname__ = f"new_{cls.__name__}"
    build.__doc__ = f"``{cls.__name__}({args})``, built in one call (fields in order)."
    return build


# -- drawing as random.Random draws (see the module's text) --------------------

_K = tuple(n.bit_length() for n in range(53))
"""``_K[n]``: ``n.bit_length()``, the bits ``_randbelow(n)`` asks for (a lookup per card)."""

_SWAPS = tuple((i, _K[i + 1]) for i in range(51, 0, -1))
"""``rng.shuffle`` of the deck: swap ``deck[i]`` with ``deck[_randbelow(i + 1)]``, drawn with
``_K[i + 1]`` bits (a draw above ``i`` is drawn again: ``j >= i + 1`` is ``j > i``, so the
loop keeps no third local: 4.5% fewer machine instructions a shuffle, issue 44)."""

_RANDBELOW = vars(random.Random)["_randbelow_with_getrandbits"]
_RANDOM = random.Random
_DRAWING = frozenset(("choice", "shuffle", "_randbelow", "getrandbits"))


def plain_bits(rng: random.Random) -> Callable[[int], int] | None:
    """``rng.getrandbits`` if ``rng`` draws as :class:`random.Random` itself
    does (so the playout may draw that way itself), else ``None``.

    The class's and the instance's ``choice``, ``shuffle``, ``_randbelow``
    and ``getrandbits`` must all be :class:`random.Random`'s own, so every
    draw is ``_randbelow_with_getrandbits`` over the C generator (a class
    defining only ``random()`` gets ``_randbelow_without_getrandbits``).  A
    generator replacing any of them is called through its own ``choice`` and
    ``shuffle`` instead.

    >>> plain_bits(random.Random(1)) is not None
    True
    >>> class Loaded(random.Random):
    ...     def choice(self, seq):
    ...         return seq[0]
    >>> plain_bits(Loaded(1)) is None
    True
    """
    cls = type(rng)
    own = getattr(rng, "__dict__", {})
    if (
        getattr(cls, "choice", None) is _RANDOM.choice
        and getattr(cls, "shuffle", None) is _RANDOM.shuffle
        and getattr(cls, "_randbelow", None) is _RANDBELOW
        and getattr(cls, "getrandbits", None) is _RANDOM.getrandbits
        and not own.keys() & _DRAWING
    ):
        return rng.getrandbits
    return None


def below(bits: Callable[[int], int], n: int) -> int:
    """``random.Random._randbelow_with_getrandbits(n)`` drawing from ``bits``: with
    ``bits = rng.getrandbits`` (see :func:`plain_bits`), ``seq[below(bits,
    len(seq))]`` is ``rng.choice(seq)``, the same value from the same calls.
    The card loops and the shuffle run this body inline.

    >>> a, b = random.Random(7), random.Random(7)
    >>> [below(a.getrandbits, 13) for _ in range(5)] == [b.choice(range(13)) for _ in range(5)]
    True
    """
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def shuffled_deck(rng: random.Random, bits: Callable[[int], int] | None = None) -> tuple[Card, ...]:
    """The deck as ``rng.shuffle`` leaves it (the deck ``Deal.shuffled(rng)`` deals):
    the same calls to ``rng`` in the same order; with ``bits`` (:func:`plain_bits`)
    the shuffle is ``rng.shuffle``'s own loop, drawing from ``bits``.

    >>> a, b = random.Random(3), random.Random(3)
    >>> deck = list(ALL_CARDS); b.shuffle(deck)
    >>> shuffled_deck(a, a.getrandbits) == tuple(deck)
    True
    """
    deck = list(ALL_CARDS)
    if bits is None:
        rng.shuffle(deck)
    else:
        for i, k in _SWAPS:  # rng.shuffle(deck): j = below(bits, i + 1), inline
            j = bits(k)
            while j > i:
                j = bits(k)
            deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)
