"""The words a player reads, in English and Arabic: the one message catalog.

Every function that writes text for a person (:func:`~trixcomplex.why_illegal`,
the ledger's :meth:`~trixcomplex.LedgerEntry.describe`, the scoresheet, the
text and SVG pictures) takes ``locale=`` and reads its words from here.
English is the default and is the source text itself (each message's
``msgid``); the other languages are GNU gettext catalogs in
``trixcomplex/locale/<lang>/LC_MESSAGES/trixcomplex.mo``, read with the
standard library's :mod:`gettext` (no package is needed to read them;
Babel only manages them: "Translations" on the Contributing page).  Machine
data never changes with the language: error codes, clause IDs, card codes
and JSON stay as they are.

>>> translate("Queens", "ar")
'البنات'
>>> translate("it is seat {turn}'s turn, not seat {seat}'s", "ar", turn=2, seat=0)
'الدور للمقعد 2، لا للمقعد 0'
>>> translate("Queens")
'Queens'

A locale is a language code (``"ar"``), optionally with a region as browsers
send it (``"ar-SA"``, ``"ar_EG"``, ``"en-GB"``).  An unknown one raises
:class:`LocaleError` (a ``ValueError``, code ``locale.unknown``) naming the
known ones, rather than answering silently in English: a typo shows at once.
A host serving browsers picks a known locale with :func:`best_locale`, which
falls back to English.

>>> try:
...     translate("Queens", "fr")
... except LocaleError as exc:
...     print(exc.code, "-", exc)
locale.unknown - unknown locale 'fr': use one of en, ar
>>> best_locale("fr-FR, ar;q=0.8, en;q=0.5"), best_locale("de")
('ar', 'en')
"""

from __future__ import annotations

import enum
import functools
import gettext
from collections.abc import Iterable
from pathlib import Path

from .errors import TrixError

__all__ = [
    "CLAUSE_TITLES",
    "CONTRACT_NAMES",
    "DEFAULT_LOCALE",
    "DOMAIN",
    "LOCALES",
    "LOCALE_DIR",
    "N_",
    "PHASE_NAMES",
    "RIGHT_TO_LEFT",
    "LocaleError",
    "best_locale",
    "check_locale",
    "clause_title",
    "contract_words",
    "is_right_to_left",
    "phase_words",
    "signed",
    "translate",
]

DOMAIN = "trixcomplex"
"""The gettext domain: the catalogs are ``<lang>/LC_MESSAGES/trixcomplex.mo``."""

LOCALES = ("en", "ar")
"""The languages the player-facing text is written in (English first, the default)."""

DEFAULT_LOCALE = "en"
"""English: the source text, and every ``locale=``'s default."""

RIGHT_TO_LEFT = frozenset({"ar"})
"""The locales written right to left (a page lays out ``dir="rtl"`` for them)."""

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
"""Where the compiled catalogs are (package data of the wheel)."""


class LocaleError(TrixError):
    """A ``locale=`` that names no language of :data:`LOCALES` (code ``locale.unknown``)."""

    code = "locale.unknown"


def N_(msgid: str) -> str:
    """Mark ``msgid`` as a message to translate later, and return it unchanged.

    Tables of messages (a phase's words, a clause's title) are written with it,
    so ``pybabel extract`` finds them; :func:`translate` translates them when
    they are shown.
    """
    return msgid


def check_locale(locale: str) -> str:
    """The language of :data:`LOCALES` that ``locale`` names (``"ar-SA"`` -> ``"ar"``);
    :class:`LocaleError` if none.

    >>> check_locale("ar_EG"), check_locale("EN")
    ('ar', 'en')
    """
    if isinstance(locale, str):
        language = locale.replace("_", "-").partition("-")[0].strip().lower()
        if language in LOCALES:
            return language
    raise LocaleError(f"unknown locale {locale!r:.40}: use one of {', '.join(LOCALES)}")


def is_right_to_left(locale: str) -> bool:
    """Whether ``locale`` is written right to left (Arabic).

    >>> is_right_to_left("ar"), is_right_to_left("en")
    (True, False)
    """
    return check_locale(locale) in RIGHT_TO_LEFT


