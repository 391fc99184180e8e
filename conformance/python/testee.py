#!/usr/bin/env python3
"""The Python testee of the conformance corpus: protocol ``papercusp-conformance/1``.

Reads one JSON object per line on stdin (a ``hello``, then ``case`` lines) and
writes one per line on stdout (``hello``, then an ``outcome`` or an ``error``
per case), running each case with the ``papercusp_chat`` client next to this
file. See ``conformance/README.md``.

Usage: ``python3 conformance/python/testee.py``
"""

import base64
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from papercusp_chat._js import MISSING, js_trim, json_dumps, json_loads  # noqa: E402
from papercusp_chat.cards import CardRefused, validate_card_response  # noqa: E402
from papercusp_chat.envelope import Refused, parse_chat_envelope_json  # noqa: E402
from papercusp_chat.fold import ChatStateFolder  # noqa: E402
from papercusp_chat.legacy import LegacyUpgrader  # noqa: E402
from papercusp_chat.negotiation import (  # noqa: E402
    negotiate_chat_version,
    negotiate_chat_versions,
    require_chat_capabilities,
)
from papercusp_chat.replay import ReplayRefused, replay_after, replay_type  # noqa: E402
from papercusp_chat.blocks import split_turn_text  # noqa: E402
from papercusp_chat.sse import SseLimitError, SseParser  # noqa: E402
from papercusp_chat import schema  # noqa: E402

PROTOCOL = "papercusp-conformance/1"
KINDS = ["schema", "fold", "sse", "capabilities", "version", "legacy", "replay", "blocks",
         "card-answer"]


def _fold_frames(inp):
    """The frames of a fold case: ``("value", v)`` or ``("text", s)``."""
    if isinstance(inp.get("frames"), list):
        return [("value", v) for v in inp["frames"]]
    if isinstance(inp.get("ndjson"), str):
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in inp["ndjson"].split("\n")]
        return [("text", line) for line in lines if js_trim(line) != ""]
    texts = []
    parser = SseParser(lambda m: texts.append(m["data"]))
    parser.feed(inp["sse"])
    parser.end()
    return [("text", t) for t in texts]


def run_fold(inp):
    turn = inp["turn"]
    folder = ChatStateFolder(turn["conversationId"], turn["turnId"])
    refusals = []
    for index, (how, frame) in enumerate(_fold_frames(inp)):
        try:
            if how == "text":
                try:
                    parse_chat_envelope_json(frame)
                except Refused as e:
                    if e.code in ("invalid-json", "too-large"):
                        refusals.append({"index": index, "code": e.code})
                        continue
                frame = json_loads(frame)
            folder.push(frame)
        except Refused as e:
            refusals.append({"index": index, "code": e.code})
    return {"state": folder.state(), "refusals": refusals}


def _chunks(inp):
    if isinstance(inp.get("text"), str):
        return [inp["text"]]
    if isinstance(inp.get("base64"), str):
        return [base64.b64decode(inp["base64"])]
    return [c if isinstance(c, str) else base64.b64decode(c["base64"]) for c in inp["chunks"]]


def run_sse(inp):
    messages, retries, comments = [], [], []
    options = {}
    for key, name in (("lastEventId", "last_event_id"), ("maxLineLength", "max_line_length"),
                      ("maxEventLength", "max_event_length")):
        if key in inp:
            options[name] = inp[key]
    parser = SseParser(messages.append, retries.append, comments.append, **options)
    error = None
    for chunk in _chunks(inp):
        try:
            parser.feed(chunk)
        except SseLimitError as e:
            error = {"code": e.code, "afterMessages": len(messages)}
            break
    last = parser.last_event_id
    parser.end()
    return {"messages": messages, "retries": retries, "comments": comments,
            "lastEventId": last, "error": error}


def run_capabilities(inp):
    r = require_chat_capabilities(inp.get("declared", MISSING), inp.get("required", MISSING))
    if r is None:
        return {"ok": True}
    return {"ok": False, "missing": r[0], "unknown": r[1], "invalid": r[2]}


def run_version(inp):
    if "offers" in inp:
        v = negotiate_chat_versions(inp["offers"], inp["server"]) if "server" in inp \
            else negotiate_chat_versions(inp["offers"])
    else:
        v = negotiate_chat_version(inp.get("offer", MISSING))
    return {"ok": True, "version": v} if v is not None \
        else {"ok": False, "code": "unsupported-version"}


