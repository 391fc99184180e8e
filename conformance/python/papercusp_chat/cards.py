"""Card answers: ``validate_card_response(card, response)`` (README "Cards and tagged blocks").

``cancel`` is always allowed; ``decline`` only when the card's
``allowDecline`` is true (or absent / null with ``allow_decline_default``);
``submit`` carries a ``value`` checked per presentation kind (radio and
select ``{optionId}``, checkbox ``{optionIds}``, text ``{text}``, slider
``{value}``, date ``{date}``); a card without presentation takes ``{}``,
``{confirmed: true}`` or (unless it is an approval card) ``{text}``. The
accepted answer is rebuilt from its contract fields only.
"""

import math

from ._js import MISSING, is_finite, is_record, js_round, js_trim, utf16_len

BUILTIN_KINDS = ("radio", "checkbox", "text", "date", "slider", "select")
EPSILON = 2.0**-52


class CardRefused(Exception):
    def __init__(self, code, field, message=""):
        super().__init__(message or code)
        self.code = code
        self.field = field


def _quoted(s):
    return repr(s[:64])


def _only_keys(value, allowed):
    for k in value:
        if k not in allowed:
            raise CardRefused("unexpected-field", "value." + k, "no field %s" % _quoted(k))


def _only_field(value, name, missing):
    _only_keys(value, (name,))
    v = value.get(name, MISSING)
    if v is MISSING:
        raise CardRefused("missing-field", "value." + name, missing)
    return v


def _text_answer(text):
    if not isinstance(text, str):
        raise CardRefused("invalid-value", "value.text", "text must be a string")
    if js_trim(text) == "":
        raise CardRefused("blank-text", "value.text", "the answer is blank")
    return {"text": text}


def is_iso_date(s):
    """A real calendar date written YYYY-MM-DD."""
    if not isinstance(s, str) or utf16_len(s) != 10 or len(s) != 10 or s[4] != "-" or s[7] != "-":
        return False
    if not all("0" <= s[i] <= "9" for i in (0, 1, 2, 3, 5, 6, 8, 9)):
        return False
    y, m, d = int(s[0:4]), int(s[5:7]), int(s[8:10])
    if m < 1 or m > 12 or d < 1:
        return False
    leap = (y % 4 == 0 and y % 100 != 0) or y % 400 == 0
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return d <= days[m - 1]


def _option_ids(p):
    options = p.get("options", MISSING)
    if not isinstance(options, list) or len(options) == 0:
        raise CardRefused("invalid-card", "presentation.options",
                          "a %s card needs at least one option" % p.get("kind"))
    ids, seen = [], set()
    for i, o in enumerate(options):
        if not is_record(o) or not isinstance(o.get("id", MISSING), str):
            raise CardRefused("invalid-card", "presentation.options[%d].id" % i)
        if o["id"] in seen:
            raise CardRefused("invalid-card", "presentation.options[%d].id" % i)
        seen.add(o["id"])
        ids.append(o["id"])
    return ids


def _slider_bounds(p):
    out = {}
    for k in ("min", "max", "step"):
        v = p.get(k, MISSING)
        if v is MISSING:
            continue
        if not is_finite(v):
            raise CardRefused("invalid-card", "presentation." + k)
        out[k] = v
    if "min" in out and "max" in out and out["min"] > out["max"]:
        raise CardRefused("invalid-card", "presentation.max")
    if "step" in out and not out["step"] > 0:
        raise CardRefused("invalid-card", "presentation.step")
    return out


def _date_bounds(p):
    out = {}
    for k in ("min", "max"):
        v = p.get(k, MISSING)
        if v is MISSING:
            continue
        if not is_iso_date(v):
            raise CardRefused("invalid-card", "presentation." + k)
        out[k] = v
    if "min" in out and "max" in out and out["min"] > out["max"]:
        raise CardRefused("invalid-card", "presentation.max")
    return out


def _on_step(value, base, step):
    """On the grid base + k * step, within 1e-9 of a step or the values' rounding error."""
    q = (value - base) / step
    if not math.isfinite(q):
        return False
    k = js_round(q)
    off = abs(value - (base + k * step))
    return off <= 1e-9 * step or off <= 16 * EPSILON * max(abs(value), abs(base))


