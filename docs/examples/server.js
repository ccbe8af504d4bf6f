#!/usr/bin/env node
// A small, honest JSON-lines server for the mq-conformance suite (protocol 1), written from docs/implementers.md
// alone: an in-memory queue manager that claims only `core`. It is the "Your first hour" example: run the suite
// against it, read the report, fix, repeat. What it does not do is listed, with reasons, in
// docs/examples/server-expected.yaml (the expectations file of this implementation).
//
//   node docs/examples/server.js [CONSTANTS]   # speaks the protocol on stdin/stdout; logs go to stderr
//
// It reads IBM MQ's constants (names to values, values to names, option bits) from the suite's constants.json:
// the file named by its argument or by MQCONF_CONSTANTS, else the repository's fixtures/constants.json when it runs
// from a clone, else what `mqconf constants --json` prints (mqconf on PATH: an activated virtual environment).
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

function loadConstants() {
  const given = process.argv[2] || process.env.MQCONF_CONSTANTS;
  const beside = path.join(__dirname, "..", "..", "fixtures", "constants.json");
  try {
    if (given) return JSON.parse(fs.readFileSync(given, "utf8"));
    if (fs.existsSync(beside)) return JSON.parse(fs.readFileSync(beside, "utf8"));
    const out = require("child_process").execFileSync("mqconf", ["constants", "--json"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26 });
    return JSON.parse(out);
  } catch (err) {
    process.stderr.write(`server.js: cannot read the MQ constants (${given || "mqconf constants --json"}: ` +
      `${String(err.message).split("\n")[0]}); give the path of the suite's constants.json as the argument or in ` +
      `MQCONF_CONSTANTS, or put mqconf on PATH\n`);
    process.exit(2);
  }
}

const C = loadConstants();
const V = C.values;
const MAX_LINE = 1 << 20;

// ---- values in and out (docs/implementers.md sections 3 and 4) ------------------------------------------------
const familyOf = (name) => (name.startsWith("MQCLWL_USEQ_") ? "MQCLWL_USEQ" : name.split("_")[0]);

function decodeOptions(value, family) {
  if (value === undefined) return 0;
  if (typeof value === "number") return value;
  let bits = 0;
  for (const name of value) {
    if (!(name in V) || familyOf(name) !== family) throw new Error(`unknown ${family} option ${name}`);
    bits |= V[name];
  }
  return bits;
}

function encodeOptions(bits, family) {
  const names = [];
  let rest = bits >>> 0;
  for (const [name, bit] of Object.entries(C.flags[family] || {})) {
    if (rest & bit) { names.push(name); rest &= ~bit; }
  }
  if (rest) names.push("0x" + rest.toString(16).toUpperCase().padStart(8, "0"));
  return names;
}

function decodeNumber(value, family) {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value in V && (!family || familyOf(value) === family)) return V[value];
  throw new Error(`expected a number or an ${family}_* name, got ${JSON.stringify(value)}`);
}

// Bits no constant of the family names: MQ refuses them with MQRC_OPTIONS_ERROR.
const unnamedBits = (bits, family) => (bits >>> 0) & ~Object.values(C.flags[family] || {}).reduce((a, b) => a | b, 0);

const nameOf = (number, family) => (C.canonical_names[family] || {})[String(number)] || `${family}_${number}`;

function decodeBytes(value, length) {
  let bytes;
  if (value === undefined) bytes = Buffer.alloc(0);
  else if (typeof value === "string") bytes = value in C.bytes ? Buffer.from(C.bytes[value], "hex") : Buffer.from(value, "utf8");
  else if (value.hex !== undefined) bytes = Buffer.from(value.hex, "hex");
  else if (value.fill !== undefined) {
    const unit = Buffer.from(value.fill, "utf8");
    bytes = Buffer.alloc(value.length);
    for (let i = 0; i < value.length; i++) bytes[i] = unit[i % unit.length];
  } else throw new Error("bytes are text, {hex} or {fill, length}");
  if (length === undefined) return bytes;
  const out = Buffer.alloc(length);
  bytes.copy(out, 0, 0, length);
  return out;
}

