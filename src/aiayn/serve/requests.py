"""What a request may ask for, checked before anything reaches the model.

A body is JSON text; each mistake gets its own HTTP status and a one-line message that says what
to send instead (``RequestError``):

* 400: the body is not JSON (not UTF-8, broken, nested deeper than ``MAX_DEPTH``), or not a JSON object;
* 408: the body did not arrive within ``Limits.body_timeout`` (a Content-Length that promises more
  bytes than come, a chunked body that never ends);
* 413: too large: the body, the number of lines, or one line's characters (``Limits``);
* 415: a Content-Type that is not JSON (or text: ``curl -d`` sends a form type);
* 422: well-formed but unusable: an unknown field, a wrong type, a value out of range (a number of
  more than ``MAX_DIGITS`` digits, 1e999), empty input.

Python's own limits are client errors here, never 500s: ``json.loads`` recurses once per nesting
level (RecursionError) and refuses integers of more than 4,300 digits (ValueError); such bodies are
refused before those limits are reached.

Two request kinds: translate ``{"lines": [...], "beam": 4, "alpha": 0.6, "nbest": 1}`` and attention
``{"text": "...", "beam": 4}``; fields other than the text are optional (server defaults).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from ..checks import Allowed, check_fields
from ..decoding.options import DECODE_RANGES, DecodeOptions
from ..errors import ConfigError


class RequestError(ValueError):
    """A request the server refuses: ``status`` (4xx or 503/504) and a one-line message for the client."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Limits:
    """Bounds on requests, so one client cannot hold the model for minutes or exhaust memory.

    ``max_lines`` lines per translate request, each at most ``max_chars`` characters;
    ``max_attention_chars`` for the one sentence of an attention request (its maps grow as
    target x source pieces, per layer and head); ``max_beam`` bounds the beam (and n-best);
    ``max_body_bytes`` the raw body, which must arrive whole within ``body_timeout`` seconds (a
    client that promises more than it sends gets a 408 instead of holding a connection and its
    memory for ever). ``timeout`` seconds a request waits for its answer (queue plus
    decoding) before a 504; ``max_queue`` requests waiting at once before new ones get a 503;
    ``max_batch_lines`` lines decoded together when waiting requests are merged.
    """

    max_lines: int = 64
    max_chars: int = 1000
    max_attention_chars: int = 400
    max_beam: int = 16
    max_body_bytes: int = 1 << 20
    body_timeout: float = 10.0
    timeout: float = 60.0
    max_queue: int = 256
    max_batch_lines: int = 64

    def __post_init__(self) -> None:
        check_fields(self, LIMIT_RANGES)


LIMIT_RANGES = {  # the command line parses --max-lines, --timeout... with these too
    "max_lines": Allowed(int, 1, 1 << 16), "max_chars": Allowed(int, 1, 1 << 20),
    "max_attention_chars": Allowed(int, 1, 1 << 16), "max_beam": Allowed(int, 1, 256),
    "max_body_bytes": Allowed(int, 1, 1 << 30), "body_timeout": Allowed(float, 0, 3600, lo_open=True),
    "timeout": Allowed(float, 0, 86400, lo_open=True),
    "max_queue": Allowed(int, 1, 1 << 20), "max_batch_lines": Allowed(int, 1, 1 << 16),
}

TRANSLATE_FIELDS = ("lines", "beam", "alpha", "nbest")
ATTENTION_FIELDS = ("text", "beam")
EXAMPLE = '{"lines": ["In the beginning God created the heavens and the earth."], "beam": 4, "nbest": 1}'


MAX_DEPTH = 16  # a request is an object of lists of strings (depth 2); deeper is never meant
MAX_DIGITS = 30  # no field takes a longer number; Python's int() refuses more than 4,300 digits anyway
JSON_TYPES = ("application/json", "text/plain", "application/x-www-form-urlencoded")  # the last: curl -d


def check_content_type(header: str | None) -> None:
    """A 415 for a body announced as something other than JSON (a form upload, XML, an image...).
    No header, JSON (``application/json``, ``*/*+json``), plain text and curl's default form type pass."""
    if not header:
        return
    kind, _, params = header.partition(";")
    kind = kind.strip().lower()
    charset = params.lower().replace(" ", "").partition("charset=")[2].strip('"')
    if (kind not in JSON_TYPES and not kind.endswith("+json")) or charset not in ("", "utf-8", "utf8"):
        raise RequestError(415, f"the body is sent as {header.strip()[:60]!r}; send JSON "
                                "(Content-Type: application/json, UTF-8)")


class _TooLong(ValueError):
    """A number of more than MAX_DIGITS digits, met while parsing."""


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooLong(text)
    return int(text)


