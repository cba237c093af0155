"""The card sense of :class:`~trixcomplex.bots.RuleBot` version 1: pure functions of a situation.

One module per job; this one gathers their public names:

- :mod:`.situation`: :class:`Situation`, what one seat knows, in card sets;
- :mod:`.choosing`: the contract, a redeal, the doubles;
- :mod:`.trick_play`: the card in a trick contract;
- :mod:`.trix_play`: the card in TRIX.

Version 2's tactics are in :mod:`.club`.
"""

from __future__ import annotations

from .choosing import (
    CONTRACT_WEIGHTS,
    HAND_SET_WEIGHTS,
    ContractWeights,
    choose_contract,
    choose_doubles,
    complex_danger,
    contract_goodness,
    trix_gaps,
    wants_redeal,
)
from .situation import Situation
from .trick_play import complex_card
from .trix_play import trix_card

__all__ = [
    "CONTRACT_WEIGHTS",
    "HAND_SET_WEIGHTS",
    "ContractWeights",
    "Situation",
    "choose_contract",
    "choose_doubles",
    "complex_card",
    "complex_danger",
    "contract_goodness",
    "trix_card",
    "trix_gaps",
    "wants_redeal",
]
