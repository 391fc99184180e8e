"""Legacy frames (Scout's unnamed frames, Papercup's named v0 events) upgraded to v1 envelopes.

The host supplies what legacy frames lack (README "Legacy frames"): the
conversation and turn ids, each accepted frame's ``eventId`` and ``seq``, a
stable mapping for tool frames without a ``callId`` (never invented) and the
retry permission of errors. :class:`LegacyUpgrader` keeps the per-turn state
(the n-th call / result for the mapping, the last allocated ``seq``).
"""

import re

from ._js import (
    MISSING,
    is_finite_non_neg,
    is_non_empty,
    is_record,
    is_safe_int,
    js_trim,
    json_loads,
    utf16_len,
)
from .envelope import Refused, parse_chat_envelope
from .v0 import V0_TYPES, parse_chat_event

MAX_DATA_LENGTH = 1_048_576
SCOUT_CHAT_TYPES = ("token", "tool_start", "session", "card", "card_closed", "state", "done",
                    "error", "navigate")
_DECIMAL = re.compile(r"[0-9]+")


def _usage(v):
    if not is_record(v):
        return MISSING
    return {k: v[k] for k in ("totalTokens", "inputTokens", "outputTokens", "costUsd")
            if is_finite_non_neg(v.get(k, MISSING))}


def decode_legacy_frame(frame, dialect, max_data_length=None):
    """``(kind, event_or_type, wire_type)``: kind chat / domain / heartbeat. Raises Refused."""
    if not is_record(frame):
        raise Refused("invalid-frame", "the frame is not an object")
    data, fid, event = frame.get("data", MISSING), frame.get("id", MISSING), frame.get("event", MISSING)
    if not isinstance(data, str):
        raise Refused("invalid-frame", "the frame has no string data")
    if fid is not MISSING and not isinstance(fid, str):
        raise Refused("invalid-frame", "the frame's id is not a string")
    if event is not MISSING and not isinstance(event, str):
        raise Refused("invalid-frame", "the frame's event is not a string")
    if event == "":
        event = MISSING
    bound = max_data_length if isinstance(max_data_length, (int, float)) \
        and not isinstance(max_data_length, bool) and max_data_length > 0 else MAX_DATA_LENGTH
    if utf16_len(data) > bound:
        raise Refused("oversized", "the frame's data is over the bound")
    if event == "heartbeat":
        return "heartbeat", None, "heartbeat"
    if dialect == "scout" and fid is not MISSING and fid != "" and not _DECIMAL.fullmatch(fid):
        raise Refused("invalid-id", "Scout frame ids are decimal numbers")
    if js_trim(data) == "":
        raise Refused("invalid-json", "the frame's data is empty")
    try:
        value = json_loads(data)
    except ValueError:
        raise Refused("invalid-json", "the frame's data is not valid JSON")
    if dialect == "papercup":
        if event is MISSING or event == "message":
            raise Refused("missing-event-name", "a Papercup frame needs an event: name")
        if event not in V0_TYPES:
            return "domain", event, event
        if is_record(value):
            t = value.get("type", MISSING)
            if isinstance(t, str) and t != event:
                raise Refused("type-mismatch", "the payload's type differs from the event name")
        parsed = parse_chat_event(event, value)
        if parsed is None:
            raise Refused("invalid-event", "the %s frame breaks the v0 rules" % event)
        return "chat", parsed, event
    if not is_record(value):
        raise Refused("not-an-object", "a Scout frame's data must be a JSON object")
    t = value.get("type", MISSING)
    if not isinstance(t, str) or t == "":
        raise Refused("missing-type", "a Scout frame's data needs a string type")
    if t not in SCOUT_CHAT_TYPES:
        return "domain", t, t
    return "chat", _scout(value, t), t


def _scout(p, t):
    def bad(why):
        raise Refused("invalid-event", "Scout %s frame %s" % (t, why))

    def string(key):
        v = p.get(key, MISSING)
        if not isinstance(v, str):
            bad("needs a string " + key)
        return v

    if t == "session":
        return {"type": "session", "sessionId": string("sessionId")}
    if t == "token":
        return {"type": "delta", "text": string("content")}
    if t == "tool_start":
        for field in ("tool", "name"):
            v = p.get(field, MISSING)
            if v is not MISSING and not isinstance(v, str):
                bad("has a %s that is not a string" % field)
        tool, name = p.get("tool", MISSING), p.get("name", MISSING)
        if tool is not MISSING and name is not MISSING and tool != name:
            bad("names the tool twice, differently")
        tool_name = tool if tool is not MISSING else name
        if tool_name is MISSING or tool_name == "":
            bad("needs a non-empty string tool (or name)")
        event = {"type": "tool_call", "name": tool_name}
        call_id = p.get("callId", MISSING)
        if call_id is not MISSING:
            if not is_non_empty(call_id):
                bad("has a callId that is not a non-empty string")
            event["callId"] = call_id
        if "input" in p:
            event["input"] = p["input"]
        return event
    if t == "card":
        card = p.get("card", MISSING)
        if not is_record(card) or not isinstance(card.get("correlationId", MISSING), str) \
                or not isinstance(card.get("prompt", MISSING), str):
            bad("needs a card object with string correlationId and prompt")
        return {"type": "card", "card": card}
    if t == "card_closed":
        return {"type": "card_closed", "correlationId": string("correlationId")}
    if t == "state":
        if not is_safe_int(p.get("version", MISSING), 0):
            bad("needs a non-negative integer version")
        return {"type": "state", "version": p["version"], "snapshot": p.get("snapshot", MISSING)}
    if t == "done":
        event = {"type": "done"}
        if isinstance(p.get("stopReason", MISSING), str):
            event["stopReason"] = p["stopReason"]
        usage = _usage(p.get("usage", MISSING))
        if usage is not MISSING:
            event["usage"] = usage
        return event
    if t == "error":
        return {"type": "error", "message": string("message")}
    return {"type": "navigate", "href": string("href")}


