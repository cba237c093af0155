"""Tuple-backed frozen records: the engine's per-move values, each built in one call.

The engine builds a new :class:`~trixcomplex.MatchState`, and in a trick deal
a new :class:`~trixcomplex.ComplexDeal`, for every card played.  A slotted
attrs class sets its fields one descriptor call at a time (about 40 ns a
field); a ``tuple`` subclass is built by one ``tuple.__new__(cls, values)``.
A :class:`TupleRecord` subclass is such a tuple that behaves as the frozen
attrs class it stands for:

- its annotated fields, in order, are read by name (``state.phase``);
- ``attrs.fields``, ``attrs.has``, ``attrs.evolve``, ``attrs.asdict`` and
  cattrs see an attrs class with those fields (``kw_only`` and defaults as
  declared), and the class's own ``__new__`` is its constructor;
- it equals only a record of its own class with equal fields (never a plain
  tuple), hashes like one, has attrs' repr, pickles, and assigning a field
  raises attrs' ``FrozenInstanceError``;
- it is not a sequence: no ``len``, iteration, indexing, ``in``, ordering or
  concatenation (a record is a value with named fields, not a tuple to users).

>>> class Pair(TupleRecord):
...     left: int
...     right: int = 0
...     def __new__(cls, left: int, right: int = 0) -> "Pair":
...         return tuple.__new__(cls, (left, right))
>>> p = Pair(1, 2)
>>> p, p.right, p == Pair(1, 2), p == (1, 2), (1, 2) != p
(Pair(left=1, right=2), 2, True, False, True)
>>> import attrs
>>> attrs.evolve(p, right=5), [f.name for f in attrs.fields(Pair)]
(Pair(left=1, right=5), ['left', 'right'])
"""

from __future__ import annotations

import inspect
from operator import itemgetter
from typing import Any, ClassVar, NoReturn

import attrs
from attrs.exceptions import FrozenInstanceError

__all__ = ["TupleRecord"]

try:  # CPython's C descriptor for namedtuple fields (as fast as it gets); else a property
    from collections import _tuplegetter  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - other Pythons

    def _tuplegetter(index: int, doc: str) -> Any:
        return property(itemgetter(index), doc=doc)


tuple_field = _tuplegetter
"""``tuple_field(index, doc)``: a read-only descriptor reading item ``index`` of a tuple
subclass's instance (CPython's namedtuple field, in C)."""


def _rebuild(cls: type[TupleRecord], values: tuple[Any, ...]) -> TupleRecord:
    """A record of ``cls`` from its field values in order (for pickle and copy)."""
    return tuple.__new__(cls, values)


class TupleRecord(tuple[Any, ...]):
    """The base of a tuple-backed frozen record (see the module's documentation).

    A subclass declares its fields as annotations (``kw_only=True`` in the
    class line makes the attrs view keyword-only) and writes ``__new__``
    building ``tuple.__new__(cls, (field values in order))``.  Values derived
    from the fields may follow them in the tuple, read through a
    :func:`tuple_field` of the class (they compare, hash and pickle with the
    record, but are not attrs fields: ``evolve`` and cattrs rebuild them
    through ``__new__``).
    """

    __slots__ = ()
    __attrs_attrs__: ClassVar[Any]  # set for each subclass (attrs' AttrsInstance protocol)
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _field_names: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, *, kw_only: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = inspect.get_annotations(cls)
        names = tuple(n for n in own if not str(own[n]).startswith("ClassVar"))
        if cls._field_names:  # a subclass of a record: same tuple, same fields
            if names:
                raise TypeError(f"{cls.__name__}: a record's fields are declared in one class")
            return
        defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
        # attrs' own class of the same fields lends its metadata (fields, aliases,
        # defaults, types) to attrs.fields/evolve/asdict, cattrs and serialize.
        spec = attrs.frozen(kw_only=kw_only)(
            type(
                cls.__name__,
                (),
                {
                    "__annotations__": {n: own[n] for n in names},
                    "__module__": cls.__module__,
                    "__qualname__": cls.__qualname__,
                    **defaults,
                },
            )
        )
        cls.__attrs_attrs__ = spec.__attrs_attrs__  # type: ignore[attr-defined]
        cls._field_names = names
        for index, name in enumerate(names):
            setattr(cls, name, _tuplegetter(index, f"The field {name!r}."))

    # Another class's object is unequal, as under attrs; a tuple is answered here
    # (False), or Python would fall back to tuple equality of the fields.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return False if isinstance(other, tuple) else NotImplemented
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return True if isinstance(other, tuple) else NotImplemented
        return tuple.__ne__(self, other)

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        values = tuple.__iter__(self)  # the fields come first; derived items may follow
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(self._field_names, values, strict=False))
        name = self.__class__.__qualname__.rsplit(">.", 1)[-1]  # as attrs names it
        return f"{name}({shown})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_rebuild, (self.__class__, tuple(tuple.__iter__(self))))

    def __bool__(self) -> bool:
        return True

    def _not_a_sequence(self, *_: object) -> NoReturn:
        raise TypeError(f"a {self.__class__.__name__} is a record, not a sequence")

    __len__ = __iter__ = __getitem__ = __contains__ = _not_a_sequence

    def _no_operator(self, _other: object) -> Any:
        return NotImplemented

    __lt__ = __le__ = __gt__ = __ge__ = _no_operator
    __add__ = __mul__ = __rmul__ = _no_operator
