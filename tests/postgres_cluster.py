"""A throwaway PostgreSQL server for the tests: Debian's installed binaries, one per
test session (per xdist worker), a new database per test that asks for one.

PostgreSQL refuses to run as root (``initdb: cannot be run as root``), so as
root the cluster runs as the unprivileged ``postgres`` system user (util-linux
``runuser``), in a directory of its own under the system's temporary directory
(the tests' own directories are root's, closed to other users).  It listens
on a Unix socket in that directory only (no TCP port: two sessions side by
side never meet), with trust authentication for local connections, and is
stopped (``pg_ctl stop -m immediate``) and deleted at the end.  Durability is
off (``fsync=off``): the tests check what the server does, not the disk.

Outside CI a machine without the ``postgresql-15`` package skips the tests
that need it, naming the package; in CI they fail (:mod:`system_packages`).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from system_packages import require

BIN = Path("/usr/lib/postgresql/15/bin")
PACKAGE = "postgresql-15"


class Cluster:
    """A running PostgreSQL server of the tests; :meth:`database` makes a new database."""

    def __init__(self, *, durable: bool = False) -> None:
        self.initdb = require(PACKAGE, str(BIN / "initdb"))
        self.pg_ctl = require(PACKAGE, str(BIN / "pg_ctl"))
        self.dir = Path(tempfile.mkdtemp(prefix="trixcomplex-pg-"))
        self.data = self.dir / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root: as its own system user
            runuser = require("util-linux", "runuser")
            self._as = [runuser, "-u", "postgres", "--"]
            shutil.chown(self.dir, "postgres", "postgres")
        self._names = itertools.count()
        self._run([self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust",
                   "-E", "UTF8", "--no-sync"])  # fmt: skip
        options = f"-k {self.dir} -c listen_addresses='' -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run([self.pg_ctl, "-D", str(self.data), "-l", str(self.dir / "log"), "-w",
                   "-t", "60", "-o", options, "start"])  # fmt: skip

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(
            [*self._as, *command], capture_output=True, text=True, timeout=120, cwd=self.dir
        )
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed: {done.stderr or done.stdout}")

    def url(self, name: str = "postgres") -> str:
        """The URL of database ``name`` of this server (over its Unix socket)."""
        return f"postgresql://postgres@/{name}?host={self.dir}"

    def database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once and delete its files."""
        try:
            self._run([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"])
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def execute(db: str, sql: str, params: tuple[object, ...] = ()) -> None:
    """Run one statement (``?`` placeholders) on the database ``db`` directly, as
    someone tampering with it would: a SQLite file's path or a PostgreSQL URL."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
    else:
        import sqlite3

        with sqlite3.connect(db) as con:
            con.execute(sql, params)
        con.close()
