"""The modules split into one module per job keep their public face (issue 27): every name
the old module exported still imports from it, as the very object the new module defines.

The public API is a contract: ``from trixcomplex.io.render import table_svg`` and
``from trixcomplex.host.tournament import wilson_interval`` must keep working.
"""

from __future__ import annotations

import importlib

import pytest

# The names each module exported before the split (its ``__all__`` and the extra names
# other code imports from it).
OLD_NAMES = {
    "trixcomplex.io.render": [
        "CardsLike", "Picture", "hand_picture", "hand_svg", "hand_text", "move_text",
        "picture", "rows_picture", "rows_svg", "rows_text", "table_svg", "table_text",
        "trick_picture", "trick_svg", "trick_text", "escape", "quoteattr",
    ],
    "trixcomplex.host.tournament": [
        "MatchOutcome", "Summary", "Tournament", "match_generators", "next_move",
        "play_match", "play_numbered_match", "seed_commitment", "simulate", "summarize",
        "wilson_interval", "mean_interval", "Z95",
    ],
}  # fmt: skip

# Where each moved name now lives.
HOMES = {
    "trixcomplex.io.render.text": ["hand_text", "move_text", "rows_text", "table_text",
                                   "trick_text"],
    "trixcomplex.io.render.svg": ["hand_svg", "rows_svg", "table_svg", "trick_svg", "escape",
                                  "quoteattr"],
    "trixcomplex.host.decks": ["match_generators", "seed_commitment"],
    "trixcomplex.host.matches": ["MatchOutcome", "play_numbered_match"],
    "trixcomplex.host.stats": ["Z95", "Summary", "mean_interval", "summarize", "wilson_interval"],
}  # fmt: skip


@pytest.mark.parametrize("face", sorted(OLD_NAMES))
def test_every_old_name_still_imports_from_the_old_module(face: str) -> None:
    module = importlib.import_module(face)
    missing = [name for name in OLD_NAMES[face] if not hasattr(module, name)]
    assert not missing, f"{face} lost {missing}"
    listed = set(OLD_NAMES[face]) - {"escape", "quoteattr", "mean_interval", "Z95"}
    assert listed <= set(module.__all__), sorted(listed - set(module.__all__))


@pytest.mark.parametrize("home", sorted(HOMES))
def test_a_moved_name_is_the_very_object_of_its_new_module(home: str) -> None:
    face = home.rpartition(".")[0] if home.startswith("trixcomplex.io") else None
    face = face or "trixcomplex.host.tournament"
    new, old = importlib.import_module(home), importlib.import_module(face)
    for name in HOMES[home]:
        assert getattr(old, name) is getattr(new, name), f"{face}.{name}"
