"""The rules and the state: cards, moves, rulesets, the deals, the match and the engine face.

The lowest package of the layers (docs/engine.rst, "Layers"): it imports
nothing else of trixcomplex.  Everything above reaches the rules through
:mod:`trixcomplex.core.engine` (the engine face) and
:mod:`trixcomplex.core.rules` (each rule by name).
"""
