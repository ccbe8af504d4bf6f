"""Call sequences generated deterministically from ``(seed, index)``.

A sequence is reproducible anywhere from its index alone: ``random.Random(f"{seed}:{index}")`` (string seeds
are hashed with SHA-512, so no process-dependent hash randomisation enters) draws rules and their arguments from
the same vocabulary and option tables as the differential state machines (conformance/differential.py):
``groups`` follows :class:`GroupsMachine`, ``browse-mark`` follows :class:`BrowseMarkMachine`.

A sequence is a plain JSON-able mapping::

    {"id": "7:42", "area": "groups", "calls": [{"op": "define_queue", "name": "Q1"}, ...], "binds": []}

Calls may name identifiers the replay binds as it goes: ``$id1``, ``$id2``... are the symbols that
:class:`conformance.compare.Identities` gives to each new identifier, in the order the outcomes return them (as
the state machines' ``ids`` bundle does). ``binds`` (optional, one mapping per call) names scenario variables
(``$g``) bound from a call's outcome, for sequences loaded from scenario files.
"""

from __future__ import annotations

import random
from typing import Any

QUEUE = {"name": "Q1"}
HANDLE_OPTIONS = ["MQOO_OUTPUT", "MQOO_INPUT_SHARED", "MQOO_BROWSE"]
BROWSER_OPTIONS = ["MQOO_BROWSE", "MQOO_CO_OP"]

# The option tables of conformance/differential.py, as plain data (tests/test_campaign.py checks they agree).
FLAG_SETS: list[list[str]] = [
    [], ["MQMF_MSG_IN_GROUP"], ["MQMF_LAST_MSG_IN_GROUP"], ["MQMF_SEGMENT"], ["MQMF_LAST_SEGMENT"],
    ["MQMF_MSG_IN_GROUP", "MQMF_SEGMENT"], ["MQMF_MSG_IN_GROUP", "MQMF_LAST_SEGMENT"],
    ["MQMF_LAST_MSG_IN_GROUP", "MQMF_SEGMENT"], ["MQMF_LAST_MSG_IN_GROUP", "MQMF_LAST_SEGMENT"],
    ["MQMF_SEGMENTATION_ALLOWED"],
]
GET_OPTION_NAMES = ["MQGMO_LOGICAL_ORDER", "MQGMO_SYNCPOINT", "MQGMO_COMPLETE_MSG", "MQGMO_ALL_MSGS_AVAILABLE",
                    "MQGMO_ALL_SEGMENTS_AVAILABLE", "MQGMO_ACCEPT_TRUNCATED_MSG"]
BROWSE_OPTIONS: list[list[str]] = [
    ["MQGMO_BROWSE_FIRST"], ["MQGMO_BROWSE_NEXT"], ["MQGMO_BROWSE_FIRST", "MQGMO_LOGICAL_ORDER"],
    ["MQGMO_BROWSE_NEXT", "MQGMO_LOGICAL_ORDER"], ["MQGMO_BROWSE_MSG_UNDER_CURSOR"],
]
PUT_DATA = ["", "a", "bcd", "efghijklmnopqrstuvwxyz0123"]
GET_BUFFERS = [None, None, 0, 2]
CO_OP_BROWSE_OPTIONS: list[list[str]] = [
    ["MQGMO_BROWSE_CO_OP"], ["MQGMO_BROWSE_HANDLE"],
    ["MQGMO_BROWSE_NEXT", "MQGMO_UNMARKED_BROWSE_MSG", "MQGMO_MARK_BROWSE_CO_OP"],
    ["MQGMO_BROWSE_MSG_UNDER_CURSOR", "MQGMO_UNMARK_BROWSE_CO_OP"],
    ["MQGMO_BROWSE_MSG_UNDER_CURSOR", "MQGMO_UNMARK_BROWSE_HANDLE"],
]
CLOCK_STEPS = [1000, 6000]

AREAS = ("groups", "browse-mark")


class _Ids:
    """The generator's view of the ``ids`` bundle: how many identifiers may have been bound so far.

    The replay binds a symbol for each new identifier an outcome returns; the generator cannot know exactly how
    many, so it names one of the symbols that can exist (a put returns at least a new MsgId). A symbol that the
    replay has not bound becomes a fixed unknown identifier, the same on both sides."""

    def __init__(self) -> None:
        self.possible = 0

    def add(self, count: int) -> None:
        self.possible += count

    def pick(self, rng: random.Random, none: str) -> str:
        if not self.possible or rng.random() < 0.1:
            return none
        return f"$id{rng.randint(1, self.possible)}"


