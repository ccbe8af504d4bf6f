"""What a new queue manager has and shows beyond the model: its queue-manager attributes, the descriptive
attributes of its queues, and its default objects (fixtures/emulator/standing-objects.yaml).

The model keeps the attributes it has rules about (reference/queue.py); a real queue manager also answers MQINQ
for attributes with no behaviour the model follows (a queue's description, its trigger data and process name,
its monitoring limits; the queue manager's platform, command level, code page, dead-letter queue...). The
emulator answers those from the table, with the values a developer queue manager at the model's release shows
(clauses emulator.qmgr-attributes, emulator.queue-attributes, emulator.default-objects).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

import yaml

LOCAL, MODEL, ALIAS = "local", "model", "alias"


@dataclass(frozen=True)
class QueueAttribute:
    """A queue attribute the model keeps no rule about: its default, the queue types that have it, and whether
    MQSET may change it."""

    default: Any
    types: frozenset[str]
    settable: bool


@dataclass(frozen=True)
class Standing:
    """The table, read once: queue-manager attributes by selector name, queue attributes by selector name, and the
    default objects (``define_queue`` attributes, constant names unresolved)."""

    command_level: int
    version: str
    qmgr: dict[str, Any]
    queue: dict[str, QueueAttribute]
    objects: tuple[dict[str, Any], ...]
    developer_qmgr: dict[str, Any]  # what IBM's developer configuration changes and adds
    developer_objects: tuple[dict[str, Any], ...]
    admin: dict[str, Any]  # channels, authentication information, namelists and their defaults (pcf_objects.py)
    pcf_string_lengths: dict[str, Any]  # PCF string parameter -> the length replies pad it to (pcf.py)
    developer_topics: tuple[dict[str, Any], ...] = ()  # the developer configuration's topic objects


@lru_cache(maxsize=1)
def standing() -> Standing:
    """The emulator's table of standing objects and attributes (clauses emulator.qmgr-attributes,
    emulator.queue-attributes, emulator.default-objects)."""
    text = (files("mq_conformance.fixtures") / "emulator" / "standing-objects.yaml").read_text()
    data = yaml.safe_load(text)
    queue = {name: QueueAttribute(row["value"], frozenset(row["types"]), bool(row["settable"]))
             for name, row in data["queue"].items()}
    developer = data.get("developer") or {}
    return Standing(int(data["release"]["command_level"]), str(data["release"]["version"]), dict(data["qmgr"]),
                    queue, tuple(dict(row) for row in data["objects"]), dict(developer.get("qmgr") or {}),
                    tuple(dict(row) for row in developer.get("objects") or ()),
                    {key: data[key] for key in ("channels", "channel_defaults", "auth_info", "auth_info_defaults",
                                                "namelists", "namelist_defaults") if key in data}
                    | {"developer": {key: developer[key] for key in ("channels", "auth_info") if key in developer}},
                    dict(data.get("pcf_string_lengths") or {}),
                    tuple(dict(row) for row in developer.get("topics") or ()))


def constant(name: str) -> int | None:
    """The value of an MQ constant by name, from IBM's CMQC, CMQCFC or CMQXC."""
    from .emulator import ibm

    package = ibm()
    for module in (package.CMQC, package.CMQCFC, package.CMQXC):
        value = getattr(module, name, None)
        if isinstance(value, int):
            return value
    return None


def stamp(put_date: str, put_time: str) -> tuple[str, str]:
    """A creation date and time as MQINQ shows them (``YYYY-MM-DD``, ``HH.MM.SS``) from PutDate/PutTime form."""
    return f"{put_date[:4]}-{put_date[4:6]}-{put_date[6:8]}", f"{put_time[:2]}.{put_time[2:4]}.{put_time[4:6]}"


def wall_stamp() -> tuple[str, str]:
    """The wall clock's date and time in MQINQ's creation format."""
    now = _dt.datetime.now(_dt.timezone.utc)
    return now.strftime("%Y-%m-%d"), now.strftime("%H.%M.%S")


def resolve(value: Any, names: dict[str, Any]) -> Any:
    """A table value made concrete: a constant name becomes its number, ``{name}`` placeholders are filled."""
    if isinstance(value, str):
        if value.startswith("MQ") and value.replace("_", "").isalnum():
            number = constant(value)
            if number is not None:
                return number
        if "{" in value:
            for key, filled in names.items():
                value = value.replace("{" + key + "}", str(filled))
    return value


def qmgr_attribute(selector: str, names: dict[str, Any], model_values: dict[str, Any],
                   changed: dict[str, Any] | None = None) -> Any:
    """The value MQINQ returns for the queue-manager selector ``selector`` (None when the queue manager has no
    such attribute: MQRC_SELECTOR_ERROR); ``changed`` holds values changed since creation. ``model_values``
    answers the ``{model:...}`` entries (the model's own queue-manager attributes).
    Clause: emulator.qmgr-attributes."""
    table = standing().qmgr
    if selector not in table:
        return None
    raw = changed[selector] if changed and selector in changed else table[selector]
    if isinstance(raw, str) and raw.startswith("{model:"):
        return model_values[raw[len("{model:"):-1]]
    return resolve(raw, names)


def queue_defaults(kind: str, names: dict[str, Any]) -> dict[str, Any]:
    """The table's attributes a new queue of type ``kind`` (local, model, alias) starts with. Clause:
    emulator.queue-attributes."""
    return {selector: resolve(row.default, names) for selector, row in standing().queue.items() if kind in row.types}