def _builtin(p, value):
    kind = p.get("kind", MISSING)
    if kind in ("radio", "select") and isinstance(kind, str):
        ids = _option_ids(p)
        oid = _only_field(value, "optionId", "pick one option")
        if not isinstance(oid, str):
            raise CardRefused("invalid-value", "value.optionId")
        if oid not in ids:
            raise CardRefused("unknown-option", "value.optionId")
        return {"optionId": oid}
    if kind == "checkbox":
        known = set(_option_ids(p))
        picked = _only_field(value, "optionIds", "pick at least one option")
        if not isinstance(picked, list):
            raise CardRefused("invalid-value", "value.optionIds")
        if not picked:
            raise CardRefused("empty-selection", "value.optionIds")
        seen = []
        for i, oid in enumerate(picked):
            field = "value.optionIds[%d]" % i
            if not isinstance(oid, str):
                raise CardRefused("invalid-value", field)
            if oid in seen:
                raise CardRefused("duplicate-option", field)
            if oid not in known:
                raise CardRefused("unknown-option", field)
            seen.append(oid)
        return {"optionIds": seen}
    if kind == "text":
        return _text_answer(_only_field(value, "text", "type an answer"))
    if kind == "slider":
        b = _slider_bounds(p)
        v = _only_field(value, "value", "choose a value")
        if not is_finite(v):
            raise CardRefused("invalid-value", "value.value")
        if ("min" in b and v < b["min"]) or ("max" in b and v > b["max"]):
            raise CardRefused("out-of-range", "value.value")
        if "step" in b and not _on_step(v, b.get("min", 0), b["step"]):
            raise CardRefused("off-step", "value.value")
        return {"value": v}
    if kind == "date":
        b = _date_bounds(p)
        d = _only_field(value, "date", "choose a date")
        if not is_iso_date(d):
            raise CardRefused("invalid-date", "value.date")
        if ("min" in b and d < b["min"]) or ("max" in b and d > b["max"]):
            raise CardRefused("out-of-range", "value.date")
        return {"date": d}
    raise CardRefused("unknown-kind", "presentation.kind")


def _confirm(card, value):
    approval = card.get("approval", MISSING) is not MISSING
    if not approval and "text" in value:
        _only_keys(value, ("text",))
        return _text_answer(value["text"])
    _only_keys(value, ("confirmed",))
    if "confirmed" not in value:
        return {}
    if value["confirmed"] is not True:
        raise CardRefused("invalid-value", "value.confirmed")
    return {"confirmed": True}


def validate_card_response(card, response, allow_decline_default=False):
    """The rebuilt answer, or raises CardRefused."""
    if not is_record(card) or not isinstance(card.get("correlationId", MISSING), str):
        raise CardRefused("invalid-card", "correlationId")
    if not is_record(response):
        raise CardRefused("invalid-response", "")
    action = response.get("action", MISSING)
    if action not in ("submit", "decline", "cancel") or not isinstance(action, str):
        raise CardRefused("invalid-response", "action")
    cid = response.get("correlationId", MISSING)
    if not isinstance(cid, str):
        raise CardRefused("invalid-response", "correlationId")
    if cid != card["correlationId"]:
        raise CardRefused("correlation-mismatch", "correlationId")
    if action == "cancel":
        return {"action": action, "correlationId": cid}
    if action == "decline":
        allowed = card.get("allowDecline", MISSING)
        if allowed is MISSING or allowed is None:
            allowed = allow_decline_default is True
        if allowed is not True:
            raise CardRefused("decline-not-allowed", "action")
        return {"action": action, "correlationId": cid}
    raw = response.get("value", MISSING)
    if not is_record(raw):
        raise CardRefused("invalid-response", "value")
    value = dict(raw)
    p = card.get("presentation", MISSING)
    if p is MISSING:
        result = _confirm(card, value)
    elif not is_record(p):
        raise CardRefused("invalid-card", "presentation")
    else:
        result = _builtin(p, value)
    return {"action": "submit", "correlationId": cid, "value": result}