def _groups(rng: random.Random, length: int) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = [{"op": "define_queue", **QUEUE},
                                   {"op": "open", "handle": "h", "queue": "Q1", "Options": list(HANDLE_OPTIONS)}]
    ids = _Ids()
    rules = ("put", "put_explicit", "get", "get_by_group", "browse", "end_unit_of_work", "reopen")
    while len(calls) - 2 < length:
        rule = rng.choice(rules)
        if rule == "put":
            flags = list(rng.choice(FLAG_SETS))
            logical, syncpoint, persistent = rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5
            data = rng.choice(PUT_DATA)
            options = (["MQPMO_LOGICAL_ORDER"] if logical else []) + (["MQPMO_SYNCPOINT"] if syncpoint else [])
            md = {"MsgFlags": flags, "Persistence": "MQPER_PERSISTENT" if persistent else "MQPER_NOT_PERSISTENT"}
            calls.append({"op": "put", "handle": "h", "PMO": {"Options": options}, "MD": md, "data": data})
            ids.add(2)
        elif rule == "put_explicit":
            md = {"GroupId": ids.pick(rng, "MQGI_NONE"), "MsgSeqNumber": rng.randint(1, 3),
                  "Offset": rng.choice([0, 1, 3]), "MsgFlags": list(rng.choice(FLAG_SETS))}
            calls.append({"op": "put", "handle": "h", "MD": md, "data": "x"})
            ids.add(1)
        elif rule == "get":
            options = rng.sample(GET_OPTION_NAMES, rng.randint(0, 3))
            call: dict[str, Any] = {"op": "get", "handle": "h", "GMO": {"Options": options, "MatchOptions": []}}
            buffer = rng.choice(GET_BUFFERS)
            if buffer is not None:
                call["BufferLength"] = buffer
            calls.append(call)
        elif rule == "get_by_group":
            calls.append({"op": "get", "handle": "h", "MD": {"GroupId": ids.pick(rng, "MQGI_NONE")},
                          "GMO": {"MatchOptions": ["MQMO_MATCH_GROUP_ID"]}})
        elif rule == "browse":
            calls.append({"op": "get", "handle": "h",
                          "GMO": {"Options": list(rng.choice(BROWSE_OPTIONS)), "MatchOptions": []}})
        elif rule == "end_unit_of_work":
            calls.append({"op": "commit" if rng.random() < 0.5 else "backout"})
        else:
            calls.append({"op": "close", "handle": "h"})
            calls.append({"op": "open", "handle": "h", "queue": "Q1", "Options": list(HANDLE_OPTIONS)})
    return calls[:length + 2]


def _browse_mark(rng: random.Random, length: int) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """A browse-mark sequence and its binds: each browse binds the MsgToken it returns to ``$tokenN``, and a
    consume names one of those (never a MsgId: a 24-byte MsgId is no 16-byte MsgToken, and each side would
    refuse such a call in its own words). A browse that returns no message binds nothing, and a consume naming
    its token then passes the replay's unknown identifier, the same on both sides."""
    calls: list[dict[str, Any]] = [{"op": "define_queue", **QUEUE},
                                   {"op": "open", "handle": "h", "queue": "Q1", "Options": list(HANDLE_OPTIONS)}]
    for name in ("d1", "d2"):
        calls.append({"op": "open", "handle": name, "queue": "Q1", "Options": list(BROWSER_OPTIONS)})
    setup = len(calls)
    bound: dict[int, dict[str, str]] = {}  # call index -> the binds of that call
    browses = 0
    rules = ("put", "browse", "consume", "end_unit_of_work", "time_passes", "reopen_browser")
    while len(calls) - setup < length:
        rule = rng.choice(rules)
        if rule == "put":
            calls.append({"op": "put", "handle": "h", "data": rng.choice(["a", "b", "c"])})
        elif rule == "browse":
            calls.append({"op": "get", "handle": rng.choice(["d1", "d2"]),
                          "GMO": {"Options": list(rng.choice(CO_OP_BROWSE_OPTIONS)), "MatchOptions": []}})
            browses += 1
            bound[len(calls) - 1] = {f"$token{browses}": "GMO.MsgToken"}
        elif rule == "consume":
            if not browses or rng.random() < 0.1:
                continue
            token = f"$token{rng.randint(1, browses)}"
            options = ["MQGMO_SYNCPOINT"] if rng.random() < 0.5 else []
            calls.append({"op": "get", "handle": "h", "GMO": {"Options": options,
                                                             "MatchOptions": ["MQMO_MATCH_MSG_TOKEN"],
                                                             "MsgToken": token}})
        elif rule == "end_unit_of_work":
            calls.append({"op": "commit" if rng.random() < 0.5 else "backout"})
        elif rule == "time_passes":
            calls.append({"op": "advance_clock", "milliseconds": rng.choice(CLOCK_STEPS)})
        else:
            browser = rng.choice(["d1", "d2"])
            calls.append({"op": "close", "handle": browser})
            calls.append({"op": "open", "handle": browser, "queue": "Q1", "Options": list(BROWSER_OPTIONS)})
    calls = calls[:length + setup]
    return calls, [bound.get(index, {}) for index in range(len(calls))]


GENERATORS = {"groups": _groups, "browse-mark": _browse_mark}


def sequence(seed: int | str, index: int, length: int, areas: tuple[str, ...] | list[str] = AREAS) -> dict[str, Any]:
    """The ``index``-th sequence of campaign ``seed``: ``length`` generated calls after the area's set-up calls."""
    rng = random.Random(f"{seed}:{index}")
    area = areas[0] if len(areas) == 1 else rng.choice(sorted(areas))
    generated = GENERATORS[area](rng, length)
    calls, binds = generated if isinstance(generated, tuple) else (generated, [])
    return {"id": f"{seed}:{index}", "area": area, "calls": calls, "binds": binds}
