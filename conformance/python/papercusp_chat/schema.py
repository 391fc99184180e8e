"""Schema verdicts with the checked-in JSON Schema files (``schema/``) and jsonschema.

Needs the ``jsonschema`` package (Debian: ``python3-jsonschema``, 4.10 or
later, for Draft 2020-12). The rules JSON Schema cannot state are checked
here too: a saved ChatStateV1's tool callIds are unique, its card
correlationIds are unique across openCards and closedCards, and every tool's
startedSeq and finishedSeq is at most lastSeq.
"""

import json
import os

from ._js import is_number, is_record

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
    return True
