"""``python -m trixcomplex.cli``: the same as the ``trixcomplex`` command."""

from __future__ import annotations

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
