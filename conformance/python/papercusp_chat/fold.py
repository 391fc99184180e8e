"""The v1 fold: one turn's envelopes, pushed in order, into a ChatStateV1.

Each push is checked in this order (the first failing check is the refusal,
and a refused envelope changes nothing): the envelope itself
(``invalid-envelope``, ``unsupported-version``, ``unknown-event-type``), its
conversation and turn (``foreign-conversation``, ``foreign-turn``), its seq
(``duplicate``, ``reordered``, ``gap``), the lifecycle
(``illegal-transition``, see TURN_TRANSITIONS) and tool / card identity
(``duplicate-call``, ``unknown-call``, ``finished-call``, ``call-mismatch``,
``duplicate-card``, ``unknown-card``) and the extension bound
(``too-many-extensions``).

When the turn ends (completed, failed, cancelled) its running tool calls
become ``unfinished`` (``finishedSeq`` the ending event's seq) and its open
cards close: ``interrupted`` when it failed, ``cancelled`` when cancelled.
Extension events fold by channel: ``state`` into ``extensionState[name]``
(last write wins, at most 128 names), ``event`` appended to
``extensionEvents``, ``transient`` not kept; ``elided`` changes nothing.
"""

from .envelope import Refused, parse_chat_envelope

TURN_TRANSITIONS = {
    "running": ("awaiting-input", "completed", "failed", "cancelled", "interrupted",
                "needs-reconciliation"),
    "awaiting-input": ("running", "failed", "cancelled", "interrupted", "needs-reconciliation"),
    "completed": (),
    "failed": (),
    "cancelled": (),
    "interrupted": ("running", "awaiting-input", "failed", "cancelled"),
    "needs-reconciliation": ("running", "awaiting-input", "failed", "cancelled", "interrupted"),
}
TERMINAL = ("completed", "failed", "cancelled")
TURN_END_CARD_RESOLUTION = {"failed": "interrupted", "cancelled": "cancelled"}
MAX_EXTENSION_STATE_NAMES = 128


def next_turn_status(current, event, open_cards):
    """The status after ``event`` with ``open_cards`` open after it, or None (illegal)."""
    if current in TERMINAL:
        return None
    paused = current in ("interrupted", "needs-reconciliation")
    t = event["type"]
    if t == "turn_status":
        target = "awaiting-input" if event["status"] == "running" and open_cards > 0 \
            else event["status"]
    elif t == "error":
        target = "failed"
    else:
        if paused:
            return None
        if t == "card":
            target = "awaiting-input"
        elif t == "card_closed":
            target = "running" if open_cards == 0 and current == "awaiting-input" else current
        elif t == "done":
            target = "completed"
        else:
            target = current
    if target == current:
        return current
    return target if target in TURN_TRANSITIONS[current] else None


