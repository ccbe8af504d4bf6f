"""Publish/subscribe through the emulated native module: MQOPEN and MQPUT1 of a topic, MQSUB and MQSUBRQ, on the
model's topics and subscriptions (reference/topics.py, publish.py, subscriptions.py).

IBM's structures carry their topic strings, subscription names and user data as MQCHARV: a pointer and a length
into the memory of the process that packed them. They are read there and only there (:func:`local_strings`): the
in-process module reads them at the call, a remote application's module reads them before it sends the call, and
the listening emulator is handed the text, never a pointer into another process. The subscription handle (Hsub)
and a managed destination's handle are the model's own handles, as object handles are.
"""

from __future__ import annotations

import ctypes
from typing import Any

from mq_conformance.reference import constants
from mq_conformance.reference.structures import MQOD, NONE_ID
from mq_conformance.reference.subscriptions import MQSD

from .emulator import MQCC_FAILED, MQRC_HCONN_ERROR, EmulatorError, _text, unpack

V = constants.VALUES
MQOT_TOPIC = V["MQOT_TOPIC"]
MQHO_NONE = 0
MQHO_UNUSABLE_HOBJ = -1
# What one client may make a queue manager keep (issue 36): subscriptions a connection holds, and subscriptions the
# queue manager keeps in all (durable ones outlive their connection). An MQSUB that would make a new one past
# either fails with MQRC_STORAGE_NOT_AVAILABLE, as a queue manager out of storage answers; resuming is not refused.
MAX_CONNECTION_SUBSCRIPTIONS = 1024
MAX_QMGR_SUBSCRIPTIONS = 10_000
# The MQCHARV fields the emulator reads, by the structure that has them.
STRINGS = {"OD": ("ObjectString",), "SD": ("ObjectString", "SubName", "SubUserData")}


def local_strings(raw: Any, cls_name: str) -> dict[str, str]:
    """The MQCHARV strings of a structure packed in this process, read where their pointers point (an MQOD's only
    when it names a topic). An unreadable structure gives none: the call itself then refuses it."""
    try:
        structure = unpack(cls_name, raw, f"MQ{cls_name}")
    except EmulatorError:
        return {}
    if cls_name == "OD" and structure.ObjectType != MQOT_TOPIC:
        return {}
    found = {}
    for name in STRINGS[cls_name]:
        pointer = getattr(structure, f"{name}VSPtr", 0)
        length = getattr(structure, f"{name}VSLength", 0)
        if pointer and length > 0:
            found[name] = ctypes.string_at(pointer, length).decode("utf-8", "replace")
    return found


def topic_od(od: Any, strings: dict[str, str]) -> MQOD:
    """The model's MQOD of an MQOPEN or MQPUT1 naming a topic."""
    return MQOD(ObjectName=_text(od.ObjectName), ObjectQMgrName=_text(od.ObjectQMgrName), ObjectType=MQOT_TOPIC,
                ObjectString=strings.get("ObjectString", ""))


