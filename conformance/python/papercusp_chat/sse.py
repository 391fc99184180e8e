"""An incremental ``text/event-stream`` parser (WHATWG HTML "Interpreting an event stream").

Feed it text or UTF-8 bytes split anywhere. Rules: one leading BOM removed;
lines end with CRLF, LF or CR (also a CR at the end of one chunk and an LF at
the start of the next); ``field: value`` with one space removed; a line
without a colon is a field with an empty value; ``:`` starts a comment; data
lines join with LF; a blank line dispatches an event if a data line was seen;
an ``id`` containing NUL is ignored; the last event id persists; ``retry`` is
reported only when it is ASCII digits; an unterminated last event is dropped.
Lines and event data are bounded (UTF-16 code units, default 1 MiB each).
"""

import codecs

from ._js import as_double, utf16_len

DEFAULT_MAX_LENGTH = 1_048_576


class SseLimitError(Exception):
    """``line-too-long`` or ``event-too-large``."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


class SseParser:
    def __init__(self, on_event, on_retry=None, on_comment=None,
                 max_line_length=DEFAULT_MAX_LENGTH, max_event_length=DEFAULT_MAX_LENGTH,
                 last_event_id=""):
        self._on_event = on_event
        self._on_retry = on_retry
        self._on_comment = on_comment
        self._max_line = max_line_length
        self._max_event = max_event_length
        self.last_event_id = last_event_id
        self._id_buffer = last_event_id
        self._decoder = None
        self._failed = None
        self._start()

    def _start(self):
        self._bytes_pending = False
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._started = False
        self._skip_lf = False
        self._pending = ""
        self._reset_event()

    def _reset_event(self):
        self._data = None  # list of data lines, or None when none seen
        self._data_len = 0
        self._event = None
        self._block_id = None

    def feed(self, chunk):
        """Parse the next chunk (str or bytes). Raises SseLimitError past a bound."""
        if self._failed is not None:
            raise self._failed
        if isinstance(chunk, (bytes, bytearray)):
            text = self._decoder.decode(bytes(chunk))
            self._bytes_pending = True
        else:
            text = chunk
            if self._bytes_pending:
                # A string chunk ends the byte run: an incomplete sequence becomes U+FFFD.
                text = self._decoder.decode(b"", final=True) + text
                self._decoder.reset()
                self._bytes_pending = False
        if text:
            self._process(text)

    def end(self):
        """End the stream: drop an unterminated line or event (and its id)."""
        self._start()
        self._id_buffer = self.last_event_id
        self._failed = None

    def _fail(self, code):
        self._failed = SseLimitError(code)
        self._pending = ""
        self._reset_event()
        self._id_buffer = self.last_event_id
        raise self._failed

    def _process(self, s):
        if not self._started:
            self._started = True
            if s.startswith("\ufeff"):
                s = s[1:]
        if self._skip_lf and s:
            self._skip_lf = False
            if s.startswith("\n"):
                s = s[1:]
        buf = self._pending + s
        pos = 0
        n = len(buf)
        while True:
            cr = buf.find("\r", pos)
            lf = buf.find("\n", pos)
            if cr == -1 and lf == -1:
                break
            end = lf if cr == -1 else cr if lf == -1 else min(cr, lf)
            line = buf[pos:end]
            if utf16_len(line) > self._max_line:
                self._fail("line-too-long")
            if end == cr:
                if end + 1 == n:
                    self._skip_lf = True
                    pos = n
                else:
                    pos = end + 2 if buf[end + 1] == "\n" else end + 1
            else:
                pos = end + 1
            self._line(line)
        self._pending = buf[pos:]
        if utf16_len(self._pending) > self._max_line:
            self._fail("line-too-long")

    def _line(self, line):
        if line == "":
            self._dispatch()
            return
        if line.startswith(":"):
            if self._on_comment is not None:
                self._on_comment(line[2:] if line.startswith(": ") else line[1:])
            return
        colon = line.find(":")
        if colon == -1:
            field, value = line, ""
        else:
            field = line[:colon]
            value = line[colon + 2:] if line[colon + 1:colon + 2] == " " else line[colon + 1:]
        if field == "data":
            self._append(value)
        elif field == "event":
            self._event = value if value != "" else None
        elif field == "id":
            if "\0" not in value:
                self._block_id = value
                self._id_buffer = value
        elif field == "retry":
            if value and all("0" <= c <= "9" for c in value) and self._on_retry is not None:
                self._on_retry(_parse_int(value))

    def _append(self, value):
        if self._data is None:
            self._data = [value]
            self._data_len = utf16_len(value)
        else:
            self._data.append(value)
            self._data_len += utf16_len(value) + 1
        if self._data_len > self._max_event:
            self._fail("event-too-large")

    def _dispatch(self):
        self.last_event_id = self._id_buffer
        if self._data is None:
            self._event = None
            self._block_id = None
            return
        message = {
            "id": self._block_id,
            "event": self._event,
            "data": "\n".join(self._data),
            "lastEventId": self.last_event_id,
        }
        self._reset_event()
        self._on_event(message)


def _parse_int(digits):
    """``Number.parseInt`` of ASCII digits: exact while safe, else the nearest double."""
    n = int(digits)
    return n if n <= 2**53 else as_double(n)