function encodeId(bytes, none) {
  return bytes.every((b) => b === 0) ? none : bytes.toString("hex");
}

function encodeData(bytes) {
  const text = bytes.toString("utf8");
  const printable = Buffer.from(text, "utf8").equals(bytes) && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
  return printable ? text : { hex: bytes.toString("hex") };
}

// ---- the queue manager ----------------------------------------------------------------------------------------
class QueueManager {
  constructor() {
    this.queues = new Map();
    this.clock = 0;        // virtual milliseconds since 2026-01-01T00:00:00Z: PutDate 20260101, PutTime 00000000
    this.sequence = 0;     // for MsgIds
    this.serial = 0;       // every stored message's place in arrival order, for browse cursors
    this.MaxMsgLength = 4194304;
  }
  putDateTime() {
    const t = new Date(Date.UTC(2026, 0, 1) + this.clock);
    const two = (n) => String(n).padStart(2, "0");
    return [`${t.getUTCFullYear()}${two(t.getUTCMonth() + 1)}${two(t.getUTCDate())}`,
      `${two(t.getUTCHours())}${two(t.getUTCMinutes())}${two(t.getUTCSeconds())}${two(Math.floor(t.getUTCMilliseconds() / 10))}`];
  }
  newMsgId() {
    const id = Buffer.alloc(24);
    Buffer.from("JSEXAMPLE").copy(id);
    id.writeUInt32BE(++this.sequence, 20);
    return id;
  }
}

const QUEUE_DEFAULTS = { MaxMsgLength: 4194304, MaxQDepth: 5000, InhibitPut: 0, InhibitGet: 0, DefPriority: 0,
  DefPersistence: 0, MsgDeliverySequence: V.MQMDS_PRIORITY, Shareability: V.MQQA_SHAREABLE,
  DefInputOpenOption: V.MQOO_INPUT_SHARED };
const QUEUE_FAMILIES = { InhibitPut: "MQQA", InhibitGet: "MQQA", DefPersistence: "MQPER", MsgDeliverySequence: "MQMDS",
  Shareability: "MQQA" };

const MD_FIELDS = ["Version", "Report", "MsgType", "Expiry", "Feedback", "Encoding", "CodedCharSetId", "Format",
  "Priority", "Persistence", "MsgId", "CorrelId", "BackoutCount", "ReplyToQ", "ReplyToQMgr", "UserIdentifier",
  "AccountingToken", "PutApplName", "PutDate", "PutTime", "GroupId", "MsgSeqNumber", "Offset", "MsgFlags", "OriginalLength"];

function decodeMD(given = {}) {
  const md = { Version: 2, Report: 0, MsgType: V.MQMT_DATAGRAM, Expiry: -1, Feedback: 0, Encoding: 546,
    CodedCharSetId: 0, Format: "MQFMT_NONE", Priority: -1, Persistence: V.MQPER_PERSISTENCE_AS_Q_DEF,
    MsgId: Buffer.alloc(24), CorrelId: Buffer.alloc(24), BackoutCount: 0, ReplyToQ: "", ReplyToQMgr: "",
    UserIdentifier: "", AccountingToken: Buffer.alloc(32), PutApplName: "", PutDate: "", PutTime: "",
    GroupId: Buffer.alloc(24), MsgSeqNumber: 1, Offset: 0, MsgFlags: 0, OriginalLength: -1 };
  for (const [key, value] of Object.entries(given)) {
    if (!MD_FIELDS.includes(key)) throw new Error(`MD has no field ${key}`);
    if (["MsgId", "CorrelId", "GroupId"].includes(key)) md[key] = decodeBytes(value, 24);
    else if (key === "AccountingToken") md[key] = decodeBytes(value, 32);
    else if (key === "Report") md[key] = decodeOptions(value, "MQRO");
    else if (key === "MsgFlags") md[key] = decodeOptions(value, "MQMF");
    else if (key === "Persistence") md[key] = decodeNumber(value, "MQPER");
    else if (key === "MsgType") md[key] = decodeNumber(value, "MQMT");
    else if (key === "Priority") md[key] = decodeNumber(value, "MQPRI");
    else md[key] = value;
  }
  return md;
}

