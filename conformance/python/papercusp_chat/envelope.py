"""v1 envelopes: validate one frame and rebuild it with the contract's keys only.

Rules (README "v1: envelopes, lifecycle, state"; JSON Schema
``schema/v1/chat-event-envelope.schema.json``): ``schemaVersion`` exactly 1
(else ``unsupported-version``), an event ``type`` among the sixteen (else
``unknown-event-type``), wire ids (non-empty, no CR, LF, NUL or lone
surrogate), a positive safe-integer ``seq``, an optional finite ``at`` >= 0
and each event's fields (else ``invalid-envelope``): grounded block ids
unique within a result, an ``ext`` event's namespaced name and bounded JSON
data. Unknown keys are dropped; opaque data (tool input and output, state
snapshots, cards) is kept as is.
"""

from ._js import (
    MISSING,
    is_finite,
    is_finite_non_neg,
    is_non_empty,
    is_number,
    is_record,
    is_safe_int,
    json_loads,
    same_number,
    utf16_len,
)

import re

EVENT_TYPES = (
    "session", "delta", "reasoning", "tool_call", "tool_progress", "tool_result",
    "provenance", "card", "card_closed", "state", "done", "error", "navigate", "turn_status",
    "ext", "elided",
)
CHANNELS = ("event", "state", "transient")
EXTENSION_NAME = re.compile(
    r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*)+\Z")
MAX_EXTENSION_NAME_LENGTH = 128
MAX_EXTENSION_DEPTH = 32
MAX_EXTENSION_VALUES = 10_000
_NOT_WIRE = re.compile("[\r\n\x00\ud800-\udfff]")
RESOLUTIONS = ("submitted", "declined", "cancelled", "expired", "interrupted")
USAGE_KEYS = ("totalTokens", "inputTokens", "outputTokens", "costUsd")
TURN_STATUS_TARGETS = ("running", "cancelled", "interrupted", "needs-reconciliation")
DEFAULT_MAX_ENVELOPE_BYTES = 1_048_576


