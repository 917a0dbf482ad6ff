"""What a request may ask for, checked before anything reaches the model.

A body is JSON text; each mistake gets its own HTTP status and a one-line message that says what
to send instead (``RequestError``):

* 400: the body is not JSON, or not a JSON object;
* 413: too large: the body, the number of lines, or one line's characters (``Limits``);
* 422: well-formed but unusable: an unknown field, a wrong type, a value out of range, empty input.

Two request kinds: translate ``{"lines": [...], "beam": 4, "alpha": 0.6, "nbest": 1}`` and attention
``{"text": "...", "beam": 4}``; fields other than the text are optional (server defaults).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from ..checks import Allowed, check_fields
from ..errors import ConfigError
from ..translator import DECODE_RANGES, DecodeOptions


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
    ``max_body_bytes`` the raw body. ``timeout`` seconds a request waits for its answer (queue plus
    decoding) before a 504; ``max_queue`` requests waiting at once before new ones get a 503;
    ``max_batch_lines`` lines decoded together when waiting requests are merged.
    """

    max_lines: int = 64
    max_chars: int = 1000
    max_attention_chars: int = 400
    max_beam: int = 16
    max_body_bytes: int = 1 << 20
    timeout: float = 60.0
    max_queue: int = 256
    max_batch_lines: int = 64

    def __post_init__(self) -> None:
        check_fields(self, LIMIT_RANGES)


LIMIT_RANGES = {  # the command line parses --max-lines, --timeout... with these too
    "max_lines": Allowed(int, 1, 1 << 16), "max_chars": Allowed(int, 1, 1 << 20),
    "max_attention_chars": Allowed(int, 1, 1 << 16), "max_beam": Allowed(int, 1, 256),
    "max_body_bytes": Allowed(int, 1, 1 << 30), "timeout": Allowed(float, 0, 86400, lo_open=True),
    "max_queue": Allowed(int, 1, 1 << 20), "max_batch_lines": Allowed(int, 1, 1 << 16),
}

TRANSLATE_FIELDS = ("lines", "beam", "alpha", "nbest")
ATTENTION_FIELDS = ("text", "beam")
EXAMPLE = '{"lines": ["In the beginning God created the heavens and the earth."], "beam": 4, "nbest": 1}'


def parse_json(body: bytes) -> dict[str, Any]:
    """The body as a JSON object, or a 400 saying where the JSON breaks."""
    if not body.strip():
        raise RequestError(400, f"the body is empty; send JSON such as {EXAMPLE}")
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise RequestError(400, f"the body is not UTF-8 text (byte {e.start}); send JSON such as {EXAMPLE}") from None
    except json.JSONDecodeError as e:
        raise RequestError(400, f"the body is not valid JSON ({e.msg} at line {e.lineno} column {e.colno}); "
                                f"send e.g. {EXAMPLE}") from None
    if not isinstance(data, dict):
        raise RequestError(400, f"the body must be a JSON object, not {_json_type(data)}; send e.g. {EXAMPLE}")
    return data


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
    return {list: "an array", str: "a string", bool: "true/false", type(None): "null"}.get(type(value), "a number")
