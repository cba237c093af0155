"""``python -m trixcomplex``: the same as the ``trixcomplex`` command."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
