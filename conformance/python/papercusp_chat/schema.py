"""Schema verdicts with the checked-in JSON Schema files (``schema/``) and jsonschema.

Needs the ``jsonschema`` package (Debian: ``python3-jsonschema``, 4.10 or
later, for Draft 2020-12). The rules JSON Schema cannot state are checked
here too: a saved ChatStateV1's tool callIds are unique, its card
correlationIds are unique across openCards and closedCards, every tool's
startedSeq and finishedSeq and every extension seq is at most lastSeq, the
extensionEvents seqs increase; a tool result's (or a saved tool's) grounded
block ids are unique; an ext event's data is bounded (32 levels, 10,000
values).
"""

import json
import os

from ._js import is_number, is_record
from .envelope import json_problem


def _block_ids_unique(blocks):
    ids = [b["id"] for b in blocks or []]
    return len(ids) == len(set(ids))


def _event_rules_hold(e):
    """The event rules JSON Schema cannot express (on an event the schema accepted)."""
    if e.get("type") == "tool_result" and not _block_ids_unique(e.get("blocks")):
        return False
    if e.get("type") == "ext" and json_problem(e["data"]) is not None:
        return False
    return True

_SCHEMA_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "schema"))
_validators = {}


def _validator(document):
    v = _validators.get(document)
    if v is None:
        try:
            from jsonschema import Draft202012Validator
        except ImportError:
            raise RuntimeError(
                "the schema cases need the jsonschema package "
                "(Debian: apt-get install -y python3-jsonschema)")
        with open(os.path.join(_SCHEMA_DIR, document + ".schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        v = _validators[document] = Draft202012Validator(schema)
    return v


def _state_rules_hold(s):
    """The ChatStateV1 rules JSON Schema cannot express (on a document the schema accepted)."""
    last = s["lastSeq"]
    call_ids = set()
    for t in s["tools"]:
        if t["callId"] in call_ids:
            return False
        call_ids.add(t["callId"])
        for key in ("startedSeq", "finishedSeq"):
            if is_number(t.get(key)) and t[key] > last:
                return False
        if not _block_ids_unique(t.get("blocks")):
            return False
    for e in s.get("extensionState", {}).values():
        if e["seq"] > last or json_problem(e["data"]) is not None:
            return False
    previous = 0
    for e in s.get("extensionEvents", []):
        if e["seq"] > last or e["seq"] <= previous or json_problem(e["data"]) is not None:
            return False
        previous = e["seq"]
    cards = set()
    for c in s["openCards"] + s["closedCards"]:
        if c["correlationId"] in cards:
            return False
        cards.add(c["correlationId"])
    return True


def is_valid(document, value):
    """Whether ``value`` is a valid ``document`` (e.g. ``v1/chat-event-envelope``)."""
    if not _validator(document).is_valid(value):
        return False
    if document == "v1/chat-state" and is_record(value):
        return _state_rules_hold(value)
    if document == "v1/chat-event-envelope" and is_record(value):
        return _event_rules_hold(value["event"])
    if document == "v1/chat-event" and is_record(value):
        return _event_rules_hold(value)
    return True