def best_locale(preferences: str | Iterable[str] | None) -> str:
    """The first known language of ``preferences``, else English.

    ``preferences`` is an HTTP ``Accept-Language`` value (``"ar-SA,ar;q=0.9,en;q=0.8"``,
    read by its ``q`` weights) or languages in order of preference; unknown
    ones are skipped, so a browser's language never raises.

    >>> best_locale(["fr", "ar-EG"]), best_locale(None)
    ('ar', 'en')
    """
    if preferences is None:
        return DEFAULT_LOCALE
    if isinstance(preferences, str):
        weighted = []
        for i, item in enumerate(preferences.split(",")):
            tag, _, params = item.partition(";")
            q = 1.0
            if params.strip().startswith("q="):
                try:
                    q = float(params.strip()[2:])
                except ValueError:
                    q = 0.0
            weighted.append((-q, i, tag.strip()))
        preferences = [tag for _, _, tag in sorted(weighted)]
    for tag in preferences:
        try:
            return check_locale(tag)
        except LocaleError:
            continue
    return DEFAULT_LOCALE


@functools.cache
def _catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (read once)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])


def translate(msgid: str, locale: str = DEFAULT_LOCALE, /, **params: object) -> str:
    """``msgid`` (the English text) in ``locale``, its ``{name}`` fields filled from ``params``.

    The one lookup every renderer makes.  A message missing from a catalog
    would come back in English; the tests check that every message has its
    translation (``tests/test_catalog.py``).

    >>> translate("seat {seat}", "ar", seat=3)
    'المقعد 3'
    """
    language = check_locale(locale)
    text = msgid if language == DEFAULT_LOCALE else _catalog(language).gettext(msgid)
    return text.format(**params) if params else text


def signed(points: int, locale: str = DEFAULT_LOCALE) -> str:
    """Points with their sign (``+75``, ``-150``); in a right-to-left language behind a
    left-to-right mark, so that the sign stays on the number's left.

    >>> signed(75), signed(-150, "ar")
    ('+75', '\u200e-150')
    """
    text = f"{points:+d}"
    return text if check_locale(locale) not in RIGHT_TO_LEFT else "\u200e" + text


# -- the game's words -------------------------------------------------------------

CONTRACT_NAMES: dict[str, str] = {
    "COMPLEX": N_("COMPLEX"),
    "TRIX": N_("TRIX"),
    "KING_OF_HEARTS": N_("King of Hearts"),
    "QUEENS": N_("Queens"),
    "DIAMONDS": N_("Diamonds"),
    "LTOOSH": N_("Ltoosh"),
}
"""Each single contract's name as players say it, by the contract's value (R-MATCH-1,
R-CL-1); a combined deal joins its parts' names with ``+`` (R-OPT-9)."""

PHASE_NAMES: dict[str, str] = {
    "DEAL": N_("waiting for the deal"),
    "CHOOSE": N_("choosing the contract"),
    "DOUBLE": N_("doubling"),
    "COMPLEX": N_("COMPLEX"),
    "TRICKS": N_("tricks"),
    "TRIX": N_("TRIX"),
    "OVER": N_("match over"),
}
"""What the table is doing in each phase, by the phase's value (a lobby's words)."""

