"""A conformance suite for other engines of the game (see "Auditing the rules").

- :mod:`~trixcomplex.conformance.refusals`: the moves a state must refuse, with clauses;
- :mod:`~trixcomplex.conformance.cases`: the versioned cases, written as JSON lines;
- :mod:`~trixcomplex.conformance.protocol`: the line-JSON protocol an engine speaks;
- :mod:`~trixcomplex.conformance.engine`: this library's engine behind the protocol;
- :mod:`~trixcomplex.conformance.check`: drive an engine over the cases, report every
  disagreement with its clause and a reproduction.

Nothing here needs Hypothesis.
"""

from .refusals import Refusal, candidate_moves, refusal_of, refusals

__all__ = ["Refusal", "candidate_moves", "refusal_of", "refusals"]