class Refused(Exception):
    """A refusal: ``code`` and a human ``message``."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def _bad(path, message):
    raise Refused("invalid-envelope", "invalid v1 envelope: %s %s" % (path, message))


def is_wire_id(v):
    """A non-empty string with no CR, LF, NUL or lone surrogate (json.loads joins a pair)."""
    return is_non_empty(v) and _NOT_WIRE.search(v) is None


def _wire_id(e, key, path):
    if not is_wire_id(e.get(key, MISSING)):
        _bad(path, "must be a wire id (non-empty, no CR, LF, NUL or lone surrogate)")


def is_extension_name(v):
    return isinstance(v, str) and len(v) <= MAX_EXTENSION_NAME_LENGTH and \
        EXTENSION_NAME.match(v) is not None


def json_problem(v):
    """The first reason ``v`` is not bounded JSON data (depth, value count), or None."""
    count = 0
    stack = [(v, 0)]
    while stack:
        x, level = stack.pop()
        count += 1
        if count > MAX_EXTENSION_VALUES:
            return "holds more than %d JSON values" % MAX_EXTENSION_VALUES
        if isinstance(x, (list, dict)):
            if level == MAX_EXTENSION_DEPTH:
                return "nests arrays and objects deeper than %d" % MAX_EXTENSION_DEPTH
            items = x if isinstance(x, list) else x.values()
            stack.extend((y, level + 1) for y in reversed(list(items)))
    return None


def _blocks(v):
    if not isinstance(v, list):
        _bad("event.blocks", "must be an array")
    out = []
    for i, b in enumerate(v):
        if not is_record(b):
            _bad("event.blocks.%d" % i, "must be an object")
        if not is_non_empty(b.get("id", MISSING)):
            _bad("event.blocks.%d.id" % i, "must be a non-empty string")
        if any(o["id"] == b["id"] for o in out):
            _bad("event.blocks.%d.id" % i, "repeats the id of an earlier block")
        if not isinstance(b.get("text", MISSING), str):
            _bad("event.blocks.%d.text" % i, "must be a string")
        sources = b.get("sources", MISSING)
        if not isinstance(sources, list):
            _bad("event.blocks.%d.sources" % i, "must be an array")
        refs = []
        for j, r in enumerate(sources):
            if not is_record(r):
                _bad("event.blocks.%d.sources.%d" % (i, j), "must be an object")
            if not is_non_empty(r.get("ref", MISSING)):
                _bad("event.blocks.%d.sources.%d.ref" % (i, j), "must be a non-empty string")
            label = r.get("label", MISSING)
            if label is MISSING:
                refs.append({"ref": r["ref"]})
            elif isinstance(label, str):
                refs.append({"ref": r["ref"], "label": label})
            else:
                _bad("event.blocks.%d.sources.%d.label" % (i, j), "must be a string")
        out.append({"id": b["id"], "text": b["text"], "sources": refs})
    return out


def _optional_string(e, out, key):
    v = e.get(key, MISSING)
    if v is MISSING:
        return
    if not isinstance(v, str):
        _bad("event." + key, "must be a string")
    out[key] = v


def _event(e, t):
    """The rebuilt event of type ``t`` (raises Refused)."""
    get = e.get
    if t in ("delta", "reasoning"):
        if not isinstance(get("text", MISSING), str):
            _bad("event.text", "must be a string")
        return {"type": t, "text": e["text"]}
    if t == "tool_call":
        _wire_id(e, "callId", "event.callId")
        if not is_non_empty(get("name", MISSING)):
            _bad("event.name", "must be a non-empty string")
        out = {"type": t, "callId": e["callId"], "name": e["name"]}
        if "input" in e:
            out["input"] = e["input"]
        return out
    if t == "tool_progress":
        _wire_id(e, "callId", "event.callId")
        out = {"type": t, "callId": e["callId"]}
        _optional_string(e, out, "message")
        p = get("progress", MISSING)
        if p is not MISSING:
            if not (is_number(p) and 0 <= p <= 1):
                _bad("event.progress", "must be a number from 0 to 1")
            out["progress"] = p
        return out
    if t == "tool_result":
        _wire_id(e, "callId", "event.callId")
        if not is_non_empty(get("name", MISSING)):
            _bad("event.name", "must be a non-empty string")
        if not isinstance(get("ok", MISSING), bool):
            _bad("event.ok", "must be a boolean")
        out = {"type": t, "callId": e["callId"], "name": e["name"], "ok": e["ok"]}
        _optional_string(e, out, "summary")
        if "output" in e:
            out["output"] = e["output"]
        if "blocks" in e:
            out["blocks"] = _blocks(e["blocks"])
        return out
    if t == "session":
        _wire_id(e, "sessionId", "event.sessionId")
        return {"type": t, "sessionId": e["sessionId"]}
    if t == "provenance":
        if not is_non_empty(get("engine", MISSING)):
            _bad("event.engine", "must be a non-empty string")
        if not is_non_empty(get("model", MISSING)):
            _bad("event.model", "must be a non-empty string")
        out = {"type": t, "engine": e["engine"], "model": e["model"]}
        _optional_string(e, out, "provider")
        route = get("accountRoute", MISSING)
        if route is not MISSING:
            if route is not None and not isinstance(route, str):
                _bad("event.accountRoute", "must be a string or null")
            out["accountRoute"] = route
        return out
    if t == "card":
        card = get("card", MISSING)
        if not is_record(card):
            _bad("event.card", "must be an object")
        _wire_id(card, "correlationId", "event.card.correlationId")
        if not isinstance(card.get("prompt", MISSING), str):
            _bad("event.card.prompt", "must be a string")
        if not is_finite(card.get("createdAt", MISSING)):
            _bad("event.card.createdAt", "must be a finite number (epoch ms)")
        return {"type": t, "card": card}
    if t == "card_closed":
        _wire_id(e, "correlationId", "event.correlationId")
        resolution = get("resolution", MISSING)
        if resolution is MISSING:
            return {"type": t, "correlationId": e["correlationId"]}
        if resolution not in RESOLUTIONS or not isinstance(resolution, str):
            _bad("event.resolution", "must be a known card resolution")
        return {"type": t, "correlationId": e["correlationId"], "resolution": resolution}
    if t == "state":
        if not is_safe_int(get("version", MISSING), 0):
            _bad("event.version", "must be a non-negative integer")
        if "snapshot" not in e:
            _bad("event.snapshot", "is required (use null for none)")
        return {"type": t, "version": e["version"], "snapshot": e["snapshot"]}
    if t == "done":
        out = {"type": t}
        _optional_string(e, out, "stopReason")
        usage = get("usage", MISSING)
        if usage is not MISSING:
            if not is_record(usage):
                _bad("event.usage", "must be an object")
            u = {}
            for k in USAGE_KEYS:
                v = usage.get(k, MISSING)
                if v is MISSING:
                    continue
                if not is_finite_non_neg(v):
                    _bad("event.usage." + k, "must be a finite number >= 0")
                u[k] = v
            out["usage"] = u
        return out
    if t == "error":
        if not isinstance(get("message", MISSING), str):
            _bad("event.message", "must be a string")
        retryable = get("retryable", MISSING)
        if not isinstance(retryable, bool):
            _bad("event.retryable", "must be a boolean (explicit retry permission)")
        out = {"type": t, "message": e["message"], "retryable": retryable}
        _optional_string(e, out, "code")
        after = get("retryAfterMs", MISSING)
        if after is not MISSING:
            if not is_finite_non_neg(after):
                _bad("event.retryAfterMs", "must be a finite number >= 0")
            if not retryable:
                _bad("event.retryAfterMs", "is only allowed when retryable is true")
            out["retryAfterMs"] = after
        return out
    if t == "navigate":
        if not isinstance(get("href", MISSING), str):
            _bad("event.href", "must be a string")
        return {"type": t, "href": e["href"]}
    if t == "ext":
        if not is_extension_name(get("name", MISSING)):
            _bad("event.name", "must be an extension name (lowercase namespace.name segments)")
        channel = get("channel", MISSING)
        if channel is not MISSING and (not isinstance(channel, str) or channel not in CHANNELS):
            _bad("event.channel", "must be event, state or transient")
        if "data" not in e:
            _bad("event.data", "is required (JSON data, null for none)")
        problem = json_problem(e["data"])
        if problem is not None:
            _bad("event.data", problem)
        out = {"type": t, "name": e["name"]}
        if channel is not MISSING:
            out["channel"] = channel
        out["data"] = e["data"]
        return out
    if t == "elided":
        of = get("of", MISSING)
        if not isinstance(of, str) or of not in ("navigate", "ext"):
            _bad("event.of", "must be navigate or ext")
        return {"type": t, "of": of}
    # turn_status
    status = get("status", MISSING)
    if not isinstance(status, str) or status not in TURN_STATUS_TARGETS:
        _bad("event.status", "must be running, cancelled, interrupted or needs-reconciliation")
    out = {"type": t, "status": status}
    _optional_string(e, out, "reason")
    return out


def parse_chat_envelope(value):
    """Validate one envelope (a JSON value); return the rebuilt envelope or raise :class:`Refused`."""
    if not is_record(value):
        _bad("envelope", "must be an object")
    if not same_number(value.get("schemaVersion", MISSING), 1):
        raise Refused("unsupported-version", "unsupported envelope schemaVersion (expected 1)")
    ev = value.get("event", MISSING)
    if not is_record(ev):
        _bad("event", "must be an object")
    t = ev.get("type", MISSING)
    if not isinstance(t, str):
        _bad("event.type", "must be a string")
    if t not in EVENT_TYPES:
        raise Refused("unknown-event-type", "unknown v1 event type %r" % t[:64])
    for key in ("conversationId", "turnId", "eventId"):
        _wire_id(value, key, key)
    if not is_safe_int(value.get("seq", MISSING), 1):
        _bad("seq", "must be a positive integer")
    at = value.get("at", MISSING)
    if at is not MISSING and not is_finite_non_neg(at):
        _bad("at", "must be a finite number >= 0 (epoch ms)")
    event = _event(ev, t)
    out = {
        "schemaVersion": 1,
        "conversationId": value["conversationId"],
        "turnId": value["turnId"],
        "eventId": value["eventId"],
        "seq": value["seq"],
    }
    if at is not MISSING:
        out["at"] = at
    out["event"] = event
    return out


def parse_chat_envelope_json(text, max_bytes=DEFAULT_MAX_ENVELOPE_BYTES):
    """Parse JSON text (one NDJSON line or SSE data) and validate it; raises :class:`Refused`."""
    if utf16_len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise Refused("too-large", "envelope text is over %d bytes" % max_bytes)
    try:
        value = json_loads(text)
    except ValueError as e:
        raise Refused("invalid-json", "not valid JSON: %s" % str(e)[:200])
    return parse_chat_envelope(value)
