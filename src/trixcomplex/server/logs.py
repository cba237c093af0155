"""The server's log format: text as uvicorn writes it, or one JSON object per line.

``trixcomplex serve --log-format json`` writes every log record of the server
(``trixcomplex.*``) and of uvicorn (``uvicorn.error``, ``uvicorn.access``) as
one JSON object on one line, for a log collector: ``time`` (UTC, ISO 8601),
``level``, ``logger``, ``message``, ``table`` where the record is about a
table, and ``exception`` (the traceback, as one string) when there is one.

The table is the record's ``table`` attribute if the call gave it
(``log.info(..., extra={"table": table_id})``); otherwise the server's own
convention: a message about a table starts with ``table %s`` and the table's
id as its first argument; and a line of uvicorn's whose path is ``/ws/{id}`` or
``/api/tables/{id}...`` (an access line, a WebSocket accepted) names its table.

>>> import logging
>>> record = logging.LogRecord("trixcomplex.server", logging.WARNING, __file__, 1,
...                            "table %s: cannot store: %s", ("ab12cd34", "disk full"), None)
>>> record.created = 1_800_000_000.25
>>> print(JsonFormatter().format(record))  # doctest: +NORMALIZE_WHITESPACE
{"time": "2027-01-15T08:00:00.250Z", "level": "WARNING", "logger": "trixcomplex.server",
 "message": "table ab12cd34: cannot store: disk full", "table": "ab12cd34"}
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

__all__ = ["LOG_FORMATS", "JsonFormatter", "log_config"]

LOG_FORMATS = ("text", "json")
"""The values of ``trixcomplex serve --log-format`` (``text``: as uvicorn writes)."""

_TABLE_PATH = re.compile(r" /(?:ws|api/tables)/([^/?\s\"]{1,40})")


def _table(record: logging.LogRecord) -> str | None:
    """The table a record is about, if it names one (see the module's text)."""
    given = getattr(record, "table", None)
    if given is not None:
        return str(given)
    args = record.args
    if isinstance(record.msg, str) and isinstance(args, tuple) and args:
        if record.msg.startswith("table %s"):
            return str(args[0])[:40]
        if record.name.startswith("uvicorn."):
            found = _TABLE_PATH.search(record.getMessage())
            return found.group(1) if found else None
    return None


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON: time, level, logger, message, table, exception."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.created * 1000) % 1000:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        table = _table(record)
        if table is not None:
            entry["table"] = table
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


def log_config(log_format: str) -> dict[str, Any] | None:
    """The :func:`logging.config.dictConfig` for uvicorn's ``log_config``: ``None``
    (uvicorn's own, as before) for ``text``; for ``json``, every record of the server
    and of uvicorn through :class:`JsonFormatter` (access lines on stdout, the rest on
    stderr, as uvicorn does).

    >>> log_config("text") is None, sorted(log_config("json")["loggers"])
    (True, ['trixcomplex', 'uvicorn', 'uvicorn.access', 'uvicorn.error'])
    """
    if log_format not in LOG_FORMATS:
        raise ValueError(f"the log format is text or json, not {log_format!r}")
    if log_format == "text":
        return None
    formatter = {"()": f"{__name__}.JsonFormatter"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": formatter},
        "handlers": {
            "default": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            },
            "access": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stdout",
            },
        },
        "loggers": {
            "trixcomplex": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        },
    }