def sub(emulator: Any, hconn: int, sd_raw: bytes, hobj: int,
        strings: dict[str, str]) -> tuple[bytes, int, int, int, int]:
    """MQSUB: ``(MQSD, Hobj, Hsub, CompCode, Reason)``; Hobj is the managed destination's handle with MQSO_MANAGED,
    else the caller's."""
    with emulator._call():  # noqa: SLF001 - the emulator's own call discipline (lock, clock, waiters)
        sd = unpack("SD", sd_raw, "MQSD")
        conn = emulator._conn(hconn)  # noqa: SLF001
        if conn is None:
            return sd.pack(), hobj, MQHO_UNUSABLE_HOBJ, MQCC_FAILED, MQRC_HCONN_ERROR
        model_sd = MQSD(Options=sd.Options, ObjectName=_text(sd.ObjectName),
                        ObjectString=strings.get("ObjectString", ""), SubName=strings.get("SubName", ""),
                        SubCorrelId=bytes(sd.SubCorrelId) or NONE_ID, SubUserData=strings.get("SubUserData", ""))
        if emulator.authority(conn.qmgr).enforcing and not emulator.permits(  # authority.mqi: sub on the topic
                conn, "TOPIC", emulator._topic_object(conn.qmgr, model_sd), {"MQAUTH_SUBSCRIBE"}):  # noqa: SLF001
            return sd.pack(), hobj, MQHO_UNUSABLE_HOBJ, MQCC_FAILED, V["MQRC_NOT_AUTHORIZED"]
        if _past_subscription_budget(emulator, conn, model_sd):
            return sd.pack(), hobj, MQHO_UNUSABLE_HOBJ, MQCC_FAILED, V["MQRC_STORAGE_NOT_AVAILABLE"]
        given = None if hobj in (MQHO_NONE, MQHO_UNUSABLE_HOBJ) else hobj
        result = emulator._model(lambda: emulator.world.sub(conn.qmgr, conn.hconn, model_sd, given))  # noqa: SLF001
        if result.failed:
            return sd.pack(), hobj, MQHO_UNUSABLE_HOBJ, result.comp_code, result.reason
        if result.sub_correl_id is not None:
            sd.SubCorrelId = result.sub_correl_id
        sd.Options |= _kind_options(emulator, conn.qmgr, result.hsub)
        return sd.pack(), hobj if result.hobj is None else result.hobj, result.hsub, result.comp_code, result.reason


def _past_subscription_budget(emulator: Any, conn: Any, sd: MQSD) -> bool:
    """Whether this MQSUB would make a new subscription past the connection's or the queue manager's budget (an
    existing subscription of the name is resumed, which makes none)."""
    kept = emulator.world.qmgr(conn.qmgr).pubsub.subscriptions
    name = sd.SubName.strip()
    if name and name in kept:
        return False
    if len(kept) >= MAX_QMGR_SUBSCRIPTIONS:
        return True
    return sum(1 for s in kept.values() if s.hconn == conn.hconn) >= MAX_CONNECTION_SUBSCRIPTIONS


def _kind_options(emulator: Any, qmgr: str, hsub: int) -> int:
    """The MQSO options saying what kind of subscription an MQSUB returned a handle to (durable, managed,
    character wildcards, publications on request), which a resumed subscription's MQSD carries back to the
    application (IBM's own ibmmq tests read MQSO_MANAGED there after resuming an administered subscription)."""
    pubsub = emulator.world.qmgr(qmgr).pubsub
    subscription = pubsub.subscriptions.get(pubsub.sub_handles.get(hsub, ""))
    if subscription is None:
        return 0
    kinds = (("MQSO_DURABLE", subscription.durable), ("MQSO_MANAGED", subscription.managed),
             ("MQSO_WILDCARD_CHAR", subscription.character_scheme),
             ("MQSO_PUBLICATIONS_ON_REQUEST", subscription.on_request))
    return sum(V[name] for name, kind in kinds if kind)


def subrq(emulator: Any, hconn: int, hsub: int, action: int, sro_raw: bytes) -> tuple[bytes, int, int]:
    """MQSUBRQ: ``(MQSRO, CompCode, Reason)`` with NumPubs, the retained publications sent."""
    with emulator._call():  # noqa: SLF001
        sro = unpack("SRO", sro_raw, "MQSRO")
        conn = emulator._conn(hconn)  # noqa: SLF001
        if conn is None:
            return sro.pack(), MQCC_FAILED, MQRC_HCONN_ERROR
        if action != V["MQSR_ACTION_PUBLICATION"]:
            return sro.pack(), MQCC_FAILED, V["MQRC_ACTION_ERROR"]
        result = emulator._model(lambda: emulator.world.subrq(conn.qmgr, conn.hconn, hsub))  # noqa: SLF001
        sro.NumPubs = result.num_pubs or 0
        return sro.pack(), result.comp_code, result.reason