class ChatStateFolder:
    """Fold one turn (conversation_id, turn_id) envelope by envelope."""

    def __init__(self, conversation_id, turn_id):
        self.conversation_id = conversation_id
        self.turn_id = turn_id
        self.status = "running"
        self.last_seq = 0
        self.last_event_id = None
        self._seen = set()
        self._session = None
        self._text = []
        self._reasoning = []
        self._tools = []
        self._tool_index = {}
        self._provenance = None
        self._open = {}  # correlationId -> card, in open order
        self._closed = []
        self._closed_ids = set()
        self._state = None
        self._done = None
        self._error = None
        self._reason = None
        self._ext_state = {}  # name -> {data, seq}, in first-write order
        self._ext_events = []

    def push(self, value):
        """Validate and apply one envelope (a JSON value). Returns it, or raises Refused."""
        env = parse_chat_envelope(value)
        seq, event_id, event = env["seq"], env["eventId"], env["event"]
        if env["conversationId"] != self.conversation_id:
            raise Refused("foreign-conversation", "another conversation")
        if env["turnId"] != self.turn_id:
            raise Refused("foreign-turn", "another turn")
        expected = self.last_seq + 1
        if seq < expected:
            if event_id in self._seen:
                raise Refused("duplicate", "already applied")
            raise Refused("reordered", "seq %s after %s" % (seq, self.last_seq))
        if seq > expected:
            raise Refused("gap", "seq %s skips %s" % (seq, expected))
        t = event["type"]
        open_after = len(self._open)
        if t == "card" and event["card"]["correlationId"] not in self._open:
            open_after += 1
        if t == "card_closed" and event["correlationId"] in self._open:
            open_after -= 1
        nxt = next_turn_status(self.status, event, open_after)
        if nxt is None:
            raise Refused("illegal-transition", "%s while %s" % (t, self.status))
        if t == "tool_call" and event["callId"] in self._tool_index:
            raise Refused("duplicate-call", "callId already called")
        if t in ("tool_progress", "tool_result"):
            tool = self._tool_index.get(event["callId"])
            if tool is None:
                raise Refused("unknown-call", "never called")
            if tool["status"] != "running":
                raise Refused("finished-call", "already has its result")
            if t == "tool_result" and event["name"] != tool["name"]:
                raise Refused("call-mismatch", "another tool's name")
        if t == "card":
            cid = event["card"]["correlationId"]
            if cid in self._open or cid in self._closed_ids:
                raise Refused("duplicate-card", "card already open or closed")
        if t == "card_closed" and event["correlationId"] not in self._open:
            raise Refused("unknown-card", "card not open")
        if t == "ext" and event.get("channel") == "state" and \
                event["name"] not in self._ext_state and \
                len(self._ext_state) >= MAX_EXTENSION_STATE_NAMES:
            raise Refused("too-many-extensions", "one state-channel extension name too many")
        self._apply(seq, event)
        if nxt != self.status and nxt in TERMINAL:
            self._end(nxt, seq)
        self.status = nxt
        self.last_seq = seq
        self.last_event_id = event_id
        self._seen.add(event_id)
        return env

    def _end(self, status, seq):
        """The turn ends as ``status`` at ``seq``: open cards close, running calls are unfinished."""
        resolution = TURN_END_CARD_RESOLUTION.get(status)
        for cid in list(self._open):
            del self._open[cid]
            self._closed_ids.add(cid)
            self._closed.append({"correlationId": cid, "resolution": resolution})
        for tool in self._tools:
            if tool["status"] == "running":
                tool["status"] = "unfinished"
                tool["finishedSeq"] = seq

    def _apply(self, seq, e):
        t = e["type"]
        if t == "session":
            self._session = e["sessionId"]
        elif t == "delta":
            self._text.append(e["text"])
        elif t == "reasoning":
            self._reasoning.append(e["text"])
        elif t == "tool_call":
            tool = {"callId": e["callId"], "name": e["name"], "status": "running",
                    "startedSeq": seq}
            if "input" in e:
                tool["input"] = e["input"]
            self._tools.append(tool)
            self._tool_index[tool["callId"]] = tool
        elif t == "tool_progress":
            tool = self._tool_index[e["callId"]]
            if "progress" in e:
                tool["progress"] = e["progress"]
            if "message" in e:
                tool["progressMessage"] = e["message"]
        elif t == "tool_result":
            tool = self._tool_index[e["callId"]]
            tool["status"] = "ok" if e["ok"] else "error"
            for key in ("summary", "output", "blocks"):
                if key in e:
                    tool[key] = e[key]
            tool["finishedSeq"] = seq
        elif t == "provenance":
            self._provenance = {k: v for k, v in e.items() if k != "type"}
        elif t == "card":
            self._open[e["card"]["correlationId"]] = e["card"]
        elif t == "card_closed":
            del self._open[e["correlationId"]]
            self._closed_ids.add(e["correlationId"])
            self._closed.append({k: v for k, v in e.items() if k != "type"})
        elif t == "state":
            self._state = {"version": e["version"], "snapshot": e["snapshot"]}
        elif t == "done":
            self._done = {k: v for k, v in e.items() if k != "type"}
        elif t == "error":
            self._error = {k: v for k, v in e.items() if k != "type"}
        elif t == "turn_status":
            self._reason = e.get("reason")
        elif t == "ext":
            channel = e.get("channel", "event")
            if channel == "state":
                self._ext_state[e["name"]] = {"data": e["data"], "seq": seq}
            elif channel == "event":
                self._ext_events.append({"name": e["name"], "data": e["data"], "seq": seq})

    def state(self):
        """The folded ChatStateV1 (a JSON-ready dict)."""
        s = {
            "schemaVersion": 1,
            "conversationId": self.conversation_id,
            "turnId": self.turn_id,
            "status": self.status,
            "lastSeq": self.last_seq,
            "lastEventId": self.last_event_id,
            "text": "".join(self._text),
            "reasoning": "".join(self._reasoning),
            "tools": [dict(t) for t in self._tools],
            "openCards": list(self._open.values()),
            "closedCards": [dict(c) for c in self._closed],
        }
        if self._session is not None:
            s["sessionId"] = self._session
        if self._provenance is not None:
            s["provenance"] = dict(self._provenance)
        if self._state is not None:
            s["state"] = dict(self._state)
        if self._done is not None:
            s["done"] = dict(self._done)
        if self._error is not None:
            s["error"] = dict(self._error)
        if self._reason is not None:
            s["statusReason"] = self._reason
        if self._ext_state:
            s["extensionState"] = {k: dict(v) for k, v in self._ext_state.items()}
        if self._ext_events:
            s["extensionEvents"] = [dict(x) for x in self._ext_events]
        return s