def parse_json(body: bytes) -> dict[str, Any]:
    """The body as a JSON object, or a 400 saying where the JSON breaks."""
    if not body.strip():
        raise RequestError(400, f"the body is empty; send JSON such as {EXAMPLE}")
    too_deep = False
    try:
        data = json.loads(body.decode("utf-8"), parse_int=_number)
    except UnicodeDecodeError as e:
        raise RequestError(400, f"the body is not UTF-8 text (byte {e.start}); send JSON such as {EXAMPLE}") from None
    except json.JSONDecodeError as e:
        raise RequestError(400, f"the body is not valid JSON ({e.msg} at line {e.lineno} column {e.colno}); "
                                f"send e.g. {EXAMPLE}") from None
    except _TooLong as e:
        raise RequestError(422, f"a number of {len(str(e).lstrip('-'))} digits; no field takes more than "
                                f"{MAX_DIGITS}: send e.g. {EXAMPLE}") from None
    except RecursionError:  # json.loads recurses once per level: Python's stack is the limit it meets
        too_deep = True
    if too_deep or _deeper_than(data, MAX_DEPTH):
        raise RequestError(400, f"the JSON is nested more than {MAX_DEPTH} levels deep; a request is one object "
                                f"of strings, numbers and a list of strings, e.g. {EXAMPLE}")
    if not isinstance(data, dict):
        raise RequestError(400, f"the body must be a JSON object, not {_json_type(data)}; send e.g. {EXAMPLE}")
    return data


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels in ``value`` (a loop, not recursion:
    the value may be nearly as deep as Python's stack)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def parse_translate(data: dict[str, Any], defaults: DecodeOptions, limits: Limits) -> tuple[list[str], DecodeOptions]:
    """The lines to translate and the decoding options of a translate request."""
    _check_fields(data, TRANSLATE_FIELDS)
    lines = data.get("lines")
    if lines is None:
        raise RequestError(422, f"lines is missing: send the sentences as a list of strings, e.g. {EXAMPLE}")
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise RequestError(422, "lines must be a list of strings, one sentence each")
    if len(lines) > limits.max_lines:
        raise RequestError(413, f"{len(lines)} lines is too many; this server takes at most {limits.max_lines} "
                                "per request: split them over several requests")
    for n, line in enumerate(lines, 1):
        _check_text(f"line {n}", line, limits.max_chars)
    if not any(line.strip() for line in lines):
        raise RequestError(422, "empty input: lines holds no text to translate")
    return lines, _options(data, defaults, limits)


def parse_attention(data: dict[str, Any], defaults: DecodeOptions, limits: Limits) -> tuple[str, int]:
    """The sentence and the beam size of an attention request."""
    _check_fields(data, ATTENTION_FIELDS)
    text = data.get("text")
    if not isinstance(text, str):
        raise RequestError(422, 'text must be a string: the sentence whose attention to show, e.g. {"text": "Hello."}')
    _check_text("text", text, limits.max_attention_chars)
    if not text.strip():
        raise RequestError(422, "empty input: text holds no sentence")
    return text, _options(data, defaults, limits).beam_size


def _check_fields(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = [key for key in data if key not in allowed]
    if unknown:
        raise RequestError(422, f"unknown field {unknown[0]!r}; this request takes {', '.join(allowed)}")


def _check_text(name: str, text: str, max_chars: int) -> None:
    if len(text) > max_chars:
        raise RequestError(413, f"{name} has {len(text)} characters; this server takes at most {max_chars} "
                                "per sentence: split it")
    if "\n" in text or "\r" in text:
        raise RequestError(422, f"{name} contains a line break: send each sentence as its own line")


def _options(data: dict[str, Any], defaults: DecodeOptions, limits: Limits) -> DecodeOptions:
    """``defaults`` with the request's beam, alpha and nbest; out-of-range values are 422s."""
    ranges = {"beam": Allowed(int, 1, limits.max_beam), "alpha": DECODE_RANGES["alpha"],
              "nbest": Allowed(int, 1, limits.max_beam)}
    fields = {"beam": "beam_size", "alpha": "alpha", "nbest": "nbest"}
    changes = {}
    for key, value in data.items():
        if key in ranges:
            if not isinstance(value, (int, float, type(None))):  # not echoed: it may be a megabyte of text
                raise RequestError(422, f"{key} must be {ranges[key]}, not {_json_type(value)}")
            try:
                changes[fields[key]] = ranges[key].check(key, value)
            except ConfigError as e:
                raise RequestError(422, str(e)) from None
    if "beam" in changes and "nbest" not in changes:
        changes["nbest"] = min(defaults.nbest, changes["beam_size"])
    try:
        return dataclasses.replace(defaults, **changes)
    except ConfigError as e:  # nbest above beam
        raise RequestError(422, str(e)) from None


def _json_type(value: Any) -> str:
    return {list: "an array", dict: "an object", str: "a string", bool: "true/false",
            type(None): "null"}.get(type(value), "a number")
