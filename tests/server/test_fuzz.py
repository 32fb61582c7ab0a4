"""Random and malformed frames against a live server, while another table plays on.

Hypothesis drives the examples from a worker thread; each example runs on the
test's event loop, where the server and a busy table keep running between
and during examples. Every answer the server gives must be a well-formed
frame, and the busy table must never notice a thing: after every example it
has moved on, and nobody there ever sees an error.

Besides garbage, the examples hold requests of every type with fields of the
right wire type but any value (64-bit extremes, the busy table's own id and
code), so the handlers behind the shape checks are fuzzed too.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.app import SkyjoServer
from server.protocol import (
    BOOL,
    DEFAULT_MAX_FRAME,
    INT,
    INT_MAX,
    INT_MIN,
    LIST,
    MAP,
    MESSAGES,
    NUMBER,
    PROTOCOL_VERSION,
    STR,
    BadFrame,
    FrameDecoder,
    check_message,
    encode_body,
    encode_frame,
    frame,
)

from .support import WAIT, Client, table_with

PING_ID = -4242  # generated requests use ids >= 0, so only our ping is answered with this
FIELD_NAMES = sorted({name for spec in MESSAGES["client"].values() for name in spec.fields})

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.integers(min_value=-3, max_value=12)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.binary(max_size=12)
    | st.sampled_from(["flip", "draw", "take", "swap", "lobby", "table", "random", "on"])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
request_like = st.builds(
    lambda kind, fields, request_id: {**fields, "type": kind, "id": request_id},
    st.sampled_from(sorted(MESSAGES["client"])) | st.text(max_size=10),
    st.dictionaries(st.sampled_from(FIELD_NAMES), values, max_size=5),
    st.integers(min_value=0, max_value=2**31) | values.filter(lambda v: v != PING_ID),
)
MAP_KEYS = ["kind", "player", "pos", "starter", "clear-columns", "closer-penalty", "end-score"]


def well_typed_requests(words: list[str]) -> st.SearchStrategy[dict]:
    """Requests of every type whose fields have the right wire type and any value."""
    by_kind = {
        # msgpack carries integers up to 2**64 - 1: the edges of the wire type and beyond.
        INT: st.integers(INT_MIN, 2**64 - 1)
        | st.integers(-3, 12)
        | st.sampled_from([INT_MIN, INT_MAX, INT_MAX + 1, 2**64 - 1]),
        STR: st.text(max_size=30) | st.sampled_from(words),
        BOOL: st.booleans(),
        MAP: st.dictionaries(st.sampled_from(MAP_KEYS) | st.text(max_size=6), values, max_size=4),
        LIST: st.lists(values, max_size=4),
        NUMBER: st.integers(-3, 12) | st.floats(allow_nan=True),
    }

    def request(spec) -> st.SearchStrategy[dict]:
        fields = {name: by_kind[rule.kind] for name, rule in spec.fields.items() if name != "id"}
        required = {n: v for n, v in fields.items() if spec.fields[n].required}
        optional = {n: v for n, v in fields.items() if not spec.fields[n].required}
        return st.fixed_dictionaries(required, optional=optional).map(
            lambda f: {**f, "type": spec.type, "id": 7}
        )

    return st.one_of([request(spec) for spec in MESSAGES["client"].values()])


def frames(words: list[str]) -> st.SearchStrategy[bytes]:
    return st.one_of(
        well_typed_requests(words).map(encode_frame),
        garbage_frames,
    )


garbage_frames = st.one_of(
    request_like.map(lambda m: encode_frame(m)),  # plausible requests with wrong fields
    values.map(lambda v: frame(encode_body(v))),  # type: ignore[arg-type]  # any msgpack value, mostly not a map
    st.binary(max_size=40).map(frame),  # a framed body that is not msgpack
    st.binary(min_size=1, max_size=40),  # bytes with no framing at all
    st.integers(min_value=DEFAULT_MAX_FRAME + 1, max_value=2**32 - 1).map(
        lambda n: struct.pack(">I", n) + b"\x00" * 8  # a length over the limit
    ),
)


def expected_outcome(sent: bytes) -> str:
    """What a correct server must do with these bytes followed by EOF."""
    decoder = FrameDecoder()
    decoder.feed(sent)
    items = list(decoder)
    if any(isinstance(i, BadFrame) and i.fatal for i in items):
        return "bye"
    if items and isinstance(items[-1], dict) and items[-1].get("id") == PING_ID:
        return "answer"
    return "eof"  # the ping was swallowed by an unfinished frame


async def fuzz_once(server: SkyjoServer, number: int, garbage: list[bytes]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        hello = {"type": "hello", "id": 1, "version": PROTOCOL_VERSION, "name": f"fuzz {number}"}
        sent = b"".join(garbage) + encode_frame({"type": "ping", "id": PING_ID})
        writer.write(encode_frame(hello) + sent)
        writer.write_eof()
        async with asyncio.timeout(WAIT):
            received = await reader.read()  # until the server closes
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    decoder = FrameDecoder(max_frame=1 << 24)
    decoder.feed(received)
    replies = [check_message(item, sender="server") for item in decoder]
    assert not decoder.failed
    assert next(r for r in replies if r.get("re") == 1)["type"] == "ok"  # the hello
    assert not any(r["type"] == "error" and r["code"] == "internal" for r in replies), replies
    outcome = expected_outcome(sent)
    if outcome == "bye":
        assert replies[-1] == {
            "type": "bye",
            "code": "frame_too_large",
            "message": replies[-1]["message"],
        }
    elif outcome == "answer":
        assert any(r.get("re") == PING_ID for r in replies), replies


async def keep_playing(host: Client, stop: asyncio.Event) -> None:
    """The busy table: its host plays game after game until told to stop."""
    rng, games = random.Random(50), 0
    while not stop.is_set():
        await host.play(
            rng,
            stop=lambda: (
                stop.is_set()
                or (host.game_over() and sum(p["type"] == "game_over" for p in host.pushes) > games)  # noqa: B023 - called during this play()
            ),
        )
        games += 1
        if not stop.is_set():
            await host.request("rematch")


def game_updates(client: Client) -> int:
    return sum(p["type"] == "game" for p in client.pushes)


async def test_random_and_malformed_frames_never_disturb_another_table(
    server, connect, caplog
) -> None:
    caplog.set_level(logging.ERROR, logger="server")
    host, watcher = await connect("Host"), await connect("Watcher")
    table = await table_with(
        host, seats=4, bots=("greedy", "random", "expert"), settings={"end-score": 30}
    )
    await watcher.request("spectate", table_id=table["table_id"])
    await host.request("start_game")
    stop = asyncio.Event()
    busy = asyncio.create_task(keep_playing(host, stop))
    loop, numbers = asyncio.get_running_loop(), itertools.count()
    words = [table["table_id"], table["code"], "Host", "Watcher", "lobby", "table", "expert"]

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(garbage=st.lists(frames(words), min_size=1, max_size=6))
    def fuzz(garbage: list[bytes]) -> None:
        seen = game_updates(watcher)
        coro = fuzz_once(server, next(numbers), garbage)
        asyncio.run_coroutine_threadsafe(coro, loop).result(WAIT * 2)
        # The busy table moved on meanwhile, or does now: it is not stuck.
        moved = watcher.until(lambda: game_updates(watcher) > seen)
        asyncio.run_coroutine_threadsafe(moved, loop).result(WAIT * 2)

    try:
        await asyncio.to_thread(fuzz)
    finally:
        stop.set()
        await asyncio.wait_for(busy, WAIT)
    # Nobody at the busy table missed an update or saw an error.
    seqs = [p["seq"] for p in watcher.pushes if p["type"] == "game"]
    assert all(b == a + 1 or b == 0 for a, b in itertools.pairwise(seqs))
    assert not [p for c in (host, watcher) for p in c.pushes if p["type"] in ("error", "bye")]
    assert host.lost is None and watcher.lost is None
    assert (await host.request("ping")) is not None
    assert [r.getMessage() for r in caplog.records if r.name.startswith("server")] == []
