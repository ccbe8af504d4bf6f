"""The reference model as an adapter, in process.

Handles and connections are named symbolically in the call language; this adapter maps the names to the
model's Hconn and Hobj values. A handle whose MQOPEN failed maps to an unusable Hobj, as in MQ.

The model is a :class:`mq_conformance.reference.cluster.Cluster`: one queue manager, QM1, until a scenario defines more.
A connection belongs to the queue manager its ``connect`` names (``qmgr``), or to QM1; its handles too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mq_conformance.reference import QueueManager, Result
from mq_conformance.reference.calls import (
    Call,
    CallError,
    Outcome,
    decode_alter_queue,
    decode_bytes,
    decode_channel,
    decode_channel_state,
    decode_cluster_queue,
    decode_int,
    decode_define_qmgr,
    decode_deliver,
    decode_od,
    decode_options,
    decode_qremote,
    decode_queue,
    decode_sender,
    decode_sender_attributes,
    decode_stop_channel,
    decode_transmit,
    decode_set,
    decode_structure,
    encode_bytes,
    encode_field,
    encode_structure,
    names,
)
from mq_conformance.reference import open as open_module
from mq_conformance.reference import properties
from mq_conformance.reference import distributed, pubsub_calls
from mq_conformance.reference.cluster import Cluster
from mq_conformance.reference.errors import NotModelled
from mq_conformance.reference.tables import Spec

from .capabilities import capability_names

UNUSABLE_HOBJ = -1
DEFAULT_CONNECTION = "default"
# The model implements every capability the suite names (fixtures/capabilities.yaml, the one list).
CAPABILITIES = frozenset(capability_names())


class ReferenceAdapter:
    """Runs calls on a :class:`mq_conformance.reference.cluster.Cluster` (one queue manager, or several) in this process."""

    name = "reference"
    version = "0.1.0"
    capabilities = CAPABILITIES
    world_type: type[Cluster] = Cluster  # the model's class; a mutant (adapters/mutants.py) names a subclass

    def __init__(self, spec: Spec | None = None, seed: int = 0):
        self._spec = spec
        self._seed = seed
        self.reset()

    def reset(self) -> None:
        kwargs: dict[str, Any] = {"seed": self._seed}
        if self._spec is not None:
            kwargs["spec"] = self._spec
        self.world = self.world_type(**kwargs)
        self.connections: dict[str, tuple[str, int]] = {}  # name -> (queue manager, hconn)
        self.handles: dict[str, tuple[str, int, int]] = {}  # name -> (queue manager, hconn, hobj)
        self.message_handles: dict[str, int] = {}  # hmsg name -> Hmsg (of the connection the call names)

    @property
    def qm(self) -> QueueManager:
        """The default queue manager (the only one without a cluster)."""
        return self.world.qm

    def close(self) -> None:
        pass

    # -- helpers --------------------------------------------------------------------------------------------
    def _hconn(self, args: dict) -> tuple[str, int]:
        name = args.get("connection", DEFAULT_CONNECTION)
        if name not in self.connections:
            qmgr, result = self.world.connect()
            self.connections[name] = (qmgr, result.hconn)
        return self.connections[name]

    def _handle(self, args: dict) -> tuple[str, int, int]:
        name = args.get("handle")
        if not isinstance(name, str):
            raise CallError("needs a 'handle' name", "handle")
        if name not in self.handles:
            raise CallError(f"handle {name!r} was never opened", "handle")
        return self.handles[name]

    # -- the protocol ---------------------------------------------------------------------------------------
    def execute(self, call: Call) -> Outcome:
        try:
            run = self._OPS[call.op]
        except KeyError:
            return Outcome(error=f"unknown op {call.op!r}")
        try:
            return run(self, dict(call.args))
        except CallError as exc:
            return Outcome(error=f"bad call: {exc}")
        except NotModelled as exc:
            return Outcome(error=f"not modelled: {exc}")

    def _define_queue(self, args: dict) -> Outcome:
        qmgr, cluster = decode_cluster_queue(args, "define_queue")
        return outcome(self.world.define_queue(qmgr, decode_queue(args, "define_queue"), cluster))

    def _define_qmgr(self, args: dict) -> Outcome:
        return outcome(self.world.define_qmgr(*decode_define_qmgr(args, "define_qmgr")))

    def _connect(self, args: dict) -> Outcome:
        name = args.get("connection", DEFAULT_CONNECTION)
        qmgr = args.get("qmgr")
        if qmgr is not None and not isinstance(qmgr, str):
            raise CallError("expected a queue manager name", "qmgr")
        qmgr, result = self.world.connect(qmgr)
        self.connections[name] = (qmgr, result.hconn)
        return outcome(result)

    def _disconnect(self, args: dict) -> Outcome:
        # The name keeps its old Hconn, so later calls on it meet MQRC_HCONN_ERROR, as an application would.
        return outcome(self.world.disconnect(*self._hconn(args)))

    def _open(self, args: dict) -> Outcome:
        name = args.get("handle")
        if not isinstance(name, str) or not name:
            raise CallError("needs a 'handle' name", "handle")
        qmgr, hconn = self._hconn(args)
        od = decode_od(args, "open")
        options = decode_options(args.get("Options", []), "MQOO", "Options")
        if "SelectionString" in args:  # capability properties (reference/selection.py)
            text = args["SelectionString"]
            if not isinstance(text, str):
                raise CallError("expected a message selector (text)", "SelectionString")
            result = open_module.open_selecting(self.world.qmgr(qmgr), od, options, text,
                                                lambda: self.world.open(qmgr, hconn, od, options))
        else:
            result = self.world.open(qmgr, hconn, od, options)
        self.handles[name] = (qmgr, hconn, UNUSABLE_HOBJ if result.failed else result.hobj)
        return outcome(result)

    def _close(self, args: dict) -> Outcome:
        options = decode_options(args.get("Options", []), "MQCO", "Options")
        return outcome(self.world.close(*self._handle(args), options))

    def _put(self, args: dict) -> Outcome:
        md = decode_structure("MD", args.get("MD"), "MD")
        pmo = decode_structure("PMO", args.get("PMO"), "PMO")
        data = decode_bytes(args.get("data", ""), "data")
        qmgr, hconn, hobj = self._handle(args)
        if any(key in args for key in properties.PUT_HANDLE_FIELDS):
            return outcome(self._with_properties(args, qmgr, hconn,
                                                 lambda: self.world.put(qmgr, hconn, hobj, md, pmo, data)))
        return outcome(self.world.put(qmgr, hconn, hobj, md, pmo, data))

    def _put1(self, args: dict) -> Outcome:
        md = decode_structure("MD", args.get("MD"), "MD")
        pmo = decode_structure("PMO", args.get("PMO"), "PMO")
        data = decode_bytes(args.get("data", ""), "data")
        qmgr, hconn = self._hconn(args)
        od = decode_od(args, "put1")
        if any(key in args for key in properties.PUT_HANDLE_FIELDS):
            return outcome(self._with_properties(args, qmgr, hconn,
                                                 lambda: self.world.put1(qmgr, hconn, od, md, pmo, data)))
        return outcome(self.world.put1(qmgr, hconn, od, md, pmo, data))

    def _get(self, args: dict) -> Outcome:
        md = decode_structure("MD", args.get("MD"), "MD")
        gmo = decode_structure("GMO", args.get("GMO"), "GMO")
        length = args.get("BufferLength")
        if length is not None and (not isinstance(length, int) or isinstance(length, bool) or length < 0):
            raise CallError(f"expected a whole number >= 0, not {length!r}", "BufferLength")
        qmgr, hconn, hobj = self._handle(args)
        qm = self.world.qmgr(qmgr)
        if "MsgHandle" in args or properties.may_have_properties(qm):
            hmsg = self._hmsg(args["MsgHandle"], "MsgHandle") if "MsgHandle" in args else None
            return outcome(properties.get_with_properties(qm, hconn, hobj, md, gmo, length, hmsg))
        return outcome(self.world.get(qmgr, hconn, hobj, md, gmo, length))

    # -- message properties (reference/properties.py) ---------------------------------------------------------
    def _hmsg(self, name: Any, path: str = "hmsg") -> int:
        """The Hmsg of a message handle name; a name never made is an unusable handle, as an unset MQHMSG is."""
        if not isinstance(name, str) or not name:
            raise CallError("expected a message handle name", path)
        return self.message_handles.get(name, UNUSABLE_HOBJ)

    def _with_properties(self, args: dict, qmgr: str, hconn: int, do_put: Callable[[], Result]) -> Result:
        original = self._hmsg(args["OriginalMsgHandle"], "OriginalMsgHandle") if "OriginalMsgHandle" in args else None
        new = self._hmsg(args["NewMsgHandle"], "NewMsgHandle") if "NewMsgHandle" in args else None
        action = decode_int(args.get("Action", "MQACTP_NEW"), ("MQACTP",), "Action")
        return properties.put_with_properties(self.world.qmgr(qmgr), hconn, original, new, action, do_put)

    def _property_call(self, op: str, args: dict) -> tuple[Any, int, int, int]:
        properties.check_property_call(op, args)
        qmgr, hconn = self._hconn(args)
        options = decode_options(args.get("Options", []), properties.OPTION_FAMILY[op], "Options")
        return self.world.qmgr(qmgr), hconn, self._hmsg(args["hmsg"]), options

    def _crtmh(self, args: dict) -> Outcome:
        qm, hconn, _old, options = self._property_call("crtmh", args)
        result = properties.create(qm, hconn, options)
        self.message_handles[args["hmsg"]] = UNUSABLE_HOBJ if result.failed else result.hobj
        result.hobj = None
        return outcome(result)

    def _dltmh(self, args: dict) -> Outcome:
        qm, hconn, hmsg, _options = self._property_call("dltmh", args)
        return outcome(properties.delete(qm, hconn, hmsg))

    def _setmp(self, args: dict) -> Outcome:
        qm, hconn, hmsg, options = self._property_call("setmp", args)
        kind = properties.decode_type(args.get("Type"), "Type")
        value = properties.decode_value(kind, args.get("Value"), "Value")
        copy_options = properties.decode_copy_options(args.get("PD"), "PD")
        return outcome(properties.set_property(qm, hconn, hmsg, args["Name"], kind, value, options, copy_options))

    def _inqmp(self, args: dict) -> Outcome:
        qm, hconn, hmsg, options = self._property_call("inqmp", args)
        kind = properties.decode_type(args.get("Type", "MQTYPE_AS_SET"), "Type")
        result = properties.inquire_property(qm, hconn, hmsg, args["Name"], kind, options,
                                             properties.decode_length(args, "ValueLength"),
                                             properties.decode_length(args, "ReturnedNameLength"))
        answer, result.attributes = result.attributes, None
        out = outcome(result)
        if answer is not None:
            out.property = {**answer, "Value": properties.outcome_value(answer["Value"])}
            out.DataLength = result.data_length
        return out

    def _mhbuf(self, args: dict) -> Outcome:
        qm, hconn, hmsg, options = self._property_call("mhbuf", args)
        if "Options" not in args:
            options = properties.MHBO_IN_RFH2  # MQMHBO_DEFAULT
        name, md, length, _data = properties.decode_buffer_call("mhbuf", args)
        result = properties.to_buffer(qm, hconn, hmsg, name, options, md, length)
        out = outcome(result)
        out.DataLength = result.data_length  # also when the buffer was too small
        return out

    def _bufmh(self, args: dict) -> Outcome:
        qm, hconn, hmsg, options = self._property_call("bufmh", args)
        _name, md, _length, data = properties.decode_buffer_call("bufmh", args)
        return outcome(properties.from_buffer(qm, hconn, hmsg, options, md, data))

    def _dltmp(self, args: dict) -> Outcome:
        qm, hconn, hmsg, options = self._property_call("dltmp", args)
        return outcome(properties.delete_property(qm, hconn, hmsg, args["Name"], options))

    def _commit(self, args: dict) -> Outcome:
        return outcome(self.world.commit(*self._hconn(args)))

    def _backout(self, args: dict) -> Outcome:
        return outcome(self.world.backout(*self._hconn(args)))

    def _inquire(self, args: dict) -> Outcome:
        selectors = args.get("Selectors", [])
        if not isinstance(selectors, list) or not all(isinstance(s, str) for s in selectors):
            raise CallError("expected a list of MQIA_* or MQCA_* names", "Selectors")
        return outcome(self.world.inquire(*self._handle(args), selectors))

    def _set(self, args: dict) -> Outcome:
        selectors, int_attrs = decode_set(args, "")
        return outcome(self.world.set(*self._handle(args), selectors, int_attrs))

    def _advance_clock(self, args: dict) -> Outcome:
        ms = args.get("milliseconds")
        if not isinstance(ms, int) or isinstance(ms, bool) or ms < 0:
            raise CallError(f"expected a whole number of milliseconds >= 0, not {ms!r}", "milliseconds")
        return outcome(self.world.advance_clock(ms))

    # -- clusters -------------------------------------------------------------------------------------------
    def _define_channel(self, args: dict) -> Outcome:
        return outcome(self.world.define_channel(*decode_channel(args, "define_channel")))

    def _set_channel(self, args: dict) -> Outcome:
        name = args.get("name")
        if not isinstance(name, str) or not name:
            raise CallError("needs a channel 'name'", "name")
        return outcome(self.world.set_channel(name, decode_channel_state(args, "set_channel")))

    def _suspend_qmgr(self, args: dict) -> Outcome:
        return outcome(self.world.suspend_qmgr(self._qmgr_name(args), True))

    def _resume_qmgr(self, args: dict) -> Outcome:
        return outcome(self.world.suspend_qmgr(self._qmgr_name(args), False))

    def _alter_queue(self, args: dict) -> Outcome:
        return outcome(self.world.alter_queue(*decode_alter_queue(args, "alter_queue")))

    def _deliver(self, args: dict) -> Outcome:
        return outcome(self.world.deliver(*decode_deliver(args, "deliver")))

    # -- distributed queuing (reference/distributed.py, reference/channels.py) ------------------------------------
    def _define_qremote(self, args: dict) -> Outcome:
        return outcome(self.world.define_qremote(*decode_qremote(args, "define_qremote")))

    def _define_sender(self, args: dict) -> Outcome:
        return outcome(self.world.define_sender(*decode_sender(args, "define_sender"),
                                                **decode_sender_attributes(args, "define_sender")))

    def _start_channel(self, args: dict) -> Outcome:
        return outcome(self.world.start_channel(self._channel_name(args)))

    def _stop_channel(self, args: dict) -> Outcome:
        return outcome(self.world.stop_channel(*decode_stop_channel(args, "stop_channel")))

    def _channel_status(self, args: dict) -> Outcome:
        result = self.world.channel_status(self._channel_name(args))
        answer, result.attributes = result.attributes, None
        out = outcome(result)
        out.CHSTATUS = answer
        return out

    def _transmit(self, args: dict) -> Outcome:
        return outcome(self.world.transmit(*decode_transmit(args, "transmit")))

    @staticmethod
    def _channel_name(args: dict) -> str:
        return ReferenceAdapter._required(args, "name", "a channel 'name'")

    # -- publish/subscribe (reference/pubsub_calls.py) --------------------------------------------------------
    def _define_topic(self, args: dict) -> Outcome:
        return outcome(self.world.define_topic(*pubsub_calls.decode_topic(args, "define_topic")))

    def _sub(self, args: dict) -> Outcome:
        pubsub_calls.check_call("sub", args)
        name = pubsub_calls.handle_name(args, "handle", "")
        sd = pubsub_calls.decode_sd(args.get("SD"), "SD")
        qmgr, hconn = self._hconn(args)
        destination = pubsub_calls.handle_name(args, "Hobj", "", required=False)
        managed = bool(sd.Options & pubsub_calls.VALUES["MQSO_MANAGED"])
        hobj = None
        if destination is not None and not managed:
            hobj = self._handle({"handle": destination})[2]
        result = self.world.sub(qmgr, hconn, sd, hobj)
        self.handles[name] = (qmgr, hconn, UNUSABLE_HOBJ if result.failed else result.hsub)
        if managed and destination is not None:
            self.handles[destination] = (qmgr, hconn, UNUSABLE_HOBJ if result.hobj is None else result.hobj)
        return outcome(result)

    def _subrq(self, args: dict) -> Outcome:
        pubsub_calls.check_call("subrq", args)
        qmgr, hconn, hsub = self._handle(args)
        return outcome(self.world.subrq(qmgr, hconn, hsub))

    @staticmethod
    def _qmgr_name(args: dict) -> str:
        return ReferenceAdapter._required(args, "qmgr", "a 'qmgr' name")

    @staticmethod
    def _required(args: dict, key: str, what: str) -> str:
        """A non-empty text argument, or the CallError naming what is needed."""
        value = args.get(key)
        if not isinstance(value, str) or not value:
            raise CallError(f"needs {what}", key)
        return value

    _OPS: dict[str, Callable[[ReferenceAdapter, dict], Outcome]] = {
        "define_queue": _define_queue, "define_qmgr": _define_qmgr, "connect": _connect, "disconnect": _disconnect, "open": _open,
        "close": _close, "put": _put, "put1": _put1, "get": _get, "commit": _commit, "backout": _backout,
        "inquire": _inquire, "set": _set, "advance_clock": _advance_clock,
        "define_channel": _define_channel, "set_channel": _set_channel, "suspend_qmgr": _suspend_qmgr,
        "resume_qmgr": _resume_qmgr, "alter_queue": _alter_queue, "deliver": _deliver,
        "crtmh": _crtmh, "dltmh": _dltmh, "setmp": _setmp, "inqmp": _inqmp, "dltmp": _dltmp,
        "mhbuf": _mhbuf, "bufmh": _bufmh,
        "define_topic": _define_topic, "sub": _sub, "subrq": _subrq,
        "define_qremote": _define_qremote, "define_sender": _define_sender, "start_channel": _start_channel,
        "stop_channel": _stop_channel, "channel_status": _channel_status, "transmit": _transmit,
    }


def outcome(result: Result) -> Outcome:
    """The call-language Outcome of a model Result."""
    out = Outcome(CompCode=names(result.comp_code, "MQCC"), Reason=names(result.reason, "MQRC"),
                  clauses=list(result.clauses))
    if result.md is not None:
        out.MD = encode_structure("MD", result.md)
    if result.pmo is not None:
        out.PMO = encode_structure("PMO", result.pmo)
    if result.gmo is not None:
        out.GMO = encode_structure("GMO", result.gmo)
    if result.data is not None:
        out.data = encode_bytes(result.data)
        out.DataLength = result.data_length
        if result.md is not None and result.md.Format in distributed.HEADER_FORMATS:
            _headers(out, result.md.Format, result.data)
    if result.attributes is not None:
        out.attributes = dict(result.attributes)
    if result.object_name is not None:
        out.ObjectName = result.object_name
    if result.sub_correl_id is not None:
        out.SD = pubsub_calls.encode_sub_correl_id(result.sub_correl_id, result.sub_level)
    if result.num_pubs is not None:
        out.SRO = {"NumPubs": result.num_pubs}
    if result.res_object_string is not None:
        out.ResObjectString = result.res_object_string
    return out


def _headers(out: Outcome, fmt: str, data: bytes) -> None:
    """A message got from a transmission queue or a dead-letter queue: its MQXQH or MQDLH as an outcome member,
    and ``data`` what follows the header (reference/distributed.py)."""
    if fmt == distributed.FMT_XQH:
        unpacked = distributed.unpack_xqh(data)
        if unpacked is not None:
            remote_q, remote_qmgr, md, rest = unpacked
            out.XQH = {"RemoteQName": remote_q, "RemoteQMgrName": remote_qmgr, "MsgDesc": encode_structure("MD", md)}
            out.data = encode_bytes(rest)
    else:
        unpacked = distributed.unpack_dlh(data)
        if unpacked is not None:
            fields, rest = unpacked
            fields["Reason"] = names(fields["Reason"], "MQRC")
            fields["PutApplType"] = names(fields["PutApplType"], "MQAT")
            fields["Format"] = encode_field(("format",), fields["Format"])
            out.DLH = fields
            out.data = encode_bytes(rest)

