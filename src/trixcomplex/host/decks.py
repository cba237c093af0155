"""A tournament's decks, seeded by HMAC from its secret seed, and the seed's public commitment.

The organizer's ``seed`` is the run's secret: every deck comes from an HMAC
of a key derived from it (:func:`match_generators`), so whoever knows it
knows every deck.  :func:`seed_commitment` is published before the first
match and the seed itself only with the results, so anyone can check that
the decks came from the seed revealed.
"""

from __future__ import annotations

import hashlib
import hmac
import random

__all__ = ["match_generators", "seed_commitment"]


def _key(seed: int) -> bytes:
    """The run's secret key: a hash of the organizer's ``seed``."""
    return hashlib.sha256(f"trixcomplex run key:{seed}".encode()).digest()


def _stream(key: bytes, label: str) -> random.Random:
    """A generator seeded with ``HMAC-SHA256(key, label)``."""
    return random.Random(hmac.new(key, label.encode(), hashlib.sha256).digest())


def match_generators(
    seed: int, index: int
) -> tuple[random.Random, random.Random, list[random.Random]]:
    """Match ``index``'s generators in the tournament seeded ``seed``: the decks, the
    decks after a redeal (R-OPT-8), and the four seats' bots' own.

    Each is seeded with an HMAC of a key derived from ``seed``: the decks
    with the deal key, shared by matches ``2k`` and ``2k + 1``; the bots'
    with a bot key derived apart, so that what a bot draws from its
    generator tells nothing about any deck.  Without ``seed`` no one can
    compute a deck, and with it everyone can: keep it secret until the
    results are out (:func:`seed_commitment`).

    >>> decks, _, _ = match_generators(7, 0)
    >>> again, _, _ = match_generators(7, 1)
    >>> decks.random() == again.random()    # a pair of matches: the same shuffles
    True
    """
    key = _key(seed)
    deal_key = hmac.new(key, b"deals", hashlib.sha256).digest()
    bot_key = hmac.new(key, b"bots", hashlib.sha256).digest()
    pair = index // 2
    return (
        _stream(deal_key, f"deals:{pair}"),
        _stream(deal_key, f"redeals:{pair}"),
        [_stream(bot_key, f"match:{index}:seat:{s}") for s in range(4)],
    )


def seed_commitment(seed: int) -> str:
    """The public commitment to a tournament's secret ``seed``: a SHA-256 hex digest.

    Published before the first match (``simulate(..., announce=...)``,
    :attr:`Tournament.commitment`), it lets anyone check afterwards that the
    seed revealed with the results is the one the decks came from.  It hides
    the seed only if the seed is hard to guess: a small seed is found by
    trying them all, so let :func:`simulate` draw one or choose a long random one.

    >>> seed_commitment(1) == seed_commitment(1) != seed_commitment(2)
    True
    >>> len(seed_commitment(1))
    64
    """
    return hashlib.sha256(f"trixcomplex seed commitment:{seed}".encode()).hexdigest()
