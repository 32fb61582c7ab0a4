"""The framing codec and message checks, without sockets."""

from __future__ import annotations

import pytest

from server.protocol import (
    MESSAGES,
    BadFrame,
    ErrorCode,
    FrameDecoder,
    NameReason,
    ProtocolError,
    check_message,
    encode_frame,
    frame,
)


def test_frames_split_anywhere_and_joined_together_decode_the_same() -> None:
    messages = [{"type": "ping", "id": n, "pad": "é" * n} for n in range(20)]
    stream = b"".join(encode_frame(m) for m in messages)
    for chunk in (1, 3, 7, 64, len(stream)):
        decoder = FrameDecoder()
        decoded: list[object] = []
        for start in range(0, len(stream), chunk):
            decoder.feed(stream[start : start + chunk])
            decoded.extend(decoder)
        assert decoded == messages


def test_a_bad_body_is_skipped_and_the_stream_stays_in_step() -> None:
    decoder = FrameDecoder()
    decoder.feed(frame(b"\xc1\xc1\xc1") + encode_frame({"type": "ping"}))
    bad, good = list(decoder)
    assert isinstance(bad, BadFrame) and not bad.fatal and bad.error.code is ErrorCode.BAD_FRAME
    assert good == {"type": "ping"}


def test_a_length_over_the_limit_stops_the_decoder_without_buffering_it() -> None:
    decoder = FrameDecoder(max_frame=100)
    decoder.feed(frame(b"x" * 101))
    (bad,) = list(decoder)
    assert isinstance(bad, BadFrame) and bad.fatal and bad.error.code is ErrorCode.FRAME_TOO_LARGE
    decoder.feed(encode_frame({"type": "ping"}))
    assert list(decoder) == [] and decoder.failed


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ([1, 2], ErrorCode.BAD_MESSAGE),
        ({"id": 1}, ErrorCode.BAD_MESSAGE),
        ({"type": "launch"}, ErrorCode.UNKNOWN_TYPE),
        ({"type": "game"}, ErrorCode.UNKNOWN_TYPE),  # a push, not a request
        ({"type": "hello"}, ErrorCode.BAD_FIELD),
        ({"type": "hello", "version": True}, ErrorCode.BAD_FIELD),
        ({"type": "create_table", "name": "t", "seats": 4.0}, ErrorCode.BAD_FIELD),
        ({"type": "kick", "seat": None}, ErrorCode.BAD_FIELD),
    ],
)
def test_messages_of_the_wrong_shape_are_named_precisely(message: object, code: ErrorCode) -> None:
    with pytest.raises(ProtocolError) as caught:
        check_message(message, sender="client")
    assert caught.value.code is code


def test_every_request_and_push_is_in_the_catalogue_and_the_documentation() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    for sender in ("client", "server"):
        for name in MESSAGES[sender]:
            assert f"`{name}`" in doc, name
    for code in ErrorCode:
        assert f"`{code.value}`" in doc, code
    for reason in NameReason:  # a bad_name's reason
        assert f"| `{reason.value}` |" in doc, reason
