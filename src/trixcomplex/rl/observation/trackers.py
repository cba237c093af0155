"""The tracker: observation tensors of one match kept up to date from its moves,
:class:`SeatsTracker` (every seat's and the spectator's tensor; the observers of
:mod:`trixcomplex.rl.observation.observers` are built on it).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ...core.cards import Suit, cards_of, mask_of
from ...core.engine import History, MatchState, Phase, TrickDeal, TrixDeal
from ...core.moves import Choose, Double, Move, Pass, Play
from ...core.runner import CardStep
from ...core.seats import check_seat
from ...knowledge.card_deltas import given_steps, steps_since
from ...knowledge.seat_view import TURN_PHASES
from ...knowledge.views import (
    View,
    own_part,
    played_in_tricks,
    show_trick_cards_since,
    shown_by_pass,
    view_without_moves,
)
from .encoders import (
    CONTRACTS_SECTION,
    TRICK_AND_LEADER_ZEROS,
    ZEROS,
    encode_all,
    encode_answer,
    encode_card_row,
    encode_contracts,
)
from .layout import (
    AT_CANNOT,
    AT_DOUBLED,
    AT_HAND,
    AT_KNOWN,
    AT_LEADER,
    AT_OPEN,
    AT_ORDER,
    AT_PASSES,
    AT_POINTS,
    AT_TRICKS_TAKEN,
    AT_TURN,
    AT_VOIDS,
    DOUBLE_INDEX,
    N_DOUBLABLE,
    POINTS_SCALE,
    TENSOR_SIZE,
    Buffer,
    span,
)
from .seat_tensors import (
    SEAT_PLACES,
    SEATS_GATHER,
    SPECTATOR_GATHER,
    TAKEN_ROW,
    TRICK_AND_LEADER_OF_SEATS,
    TRICK_ROW,
    count_one_more,
    played_from_hand,
    put,
)

_TRICK_PHASES = (Phase.COMPLEX, Phase.TRICKS)
# Phases read in the functions as module constants: on Python 3.11 an enum member read
# from its class (``Phase.TRIX`` in a function) is not specialized, about 150 ns (940
# machine instructions) against 20 for a global (see core/state.py).
_TRIX, _DOUBLE, _CHOOSE = Phase.TRIX, Phase.DOUBLE, Phase.CHOOSE
_CATCH_UP = 64
"""At most this many moves are followed one by one; a longer gap is encoded in full."""
_NOTHING_SHOWN = [0, 0, 0, 0]
_NO_POINTS = (0, 0, 0, 0)
_UNKNOWN = object()

_WINDOW = span("doublable", "my_answer")
"""A seat's own part (``views.own_part``) is its hand and this part of its tensor."""
_WINDOW_ZEROS = array("f", bytes(4 * (_WINDOW.stop - _WINDOW.start)))


_NEW_PHASES = (Phase.DOUBLE, Phase.COMPLEX, Phase.TRICKS, Phase.TRIX)
"""The phases a choice or the doubling window's close lead to."""
_CONTRACTS_ZEROS = ZEROS[CONTRACTS_SECTION.stop - CONTRACTS_SECTION.start]
_KNOWN_ROW = tuple(AT_KNOWN + 52 * s for s in range(4))


