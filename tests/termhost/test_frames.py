"""A hosted app's frame reaches the door in one write.

Textual writes a frame in three pieces on a terminal with synchronized updates: the
update's start, the frame, its end. Each write of a hosted app is one relay message
from a worker, then one SSH packet (encrypted, sent) or one WebSocket message: three
of each for every key of every player. The host's driver now hands the door the
frame whole.
"""

from __future__ import annotations

from .conftest import HostedClients
from .pyteterm import until, until_alike

FRAME_START, FRAME_END = b"\x1b[?2026h", b"\x1b[?2026l"
RIGHT, LEFT = b"\x1b[C", b"\x1b[D"
TO_THE_TABLE = (
    (b"n", "New table"),
    (b"\x13", "You are the host"),  # ctrl+s: the default rules
    (b"b", "bot"),
    (b"s", "Turn up a card"),
)


async def test_every_frame_reaches_the_door_in_one_write(hosted: HostedClients) -> None:
    session, transport = await hosted.lobby("ann", sync=True)
    for key, then in TO_THE_TABLE:  # new screens, dialogs: whole screens drawn
        session.feed(key)
        await until(lambda: then in transport.text, then)  # noqa: B023
    for key in (RIGHT, RIGHT, LEFT):  # a key's small frame
        written = len(transport.writes)
        session.feed(key)
        await until(lambda: len(transport.writes) > written, "the key's frame")  # noqa: B023
    await until_alike(session, transport)
    frames = [w for w in transport.writes if FRAME_START in w or FRAME_END in w]
    assert len(frames) >= 3, "no frame was marked: the terminal's answer was not heard"
    for write in frames:
        assert write.startswith(FRAME_START), write[:80]
        assert write.endswith(FRAME_END), write[-80:]
        assert write.count(FRAME_START) == write.count(FRAME_END) == 1, write