function encodeMD(md) {
  return { ...md, Report: encodeOptions(md.Report, "MQRO"), MsgType: nameOf(md.MsgType, "MQMT"),
    Persistence: nameOf(md.Persistence, "MQPER"), MsgId: encodeId(md.MsgId, "MQMI_NONE"),
    CorrelId: encodeId(md.CorrelId, "MQCI_NONE"), AccountingToken: encodeId(md.AccountingToken, "MQACT_NONE"),
    GroupId: encodeId(md.GroupId, "MQGI_NONE"), MsgFlags: encodeOptions(md.MsgFlags, "MQMF") };
}

const fail = (reason) => ({ CompCode: "MQCC_FAILED", Reason: reason });
const ok = (extra = {}) => ({ CompCode: "MQCC_OK", Reason: "MQRC_NONE", ...extra });
class NotImplemented extends Error {}

// ---- one session: connections and handles are names (docs/implementers.md section 3) -------------------------
class Session {
  constructor() {
    this.qm = new QueueManager();
    this.connections = new Map();   // name -> {valid}
    this.handles = new Map();       // name -> {connection, queue, options, valid, cursor}
  }

  connection(name = "default") {
    if (!this.connections.has(name)) this.connections.set(name, { valid: true });
    return this.connections.get(name);
  }

  run(call) {
    const op = call.op;
    if (!(op in this)) return { error: `unknown op ${op}` };
    try {
      return this[op](call);
    } catch (exc) {
      return { error: exc instanceof NotImplemented ? `not implemented: ${exc.message}` : String(exc.message || exc) };
    }
  }

  define_queue(call) {
    const q = { name: call.name, ...QUEUE_DEFAULTS, messages: [], openInput: [] };
    for (const [key, value] of Object.entries(call)) {
      if (key === "op" || key === "name") continue;
      if (!(key in QUEUE_DEFAULTS)) throw new NotImplemented(`queue attribute ${key}`);
      q[key] = key === "DefInputOpenOption" ? decodeOptions(value, "MQOO") : decodeNumber(value, QUEUE_FAMILIES[key]);
    }
    this.qm.queues.set(call.name, q);
    return ok();
  }

  define_qmgr(call) {
    for (const [key, value] of Object.entries(call)) {
      if (key === "op") continue;
      if (key === "MaxMsgLength") this.qm.MaxMsgLength = value;
      else throw new NotImplemented(`queue manager attribute ${key}`);
    }
    return ok();
  }

  connect(call) { this.connections.set(call.connection || "default", { valid: true }); return ok(); }

  disconnect(call) {
    const conn = this.connection(call.connection);
    if (!conn.valid) return fail("MQRC_HCONN_ERROR");
    conn.valid = false;
    for (const handle of this.handles.values()) if (handle.connection === conn) this.closeHandle(handle);
    return ok();
  }

  commit(call) { return this.connection(call.connection).valid ? ok() : fail("MQRC_HCONN_ERROR"); }
  backout(call) { return this.commit(call); }

  advance_clock(call) { this.qm.clock += call.milliseconds; return ok(); }

