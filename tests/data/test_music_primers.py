"""A music primer aiayn cannot read: the message names the file, the formats a primer may have, and
how to check the file (issue 18)."""

from __future__ import annotations

import pytest

from aiayn.data import music
from aiayn.data.errors import DataError
from aiayn.data.music import read_primer

pytest.importorskip("music21")

ACCEPTED = "a primer is a four-voice score as MIDI (.mid), MusicXML (.musicxml, .xml, .mxl) or Humdrum (.krn)"


def _midi(tmp_path) -> bytes:
    """A real four-voice MIDI file's bytes (eight chords)."""
    tokens = [music.pitch_token(p) for p in [72, 67, 64, 48] * 8]
    return music.write_midi(tokens, tmp_path / "whole.mid").read_bytes()


@pytest.mark.parametrize("name,content,fragments", [
    ("empty.mid", b"", ["is empty (0 bytes)", ACCEPTED]),
    ("notes.txt", b"C D E F G\n", ["music21 cannot parse it", ACCEPTED, "music21.converter.parse("]),
    ("cut.mid", "half a MIDI file", ["music21 cannot parse it", "truncated", ACCEPTED, "MuseScore"]),
    ("silent.mid", b"MThd\x00\x00\x00\x06\x00\x01\x00\x00\x01\xe0", [ACCEPTED, "MuseScore"]),
    ("missing.mid", None, ["no such file", ACCEPTED]),
])
def test_an_unreadable_primer_says_what_is_accepted(tmp_path, name, content, fragments):
    path = tmp_path / name
    if content == "half a MIDI file":
        whole = _midi(tmp_path)
        content = whole[: len(whole) // 2]
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(DataError) as e:
        read_primer(path)
    message = str(e.value)
    assert str(path) in message and "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, message
