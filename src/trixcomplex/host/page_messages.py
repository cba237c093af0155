"""The table page's words: its message ids, their English text, and every language of the
library's one catalog (:mod:`trixcomplex.core.catalog`).

The page (``static/app.js``) writes each player-facing string through ``t(id)``; the
English text of each id is a message of the library's catalog (marked with ``N_`` so
``pybabel extract`` takes it into ``trixcomplex.pot``), and :func:`page_messages` gives
the page its table in a language, with the writing direction (``dir``) and the language
itself (``lang``).  The server serves it at ``GET /api/messages``.

>>> ar = page_messages("ar-SA")
>>> ar["lang"], ar["dir"], ar["contract.QUEENS"]
('ar', 'rtl', 'البنات')
>>> page_messages("en")["status.your_turn"]
'your turn'
"""

from __future__ import annotations

from ..core.catalog import N_, best_locale, check_locale, is_right_to_left, translate

__all__ = ["PAGE_MESSAGES", "page_messages", "request_locale"]

PAGE_MESSAGES: dict[str, str] = {
    # cards, as a screen reader says them
    "suit.S": N_("spades"), "suit.H": N_("hearts"), "suit.D": N_("diamonds"),
    "suit.C": N_("clubs"),
    "rank.2": N_("two"), "rank.3": N_("three"), "rank.4": N_("four"), "rank.5": N_("five"),
    "rank.6": N_("six"), "rank.7": N_("seven"), "rank.8": N_("eight"), "rank.9": N_("nine"),
    "rank.T": N_("ten"), "rank.J": N_("jack"), "rank.Q": N_("queen"), "rank.K": N_("king"),
    "rank.A": N_("ace"),
    "card.spoken": N_("{rank} of {suit}"),
    "card.doubled": N_("doubled by {who}"),
    "card.played_by": N_("played by {who}"),
    "card.playable": N_("playable"),
    "card.not_playable": N_("not playable: {why}"),
    "card.no_play_now": N_("no card is played now"),
    "card.not_legal_now": N_("not a legal card now"),
    # the contracts (R-MATCH-1, R-CL-1): the library's own names
    "contract.KING_OF_HEARTS": N_("King of Hearts"), "contract.QUEENS": N_("Queens"),
    "contract.DIAMONDS": N_("Diamonds"), "contract.LTOOSH": N_("Ltoosh"),
    "contract.TRIX": N_("TRIX"), "contract.COMPLEX": N_("COMPLEX"),
    "place.1": N_("1st"), "place.2": N_("2nd"), "place.3": N_("3rd"), "place.4": N_("4th"),
    # the seats
    "you": N_("you"), "You": N_("You"), "your_partner": N_("your partner"),
    "Your_partner": N_("Your partner"),
    "botname.rule": N_("rule"), "botname.random": N_("random"),
    "botname.mc": N_("mc"),
    "bot": N_("{kind} bot #{number}"), "empty_seat": N_("empty place #{number}"),
    "player": N_("player #{number}"),
    "seat.owner": N_("Kingdom owner"), "seat.away": N_("away"),
    "seat.waiting": N_("waiting for a player"), "seat.cards": N_("{n} cards"),
    "seat.points": N_("{points} pts"), "seat.team": N_("team {n}"), "seat.passed": N_("passed"),
    "seat.out": N_("out {place}"), "seat.to_play": N_("to play"),
    # the lobby
    "lobby.sit": N_("sit here ({who})"), "lobby.watch": N_("watch"), "lobby.record": N_("record"),
    "lobby.finished": N_("finished"), "lobby.waiting": N_("Waiting for the first deal"),
    "lobby.between": N_("Between deals: {done} of {deals} played"),
    "lobby.choosing": N_("Deal {n} of {deals} — choosing the contract"),
    "lobby.deal": N_("Deal {n} of {deals} — {contract}"),
    "lobby.person": N_("person"), "lobby.bot_kind": N_("{kind} bot"),
    # the page's fixed text (index.html's data-msg)
    "page.title": N_("trixcomplex table"), "page.where": N_("table server"),
    "page.language": N_("Language"),
    "page.open_title": N_("Open a table"), "page.game": N_("Game"),
    "page.ruleset.partnership": N_("Trix Complex Partnership"),
    "page.ruleset.individual-complex": N_("Trix Complex (individual)"),
    "page.ruleset.classic": N_("Classic Trix"),
    "page.ruleset.classic-partnership": N_("Classic Trix, partnership"),
    "page.movetime": N_("Seconds per move"), "page.open": N_("Open table"),
    "page.name": N_("Your name"), "page.tables": N_("Tables"), "page.table": N_("Table"),
    "page.watching": N_("watching"),
    "page.seats": N_("Seats"), "page.phase": N_("Phase"),
    "page.felt": N_("the table"), "page.trick": N_("the trick"),
    "page.hand": N_("your hand (arrow keys move, Enter plays)"),
    "page.history": N_("Tricks of this deal"), "page.scoresheet": N_("Scoresheet"),
    "page.events": N_("Events"), "page.leave": N_("Back to the lobby"),
    "page.download": N_("Download the game record"),
    # what the table is doing
    "status.over": N_("The match is over"), "status.deal_over": N_("Deal {n} is over"),
    "status.waiting": N_("Waiting for players"),
    "status.choose_mine": N_("your Kingdom: choose the contract"),
    "status.choosing": N_("{who} is choosing the contract"),
    "status.window": N_("doubling window"), "status.window_mine": N_("your answer"),
    "status.window_wait": N_("waiting for the answers"), "status.your_turn": N_("your turn"),
    "status.to_play": N_("{who} to play"),
    "clock.left": N_("clock: {seconds} s"), "clock.stopped": N_("clock: {seconds} s (stopped)"),
    "centre.last_trick": N_("last trick: {who} took it"),
    "centre.last_of_deal": N_("deal {n}'s last trick: {who} took it"),
    "review.show": N_("Show the last trick"), "review.hide": N_("Back to the trick"),
    "trix.rows": N_("TRIX rows"), "trix.order": N_("Finishing order"),
    "trix.row_empty": N_("no card yet"),
    # the moves other than a card
    "action.choose": N_("Choose {contract}"), "action.double": N_("Double:"),
    "action.answer": N_("Answer"),
    "action.answered": N_("You answered; doubles are shown when the window closes."),
    "action.pass": N_("Pass (no card to lay)"), "action.redeal": N_("Demand a redeal"),
    "refused": N_("Refused: {why}"),
    # the connection (the server restarts, the network drops, a second tab)
    "conn.cannot_reach": N_("Cannot reach table {table}: trying again…"),
    "conn.lost": N_(
        "Connection to the table lost: reconnecting… The clock is stopped and your cards "
        "are disabled until the table is back."
    ),
    "status.offline": N_("disconnected, reconnecting…"),
    "conn.other_tab_retry": N_(
        "The place of {who} at table {table} is open in another tab or window; "
        "trying again ({n} of {of})…"
    ),
    "conn.other_tab": N_(
        "The place of {who} at table {table} is already being played in another tab or "
        "window, so this page was refused. Close the other one and reload this page, or "
        "pick another table."
    ),
    "conn.not_sent": N_(
        "Not connected: your move was not sent. Play it again once the table is back."
    ),
    "conn.lost_move": N_(
        "Your last move did not reach the table before the connection dropped, so it was "
        "not played. Play it again."
    ),
    # the history of the deal
    "history.trick": N_("Trick {n}"), "history.takes": N_("{who} took it"),
    "history.laid": N_("{who} laid {card}"), "history.passed": N_("{who} passed"),
    "history.out": N_("{who} went out {place}"),
    "history.last_deal": N_("Deal {n} ({contract}), over:"),
    # the scoresheet
    "sheet.deal": N_("Deal"), "sheet.contract": N_("Contract"), "sheet.total": N_("Total"),
    "sheet.in_progress": N_("{contract} (in progress)"),
    "sheet.total_in_progress": N_("Total with deal {n} in progress"),
    "sheet.teams": N_("Teams: {a} & {b} {x} · {c} & {d} {y}"),
    "summary.title": N_("Deal {n} ({contract}): the points"),
    "summary.seat": N_("{who}: {points}"), "summary.none": N_("no points"),
    "ledger.trick": N_("trick {n}: {cards}"), "ledger.double": N_("{card} doubled by {doubler}"),
    "ledger.place": N_("went out {place}"), "ledger.other": N_("{cards}"),
    # the event log
    "event.deal": N_("Deal {n}: Kingdom {kingdom} of {who}"),
    "event.contract": N_("{who} chose {contract}"),
    "event.contract_timeout": N_("{who} ran out of time: {contract}"),
    "event.window": N_("The doubling window opens"),
    "event.window_mine": N_("The doubling window opens: you may double {cards}"),
    "event.double": N_("{who} doubled {cards}"),
    "event.timeout": N_("The doubling window timed out"),
    "event.doubles": N_("Doubles: {doubles}"), "event.no_doubles": N_("Doubles: none"),
    "event.doubled_by": N_("{card} by {who}"),
    "event.played": N_("{who} played {card}"), "event.laid": N_("{who} laid {card}"),
    "event.passed": N_("{who} passed"), "event.redeal": N_("{who} demanded a redeal"),
    "event.trick": N_("Trick {n}: {who} took it"),
    "event.trick_points": N_("Trick {n}: {who} took it: {points}"),
    "event.out": N_("{who} went out {place}"),
    "event.deal_over": N_("Deal {n} is over: {points}"),
    "event.match_over": N_("The match is over"),
    "event.nothing": N_("nothing"),
    # the score keeper (/scorekeeper): a match played with real cards
    "keeper.title": N_("Score keeper"),
    "keeper.intro": N_("Played with real cards? Report each deal; the rules score it."),
    "keeper.deal": N_("Deal {n}: Kingdom {kingdom}"), "keeper.tricks": N_("Tricks taken"),
    "keeper.taken": N_("Who took each card"), "keeper.not_taken": N_("not taken"),
    "keeper.order": N_("Finishing order"), "keeper.add": N_("Add the deal"),
    "keeper.new": N_("New match"), "keeper.over": N_("The match is over"),
    "keeper.seat": N_("Player {n}"),
    "keeper.not_doubled": N_("not doubled"), "keeper.doubled_by": N_("doubled by"),
    "keeper.led_by": N_("in a trick led by"),
    "keeper.doubled_by_card": N_("{card} doubled by"),
    "keeper.led_by_card": N_("{card} fell in a trick led by"),
    # the live region
    "announce.played": N_("{who} played {card}"), "announce.laid": N_("{who} laid {card}"),
    "announce.took": N_("{who} took the trick"), "announce.your_turn": N_("Your turn"),
    "announce.to_play": N_("{who} to play"),
}  # fmt: skip
"""Each message id of the page and its English text (the catalog's ``msgid``)."""


def page_messages(locale: str) -> dict[str, str]:
    """The page's messages in ``locale`` (a :data:`~trixcomplex.core.catalog.LOCALES`
    language, with or without a region), with ``lang`` and ``dir`` (``"rtl"`` for Arabic).

    Raises :class:`~trixcomplex.core.catalog.LocaleError` for an unknown locale; a host
    picks one first with :func:`~trixcomplex.core.catalog.best_locale`.
    """
    language = check_locale(locale)
    table = {key: translate(msgid, language) for key, msgid in PAGE_MESSAGES.items()}
    table["lang"] = language
    table["dir"] = "rtl" if is_right_to_left(language) else "ltr"
    return table


def request_locale(asked: str, accept_language: str | None = None) -> str:
    """The language a page's request is answered in: ``asked`` (its ``?locale=``, the
    language selector's choice) if it names a known one, else the browser's first known
    language (``Accept-Language``), else English; never a refusal.  The server and the
    browser's worker both read a request's language with it.

    >>> request_locale("ar-EG"), request_locale("", "fr, ar;q=0.5"), request_locale("xx", "ar")
    ('ar', 'ar', 'en')
    """
    asked = asked[:40]
    return best_locale([asked] if asked else accept_language)
