"""The observers of one match: :class:`TensorTracker` (one seat's tensor) and
:class:`Observer` (the seats' views and tensors, what the adapters of
:mod:`trixcomplex.rl` hold), both built on a
:class:`~trixcomplex.rl.observation.trackers.SeatsTracker`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice

import numpy as np
import numpy.typing as npt

from ...core.engine import MatchState
from ...core.runner import CardStep
from ...core.seats import check_seat
from ...knowledge.card_deltas import StepLog
from ...knowledge.views import View, view, view_after_moves
from .trackers import SeatsTracker


class TensorTracker:
    """One seat's (or the spectator's, ``seat=None``) observation tensor of a match,
    kept up to date from the moves themselves: a :class:`SeatsTracker` asked for
    that one seat.

    :meth:`tensor` is always bit-identical to
    ``observation_tensor(view(state, seat))``; see :class:`SeatsTracker` for
    the moves it follows and what it encodes in full.  Each call hands out a
    new array the caller owns.  A deep copy or a pickle is a new, empty tracker.

    >>> import random
    >>> import numpy as np
    >>> import trixcomplex as tc
    >>> from trixcomplex.rl import observation_tensor
    >>> tracker = TensorTracker(2)
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
    >>> for _ in range(30):
    ...     tensor = tracker.tensor(state)
    ...     state = tc.apply(state, tc.legal_moves(state)[0])
    >>> np.array_equal(tracker.tensor(state), observation_tensor(tc.view(state, 2)))
    True
    """

    def __init__(self, seat: int | None) -> None:
        if seat is not None:
            check_seat(seat)
        self.seat = seat
        self._tracker = SeatsTracker()

    def tensor(
        self, state: MatchState, steps: Sequence[CardStep] | None = None
    ) -> npt.NDArray[np.float32]:
        """``observation_tensor(view(state, seat))``, a new array the caller owns
        (``steps`` as in :meth:`SeatsTracker.tensor`)."""
        return self._tracker.tensor(state, self.seat, steps)

    def __deepcopy__(self, memo: dict[int, object]) -> TensorTracker:
        return TensorTracker(self.seat)

    def __reduce__(self) -> tuple[type[TensorTracker], tuple[int | None]]:
        return (TensorTracker, (self.seat,))


class Observer:
    """The seats' (and the spectator's) views and tensors of one match, each brought up
    to date only when asked for: a view by :func:`~trixcomplex.view_after_moves`
    over the moves since that seat's last one, a tensor by one
    :class:`SeatsTracker` for them all, from the moves themselves.

    Follow one match forward: ask with its successive states (any state of it,
    not each one); a state of another branch or match is seen in full.  Equal
    to ``view(state, seat)`` and ``observation_tensor(view(state, seat))``
    always.  Each tensor handed out is a new array the caller owns.  A deep
    copy (OpenSpiel's ``clone``) or a pickle starts afresh, empty.

    >>> import random
    >>> import numpy as np
    >>> import trixcomplex as tc
    >>> observer = Observer()
    >>> from trixcomplex.rl import observation_tensor
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
    >>> for _ in range(12):
    ...     tensor = observer.tensor(state, state.turn)
    ...     state = tc.apply(state, tc.legal_moves(state)[0])
    >>> observer.view(state, 1) == tc.view(state, 1)
    True
    >>> np.array_equal(observer.tensor(state, 1), observation_tensor(tc.view(state, 1)))
    True
    """

    def __init__(self) -> None:
        self._views: dict[int | None, tuple[MatchState, View]] = {}
        self._tracker = SeatsTracker()
        self._log = StepLog()  # the steps given, for the views to catch up with

    def view(
        self, state: MatchState, seat: int | None, steps: Sequence[CardStep] | None = None
    ) -> View:
        """``view(state, seat)``, from this seat's last view if there is one (``steps``
        as in :meth:`SeatsTracker.tensor`)."""
        if steps:
            self._log.note(state, steps)
        seen = self._views.get(seat)
        if seen is not None and seen[0] is state:
            return seen[1]
        new = None
        since = len(state.history) - len(seen[0].history) if seen is not None else 0
        if seen is not None and since > 0:
            moves = list(islice(state.history.newest_first(), since + 1))
            before = moves.pop() if len(moves) > since else None
            if before is seen[0].history.last:  # the state follows the one seen last
                moves.reverse()
                new = view_after_moves(seen[1], moves, state, self._log.up_to(state))
        if new is None:
            new = view(state, seat)
        self._views[seat] = (state, new)
        return new

    def tensor(
        self, state: MatchState, seat: int | None, steps: Sequence[CardStep] | None = None
    ) -> npt.NDArray[np.float32]:
        """``observation_tensor(view(state, seat))``, kept up to date by the observer's
        :class:`SeatsTracker`: a new array the caller owns (``steps`` as in
        :meth:`SeatsTracker.tensor`)."""
        if steps and self._views:  # logged for the views only
            self._log.note(state, steps)
        return self._tracker.tensor(state, seat, steps)

    def __deepcopy__(self, memo: dict[int, object]) -> Observer:
        return Observer()

    def __reduce__(self) -> tuple[type[Observer], tuple[()]]:
        return (Observer, ())