def run_legacy(inp):
    c = inp["context"]
    allocations = c.get("allocations")
    state = {"n": 0}
    turn_id = c.get("turnId")

    def allocate():
        if allocations is not None:
            if state["n"] >= len(allocations):
                raise RuntimeError("no allocation left")
            state["n"] += 1
            return allocations[state["n"] - 1]
        state["n"] += 1
        return {"eventId": "%s:%d" % (turn_id, state["n"]), "seq": state["n"]}

    call_ids = c.get("callIds")

    def call_id_for(kind, index):
        if call_ids is None:
            return None
        ids = call_ids.get(kind)
        return ids[index] if isinstance(ids, list) and index < len(ids) else None

    up = LegacyUpgrader(
        c.get("dialect"), c.get("conversationId"), turn_id, allocate,
        call_id_for if call_ids is not None else None,
        retryable=c.get("retryable", MISSING), retry_after_ms=c.get("retryAfterMs", MISSING),
        error_code=c.get("errorCode", MISSING), at=c.get("at", MISSING),
        max_data_length=c.get("maxDataLength"))
    results = []
    for frame in inp["frames"]:
        try:
            results.append({"ok": True, "envelope": up.upgrade(frame)})
        except Refused as e:
            results.append({"ok": False, "code": e.code})
    return {"results": results}


class _Seam:
    def __init__(self, inp):
        self.inp = inp
        self.reads = 0

    def bounds(self):
        self.reads += 1
        if self.reads == 1:
            return self.inp["bounds"]
        return self.inp.get("boundsAfter", self.inp["bounds"])

    def read_after(self, _after_seq):
        return self.inp["frames"]


def run_replay(inp):
    req = inp["request"]
    try:
        frames, low = replay_after(_Seam(inp), req.get("conversationId"), req.get("turnId"),
                                   req.get("afterSeq", MISSING), req.get("maxFrames", MISSING))
    except ReplayRefused as e:
        out = {"ok": False, "code": e.code}
        if e.index is not None:
            out["index"] = e.index
        return out
    return {"ok": True, "eventIds": [f["eventId"] for f in frames],
            "eventTypes": [replay_type(f["event"]) for f in frames],
            "lastSeq": req["afterSeq"] + len(frames), "lowestRetainedSeq": low}


def run_card_answer(inp):
    try:
        value = validate_card_response(inp["card"], inp.get("response", MISSING),
                                       inp.get("allowDeclineDefault") is True)
        return {"ok": True, "value": value}
    except CardRefused as e:
        return {"ok": False, "code": e.code, "field": e.field}


def run_case(kind, inp):
    if kind == "schema":
        return {"valid": schema.is_valid(inp["document"], inp["value"])}
    if kind == "fold":
        return run_fold(inp)
    if kind == "sse":
        return run_sse(inp)
    if kind == "capabilities":
        return run_capabilities(inp)
    if kind == "version":
        return run_version(inp)
    if kind == "legacy":
        return run_legacy(inp)
    if kind == "replay":
        return run_replay(inp)
    if kind == "blocks":
        return {"segments": split_turn_text(inp["text"], inp.get("maxBlockBodyLength"))}
    if kind == "card-answer":
        return run_card_answer(inp)
    raise ValueError("unknown case kind %r" % kind)


def answer(line):
    try:
        msg = json_loads(line)
    except ValueError:
        return {"type": "error", "id": None, "message": "the line is not JSON"}
    if msg.get("type") == "hello":
        return {"type": "hello", "protocol": PROTOCOL,
                "testee": "papercusp_chat (Python %d.%d)" % sys.version_info[:2], "kinds": KINDS}
    cid = msg.get("id")
    if msg.get("type") != "case":
        return {"type": "error", "id": cid, "message": "unknown message type"}
    if "mutant" in msg:
        return {"type": "error", "id": cid, "message": "this testee has no mutants"}
    try:
        return {"type": "outcome", "id": cid, "outcome": run_case(msg.get("kind"), msg["input"])}
    except Exception as e:  # one case's failure must not end the run
        return {"type": "error", "id": cid, "message": "%s: %s" % (type(e).__name__, e)}


def main():
    stdin = open(sys.stdin.fileno(), "r", encoding="utf-8", errors="surrogatepass", newline="\n")
    out = sys.stdout
    for line in stdin:
        if line.strip() == "":
            continue
        out.write(json_dumps(answer(line)) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
