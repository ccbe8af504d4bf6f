"""The campaign folder on any filesystem pyarrow reaches: a local path, ``file://``, ``hdfs://``, ``s3://``.

The folder's layout is described in run.py. Every read and write goes through one :class:`Store` over a
``pyarrow.fs`` filesystem, so the driver (settings, pending partitions, aggregation, summary.json, witnesses) and
the executors (partitions and their done-markers) write the same folder wherever it lives. A partition's Parquet
file is written aside (a dot-file, which Parquet datasets skip) and then moved into place, then its marker is
written: a marker therefore always names complete rows.

A location is a local path (relative to the working directory where the campaign was started; the executors are
given it made absolute) or a URI ``pyarrow.fs.FileSystem.from_uri`` accepts, such as
``s3://bucket/campaigns?endpoint_override=host:9000&scheme=http`` (the query configures the filesystem and is kept
out of the paths). An unreachable or unsupported location is one :class:`CampaignError`, never a traceback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit


class CampaignError(Exception):
    """A campaign that cannot run as asked; the message says why and what to do."""


def require(module: str, needed_by: str) -> None:
    """A :class:`CampaignError` (one line naming the extra to install) when ``module`` - pyarrow or pyspark, the
    ``spark`` extra, which a base install leaves out - is not installed."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise CampaignError(f"{needed_by} needs {module}, which is not installed: install mq-conformance[spark] "
                            f"(pip install 'mq-conformance[spark]')")


def is_uri(location: str) -> bool:
    """Whether ``location`` is a URI (``scheme://...``) rather than a local path."""
    scheme = urlsplit(str(location)).scheme
    return "://" in str(location) and len(scheme) > 1  # "C:\\..." is a path, not a URI


def join(location: str, *parts: str) -> str:
    """``location`` (a local path or a URI, its query kept at the end) with ``parts`` appended."""
    location = str(location)
    if not parts:
        return location
    if not is_uri(location):
        return os.path.join(location, *parts)
    split = urlsplit(location)
    path = "/".join([split.path.rstrip("/"), *(p.strip("/") for p in parts)])
    return urlunsplit((split.scheme, split.netloc, path, split.query, split.fragment))


def shown(location: str) -> str:
    """``location`` as printed: a password in a URI (``s3://key:secret@bucket/...``) replaced by ``***``."""
    split = urlsplit(str(location))
    if not is_uri(str(location)) or split.password is None:
        return str(location)
    netloc = f"{split.username}:***@{split.hostname or ''}" + (f":{split.port}" if split.port else "")
    return urlunsplit(split._replace(netloc=netloc))


def filesystem(location: str):
    """The pyarrow filesystem holding ``location`` and the folder's path within it. CampaignError (one line,
    saying which location and why) when pyarrow cannot reach it."""
    require("pyarrow", f"the campaign location {shown(location)}")
    import pyarrow
    import pyarrow.fs as pafs

    location = str(location)
    if not is_uri(location):
        return pafs.LocalFileSystem(), os.path.abspath(location)
    try:
        fs, path = pafs.FileSystem.from_uri(location)
    except (pyarrow.ArrowException, OSError, ValueError) as exc:
        raise CampaignError(f"{shown(location)}: cannot reach this campaign location ({_one_line(exc)}); give a local "
                            "path or a file://, hdfs:// or s3:// URI pyarrow can reach") from None
    return fs, path.rstrip("/") or "/"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