CLAUSE_TITLES: dict[str, str] = {
    "R-SEAT-1": N_("Four seats; play runs counter-clockwise"),
    "R-SEAT-2": N_("Partners sit opposite"),
    "R-CARD-1": N_("One deck of 52 cards"),
    "R-CARD-2": N_("How a card is written"),
    "R-MATCH-1": N_("Four Kingdoms of two contracts"),
    "R-MATCH-2": N_("A fresh shuffle for every deal"),
    "R-MATCH-3": N_("The holder of 7♥ owns the first Kingdom"),
    "R-MATCH-4": N_("Each Kingdom passes to the next seat"),
    "R-MATCH-5": N_("The Kingdom owner chooses the contract"),
    "R-MATCH-6": N_("A timeout while choosing"),
    "R-MATCH-7": N_("Scores and Team Totals"),
    "R-MATCH-8": N_("The end of the match and its winner"),
    "R-CX-1": N_("The Kingdom owner leads the first trick"),
    "R-CX-2": N_("Following suit"),
    "R-CX-3": N_("The highest card of the led suit takes the trick"),
    "R-CX-4": N_("All 13 tricks are played"),
    "R-CX-5": N_("What a trick costs in COMPLEX"),
    "R-CX-6": N_("A COMPLEX deal sums to −500"),
    "R-DBL-1": N_("Which cards may be doubled"),
    "R-DBL-2": N_("The doubling window"),
    "R-DBL-3": N_("Doubles are revealed together"),
    "R-DBL-4": N_("The three cases of a doubled card"),
    "R-DBL-5": N_("Doubling keeps the trick's charges"),
    "R-TX-1": N_("The Kingdom owner lays first in TRIX"),
    "R-TX-2": N_("The TRIX rows grow from the Jacks"),
    "R-TX-3": N_("Passing in TRIX"),
    "R-TX-4": N_("The finishing places in TRIX"),
    "R-TX-5": N_("A forced move"),
    "R-SUM-1": N_("A Kingdom sums to zero"),
    "R-HID-1": N_("A seat sees its own hand and the public table"),
    "R-HID-2": N_("The doubling window is hidden"),
    "R-HID-3": N_("Future decks are hidden"),
    "R-SET-1": N_("Rulesets"),
    "R-SET-2": N_("Every contract once in each Kingdom"),
    "R-IND-1": N_("Individual Trix Complex"),
    "R-CL-1": N_("Classic Trix"),
    "R-CL-2": N_("King of Hearts"),
    "R-CL-3": N_("Queens"),
    "R-CL-4": N_("Diamonds"),
    "R-CL-5": N_("Ltoosh"),
    "R-CL-6": N_("TRIX in classic Trix"),
    "R-CL-7": N_("Doubling in classic Trix"),
    "R-CL-8": N_("What each classic contract sums to"),
    "R-CLP-1": N_("Classic Trix for partners"),
    "R-OPT-1": N_("Option: no doubling"),
    "R-OPT-2": N_("Option: penalty cards first"),
    "R-OPT-3": N_("Option: swapped scores"),
    "R-OPT-4": N_("Option: free heart leads"),
    "R-OPT-5": N_("Option: a fixed order of contracts"),
    "R-OPT-6": N_("Option: reversed scores"),
    "R-OPT-7": N_("Option: 2s shown in TRIX"),
    "R-OPT-8": N_("Option: a redeal for a bad hand"),
    "R-OPT-9": N_("Option: combined contracts"),
    "R-OPT-10": N_("Option: the worst seat's team loses"),
}
"""A short title for each clause of the rules (docs/rules.rst), by its ID."""


def contract_words(contract: str | enum.Enum, locale: str = DEFAULT_LOCALE) -> str:
    """A contract's name as players say it, from the contract or its value; a combined
    deal's parts joined by ``+`` (R-OPT-9).

    >>> contract_words("KING_OF_HEARTS", "ar"), contract_words("QUEENS+DIAMONDS")
    ('شايب الكوبة', 'Queens + Diamonds')
    """
    value = contract.value if isinstance(contract, enum.Enum) else contract
    return " + ".join(translate(CONTRACT_NAMES[part], locale) for part in str(value).split("+"))


def phase_words(phase: str | enum.Enum, locale: str = DEFAULT_LOCALE) -> str:
    """What the table is doing in ``phase`` (a :class:`~trixcomplex.Phase` or its value).

    >>> phase_words("CHOOSE"), phase_words("DOUBLE", "ar")
    ('choosing the contract', 'المضاعفة')
    """
    value = phase.value if isinstance(phase, enum.Enum) else phase
    return translate(PHASE_NAMES[str(value)], locale)


def clause_title(clause: str, locale: str = DEFAULT_LOCALE) -> str:
    """The short title of the rules clause ``clause`` (``"R-CX-2"``).

    >>> clause_title("R-CX-2"), clause_title("R-CX-2", "ar")
    ('Following suit', 'اتباع اللون')
    """
    return translate(CLAUSE_TITLES[clause], locale)
