"""A small Python client of the @papercusp/chat-protocol v1 wire: parse v1 envelopes, fold
them into a turn's ChatStateV1, decode SSE bytes, upgrade legacy frames, check replays,
split tagged blocks and validate card answers, as the package README states. Standard
library only (the schema verdicts need jsonschema)."""

from .envelope import Refused, parse_chat_envelope, parse_chat_envelope_json
from .fold import TURN_TRANSITIONS, ChatStateFolder, next_turn_status
from .sse import SseLimitError, SseParser

__all__ = [
    "ChatStateFolder",
    "Refused",
    "SseLimitError",
    "SseParser",
    "TURN_TRANSITIONS",
    "next_turn_status",
    "parse_chat_envelope",
    "parse_chat_envelope_json",
]