  open(call) {
    const conn = this.connection(call.connection);
    const handle = { connection: conn, queue: null, options: 0, valid: false, cursor: -1 };
    this.handles.set(call.handle, handle);
    if (!conn.valid) return fail("MQRC_HCONN_ERROR");
    let options = decodeOptions(call.Options, "MQOO");
    if (unnamedBits(options, "MQOO")) return fail("MQRC_OPTIONS_ERROR");
    const q = this.qm.queues.get(call.queue);
    if (call.ObjectQMgrName && call.ObjectQMgrName !== "QM1") return fail("MQRC_UNKNOWN_OBJECT_Q_MGR");
    const access = V.MQOO_INPUT_AS_Q_DEF | V.MQOO_INPUT_SHARED | V.MQOO_INPUT_EXCLUSIVE | V.MQOO_BROWSE |
      V.MQOO_OUTPUT | V.MQOO_INQUIRE | V.MQOO_SET;
    const inputs = [V.MQOO_INPUT_AS_Q_DEF, V.MQOO_INPUT_SHARED, V.MQOO_INPUT_EXCLUSIVE].filter((b) => options & b);
    if (!(options & access) || inputs.length > 1) return fail("MQRC_OPTIONS_ERROR");
    if (!q) return fail("MQRC_UNKNOWN_OBJECT_NAME");
    if (options & V.MQOO_INPUT_AS_Q_DEF) options = (options & ~V.MQOO_INPUT_AS_Q_DEF) | q.DefInputOpenOption;
    const wantsInput = options & (V.MQOO_INPUT_SHARED | V.MQOO_INPUT_EXCLUSIVE);
    if (wantsInput) {
      const exclusive = options & V.MQOO_INPUT_EXCLUSIVE || q.Shareability === V.MQQA_NOT_SHAREABLE;
      const others = q.openInput.filter((h) => h.valid);
      if (others.length && (exclusive || others.some((h) => h.exclusive))) return fail("MQRC_OBJECT_IN_USE");
      handle.exclusive = Boolean(exclusive);
      q.openInput.push(handle);
    }
    Object.assign(handle, { queue: q, options, valid: true });
    return ok();
  }

  closeHandle(handle) {
    handle.valid = false;
    if (handle.queue) handle.queue.openInput = handle.queue.openInput.filter((h) => h !== handle);
  }

  handle(name) {
    const handle = this.handles.get(name);
    if (!handle.connection.valid) return [null, fail("MQRC_HCONN_ERROR")];
    if (!handle.valid) return [null, fail("MQRC_HOBJ_ERROR")];
    return [handle, null];
  }

  close(call) {
    const [handle, error] = this.handle(call.handle);
    if (error) return error;
    const options = decodeOptions(call.Options, "MQCO");
    if (unnamedBits(options, "MQCO")) return fail("MQRC_OPTIONS_ERROR");
    if (options !== 0) throw new NotImplemented("MQCLOSE options");
    this.closeHandle(handle);
    return ok();
  }

  putOn(q, call) {
    const md = decodeMD(call.MD);
    const pmoOptions = decodeOptions((call.PMO || {}).Options, "MQPMO");
    if (unnamedBits(pmoOptions, "MQPMO")) return fail("MQRC_OPTIONS_ERROR");
    if (pmoOptions & ~(V.MQPMO_NO_SYNCPOINT | V.MQPMO_NEW_MSG_ID | V.MQPMO_NEW_CORREL_ID | V.MQPMO_FAIL_IF_QUIESCING)) {
      throw new NotImplemented(`put options ${encodeOptions(pmoOptions, "MQPMO").join(", ")}`);
    }
    if (md.MsgFlags) throw new NotImplemented("message groups and segments (MsgFlags)");
    const data = decodeBytes(call.data);
    if (md.Priority < -1 || md.Priority > 9) return fail("MQRC_PRIORITY_ERROR");
    if (![0, 1, 2].includes(md.Persistence)) return fail("MQRC_PERSISTENCE_ERROR");
    if (q.InhibitPut) return fail("MQRC_PUT_INHIBITED");
    if (data.length > this.qm.MaxMsgLength) return fail("MQRC_MSG_TOO_BIG_FOR_Q_MGR");
    if (data.length > q.MaxMsgLength) return fail("MQRC_MSG_TOO_BIG_FOR_Q");
    if (q.messages.length >= q.MaxQDepth) return fail("MQRC_Q_FULL");
    if (pmoOptions & V.MQPMO_NEW_MSG_ID || md.MsgId.every((b) => b === 0)) md.MsgId = this.qm.newMsgId();
    if (pmoOptions & V.MQPMO_NEW_CORREL_ID) md.CorrelId = this.qm.newMsgId();
    [md.PutDate, md.PutTime] = this.qm.putDateTime();
    const stored = { ...md, data, Priority: md.Priority === -1 ? q.DefPriority : md.Priority,
      Persistence: md.Persistence === 2 ? q.DefPersistence : md.Persistence };
    stored.serial = ++this.qm.serial;
    q.messages.push(stored);
    const pmo = { Version: 3, Options: encodeOptions(pmoOptions, "MQPMO"), ResolvedQName: q.name, ResolvedQMgrName: "QM1" };
    return ok({ MD: encodeMD(md), PMO: pmo });
  }

