"""JSON and string helpers that behave as the protocol's reference (JavaScript) does.

The protocol is defined over JSON values and JavaScript strings: lengths count
UTF-16 code units, ``trim`` strips the JavaScript whitespace set, numbers are
IEEE doubles (``1`` and ``1.0`` are the same number), and ``true`` is never a
number. These helpers give Python code the same answers.
"""

import json
import math

MISSING = object()
"""An absent key (JavaScript ``undefined``); JSON ``null`` is ``None``."""

MAX_SAFE_INTEGER = 2**53 - 1

# String.prototype.trim: WhiteSpace and LineTerminator.
_TRIM = (
    "\t\n\u000b\u000c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def is_number(v):
    """A JSON number (an int or a float, never a bool)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def as_double(v):
    """The IEEE double JavaScript reads for a JSON number (a huge integer is +-Infinity)."""
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def is_finite(v):
    return is_number(v) and math.isfinite(as_double(v))


def is_finite_non_neg(v):
    return is_finite(v) and v >= 0


def is_safe_int(v, minimum=None):
    """``Number.isSafeInteger(v)`` (and ``v >= minimum`` when given)."""
    if not is_finite(v):
        return False
    d = as_double(v)
    if not d.is_integer() or abs(d) > MAX_SAFE_INTEGER:
        return False
    return minimum is None or d >= minimum


def is_record(v):
    """A JSON object (not an array, not null)."""
    return isinstance(v, dict)


def is_non_empty(v):
    return isinstance(v, str) and v != ""


def js_trim(s):
    return s.strip(_TRIM)


def utf16_len(s):
    """``s.length`` in JavaScript: UTF-16 code units."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def to_units(s):
    """``s`` with every astral character split into its two surrogates (index = UTF-16 unit)."""
    if all(ord(c) < 0x10000 for c in s):
        return s
    b = s.encode("utf-16-le", "surrogatepass")
    return "".join(chr(b[i] | (b[i + 1] << 8)) for i in range(0, len(b), 2))


def from_units(s):
    """The inverse of :func:`to_units`: surrogate pairs joined again (lone ones kept)."""
    if all(not 0xD800 <= ord(c) <= 0xDFFF for c in s):
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _no_constant(name):
    raise ValueError("not JSON: " + name)


def json_loads(text):
    """``JSON.parse``: strict JSON only (no NaN or Infinity literals). Raises ValueError."""
    return json.loads(text, parse_constant=_no_constant)


def json_dumps(value):
    """``JSON.stringify`` shape for the protocol's outcomes (ASCII, escapes kept)."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def js_round(x):
    """``Math.round``: nearest integer, ties toward +infinity."""
    r = math.floor(x)
    return r + 1 if x - r >= 0.5 else r


def typeof(v):
    """JavaScript ``typeof`` of a JSON value (``null`` is ``"object"``)."""
    if v is None or isinstance(v, (dict, list)):
        return "object"
    if isinstance(v, bool):
        return "boolean"
    if is_number(v):
        return "number"
    if isinstance(v, str):
        return "string"
    return "undefined"


def same_number(v, n):
    """``v === n`` for a number ``n``."""
    return is_number(v) and v == n