class SeatsTracker:
    """Every seat's and the spectator's observation tensor of one match, kept up to date
    from the moves themselves: each move is read once, whoever is asked for.

    ``tensor(state, seat)`` is always bit-identical to
    ``observation_tensor(view(state, seat))``.  The tracker keeps the
    four seats' tensors in full (:mod:`~trixcomplex.rl.observation.seat_tensors`):
    a public change is written into all four, each turned to its seat
    (:func:`~trixcomplex.view` shows every seat the same public facts), a
    seat's own part (its hand and its part of the doubling window) into its
    own.  Asked for a seat, it hands out that tensor as it stands (a copy of
    one row); asked for the spectator, seat 0's public part with the
    spectator's own.  Four writes of an entry cost a card less than gathering
    the mover's 1,232 entries from one public tensor did (a ``numpy.take``,
    12 machine instructions an entry).

    Asked with a state that follows the one it saw last (any number of moves
    later), it walks the history back to that state and, when every move
    since is a card played to a trick, a card laid or a pass in TRIX, or an
    answer in the doubling window of the same deal, writes only the entries
    those moves change, as the deal runner's
    :class:`~trixcomplex.core.runner.CardStep`\\ s of the cards report them
    (handed with ``steps=``, else rebuilt from the state): the hand, the cards
    played, the trick and its leader, the tricks taken and by whom, the hand
    sizes, the turn, the passes and the finishing order; the points when a
    trick changes them; and the voids and cards a seat cannot hold, deduced by
    the very functions :func:`~trixcomplex.view` uses
    (``views.show_trick_cards_since`` and ``views.shown_by_pass``).  A choice
    and the doubling window's close write what they change (the phase and the
    contracts, the turn, the window, the leader, the doubles revealed).
    Anything else (a deal, a deal's last card, a redeal, the 2s shown by
    R-OPT-7, a state of another branch or match) encodes the spectator's full
    :func:`~trixcomplex.view` again and turns it to each seat, and each seat's
    own part is written again when it is next asked for if it changed, as a
    seat's own doubling answer does for that seat.

    A game loop asks for the mover's tensor at every move (what the adapters of
    :mod:`trixcomplex.rl` do through :class:`Observer`); one tracker serves
    all four seats for the work of one.  Each call hands out a new array the
    caller owns.  A deep copy or a pickle is a new, empty tracker.

    >>> import random
    >>> import numpy as np
    >>> import trixcomplex as tc
    >>> from trixcomplex.rl import observation_tensor
    >>> tracker = SeatsTracker()
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(5)))
    >>> for _ in range(30):
    ...     move = tc.legal_moves(state)[0]
    ...     tensor = tracker.tensor(state, move.seat)  # the mover's
    ...     state = tc.apply(state, move)
    >>> np.array_equal(tracker.tensor(state, 2), observation_tensor(tc.view(state, 2)))
    True
    """

    __slots__ = (
        "_cannot",
        "_done",
        "_fresh",
        "_hands_ok",
        "_marked",
        "_np",
        "_out",
        "_places",
        "_played",
        "_points",
        "_rules",
        "_seat_outs",
        "_start",
        "_state",
        "_turn",
        "_turns",
        "_voids",
        "_window_parts",
    )  # fmt: skip

    def __init__(self, buffer: npt.NDArray[np.float32] | None = None) -> None:
        # Five tensors: the spectator's as last encoded in full (a scratch, but for its
        # own part: no hand, no window part, is_spectator), then each seat's, kept up
        # to date.  ``buffer``: a C-contiguous float32 array of shape (5, TENSOR_SIZE)
        # to keep them in (TablesEnv's batch of trackers; zeros when new), else its own.
        if buffer is None:
            buffer = np.zeros((5, TENSOR_SIZE), np.float32)
        elif (
            buffer.shape != (5, TENSOR_SIZE)
            or buffer.dtype != np.float32
            or not buffer.flags.c_contiguous
        ):
            raise ValueError(f"a tracker's buffer is C-contiguous float32 (5, {TENSOR_SIZE}), "
                             f"not {buffer.dtype} {buffer.shape}")  # fmt: skip
        self._np = buffer
        # Written through memoryviews (an item written there costs less than one written
        # into an array("f"), 26 ns against 39, a fraction of numpy's): the whole buffer,
        # flat, and each seat's tensor (for the encoders, which write one tensor turned
        # to a seat).
        self._out: Buffer = buffer.data.cast("B").cast("f")  # type: ignore[assignment]
        self._seat_outs: tuple[Buffer, ...] = tuple(
            buffer[1 + s].data.cast("B").cast("f") for s in range(4)
        )
        self._state: MatchState | None = None
        self._fresh = 0  # bit 0: the seats' tensors' public part is up to date; bit 1 + s:
        # seat s's own part too
        # What each seat's part holds: its hand row (bit s: seat s's is the state's, the
        # cards played since a full encoding taken out of it as they are followed) and
        # its doubling window's (asked, answer) (None: no window; _UNKNOWN):
        self._hands_ok = 0
        self._window_parts: list[object] = [_UNKNOWN, _UNKNOWN, _UNKNOWN, _UNKNOWN]
        # What the moves since are read against (set by _take_stock):
        self._voids: list[frozenset[Suit]] = []
        self._cannot = [0, 0, 0, 0]  # cards each seat cannot hold (played ones may be left)
        self._marked = 0  # cards in some seat's cannot_hold or known_holdings row
        self._played = 0  # cards played this deal (to tricks, or laid)
        self._done = self._start = self._turns = self._places = 0
        self._turn: int | None = None
        self._points: tuple[int, ...] = ()
        self._rules = (False, 0)  # the trick contract's no_heart_lead, discard_first

    def tensor(
        self,
        state: MatchState,
        seat: int | None,
        steps: Sequence[CardStep] | None = None,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """``observation_tensor(view(state, seat))``, a new array the caller owns, or
        written into ``out`` (a float32 array of :data:`OBSERVATION_SHAPE`, a row of a
        batch: :class:`~trixcomplex.rl.vector.TablesEnv`) and ``out`` returned.

        ``steps``: the deal runner's :class:`~trixcomplex.core.runner.CardStep`\\ s of the
        last moves to ``state`` (``steps[-1]`` of its last move), as a game loop got
        them from :func:`~trixcomplex.apply_step`: read when they cover the moves
        since the state seen last, else rebuilt from ``state``."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            check_seat(seat)
            seat = int(seat)  # a seat of another int type
        self.follow(state, seat, steps)
        if out is None:
            return self._np[1 + seat].copy() if seat is not None else self._spectator()
        if seat is None:
            return self._spectator(out)
        np.copyto(out, self._np[1 + seat])
        return out

    def follow(
        self, state: MatchState, seat: int | None, steps: Sequence[CardStep] | None = None
    ) -> None:
        """:meth:`tensor` without handing it out: bring the tensors up to ``state``,
        ``seat``'s (0–3, or ``None``) among them, in the buffer given
        (:class:`~trixcomplex.rl.vector.TablesEnv` copies them from there)."""
        seen = self._state
        if state is not seen:
            self._state = state
            if not self._fresh:
                pass
            elif type(node := state.history) is History and node._prev is seen.history:  # type: ignore[union-attr]
                # One move since, a game loop's step: followed without walking back, and
                # a card or TRIX pass with its runner's step given (most steps) without
                # listing the moves: the checks of _after and given_steps, for one move of
                # the deal, which goes on (the same deal_number, scores and ruleset).
                move = node._move
                step = steps[-1] if steps else None
                if (
                    step is None
                    or step.deal_over
                    or step.seat != move.seat  # type: ignore[union-attr]
                    or seen.phase is not state.phase  # type: ignore[union-attr]
                ):
                    if not self._after([move], state, seen, steps):  # type: ignore[list-item, arg-type]
                        self._fresh = 0
                elif type(move) is Play and step.card == move.card:
                    deal = state.deal
                    if type(deal) is TrickDeal:
                        self._trick_steps((step,), state, deal)
                    elif type(deal) is not TrixDeal or not self._trix_steps((step,), state, deal):
                        self._fresh = 0
                elif type(move) is Pass and step.card is None and type(state.deal) is TrixDeal:
                    if not self._trix_steps((step,), state, state.deal):
                        self._fresh = 0
                else:
                    self._fresh = 0
            elif not self._follow(seen, state, steps):  # type: ignore[arg-type]
                self._fresh = 0
        if not self._fresh & 1:
            self._encode_in_full(state, None)
        if seat is not None and not self._fresh >> 1 + seat & 1:
            self._encode_in_full(state, seat)

    def _spectator(self, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The spectator's tensor: seat 0's public part (turned to seat 0, as the
        spectator's is) and the spectator's own (no hand, no window part,
        is_spectator) from the first tensor of the buffer."""
        # mode="clip": every index is in range, and numpy's default check ("raise")
        # costs a take of one tensor five times as much (8 µs against 1.5).
        return self._np.reshape(-1).take(SPECTATOR_GATHER, out=out, mode="clip")

    def __deepcopy__(self, memo: dict[int, object]) -> SeatsTracker:
        return SeatsTracker()

    def __reduce__(self) -> tuple[type[SeatsTracker], tuple[()]]:
        return (SeatsTracker, ())

    def _encode_in_full(self, state: MatchState, seat: int | None) -> None:
        """Encode the spectator's tensor (``seat=None``) or ``seat``'s own part from its
        full view of ``state``."""
        if seat is None:
            seen = view_without_moves(state, None)
            self._out[:TENSOR_SIZE] = encode_all(seen)
            # Turned to each seat (each seat's own part gathered from itself: kept):
            flat = self._np.reshape(-1)
            flat[TENSOR_SIZE:] = flat.take(SEATS_GATHER, mode="clip")
            self._take_stock(state, seen)
            self._fresh = 1
            self._hands_ok = 0
            return
        # The hand row and the window part are each written again only if they changed
        # since written (a choice, the window's close: the same hand; a seat's part
        # is asked for again after every full encoding).
        window = state.window
        part = None if window is None else (window.asked[seat], window.answers[seat])
        hand_ok = self._hands_ok >> seat & 1
        if not hand_ok or part != self._window_parts[seat]:
            hand, doublable, answer = own_part(state, seat)
            out, base = self._out, (1 + seat) * TENSOR_SIZE
            if not hand_ok:
                out[base + AT_HAND : base + AT_HAND + 52] = ZEROS[52]
                encode_card_row(hand, out, base + AT_HAND)
                self._hands_ok |= 1 << seat
            if part != self._window_parts[seat]:
                out[base + _WINDOW.start : base + _WINDOW.stop] = _WINDOW_ZEROS
                encode_answer(doublable, answer, out, base)
                self._window_parts[seat] = part
        self._fresh |= 2 << seat

    def _take_stock(self, state: MatchState, seen: View) -> None:
        """Read from the spectator's view ``seen`` what the moves from ``state`` on are to
        be read against."""
        self._voids = list(seen.voids)
        self._cannot = cannot = [mask_of(cards) for cards in seen.cannot_hold]
        known = seen.known_holdings
        self._marked = (
            cannot[0] | cannot[1] | cannot[2] | cannot[3]
            | mask_of(known[0]) | mask_of(known[1]) | mask_of(known[2]) | mask_of(known[3])
        )  # fmt: skip
        deal = state.deal
        if type(deal) is TrixDeal:
            self._played = deal.table
        elif type(deal) is TrickDeal:
            self._played = played_in_tricks(deal.tricks, deal.trick)
        else:
            self._played = 0
        self._done, self._start = len(seen.tricks), len(seen.trick)
        self._turns, self._places = len(seen.laid) + len(seen.passes), len(seen.finishing_order)
        self._turn, self._points = seen.turn, seen.points
        if state.phase in _TRICK_PHASES:
            rules = state.ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
            self._rules = (rules.no_heart_lead, rules.discard_first)

    def _follow(
        self, seen: MatchState, state: MatchState, steps: Sequence[CardStep] | None
    ) -> bool:
        """Bring the tensors from ``seen`` to ``state`` move by move; ``False`` (all then
        to be encoded in full) unless ``state`` follows ``seen`` in the same deal by
        moves of the kinds followed."""
        moves: list[Move] = []  # back from state to seen: the nodes, not the moves, compared
        node: History | None = state.history
        last = seen.history
        for _ in range(_CATCH_UP):
            if type(node) is not History:  # one node per move only (not a segment, not None)
                return False
            moves.append(node._move)  # type: ignore[arg-type]
            node = node._prev
            if node is last:
                break
        else:
            return False
        moves.reverse()
        return self._after(moves, state, seen, steps)

    def _after(
        self,
        moves: list[Move],
        state: MatchState,
        seen: MatchState,
        steps: Sequence[CardStep] | None,
    ) -> bool:
        """Bring the tensors from ``seen`` to ``state``, the state after ``moves`` (the
        runner's ``steps`` of the last ones, if given); ``False`` unless both are of the
        same deal and phase and the moves of the kinds followed."""
        phase = state.phase
        if (
            state.deal_number != seen.deal_number
            or state.ruleset is not seen.ruleset
            or state.scores is not seen.scores
        ):
            return False
        if phase is not seen.phase:
            return self._new_phase(moves, state, seen)
        if phase in _TRICK_PHASES:
            return self._after_trick_cards(moves, state, steps)
        if phase is _TRIX:
            return self._after_trix_turns(moves, state, steps)
        if phase is _DOUBLE:  # a secret answer changes only what its seat sees (R-HID-2)
            for move in moves:
                if type(move) is not Double:
                    return False
                self._fresh &= ~(2 << move.seat)
            return True
        return False

    def _new_phase(self, moves: list[Move], state: MatchState, seen: MatchState) -> bool:
        """Write what a choice (CHOOSE to the doubling window or the card play) or the
        answers that close the doubling window (to the card play) changed, ``seen``
        and ``state`` of the same deal; ``False`` (all then to be encoded in full)
        for any other change of phase.

        No card is played yet and the hands are the same, so of the spectator's
        view only these change (see :func:`~trixcomplex.view`): the phase, the
        contract and those remaining (R-MATCH-5, R-SET-2); the turn (none in the window); the
        window open or not; in a trick contract the leader, and once the window
        closes the doubles revealed and their cards known to be held by their
        doublers (R-HID-2).  The seats' own parts are asked for again (their part
        of the window changes)."""
        before, phase = seen.phase, state.phase
        if before is _CHOOSE:
            if len(moves) != 1 or type(moves[0]) is not Choose:
                return False
        elif before is not _DOUBLE or any(type(move) is not Double for move in moves):
            return False
        if phase not in _NEW_PHASES or state.hands != seen.hands:
            return False
        deal = state.deal
        if type(deal) is TrickDeal:
            if deal.tricks or deal.trick or deal.points != self._points:
                return False
        elif type(deal) is TrixDeal:
            if deal.table or deal.finishing_order:
                return False
        elif phase is not _DOUBLE:
            return False
        out, contract, remaining = self._out, state.contract, state.remaining_contracts
        window_open = 0.0 if state.window is None else 1.0
        for seat_out in self._seat_outs:  # the same entries in every seat's tensor
            seat_out[CONTRACTS_SECTION] = _CONTRACTS_ZEROS
            encode_contracts(phase, contract, remaining, seat_out)
            seat_out[AT_OPEN] = window_open
        if type(deal) is TrickDeal:
            put(out, AT_LEADER + deal.leader, 1.0)
            marked = self._marked
            for card, doubler in deal.doubled:
                put(out, AT_DOUBLED + N_DOUBLABLE * doubler + DOUBLE_INDEX[card], 1.0)
                put(out, _KNOWN_ROW[doubler] + card, 1.0)
                marked |= 1 << card
            self._marked = marked
            rules = state.ruleset.trick_rules(state.contract)  # type: ignore[arg-type]
            self._rules = (rules.no_heart_lead, rules.discard_first)
        self._move_turn(state.turn if phase in TURN_PHASES else None)
        self._fresh = 1
        return True

    def _after_trick_cards(
        self, moves: list[Move], state: MatchState, given: Sequence[CardStep] | None
    ) -> bool:
        """Write what the runner's steps of ``moves`` (cards played to tricks) changed."""
        deal = state.deal
        if type(deal) is not TrickDeal:
            return False
        done, start = self._done, self._start
        steps = given_steps(moves, given) or steps_since(
            state,
            moves,
            done,
            start,
            0,
            self._points,  # type: ignore[arg-type]
        )
        if steps is None:
            return False
        self._trick_steps(steps, state, deal)
        return True

    def _trick_steps(self, steps: Sequence[CardStep], state: MatchState, deal: TrickDeal) -> None:
        """Write what the runner's ``steps`` (cards played to tricks, the last ones to
        ``state``, whose deal is ``deal``) changed."""
        done, start = self._done, self._start
        out, hands = self._out, state.hands
        played, marked, points = self._played, self._marked, self._points
        for step in steps:  # the runner's CardSteps
            who, card, taken = step.seat, step.card, step.trick
            assert card is not None  # a trick deal has no pass
            played |= 1 << card
            marked = played_from_hand(out, who, card, hands[who], marked)
            if taken is None:
                a, b, c, d = SEAT_PLACES[TRICK_ROW[who] + card]
                out[a] = out[b] = out[c] = out[d] = 1.0
                continue
            # A trick taken: its cards to its taker, who leads the next (R-CX-3).
            for part in TRICK_AND_LEADER_OF_SEATS:  # the same part of every seat's tensor
                out[part] = TRICK_AND_LEADER_ZEROS
            taker = taken.taker
            row = TAKEN_ROW[taker]
            for taken_card in taken.cards:
                put(out, row + taken_card, 1.0)
            count_one_more(out, AT_TRICKS_TAKEN + taker)
            put(out, AT_LEADER + taker, 1.0)
            gained = step.points
            assert gained is not None
            if gained != _NO_POINTS:  # the cumulative scores change only between deals
                points = (points[0] + gained[0], points[1] + gained[1], points[2] + gained[2],
                          points[3] + gained[3])  # fmt: skip
        self._played = played
        if points is not self._points:
            self._points = points
            for s in range(4):  # encode_deal_points, into the four seats' tensors
                put(out, AT_POINTS + s, points[s] / POINTS_SCALE)
        self._done, self._start = len(deal.tricks), len(deal.trick)
        voids, shown = self._voids, [0, 0, 0, 0]
        no_heart_lead, discard_first = self._rules
        grew = show_trick_cards_since(voids, shown, deal, done, start, no_heart_lead, discard_first)
        if grew:
            for s in range(4):
                if grew >> s & 1:  # encode_void_row, into the four seats' tensors
                    row = AT_VOIDS + 4 * s
                    for suit in voids[s]:
                        put(out, row + suit, 1.0)
        if shown != _NOTHING_SHOWN:
            for s in range(4):
                if shown[s]:
                    marked |= self._cannot_hold(s, shown[s], played)
        self._marked = marked
        turn = steps[-1].turn
        if turn != self._turn:  # the turn mark moved (the deal goes on: a seat is to play)
            a, b, c, d = SEAT_PLACES[AT_TURN + self._turn]  # type: ignore[operator]
            out[a] = out[b] = out[c] = out[d] = 0.0
            a, b, c, d = SEAT_PLACES[AT_TURN + turn]  # type: ignore[operator]
            out[a] = out[b] = out[c] = out[d] = 1.0
            self._turn = turn

    def _after_trix_turns(
        self, moves: list[Move], state: MatchState, given: Sequence[CardStep] | None
    ) -> bool:
        """Write what the runner's steps of ``moves`` (TRIX cards and passes) changed."""
        deal = state.deal
        if type(deal) is not TrixDeal:
            return False
        places = self._places
        steps = given_steps(moves, given) or steps_since(state, moves, 0, 0, places, _NO_POINTS)
        if steps is None:
            return False
        return self._trix_steps(steps, state, deal)

    def _trix_steps(self, steps: Sequence[CardStep], state: MatchState, deal: TrixDeal) -> bool:
        """Write what the runner's ``steps`` (TRIX cards and passes, the last ones to
        ``state``, whose deal is ``deal``) changed; ``False`` if they do not lead to
        ``deal``'s table, or show the 2s (R-OPT-7)."""
        turns = self._turns
        if turns < 4 <= turns + len(steps) and state.ruleset.show_twos:
            return False  # R-OPT-7: the 2s are shown now
        places = self._places
        out, hands = self._out, state.hands
        table, marked, final = self._played, self._marked, deal.table
        for step in steps:  # the runner's CardSteps
            who, laid = step.seat, step.card
            if laid is None:  # a pass (R-TX-3): count_pass, into the four seats' tensors
                count_one_more(out, AT_PASSES + who)
                marked |= self._cannot_hold(who, shown_by_pass(table), final)
                continue
            bit = 1 << laid
            if table & bit:
                return False
            table |= bit
            marked = played_from_hand(out, who, laid, hands[who], marked)
            if step.out:  # the seat went out: its place (R-TX-4; encode_place, as put)
                put(out, AT_ORDER + 4 * who + places, 1.0)
                places += 1
        if table != final:
            return False
        self._played, self._marked, self._turns = table, marked, turns + len(steps)
        self._places = places
        self._move_turn(steps[-1].turn)
        return True

    def _move_turn(self, turn: int | None) -> None:
        """Move the turn mark to ``turn``, after any followed moves."""
        if turn != self._turn:
            if self._turn is not None:
                put(self._out, AT_TURN + self._turn, 0.0)
            if turn is not None:
                put(self._out, AT_TURN + turn, 1.0)
            self._turn = turn

    def _cannot_hold(self, seat: int, shown: int, played: int) -> int:
        """Add the cards ``shown`` (but those ``played``) to what ``seat`` cannot hold;
        the cards added."""
        more = shown & ~self._cannot[seat] & ~played
        if more:
            self._cannot[seat] |= more
            cards = cards_of(more)
            for me, seat_out in enumerate(self._seat_outs):
                encode_card_row(cards, seat_out, AT_CANNOT + 52 * ((seat - me) % 4))
        return more
