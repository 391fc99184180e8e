"""``<report>{json}</report>`` and ``<ask>{json}</ask>`` blocks in turn text.

``split_turn_text(text)`` returns every segment in order: ``text``, ``report``,
``ask`` and ``invalid`` (``unclosed``, ``too-large``, ``empty-body``,
``malformed-json``, ``invalid-block``). An opening tag is exactly ``<ask>`` or
``<report>`` in any ASCII case; its body runs to the first close tag of the
same name, which must start within the body bound (UTF-16 code units, default
262 144). Block payloads are normalised as the README says (strings trimmed,
fallbacks, empty entries dropped).
"""

import math
import re

from ._js import MISSING, from_units, is_record, js_trim, json_loads, same_number, to_units

MAX_BLOCK_BODY_LENGTH = 262_144
_TAGS = ("ask", "report")
_SHA256 = re.compile(r"[a-f0-9]{64}")
_REF_KEYS = ("schemaVersion", "goalId", "reportId", "bodySha256")


def _trimmed(v):
    if not isinstance(v, str):
        return MISSING
    t = js_trim(v)
    return MISSING if t == "" else t


def _with_trimmed(out, raw, keys):
    for k in keys:
        v = _trimmed(raw.get(k, MISSING)) if isinstance(raw, dict) else MISSING
        if v is not MISSING:
            out[k] = v
    return out


def _own(raw, key):
    return raw.get(key, MISSING) if isinstance(raw, dict) else MISSING


def parse_ask_block(value):
    """A normalised ask block, or None."""
    if not is_record(value):
        return None
    question = _trimmed(value.get("question", MISSING))
    if question is MISSING:
        return None
    block = {"question": question}
    raw_options = value.get("options", MISSING)
    if isinstance(raw_options, list):
        options = []
        for r in raw_options:
            if not isinstance(r, (dict, list)):
                continue
            oid = _trimmed(_own(r, "id"))
            if oid is MISSING:
                continue
            label = _trimmed(_own(r, "label"))
            options.append(_with_trimmed({"id": oid, "label": oid if label is MISSING else label},
                                         r, ("description",)))
        if options:
            block["options"] = options
    raw_refs = value.get("refs", MISSING)
    if isinstance(raw_refs, list):
        refs = [t for t in (_trimmed(r) for r in raw_refs) if t is not MISSING]
        if refs:
            block["refs"] = refs
    return block


def _clean_id(v):
    return isinstance(v, str) and v != "" and js_trim(v) == v


def parse_goal_owner_report_ref(value):
    if not is_record(value) or any(k not in _REF_KEYS for k in value):
        return None
    if not same_number(value.get("schemaVersion", MISSING), 1):
        return None
    goal, report, sha = value.get("goalId"), value.get("reportId"), value.get("bodySha256")
    if not _clean_id(goal) or not _clean_id(report):
        return None
    if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
        return None
    return {"schemaVersion": 1, "goalId": goal, "reportId": report, "bodySha256": sha}


def _item(raw):
    if not isinstance(raw, (dict, list)):
        return None
    iid = _trimmed(_own(raw, "id"))
    text = _trimmed(_own(raw, "text"))
    text = iid if text is MISSING else text
    if text is MISSING:
        return None
    out = {"text": text} if iid is MISSING else {"id": iid, "text": text}
    return _with_trimmed(out, raw, ("status", "ref"))


def _plan(raw):
    if not isinstance(raw, (dict, list)):
        return None
    slug = _trimmed(_own(raw, "slug"))
    title = _trimmed(_own(raw, "title"))
    title = slug if title is MISSING else title
    if title is MISSING:
        return None
    plan = {"title": title} if slug is MISSING else {"slug": slug, "title": title}
    _with_trimmed(plan, raw, ("status", "summary"))
    raw_items = _own(raw, "items")
    if isinstance(raw_items, list):
        items = [i for i in (_item(r) for r in raw_items) if i is not None]
        if items:
            plan["items"] = items
    return plan