  put(call) {
    const [handle, error] = this.handle(call.handle);
    if (error) return error;
    if (!(handle.options & V.MQOO_OUTPUT)) return fail("MQRC_NOT_OPEN_FOR_OUTPUT");
    return this.putOn(handle.queue, call);
  }

  put1(call) {
    const conn = this.connection(call.connection);
    if (!conn.valid) return fail("MQRC_HCONN_ERROR");
    if (call.ObjectQMgrName && call.ObjectQMgrName !== "QM1") return fail("MQRC_UNKNOWN_OBJECT_Q_MGR");
    const q = this.qm.queues.get(call.queue);
    if (!q) return fail("MQRC_UNKNOWN_OBJECT_NAME");
    return this.putOn(q, call);
  }

  ordered(q) {
    const indexed = q.messages.map((m, i) => [m, i]);
    if (q.MsgDeliverySequence === V.MQMDS_PRIORITY) indexed.sort((a, b) => b[0].Priority - a[0].Priority || a[1] - b[1]);
    return indexed.map(([m]) => m);
  }

  get(call) {
    const [handle, error] = this.handle(call.handle);
    if (error) return error;
    const given = call.GMO || {};
    const options = decodeOptions(given.Options, "MQGMO");
    if (unnamedBits(options, "MQGMO")) return fail("MQRC_OPTIONS_ERROR");
    const browse = options & (V.MQGMO_BROWSE_FIRST | V.MQGMO_BROWSE_NEXT);
    const known = V.MQGMO_WAIT | V.MQGMO_NO_SYNCPOINT | V.MQGMO_ACCEPT_TRUNCATED_MSG | V.MQGMO_BROWSE_FIRST |
      V.MQGMO_BROWSE_NEXT | V.MQGMO_FAIL_IF_QUIESCING;
    if (options & ~known) throw new NotImplemented(`get options ${encodeOptions(options & ~known, "MQGMO").join(", ")}`);
    if ((options & V.MQGMO_BROWSE_FIRST) && (options & V.MQGMO_BROWSE_NEXT)) return fail("MQRC_OPTIONS_ERROR");
    if (browse && !(handle.options & V.MQOO_BROWSE)) return fail("MQRC_NOT_OPEN_FOR_BROWSE");
    if (!browse && !(handle.options & (V.MQOO_INPUT_SHARED | V.MQOO_INPUT_EXCLUSIVE))) return fail("MQRC_NOT_OPEN_FOR_INPUT");
    const q = handle.queue;
    if (q.InhibitGet) return fail("MQRC_GET_INHIBITED");
    const md = decodeMD(call.MD);
    const match = decodeOptions(given.MatchOptions || ["MQMO_MATCH_MSG_ID", "MQMO_MATCH_CORREL_ID"], "MQMO");
    if (match & ~(V.MQMO_MATCH_MSG_ID | V.MQMO_MATCH_CORREL_ID)) throw new NotImplemented("match options beyond MsgId and CorrelId");
    const matches = (m) => (!(match & V.MQMO_MATCH_MSG_ID) || md.MsgId.every((b) => b === 0) || m.MsgId.equals(md.MsgId)) &&
      (!(match & V.MQMO_MATCH_CORREL_ID) || md.CorrelId.every((b) => b === 0) || m.CorrelId.equals(md.CorrelId));
    const order = this.ordered(q);
    let start = 0;  // a browse-next starts after the message under the browse cursor
    if (browse && !(options & V.MQGMO_BROWSE_FIRST) && handle.cursor >= 0) {
      const at = order.findIndex((m) => m.serial === handle.cursor);
      start = at >= 0 ? at + 1 : order.findIndex((m) => m.serial > handle.cursor);
      if (start < 0) start = order.length;
    }
    const found = order.slice(start).find(matches);
    if (!found) {
      if (options & V.MQGMO_WAIT) this.qm.clock += Math.max(0, given.WaitInterval || 0);
      return fail("MQRC_NO_MSG_AVAILABLE");
    }
    const buffer = call.BufferLength === undefined ? found.data.length : call.BufferLength;
    const truncated = found.data.length > buffer;
    if (truncated && !(options & V.MQGMO_ACCEPT_TRUNCATED_MSG)) {
      // MQRC_TRUNCATED_MSG_FAILED: the message stays on the queue, but its MQMD and part of its data are returned
    } else if (!browse) {
      q.messages.splice(q.messages.indexOf(found), 1);
    }
    if (browse) handle.cursor = found.serial;
    const out = { ...found };
    delete out.data;
    delete out.serial;
    const gmo = { Version: 4, Options: encodeOptions(options, "MQGMO"), WaitInterval: given.WaitInterval || 0,
      ResolvedQName: q.name, MatchOptions: encodeOptions(match, "MQMO"), GroupStatus: "MQGS_NOT_IN_GROUP",
      SegmentStatus: "MQSS_NOT_A_SEGMENT", Segmentation: "MQSEG_INHIBITED", MsgToken: "MQMTOK_NONE",
      ReturnedLength: Math.min(buffer, found.data.length) };
    const result = { MD: encodeMD(out), GMO: gmo, data: encodeData(found.data.subarray(0, buffer)),
      DataLength: found.data.length };
    if (truncated) {
      return { CompCode: "MQCC_WARNING", Reason: options & V.MQGMO_ACCEPT_TRUNCATED_MSG ? "MQRC_TRUNCATED_MSG_ACCEPTED" : "MQRC_TRUNCATED_MSG_FAILED", ...result };
    }
    return ok(result);
  }

