"""Connection replay over a host's retained window (README "Turn recovery").

``replay_after(seam, conversation_id, turn_id, after_seq)``: read the window's
bounds, check the cursor (``invalid-cursor``, ``invalid-window``,
``cursor-beyond-latest``, ``stale-cursor``), read the suffix and check it is
exactly the envelopes ``after_seq + 1 ...`` of this turn (``foreign-frame``,
``reordered``, ``gap``); a gap found after retention moved past the cursor is
``stale-cursor``. ``seam`` has ``bounds()`` and ``read_after(after_seq)``.
"""

from ._js import MISSING, is_non_empty, is_record, is_safe_int
from .envelope import Refused

DEFAULT_MAX_REPLAY_FRAMES = 10_000


class ReplayRefused(Refused):
    def __init__(self, code, message, index=None):
        super().__init__(code, message)
        self.index = index


def _is_seq(n):
    return is_safe_int(n, 0)


def _check_cursor(after_seq, bounds):
    if not _is_seq(after_seq):
        raise ReplayRefused("invalid-cursor", "cursor must be a non-negative integer seq")
    if not is_record(bounds):
        raise ReplayRefused("invalid-window", "window bounds are malformed")
    low, latest = bounds.get("lowestRetainedSeq", MISSING), bounds.get("latestSeq", MISSING)
    if not _is_seq(low) or not _is_seq(latest) or low < 1 or low > latest + 1:
        raise ReplayRefused("invalid-window", "window bounds are malformed")
    if after_seq > latest:
        raise ReplayRefused("cursor-beyond-latest", "cursor after the latest event")
    if after_seq < low - 1:
        raise ReplayRefused("stale-cursor", "cursor below the retained window")
    return low, latest


def _validate(conversation_id, turn_id, after_seq, latest, frames, max_frames):
    if not isinstance(frames, list):
        raise ReplayRefused("invalid-window", "the seam did not return a list")
    if len(frames) > max_frames:
        raise ReplayRefused("window-too-large", "more than %d frames" % max_frames)
    ids = set()
    for i, f in enumerate(frames):
        expected = after_seq + 1 + i
        if not is_record(f) or f.get("schemaVersion", MISSING) != 1 \
                or isinstance(f.get("schemaVersion"), bool) \
                or f.get("conversationId", MISSING) != conversation_id \
                or f.get("turnId", MISSING) != turn_id \
                or not is_non_empty(f.get("eventId", MISSING)) \
                or not _is_seq(f.get("seq", MISSING)) or f["seq"] < 1 \
                or not is_record(f.get("event", MISSING)) \
                or not isinstance(f["event"].get("type", MISSING), str):
            raise ReplayRefused("foreign-frame", "frame %d is not an envelope of this turn" % i, i)
        if f["seq"] < expected or f["eventId"] in ids:
            raise ReplayRefused("reordered", "frame %d is out of order" % i, i)
        if f["seq"] > expected:
            raise ReplayRefused("gap", "frames before %d are missing" % i, i)
        ids.add(f["eventId"])
    if after_seq + len(frames) < latest:
        raise ReplayRefused("gap", "the suffix ends before the latest seq")
    return frames


def replay_after(seam, conversation_id, turn_id, after_seq, max_frames=MISSING):
    """The frames to resend, or raises ReplayRefused."""
    if not (is_safe_int(max_frames, 0)):
        max_frames = DEFAULT_MAX_REPLAY_FRAMES
    if not isinstance(conversation_id, str) or not isinstance(turn_id, str):
        raise ReplayRefused("invalid-request", "conversationId and turnId must be strings")
    low, latest = _check_cursor(after_seq, seam.bounds())
    if latest - after_seq > max_frames:
        raise ReplayRefused("window-too-large", "too many frames")
    frames = seam.read_after(after_seq)
    try:
        return _validate(conversation_id, turn_id, after_seq, latest, frames, max_frames), low
    except ReplayRefused as e:
        if e.code == "gap":
            try:
                _check_cursor(after_seq, seam.bounds())
            except ReplayRefused as again:
                if again.code == "stale-cursor":
                    raise again
        raise


def replay_type(event):
    """The type a replay sends for a retained ``event``: a transient one (``navigate``, an
    ``ext`` on the ``transient`` channel) is re-sent as ``elided`` (same eventId and seq)."""
    t = event.get("type")
    if t == "navigate" or (t == "ext" and event.get("channel") == "transient"):
        return "elided"
    return t
