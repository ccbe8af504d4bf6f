"""Where a client connection goes when the application names a client channel definition table (CCDT) rather than a
channel: the JSON CCDT's client-connection channels for the queue manager asked for, each with the host(port)
addresses to try in order (clause emulator.ccdt).

IBM's client takes the channel from, in order: an MQCD the application gives, the CCDT URL of its MQCNO, the
MQSERVER variable, then a CCDT named by MQCCDTURL or by MQCHLLIB and MQCHLTAB ("Web addressable access to the client
channel definition table"; "Creating a client-connection channel on the IBM MQ MQI client using MQSERVER"). A JSON
CCDT lists channels ("channel": [{"name", "type": "clientConnection", "clientConnection": {"connection": [{"host",
"port"}], "queueManager"}}]); a queue-manager name starting with ``*`` names a group: the channel's queueManager
must match the rest, and the application accepts whichever queue manager answers.

Only local JSON files are read (a path, or a ``file://`` URL; a regular file, opened without blocking so that a
FIFO is refused at once), at most :data:`MAX_BYTES` bytes nested at most
:data:`MAX_DEPTH` deep with at most :data:`MAX_CHANNELS` channels: a binary CCDT, an ftp or http URL, a missing
file are MQRC_CCDT_URL_ERROR (2600), a file that is not such a JSON CCDT MQRC_CHANNEL_CONFIG_ERROR (2539), and no
channel for the queue manager MQRC_Q_MGR_NAME_ERROR (2058), each with the reason in the emulator's log.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote, urlparse

LOG = logging.getLogger("mq_conformance.emulator")
MAX_BYTES = 1024 * 1024
MAX_DEPTH = 32
MAX_CHANNELS = 1000
MQRC_Q_MGR_NAME_ERROR = 2058
MQRC_CHANNEL_CONFIG_ERROR = 2539
MQRC_CCDT_URL_ERROR = 2600
DEFAULT_TABLE = "AMQCLCHL.TAB"


class CcdtError(Exception):
    """A CCDT that cannot be used: the reason code a client would get."""

    def __init__(self, reason: int, message: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Route:
    """One client-connection channel of a CCDT: its name and the addresses to try in order."""

    channel: str
    addresses: tuple[str, ...]


def location(environment: Mapping[str, str]) -> str | None:
    """The CCDT the environment names: MQCCDTURL, else MQCHLLIB with MQCHLTAB (default AMQCLCHL.TAB)."""
    url = environment.get("MQCCDTURL", "").strip()
    if url:
        return url
    folder = environment.get("MQCHLLIB", "").strip()
    table = environment.get("MQCHLTAB", "").strip()
    if not folder and not table:
        return None
    name = table or DEFAULT_TABLE
    if folder.startswith(("file:", "ftp:", "http:", "https:")):
        return folder.rstrip("/") + "/" + name
    return os.path.join(folder or ".", name)


def read(url: str) -> bytes:
    """The bytes of a local CCDT (a path or a file:// URL), at most MAX_BYTES."""
    parsed = urlparse(url)
    if parsed.scheme and len(parsed.scheme) > 1 and parsed.scheme != "file":
        raise CcdtError(MQRC_CCDT_URL_ERROR, f"the CCDT {url!r}: only local files are read, not {parsed.scheme} URLs")
    path = unquote(parsed.path) if parsed.scheme == "file" else url
    try:
        # without blocking, and its type checked on the open descriptor: a FIFO named as the CCDT must not hang the
        # connect (a plain open waits for a writer forever), nor /dev/zero be read
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise CcdtError(MQRC_CCDT_URL_ERROR, f"the CCDT {url!r} cannot be read: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CcdtError(MQRC_CCDT_URL_ERROR, f"the CCDT {url!r} is not a regular file (a FIFO, a device, a "
                                                 "socket or a folder); only a regular file is read")
        data = _read_at_most(fd, MAX_BYTES + 1)
    except OSError as exc:
        raise CcdtError(MQRC_CCDT_URL_ERROR, f"the CCDT {url!r} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise CcdtError(MQRC_CHANNEL_CONFIG_ERROR, f"the CCDT {url!r} is larger than {MAX_BYTES} bytes")
    return data


def _read_at_most(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes of an open file, counted while reading (never trusted from its size)."""
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, limit - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _scan(text: str) -> tuple[int, str]:
    """How deeply the JSON text nests arrays and objects (outside strings), and the text without the trailing
    commas IBM's own JSON CCDT examples leave before a closing bracket (``...},\n]``): strict JSON refuses them, and
    libmqm's reader (emulator/libmqm) skips them, so both read a table alike."""
    deepest = depth = 0
    in_string = escaped = False
    drop = []  # indices of trailing commas
    last_comma = -1  # the last comma after a value, outside strings, with only white space after it
    previous = ""  # the last character outside strings that is not white space
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char in " \t\r\n":
            continue
        if char in "]}":
            depth -= 1
            if last_comma >= 0:
                drop.append(last_comma)
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == '"':
            in_string = True
        last_comma = index if char == "," and previous not in "[{," else -1
        previous = char
    if not drop:
        return deepest, text
    chars = list(text)
    for index in drop:
        chars[index] = " "
    return deepest, "".join(chars)


def routes(data: bytes, url: str, qmgr: str) -> list[Route]:
    """The client-connection channels of a JSON CCDT for the queue manager ``qmgr`` (``*name``: a group), in
    the table's order."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CcdtError(MQRC_CCDT_URL_ERROR, f"the CCDT {url!r} is not a JSON CCDT (a binary CCDT is not read "
                                             "by the emulator)") from None
    depth, text = _scan(text)
    if depth > MAX_DEPTH:
        raise CcdtError(MQRC_CHANNEL_CONFIG_ERROR, f"the CCDT {url!r} nests deeper than {MAX_DEPTH}")
    try:
        table = json.loads(text)
    except ValueError as exc:
        raise CcdtError(MQRC_CHANNEL_CONFIG_ERROR, f"the CCDT {url!r} is not JSON: {exc}") from None
    channels = table.get("channel") if isinstance(table, dict) else None
    if not isinstance(channels, list) or len(channels) > MAX_CHANNELS:
        raise CcdtError(MQRC_CHANNEL_CONFIG_ERROR, f"the CCDT {url!r} has no list 'channel' of at most "
                                                   f"{MAX_CHANNELS} channels")
    wanted = qmgr.strip().lstrip("*")
    found = []
    for entry in channels:
        if not isinstance(entry, dict) or entry.get("type", "clientConnection") != "clientConnection":
            continue
        client = entry.get("clientConnection")
        if not isinstance(client, dict) or not isinstance(entry.get("name"), str):
            raise CcdtError(MQRC_CHANNEL_CONFIG_ERROR, f"the CCDT {url!r}: a channel needs a name and a "
                                                       "clientConnection")
        owner = client.get("queueManager", "")
        if wanted and owner != wanted:
            continue
        addresses = []
        for connection in client.get("connection") or ():
            if not isinstance(connection, dict) or not isinstance(connection.get("host"), str):
                raise CcdtError(MQRC_CHANNEL_CONFIG_ERROR, f"the CCDT {url!r}: a connection needs a host")
            port = connection.get("port", 1414)
            if not isinstance(port, int) or not 0 < port < 65536:
                raise CcdtError(MQRC_CHANNEL_CONFIG_ERROR, f"the CCDT {url!r}: port {port!r} is no TCP port")
            addresses.append(f"{connection['host']}({port})")
        if addresses:
            found.append(Route(entry["name"], tuple(addresses)))
    if not found:
        raise CcdtError(MQRC_Q_MGR_NAME_ERROR, f"the CCDT {url!r} has no client-connection channel for queue "
                                               f"manager {qmgr.strip() or '(the default)'!r}")
    return found


def resolve(url: str, qmgr: str) -> list[Route]:
    """The routes of the CCDT at ``url`` for ``qmgr``; :class:`CcdtError` (logged) when there are none."""
    try:
        return routes(read(url), url, qmgr)
    except CcdtError as exc:
        LOG.warning("MQRC %d: %s", exc.reason, exc)
        raise