class LegacyUpgrader:
    """Upgrades one turn's legacy frames. ``allocate()`` returns ``{eventId, seq}`` (may raise);
    ``call_id_for(kind, index)`` returns a call id or None ("call" / "result", 0-based per kind)."""

    def __init__(self, dialect, conversation_id, turn_id, allocate, call_id_for=None,
                 retryable=MISSING, retry_after_ms=MISSING, error_code=MISSING, at=MISSING,
                 max_data_length=None):
        self.dialect = dialect
        self.conversation_id = conversation_id
        self.turn_id = turn_id
        self.allocate = allocate
        self.call_id_for = call_id_for
        self.retryable = retryable
        self.retry_after_ms = retry_after_ms
        self.error_code = error_code
        self.at = at
        self.max_data_length = max_data_length
        self._counts = {"call": 0, "result": 0}
        self._last_seq = None

    def upgrade(self, frame):
        """The v1 envelope for ``frame``, or raises Refused."""
        if not is_non_empty(self.conversation_id) or not is_non_empty(self.turn_id):
            raise Refused("invalid-context", "the host must supply non-empty ids")
        if self.at is not MISSING and not is_finite_non_neg(self.at):
            raise Refused("invalid-context", "at must be epoch milliseconds")
        if self.dialect not in ("scout", "papercup") or not isinstance(self.dialect, str):
            raise Refused("invalid-context", "dialect must be scout or papercup")
        kind, event, wire = decode_legacy_frame(frame, self.dialect, self.max_data_length)
        if kind != "chat":
            raise Refused("not-chat-event", "%s is not a chat event" % wire)
        v1 = self._to_v1(event, wire)
        try:
            parse_chat_envelope({"schemaVersion": 1, "conversationId": self.conversation_id,
                                 "turnId": self.turn_id, "eventId": "probe", "seq": 1,
                                 "event": v1})
        except Refused:
            raise Refused("invalid-event", "the upgraded event is not a valid v1 event")
        try:
            got = self.allocate()
        except Exception:
            raise Refused("invalid-allocation", "allocate() failed")
        event_id = got.get("eventId", MISSING) if is_record(got) else MISSING
        seq = got.get("seq", MISSING) if is_record(got) else MISSING
        if not is_non_empty(event_id) or not is_safe_int(seq, 1):
            raise Refused("invalid-allocation", "allocate() must return an eventId and a seq")
        if self._last_seq is not None and seq <= self._last_seq:
            raise Refused("invalid-allocation", "seq must grow")
        self._last_seq = seq
        env = {"schemaVersion": 1, "conversationId": self.conversation_id,
               "turnId": self.turn_id, "eventId": event_id, "seq": seq, "event": v1}
        if self.at is not MISSING:
            env["at"] = self.at
        return env

    def _call_id(self, kind, event):
        index = self._counts[kind]
        self._counts[kind] += 1
        own = event.get("callId", MISSING)
        if own is not MISSING and own != "":
            return own
        mapped = None if self.call_id_for is None else self.call_id_for(kind, index)
        if mapped is None:
            raise Refused("missing-call-identity", "no callId and no host mapping")
        if not is_non_empty(mapped):
            raise Refused("invalid-context", "callIdFor returned something else than an id")
        return mapped

    def _to_v1(self, e, wire):
        t = e["type"]
        if t == "tool_call":
            out = {"type": "tool_call", "callId": self._call_id("call", e), "name": e["name"]}
            if "input" in e:
                out["input"] = e["input"]
            return out
        if t == "tool_result":
            call_id = self._call_id("result", e)
            if not isinstance(e.get("ok", MISSING), bool):
                raise Refused("unknown-result-status", "ok is absent or not a boolean")
            out = {"type": "tool_result", "callId": call_id, "name": e["name"], "ok": e["ok"]}
            if "summary" in e:
                out["summary"] = e["summary"]
            return out
        if t == "provenance":
            if e["engine"] == "" or e["model"] == "":
                raise Refused("invalid-event", "a v1 provenance needs engine and model")
            out = {"type": "provenance", "engine": e["engine"], "model": e["model"]}
            if "accountRoute" in e:
                out["accountRoute"] = e["accountRoute"]
            return out
        if t == "state":
            if not is_safe_int(e["version"], 0):
                raise Refused("invalid-event", "a v1 state needs a non-negative integer version")
            snapshot = e["snapshot"]
            return {"type": "state", "version": e["version"],
                    "snapshot": None if snapshot is MISSING else snapshot}
        if t == "done":
            out = {"type": "done"}
            if "stopReason" in e:
                out["stopReason"] = e["stopReason"]
            usage = _usage(e.get("usage", MISSING))
            if usage is not MISSING:
                out["usage"] = usage
            return out
        if t == "error":
            if not isinstance(self.retryable, bool):
                raise Refused("missing-retry-permission", "the host gave no retryable decision")
            out = {"type": "error", "message": e["message"], "retryable": self.retryable}
            if is_non_empty(self.error_code):
                out["code"] = self.error_code
            if self.retryable and is_finite_non_neg(self.retry_after_ms):
                out["retryAfterMs"] = self.retry_after_ms
            return out
        if t == "card_closed":
            return {"type": "card_closed", "correlationId": e["correlationId"]}
        return dict(e)  # session, delta, card, navigate: already their v1 shape
