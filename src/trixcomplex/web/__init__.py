"""The rules in the browser: the same engine under Pyodide, with no server.

- :mod:`~trixcomplex.web.local`: the lobby and tables a page plays in its own
  Web Worker, speaking the server's messages (the same schemas);
- :mod:`~trixcomplex.web.calls`: the engine's calls for JavaScript frontends
  (legal moves, apply, view, score, replay, why_illegal), JSON text in and out;
- :mod:`~trixcomplex.web.build`: ``trixcomplex web build OUT``, the static
  folder any web host serves (see :doc:`/web`).

Beside :mod:`trixcomplex.server` in the layers: it needs no extra (the build
runs ``pip`` and reads an installed copy of the npm package ``pyodide``).
"""
