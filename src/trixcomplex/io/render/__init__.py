"""Pictures of the table: plain text for terminals and SVG for browsers and notebooks.

Two levels:

- :func:`picture` draws the whole table as one seat sees it, from a
  :class:`~trixcomplex.knowledge.views.View` (so it can never show a hidden card: it
  never sees one, R-HID-1).  The result is a :class:`Picture`: ``str()``
  gives the text form, and Jupyter shows the SVG inline.
- :func:`hand_picture`, :func:`trick_picture` and :func:`rows_picture` draw
  plain cards; their strings are :func:`hand_text` / :func:`hand_svg`,
  :func:`trick_text` / :func:`trick_svg` and :func:`rows_text` /
  :func:`rows_svg`.

Cards may be given as :class:`~trixcomplex.Card` objects, card codes
(``"QH"``, ``"10♦"``), one string of codes separated by spaces, or a card
set (a 52-bit int).  Every SVG is a self-contained, well-formed XML
document: the suit signs are drawn as paths (no fonts or images are
fetched), ♥ and ♦ in red, ♠ and ♣ in black.

The package keeps one job per module: :mod:`~trixcomplex.io.render.text`
writes the text forms, :mod:`~trixcomplex.io.render.svg` draws the SVG
documents, and :mod:`~trixcomplex.io.render.layout` holds what both share
(reading the cards asked for, the words for a view's table, and
:func:`position`, where each seat sits: the one layout decision the pictures
and the server's page share).  Every name
is imported from here.

>>> print(hand_text("AS 7S QH TH 2H JC"))
♠ A 7
♥ Q 10 2
♦ -
♣ J
>>> print(trick_text(["7H", "KH", "2H", "5S"], leader=2))
seat 2  7♥  leads
seat 3  K♥  takes
seat 0  2♥
seat 1  5♠
>>> pic = rows_picture("JS TS 9S QS JH")
>>> print(pic)
♠ 9 10 J Q
♥ J
♦ -
♣ -
>>> pic.svg.startswith("<svg")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from attrs import field, frozen

from ...core.catalog import DEFAULT_LOCALE
from .layout import PLACES, position
from .layout import CardsLike as _CardsLike
from .svg import escape as escape
from .svg import hand_svg, rows_svg, table_svg, trick_svg
from .svg import quoteattr as quoteattr
from .text import hand_text, move_text, rows_text, table_text, trick_text

if TYPE_CHECKING:
    from ...knowledge.views import View

__all__ = [
    "PLACES",
    "CardsLike",
    "Picture",
    "hand_picture",
    "hand_svg",
    "hand_text",
    "move_text",
    "picture",
    "position",
    "rows_picture",
    "rows_svg",
    "rows_text",
    "table_svg",
    "table_text",
    "trick_picture",
    "trick_svg",
    "trick_text",
]

CardsLike: TypeAlias = _CardsLike
"""Cards to draw: a card set (52-bit int), ``"AS KH 10♦"``, or an iterable of cards or codes."""


@frozen(repr=False)
class Picture:
    """A drawing in two forms: ``svg`` (an SVG document) and ``text`` (for terminals).

    ``str(picture)`` is the text form; in Jupyter the SVG is shown inline
    (``_repr_svg_``).  Save it with ``Path("table.svg").write_text(picture.svg)``.
    """

    svg: str = field()
    text: str = field()

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        first = self.text.partition("\n")[0]
        return f"<Picture {first!r}…>" if "\n" in self.text else f"<Picture {first!r}>"


def hand_picture(
    cards: CardsLike, *, highlight: CardsLike = (), locale: str = DEFAULT_LOCALE
) -> Picture:
    """A :class:`Picture` of a hand (see :func:`hand_text` and :func:`hand_svg`)."""
    return Picture(hand_svg(cards, highlight=highlight, locale=locale), hand_text(cards))


def trick_picture(
    cards: CardsLike, leader: int, *, bottom: int = 0, locale: str = DEFAULT_LOCALE
) -> Picture:
    """A :class:`Picture` of a trick (see :func:`trick_text` and :func:`trick_svg`)."""
    return Picture(
        trick_svg(cards, leader, bottom=bottom, locale=locale),
        trick_text(cards, leader, locale=locale),
    )


def rows_picture(table: CardsLike, *, locale: str = DEFAULT_LOCALE) -> Picture:
    """A :class:`Picture` of the TRIX rows (see :func:`rows_text` and :func:`rows_svg`)."""
    return Picture(rows_svg(table, locale=locale), rows_text(table))


def picture(view: View, *, locale: str = DEFAULT_LOCALE) -> Picture:
    """The whole table as ``view.seat`` sees it: a :class:`Picture` of
    :func:`table_svg` and :func:`table_text`.

    >>> import random
    >>> import trixcomplex as tc
    >>> state = tc.apply(tc.new_match(), tc.Deal.shuffled(random.Random(7)))
    >>> pic = tc.picture(tc.view(state, 1))
    >>> print(str(pic).splitlines()[1])
    seat 1's view · seat 0 chooses the contract

    ``locale`` is the language of the words (``"en"``, the default, or ``"ar"``).
    """
    return Picture(table_svg(view, locale=locale), table_text(view, locale=locale))