  inquire(call) {
    const [handle, error] = this.handle(call.handle);
    if (error) return error;
    if (!(handle.options & V.MQOO_INQUIRE)) return fail("MQRC_NOT_OPEN_FOR_INQUIRE");
    const q = handle.queue;
    const known = { MQIA_CURRENT_Q_DEPTH: q.messages.length, MQIA_MAX_Q_DEPTH: q.MaxQDepth,
      MQIA_MAX_MSG_LENGTH: q.MaxMsgLength, MQIA_DEF_PRIORITY: q.DefPriority, MQIA_INHIBIT_PUT: q.InhibitPut,
      MQIA_INHIBIT_GET: q.InhibitGet, MQIA_OPEN_INPUT_COUNT: q.openInput.filter((h) => h.valid).length };
    const attributes = {};
    for (const selector of call.Selectors || []) {
      if (!(selector in known)) return fail("MQRC_SELECTOR_ERROR");
      attributes[selector] = known[selector];
    }
    return ok({ attributes });
  }
}

// ---- the protocol (docs/implementers.md sections 1, 2 and 6) ---------------------------------------------------
let session = new Session();

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function handle(line) {
  if (Buffer.byteLength(line, "utf8") > MAX_LINE) return reply({ type: "error", id: null, message: "line over 1 MiB" });
  let request;
  try {
    request = JSON.parse(line);
  } catch (exc) {
    return reply({ type: "error", id: null, message: `request is not JSON: ${exc.message}` });
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return reply({ type: "error", id: null, message: "request is not an object" });
  }
  switch (request.type) {
    case "hello":
      return reply({ type: "hello", protocol: 1,
        implementation: { name: "mq-conformance example server", version: "0.1.0", language: "JavaScript" },
        capabilities: ["core"] });
    case "reset":
      session = new Session();
      return reply({ type: "reset", ok: true });
    case "call":
      return reply({ type: "outcome", id: request.id, outcome: session.run(request.call || {}) });
    case "bye":
      process.exit(0);
      break;
    default:
      return reply({ type: "error", id: typeof request.id === "number" ? request.id : null,
        message: `unknown request type ${JSON.stringify(request.type)}` });
  }
}

readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", handle).on("close", () => process.exit(0));