def parse_report_block(value):
    """A normalised report block, or None."""
    if not is_record(value):
        return None
    goal = MISSING
    raw_goal = value.get("goalReport", MISSING)
    if raw_goal is not MISSING:
        goal = parse_goal_owner_report_ref(raw_goal)
        if goal is None:
            return None
    raw_plans = value.get("plans", MISSING)
    if raw_plans is not MISSING and not isinstance(raw_plans, list):
        return None
    if raw_plans is MISSING and goal is MISSING:
        return None
    plans = [p for p in (_plan(r) for r in (raw_plans if isinstance(raw_plans, list) else []))
             if p is not None]
    if not plans and goal is MISSING:
        return None
    block = {"plans": plans}
    if goal is not MISSING:
        block["goalReport"] = goal
    title = _trimmed(value.get("title", MISSING))
    if title is not MISSING:
        block["title"] = title
    return block


def _lower(c):
    return chr(ord(c) + 32) if "A" <= c <= "Z" else c


def _matches(s, at, word):
    if at + len(word) > len(s):
        return False
    return all(_lower(s[at + k]) == word[k] for k in range(len(word)))


def _find_open(s, i):
    """``(position, tag)`` of the next opening tag at or after ``i``, or None."""
    j = s.find("<", i)
    while j != -1:
        for tag in _TAGS:
            if _matches(s, j, "<%s>" % tag):
                return j, tag
        j = s.find("<", j + 1)
    return None


def _find_close(s, start, end, tag):
    """Start of the first ``</tag>`` lying wholly in ``s[start:end]``, or -1."""
    word = "</%s>" % tag
    j = s.find("</", start, end)
    while j != -1 and j + len(word) <= end:
        if _matches(s, j, word):
            return j
        j = s.find("</", j + 1, end)
    return -1


def _finish(tag, raw, body):
    """The segment of a closed block (``raw``, ``body`` in UTF-16 units)."""
    trimmed = js_trim(from_units(body))
    raw_text = from_units(raw)
    if trimmed == "":
        return {"kind": "invalid", "tag": tag, "raw": raw_text, "reason": "empty-body"}
    try:
        value = json_loads(trimmed)
    except ValueError:
        return {"kind": "invalid", "tag": tag, "raw": raw_text, "reason": "malformed-json"}
    block = parse_ask_block(value) if tag == "ask" else parse_report_block(value)
    if block is None:
        return {"kind": "invalid", "tag": tag, "raw": raw_text, "reason": "invalid-block"}
    return {"kind": tag, "block": block, "raw": raw_text}


def split_turn_text(text, max_block_body_length=None):
    """Every segment of ``text``, in order (adjacent text merged, no empty text)."""
    if not isinstance(text, str):
        return []
    bound = MAX_BLOCK_BODY_LENGTH
    n = max_block_body_length
    if isinstance(n, (int, float)) and not isinstance(n, bool) and not math.isnan(n):
        bound = int(math.floor(max(0.0, min(float(MAX_BLOCK_BODY_LENGTH), float(n)))))
    s = to_units(text)
    out = []
    pending = []

    def emit(segment):
        if pending:
            joined = from_units("".join(pending))
            pending.clear()
            if joined:
                out.append({"kind": "text", "text": joined})
        out.append(segment)

    unclosed = set()
    i = 0
    while True:
        found = _find_open(s, i)
        if found is None:
            pending.append(s[i:])
            break
        pos, tag = found
        pending.append(s[i:pos])
        body_start = pos + len(tag) + 2
        open_raw = s[pos:body_start]
        if tag in unclosed:
            emit({"kind": "invalid", "tag": tag, "raw": from_units(open_raw), "reason": "unclosed"})
            i = body_start
            continue
        close_len = len(tag) + 3
        limit = body_start + bound + close_len
        c = _find_close(s, body_start, min(limit, len(s)), tag)
        if c != -1:
            emit(_finish(tag, s[pos:c + close_len], s[body_start:c]))
            i = c + close_len
        elif len(s) >= limit:
            resume = limit
            if 0xD800 <= ord(s[limit - 1]) <= 0xDBFF and limit > body_start:
                resume -= 1
            emit({"kind": "invalid", "tag": tag, "raw": from_units(s[pos:resume]),
                  "reason": "too-large"})
            i = resume
        else:
            unclosed.add(tag)
            emit({"kind": "invalid", "tag": tag, "raw": from_units(open_raw), "reason": "unclosed"})
            i = body_start
    if pending:
        joined = from_units("".join(pending))
        if joined:
            out.append({"kind": "text", "text": joined})
    return out
