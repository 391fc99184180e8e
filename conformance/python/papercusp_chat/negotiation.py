"""Capability requirements and wire version negotiation.

``require_chat_capabilities``: a capability counts only when declared exactly
``true``; none implies another; a required name that is not a capability is
refused (listed in ``unknown``), never ignored. ``negotiate_chat_version``
accepts exactly the numbers 0 and 1.
"""

from ._js import is_record, same_number, typeof

CHAT_CAPABILITIES = (
    "connectionReplay",
    "persistedHistory",
    "persistedDecisions",
    "completedToolCheckpoints",
    "interruptedTurnRecovery",
)
SUPPORTED_CHAT_VERSIONS = (1, 0)


def _name_of(v):
    if isinstance(v, str):
        return v[:64]  # (UTF-16 units in the reference; ASCII names in practice)
    return "(null)" if v is None else "(%s)" % typeof(v)


def require_chat_capabilities(declared, required):
    """``None`` when every required capability is declared true, else ``(missing, unknown, invalid)``.

    In a record of requirements ``true`` requires, ``false`` does not, and any
    other value is refused (its name listed in ``invalid``).
    """
    d = declared if is_record(declared) else {}
    wanted = set()
    unknown = []
    invalid = []

    def want(name):
        if isinstance(name, str) and name in CHAT_CAPABILITIES:
            wanted.add(name)
        else:
            unknown.append(_name_of(name))

    if isinstance(required, list):
        for r in required:
            want(r)
    elif isinstance(required, dict):
        for name, v in required.items():
            if v is True:
                want(name)
            elif v is not False:
                invalid.append(_name_of(name))
    else:
        unknown.append(_name_of(required))
    missing = [n for n in CHAT_CAPABILITIES if n in wanted and d.get(n) is not True]
    if missing or unknown or invalid:
        return missing, unknown, invalid
    return None


def negotiate_chat_version(x):
    """0 or 1, or None (``unsupported-version``)."""
    if same_number(x, 0):
        return 0
    if same_number(x, 1):
        return 1
    return None


def negotiate_chat_versions(offers, server=SUPPORTED_CHAT_VERSIONS):
    """The highest version in both lists (offers other than exactly 0 or 1 ignored), or None."""
    if isinstance(offers, list) and isinstance(server, (list, tuple)):
        for v in SUPPORTED_CHAT_VERSIONS:
            if any(same_number(o, v) for o in offers) and any(same_number(s, v) for s in server):
                return v
    return None