class Store:
    """The campaign folder at ``location``: settings, stored partitions and their done-markers, and the outputs
    (summary.json, witnesses/). Built from a string alone, so an executor rebuilds it from :meth:`for_executors`."""

    def __init__(self, location):
        self.location = str(location)
        self.fs, self.root = filesystem(self.location)
        # a local folder the driver claimed (conformance/outfolder.py): its small files and deletions go through
        # it, so no link placed in the folder is written through or emptied
        self.local = None

    def __getstate__(self) -> dict[str, Any]:
        # an executor gets the folder by name: the driver's open descriptors mean nothing in another process
        return {**self.__dict__, "local": None}

    # -- names ------------------------------------------------------------------------------------------------

    @property
    def directory(self) -> str:
        """The folder as the user named it (a local path or a URI)."""
        return self.location

    def path(self, *parts: str) -> str:
        """The path of ``parts`` inside the folder, on :attr:`fs`."""
        return "/".join([self.root.rstrip("/") or "", *parts]) if parts else self.root

    def uri(self, *parts: str) -> str:
        """``parts`` inside the folder as the user would name it (a local path or a URI)."""
        return join(self.location, *parts)

    def for_executors(self) -> str:
        """The folder's location as a process with another working directory reaches it."""
        return self.location if is_uri(self.location) else self.root

    @property
    def steps(self) -> str:
        return self.path("steps")

    def partition(self, part: int) -> str:
        return self.path("steps", f"part={part}")

    # -- small files --------------------------------------------------------------------------------------------

    def _guard(self, what: str, action):
        import pyarrow

        try:
            return action()
        except (pyarrow.ArrowException, OSError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise CampaignError(f"{shown(self.uri(what) if what else self.location)}: {_one_line(exc)}") from None

    def exists(self, *parts: str) -> bool:
        import pyarrow.fs as pafs

        info = self._guard("/".join(parts), lambda: self.fs.get_file_info(self.path(*parts)))
        return info.type != pafs.FileType.NotFound

    def read_text(self, *parts: str) -> str:
        """The text of file ``parts`` (FileNotFoundError when there is none)."""
        import pyarrow.fs as pafs

        path = self.path(*parts)

        def read() -> str:
            if self.fs.get_file_info(path).type != pafs.FileType.File:
                raise FileNotFoundError(path)
            with self.fs.open_input_stream(path) as stream:
                return stream.read().decode("utf-8")

        return self._guard("/".join(parts), read)

    def _write_aside(self, parts: tuple[str, ...], write, what: str) -> None:
        """Write file ``parts`` whole: ``write(path)`` writes it aside (a dot-file, which readers and Parquet
        datasets skip), then it is moved into place, so a reader never sees half of it. ``what`` names it in an
        error."""
        path = self.path(*parts)
        folder, name = path.rsplit("/", 1)
        aside = f"{folder}/.{name}.tmp"

        def write_then_move() -> None:
            self.fs.create_dir(folder, recursive=True)
            write(aside)
            self.fs.move(aside, path)

        self._guard(what, write_then_move)

    def write_text(self, text: str, *parts: str) -> None:
        """Write file ``parts`` whole (written aside, then moved into place)."""
        if self.local is not None:
            self._guard("/".join(parts), lambda: self.local.write_text(text, *parts))
            return

        def write(path: str) -> None:
            with self.fs.open_output_stream(path) as stream:
                stream.write(text.encode("utf-8"))

        self._write_aside(parts, write, "/".join(parts))

    def delete(self, *parts: str) -> None:
        """Delete folder ``parts`` and everything in it, if it is there."""
        import pyarrow.fs as pafs

        path = self.path(*parts)
        if self.local is not None:
            self._guard("/".join(parts), lambda: self.local.remove(*parts))
            return

        def delete() -> None:
            if self.fs.get_file_info(path).type == pafs.FileType.Directory:
                self.fs.delete_dir(path)

        self._guard("/".join(parts), delete)

    def listing(self, *parts: str) -> list[str]:
        """The names of the files directly in folder ``parts`` (none when it is not there)."""
        import pyarrow.fs as pafs

        selector = pafs.FileSelector(self.path(*parts), allow_not_found=True)
        infos = self._guard("/".join(parts), lambda: self.fs.get_file_info(selector))
        return [info.base_name for info in infos]

    # -- the campaign's settings and partitions ------------------------------------------------------------------

    def prepare(self, config, identity: dict | None = None) -> None:
        """Create the folder, or check that an existing one holds the same campaign: the same settings and, when
        ``identity`` is given (conformance/identity.py: the implementation's hello and the suite), the same
        identity, else one CampaignError saying what differs. A campaign.json that cannot be read as a campaign's
        settings is one CampaignError naming it and what to do."""
        settings = self.uri("campaign.json")
        remedy = "delete that campaign folder to start it again, or give another --id or --output"
        try:
            existing = json.loads(self.read_text("campaign.json"))
        except FileNotFoundError:
            existing = None
            if self.exists("campaign.json"):
                raise CampaignError(f"{settings}: not a file; {remedy}") from None
        except UnicodeDecodeError as exc:
            raise CampaignError(f"{settings}: not text ({exc.reason}); {remedy}") from None
        except json.JSONDecodeError as exc:
            raise CampaignError(f"{settings}:{exc.lineno}: not JSON ({exc.msg}); {remedy}") from None
        if existing is not None and not isinstance(existing, dict):
            raise CampaignError(f"{settings}: not a campaign's settings (a JSON {type(existing).__name__}, not an "
                                f"object); {remedy}")
        recorded = existing.pop("identity", None) if existing is not None else None
        if existing is not None and existing != config.to_json():
            raise CampaignError(f"{shown(self.location)} holds a campaign with other settings ({existing}); give "
                                f"another --id or --output, or delete that folder")
        if existing is not None and identity is not None and recorded != identity:
            from ..identity import differences

            what = "; ".join(differences(recorded or {}, identity))
            raise CampaignError(f"{shown(self.location)} holds a campaign of another implementation or suite, not "
                                f"resumed ({what}); give another --id or --output, or delete that folder")
        self._guard("", lambda: self.fs.create_dir(self.path("steps"), recursive=True))
        self._guard("", lambda: self.fs.create_dir(self.path("done"), recursive=True))
        settings_now = config.to_json() if identity is None else {**config.to_json(), "identity": identity}
        self.write_text(json.dumps(settings_now, indent=2, sort_keys=True) + "\n", "campaign.json")

    def finished(self) -> set[int]:
        return {int(name.split("-", 1)[1]) for name in self.listing("done") if name.startswith("part-")}

    def pending(self, config) -> list[int]:
        """Partitions still to do; partial rows left by an interrupted run are deleted."""
        done = self.finished()
        todo = [p for p in range(config.parts) if p not in done]
        for part in todo:
            self.delete("steps", f"part={part}")
        return todo

    def mark(self, part: int, divergent: int) -> None:
        """Partition ``part`` is stored; its marker holds how many of its sequences diverged (for progress)."""
        self.write_text(json.dumps({"divergent": divergent}), "done", f"part-{part}")

    def divergent(self, part: int) -> int:
        """The divergent sequences a finished partition's marker records (0 for markers of older campaigns)."""
        try:
            return int(json.loads(self.read_text("done", f"part-{part}") or "{}").get("divergent", 0))
        except (OSError, ValueError, AttributeError, CampaignError):
            return 0

    def write_partition(self, part: int, table) -> None:
        """Partition ``part``'s rows (an Arrow table) as one Parquet file: written aside, then moved into place."""
        import pyarrow.parquet as pq

        self._write_aside(("steps", f"part={part}", "part-00000.parquet"),
                          lambda path: pq.write_table(table, path, filesystem=self.fs), f"steps/part={part}")

    def read_partition(self, part: int, columns: list[str], filters: list[tuple[str, str, Any]] | None = None):
        """Columns ``columns`` of partition ``part``'s stored rows (those matching ``filters``) as an Arrow table."""
        import pyarrow.parquet as pq

        return self._guard(f"steps/part={part}", lambda: pq.read_table(
            self.partition(part), columns=columns, filters=filters, filesystem=self.fs))

    def summary(self) -> Mapping[str, Any]:
        """The campaign's summary.json, parsed (FileNotFoundError when the campaign has not finished)."""
        return json.loads(self.read_text("summary.json"))
