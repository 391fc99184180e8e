"""v0 named events: ``parse_chat_event(name, payload)`` (v0-wire spec section 3).

The event name is the discriminant (one of eleven); a payload that is not an
object counts as ``{}``; a payload ``type`` that is a string and differs from
the name refuses the frame; each event keeps only its own fields. Returns the
event or None.
"""

from ._js import MISSING, is_number, is_record

V0_TYPES = (
    "session", "delta", "tool_call", "tool_result", "provenance", "card", "card_closed",
    "state", "done", "error", "navigate",
)


def parse_chat_event(name, data):
    if not isinstance(name, str) or name not in V0_TYPES:
        return None
    p = data if is_record(data) else {}
    declared = p.get("type", MISSING)
    if isinstance(declared, str) and declared != name:
        return None

    def string(key):
        v = p.get(key, MISSING)
        return v if isinstance(v, str) else None

    if name in ("session", "delta", "card_closed", "navigate"):
        key = {"session": "sessionId", "delta": "text", "card_closed": "correlationId",
               "navigate": "href"}[name]
        v = string(key)
        return None if v is None else {"type": name, key: v}
    if name in ("tool_call", "tool_result"):
        n = string("name")
        if not n:
            return None
        out = {"type": name, "name": n}
        if name == "tool_call" and "input" in p:
            out["input"] = p["input"]
        if string("callId") is not None:
            out["callId"] = p["callId"]
        if name == "tool_result":
            if isinstance(p.get("ok", MISSING), bool):
                out["ok"] = p["ok"]
            if string("summary") is not None:
                out["summary"] = p["summary"]
        return out
    if name == "provenance":
        engine, model = string("engine"), string("model")
        if engine is None or model is None:
            return None
        out = {"type": name, "engine": engine, "model": model}
        route = p.get("accountRoute", MISSING)
        if route is None or isinstance(route, str):
            out["accountRoute"] = route
        return out
    if name == "card":
        card = p.get("card", MISSING)
        if not is_record(card) or not isinstance(card.get("correlationId", MISSING), str) \
                or not isinstance(card.get("prompt", MISSING), str):
            return None
        return {"type": name, "card": card}
    if name == "state":
        version = p.get("version", MISSING)
        out = {"type": name, "version": version if is_number(version) else 0}
        out["snapshot"] = p.get("snapshot", MISSING)
        return out
    if name == "done":
        out = {"type": name}
        if string("stopReason") is not None:
            out["stopReason"] = p["stopReason"]
        if is_record(p.get("usage", MISSING)):
            out["usage"] = p["usage"]
        return out
    # error
    message = string("message")
    return {"type": name, "message": message if message is not None else "stream error"}
