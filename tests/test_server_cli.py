"""``trixcomplex serve``: an optional extra, one clear line for every bad start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from server_harness import SRC

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=ENV, timeout=60
    )


def test_import_trixcomplex_needs_no_server_package() -> None:
    """The library imports attrs and cattrs only; the server is loaded on demand."""
    done = _python(
        "import sys, trixcomplex, trixcomplex.cli\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'starlette', 'uvicorn', 'websockets', 'trixcomplex.server'}))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert "trixcomplex.server" not in done.stdout


@pytest.mark.parametrize("package", ["starlette", "uvicorn", "websockets"])
def test_serve_without_the_server_extra_says_so_in_one_line(package: str) -> None:
    done = _python(
        f"import sys; sys.modules[{package!r}] = None\n"
        "from trixcomplex.cli import main; sys.exit(main(['serve', '--port', '1']))"
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and 'pip install "trixcomplex[server]"' in lines[0]
    assert package in lines[0]


def test_serve_with_a_database_it_cannot_open_says_so_in_one_line(tmp_path: Path) -> None:
    garbage = tmp_path / "not-a-db.sqlite3"
    garbage.write_bytes(b"this is not an SQLite database, not at all" * 100)
    for db in (tmp_path / "missing" / "dir" / "x.sqlite3", garbage):
        done = _python(
            "import sys; from trixcomplex.cli import main; sys.exit(main(sys.argv[1:]))",
            "serve", "--port", "0", "--db", str(db),
        )  # fmt: skip
        assert done.returncode == 1
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and str(db) in lines[0], done.stderr


SERVE_OPTIONS = ["--allow-origin", "--max-tables", "--create-limit", "--create-window",
                 "--retention", "--idle-close", "--hello-timeout", "--bot-budget",
                 "--bot-window", "--bot-workers", "--join-limit", "--join-window",
                 "--watch-limit", "--seat-timeout", "--outbox-bytes"]  # fmt: skip


def test_serve_help_names_every_limit_and_a_bad_one_is_one_line() -> None:
    """Every quota and time of the server is a ``serve`` option, with its default
    (the hello timeout: 10 s); a bad value is refused in the usage's one error line."""
    done = _python("import sys; from trixcomplex.cli import main; main(['serve', '--help'])")
    help_text = " ".join(done.stdout.split())
    for option in SERVE_OPTIONS:
        assert option in help_text, option
    assert "is closed (default 10)" in help_text
    for bad in (["--hello-timeout", "-1"], ["--retention", "nan"], ["--max-tables", "0"]):
        done = _python(
            "import sys; from trixcomplex.cli import main; sys.exit(main(sys.argv[1:]))",
            "serve", "--port", "0", *bad,
        )  # fmt: skip
        assert done.returncode == 2
        errors = [line for line in done.stderr.splitlines() if "error:" in line]
        assert len(errors) == 1 and bad[0] in errors[0], done.stderr


def test_serve_on_an_address_it_cannot_use_says_so_in_one_line(tmp_path: Path) -> None:
    """A host that does not resolve, and a port another program holds: one line and
    exit 2, before the server (and its log) starts."""
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        for host, port_text, said in (
            ("999.1.1.1", "8000", "--host '999.1.1.1' does not resolve"),
            ("127.0.0.1", str(port), f"cannot listen on 127.0.0.1:{port}"),
        ):
            done = _python(
                "import sys; from trixcomplex.cli import main; sys.exit(main(sys.argv[1:]))",
                "serve", "--host", host, "--port", port_text, "--db", str(tmp_path / "t.db"),
            )  # fmt: skip
            assert done.returncode == 2, done.stderr
            lines = done.stderr.splitlines()
            assert len(lines) == 1 and said in lines[0], done.stderr
            assert not (tmp_path / "t.db").exists()  # refused before anything started
