"""MQSC through the command server (PCF Escape, MQCMD_ESCAPE): each MQSC command the emulator runs becomes the PCF
command of the same meaning, run by the command server as any other, and its answer is the text IBM's command
server returns, with IBM's AMQ message numbers (fixtures/emulator/mqsc.yaml; clause emulator.mqsc; "Escape",
https://www.ibm.com/docs/en/ibm-mq/9.4.x?topic=formats-mqcmd-escape-escape, and "MQSC commands").

Objects: QLOCAL, QALIAS, QMODEL, QREMOTE and QUEUE, QMGR, CHANNEL, NAMELIST, AUTHINFO, TOPIC, SUB, AUTHREC;
status: CHSTATUS, QSTATUS, QMSTATUS, TPSTATUS, SBSTATUS. Verbs: DEFINE (LIKE: a copy; REPLACE), ALTER, DELETE,
DISPLAY (ALL or the keywords asked for), CLEAR QLOCAL, SET and DELETE AUTHREC, PING QMGR, START and STOP CHANNEL. A DISPLAY answers one
message per object: IBM's "Display ... details." line, then the attributes as KEYWORD(value), two to a line.
A failed command answers IBM's message for its reason (AMQ8147E not found, AMQ8150E already exists...) or
AMQ8101S with the reason; a command the emulator does not run (another verb, another object) is refused with
MQRC_FUNCTION_NOT_SUPPORTED, named in the log.

The reader is a single pass over at most 32 KiB of text, with no regular expression: an MQSC command comes from
outside and is read in time proportional to its length whatever it holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Any

import yaml

from .pcf_validate import is_object_name

# The MQSC objects whose name (and LIKE) is an MQ object name: IBM's characters only, as PCF checks them
# (pcf_validate); a subscription's name and an authority record's profile are not object names.
NAMED_OBJECTS = frozenset({"QUEUE", "CHANNEL", "NAMELIST", "AUTHINFO", "TOPIC", "CHSTATUS", "QSTATUS"})

MAX_TEXT = 32 * 1024  # longer than any MQSC command (IBM's limit is 32,762 characters)
MAX_TOKENS = 1024
MAX_DEPTH = 8  # parentheses inside a value


class MqscSyntaxError(ValueError):
    """A command that cannot be read (IBM's AMQ8405I)."""


class NotRun(ValueError):
    """A command the emulator does not run: another verb or another type of object."""


@dataclass(frozen=True)
class Token:
    word: str  # upper case
    value: str | None  # the text in parentheses (None: none); unquoted text upper case
    items: tuple[str, ...]  # the value split at commas outside quotes


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """fixtures/emulator/mqsc.yaml, read once (clause emulator.mqsc)."""
    return yaml.safe_load((files("mq_conformance.fixtures") / "emulator" / "mqsc.yaml").read_text())


# -- reading --------------------------------------------------------------------------------------------------
def tokens(text: str) -> list[Token]:
    """The words of one MQSC command, each with the value in parentheses after it; continuation characters (``+``
    or ``-`` ending a line) join lines. :class:`MqscSyntaxError` for what cannot be read."""
    if len(text) > MAX_TEXT:
        raise MqscSyntaxError(f"a command of {len(text)} characters (at most {MAX_TEXT})")
    text = _joined(text)
    found: list[Token] = []
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        if char.isspace() or char == ",":
            i += 1
            continue
        if char in "()'":
            raise MqscSyntaxError(f"unexpected {char!r} at position {i + 1}")
        start = i
        while i < end and not text[i].isspace() and text[i] not in "(),'":
            i += 1
        word = text[start:i].upper()
        value = None
        items: tuple[str, ...] = ()
        j = i
        while j < end and text[j] == " ":
            j += 1
        if j < end and text[j] == "(":
            value, items, i = _value(text, j)
        found.append(Token(word, value, items))
        if len(found) > MAX_TOKENS:
            raise MqscSyntaxError(f"more than {MAX_TOKENS} keywords")
    return found


def _joined(text: str) -> str:
    lines = text.replace("\r", "").split("\n")
    out = []
    for line in lines:
        stripped = line.rstrip()
        if stripped.endswith(("+", "-")):
            out.append(stripped[:-1])
        else:
            out.append(stripped + " ")
    return "".join(out).strip()


def _value(text: str, at: int) -> tuple[str, tuple[str, ...], int]:
    """The value in parentheses opening at ``at``: its text, its comma-separated items and the position after
    the closing parenthesis. Quoted text keeps its case ('' is a quote); the rest is upper case."""
    i, depth = at + 1, 1
    items: list[str] = []
    current: list[str] = []
    quoted_any = False
    while i < len(text):
        char = text[i]
        if char == "'":
            j = i + 1
            chunk = []
            while True:
                if j >= len(text):
                    raise MqscSyntaxError("a quoted string is not ended")
                if text[j] == "'":
                    if j + 1 < len(text) and text[j + 1] == "'":
                        chunk.append("'")
                        j += 2
                        continue
                    break
                chunk.append(text[j])
                j += 1
            current.append("\0" + "".join(chunk))  # \0 marks quoted text: its case is kept
            quoted_any = True
            i = j + 1
            continue
        if char == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise MqscSyntaxError("parentheses nested too deep")
        elif char == ")":
            depth -= 1
            if depth == 0:
                items.append(_item(current))
                joined = ",".join(items) if len(items) > 1 else items[0]
                return joined, tuple(item for item in items if item != "" or quoted_any), i + 1
        elif char == "," and depth == 1:
            items.append(_item(current))
            current = []
            i += 1
            continue
        current.append(char)
        i += 1
    raise MqscSyntaxError("a parenthesis is not closed")


def _item(parts: list[str]) -> str:
    """One item of a value: quoted text as it is, the rest upper case, blanks outside quotes dropped."""
    if not any(p.startswith("\0") for p in parts):
        return "".join(parts).upper().strip()
    return "".join(p[1:] if p.startswith("\0") else p.upper().strip() for p in parts)


# -- running --------------------------------------------------------------------------------------------------
def _object(word: str) -> tuple[str, Any] | None:
    for kind, spec in table()["objects"].items():
        if word in spec["words"]:
            return kind, spec["words"][word]
    return None


def run(server: Any, text: str) -> tuple[bool, list[str]]:
    """Run one MQSC command on the command server ``server`` (pcf.CommandServer): whether it succeeded and the
    text of each response message. :class:`NotRun` for a command the emulator does not run. Clause:
    emulator.mqsc."""
    from .pcf import PcfFailure

    messages = table()["messages"]
    try:
        found = tokens(text)
        if not found:
            raise MqscSyntaxError("an empty command")
        verb = table()["verbs"].get(found[0].word)
        if verb is None:
            raise NotRun(f"the verb {found[0].word}")
        if len(found) < 2:
            raise MqscSyntaxError(f"{verb} needs an object")
        target = _object(found[1].word)
        if target is None:
            raise NotRun(f"{verb} {found[1].word}")
        kind, type_word = target
        spec = table()["objects"][kind]
        command_verb = "COPY" if verb == "DEFINE" and any(t.word == "LIKE" for t in found[2:]) else verb
        command = spec["commands"].get(command_verb)
        if command is None:
            raise NotRun(f"{verb} {found[1].word}" + (" LIKE" if command_verb == "COPY" else ""))
        name = found[1].value
        parameters = _parameters(server, kind, spec, type_word, name, found[2:], verb)
    except MqscSyntaxError as exc:
        return False, [f"{messages['syntax']}\n{text.strip()[:200]}\n({exc})"]
    try:
        responses = server._run(server._value(command), parameters)  # noqa: SLF001 - as any command
    except PcfFailure as exc:
        template = messages["failed"].get(exc.reason)
        reason = server._value(exc.reason)  # noqa: SLF001
        line = template.format(name=name or "") if template else messages["unexpected"].format(reason=reason)
        return False, [line]
    if verb == "DISPLAY":
        return True, [_display(server, kind, spec, type_word, response) for response in responses or [[]]]
    if verb == "CLEAR":
        return True, [messages["cleared"]]
    if verb == "PING":
        return True, [messages["pinged"]]
    if kind == "AUTHREC":
        return True, [messages["set"] if verb == "SET" else messages["deleted"]["AUTHREC"]]
    if verb in ("START", "STOP"):  # START and STOP CHANNEL (emulator/channels.py)
        return True, [messages["started" if verb == "START" else "stopped"]]
    done = {"DEFINE": "created", "ALTER": "changed", "DELETE": "deleted"}[verb]
    return True, [messages[done][kind]]


def _constant(server: Any, name: Any) -> Any:
    if isinstance(name, int):
        return name
    return server._value(name)  # noqa: SLF001


def _parameters(server: Any, kind: str, spec: dict[str, Any], type_word: Any, name: str | None,
                rest: list[Token], verb: str) -> dict[int, Any]:
    """The PCF parameters of one MQSC command."""
    value = server._value  # noqa: SLF001
    parameters: dict[int, Any] = {}
    if spec.get("name"):
        if name is None and kind != "AUTHREC":
            raise MqscSyntaxError(f"{kind} needs a name in parentheses")
        if name is not None:
            if len(name) > 10240:
                raise MqscSyntaxError("a name that is too long")
            if kind in NAMED_OBJECTS and not is_object_name(name):
                raise MqscSyntaxError("a name with a character MQ object names do not take")
            parameters[value(spec["name"])] = name.encode("utf-8")
    if kind == "QUEUE" and type_word is not None and type_word != "MQQT_ALL":
        parameters[value("MQIA_Q_TYPE")] = value(type_word)
    shown: list[int] = []
    for token in rest:
        if token.word == "LIKE":
            if token.value is None:
                raise MqscSyntaxError("LIKE needs a name")
            if kind in NAMED_OBJECTS and not is_object_name(token.value):
                raise MqscSyntaxError("a name with a character MQ object names do not take")
            parameters[value(spec["like"])] = token.value.encode("utf-8")
            continue
        if token.word == "ALL":
            shown.append(value("MQIACF_ALL"))
            continue
        if kind == "QUEUE" and token.word == "TYPE" and verb == "DISPLAY":
            word = (token.value or "").upper()
            qtype = spec["words"].get(word)
            if qtype is None:
                raise MqscSyntaxError(f"TYPE({token.value}) is not a queue type")
            if qtype != "MQQT_ALL":
                parameters[value("MQIA_Q_TYPE")] = value(qtype)
            continue
        entry = spec["keywords"].get(token.word)
        if entry is None:
            raise MqscSyntaxError(f"{token.word} is not a keyword of {kind}")
        parameter, reader = value(entry[0]), entry[1]
        if verb == "DISPLAY" and token.value is None and not (isinstance(reader, dict) and "flag" in reader):
            shown.append(parameter)  # an attribute asked for
            continue
        parameters[parameter] = _read(server, token, reader)
    if verb == "DISPLAY" and spec.get("attrs") and shown:
        parameters[value(spec["attrs"])] = shown
    return parameters


def _read(server: Any, token: Token, reader: Any) -> Any:
    """A keyword's value as its PCF parameter takes it."""
    if isinstance(reader, dict) and "flag" in reader:
        if token.value is not None:
            raise MqscSyntaxError(f"{token.word} takes no value")
        return _constant(server, reader["flag"])
    if token.value is None:
        raise MqscSyntaxError(f"{token.word} needs a value")
    if reader == "int":
        try:
            return int(token.value)
        except ValueError:
            raise MqscSyntaxError(f"{token.word}({token.value}) is not a number") from None
    if reader == "string":
        return token.value.encode("utf-8")
    if reader == "list":
        return [item.encode("utf-8") for item in token.items if item]
    if reader == "bytes":
        try:
            return bytes.fromhex(token.value)
        except ValueError:
            raise MqscSyntaxError(f"{token.word}({token.value}) is not hexadecimal") from None
    if reader == "authorities":
        from .authority import by_word

        words = by_word()
        unknown = [w for w in token.items if w.upper() not in words]
        if unknown:
            raise MqscSyntaxError(f"{', '.join(unknown)} is no authority")
        return [server._value(words[w.upper()]) for w in token.items]  # noqa: SLF001
    words = table()["values"][reader] if isinstance(reader, str) else reader
    found = words.get(token.value.upper())
    if found is None:
        raise MqscSyntaxError(f"{token.word}({token.value}) is not one of {', '.join(map(str, words))}")
    return _constant(server, found)


# -- answering ------------------------------------------------------------------------------------------------
def _display(server: Any, kind: str, spec: dict[str, Any], type_word: Any, response: list[tuple[int, Any]]) -> str:
    """One object's DISPLAY text: IBM's header line, then its attributes, two to a line."""
    value = server._value  # noqa: SLF001
    by_parameter: dict[int, tuple[str, Any]] = {}
    for keyword, (parameter, reader) in spec["keywords"].items():
        number = value(parameter)
        if isinstance(reader, dict) and "flag" in reader and keyword in ("REPLACE", "NOREPLACE", "PURGE",
                                                                          "NOPURGE", "CURRENT"):
            continue
        by_parameter.setdefault(number, (keyword, reader))
    name_parameter = value(spec["name"]) if spec.get("name") else None
    shown: list[str] = []
    values = dict(response)
    if name_parameter is not None and name_parameter in values:
        shown.append(f"{spec.get('display_name', kind)}({_plain(values[name_parameter]) or ' '})")
    elif kind in ("QMGR", "QMSTATUS"):
        shown.append(f"QMNAME({_plain(values.get(value('MQCA_Q_MGR_NAME'), server.qmgr))})")
    if kind == "QUEUE" and value("MQIA_Q_TYPE") in values:
        names = {value(k): v for k, v in spec["display_types"].items()}
        shown.append(f"TYPE({names.get(values[value('MQIA_Q_TYPE')], 'QLOCAL')})")
    for parameter, raw in response:
        if parameter == name_parameter or (kind == "QUEUE" and parameter == value("MQIA_Q_TYPE")):
            continue
        known = by_parameter.get(parameter)
        if known is None:
            continue
        shown.append(_shown(server, spec, parameter, known[0], known[1], raw))
    header = table()["messages"]["display"].get(kind, "")
    lines = []
    for index in range(0, len(shown), 2):
        pair = shown[index:index + 2]
        lines.append("   " + (pair[0].ljust(40) + pair[1] if len(pair) == 2 else pair[0]))
    return "\n".join([header, *lines])


def _plain(raw: Any) -> str:
    if isinstance(raw, bytes | bytearray):
        return bytes(raw).decode("utf-8", errors="replace").rstrip("\0 ")
    return str(raw).rstrip()


def _shown(server: Any, spec: dict[str, Any], parameter: int, keyword: str, reader: Any, raw: Any) -> str:
    """One attribute as DISPLAY shows it: KEYWORD(value), a flag word (SHARE, NOTRIGGER), a list, hexadecimal."""
    if isinstance(reader, dict) and "flag" in reader:
        for other, (other_parameter, other_reader) in spec["keywords"].items():
            if server._value(other_parameter) == parameter and isinstance(other_reader, dict) \
                    and "flag" in other_reader and _constant(server, other_reader["flag"]) == raw:  # noqa: SLF001
                return other
        return f"{keyword}({raw})"
    if reader == "bytes":
        return f"{keyword}({bytes(raw).hex().upper()})"
    if reader == "list" or isinstance(raw, list):
        if reader == "authorities":
            from .authority import table as authority_table

            words = {server._value(n): row["word"] for n, row in authority_table().authorities.items()}  # noqa: SLF001
            return f"{keyword}({','.join(words.get(v, str(v)) for v in raw)})"
        return f"{keyword}({','.join(_plain(v) for v in raw)})"
    if reader in ("int", "string"):
        text = _plain(raw)
        return f"{keyword}({text if text else ' '})"
    words = table()["values"][reader] if isinstance(reader, str) else reader
    for word, constant in words.items():
        if _constant(server, constant) == raw:
            return f"{keyword}({word})"
    return f"{keyword}({_plain(raw)})"
