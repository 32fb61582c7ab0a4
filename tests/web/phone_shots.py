"""The README's pictures of a phone: ``python -m tests.web.phone_shots docs``.

A real server and Chromium emulating a Pixel 7: a host (a program) opens a table with a
bot; bob opens its link on the phone, names himself, taps Ready; the game starts (a bot
takes the host's seat) and he turns up two cards by taps. Saved: the room with its link's QR code
(``phone-room.png``), the game upright (``phone-portrait.png``) and turned
(``phone-landscape.png``). Then a table of eight on the phone turned: the others as
their name lines over your cards (``phone-landscape-eight.png``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from .browserkit import TermPage, chromium
from .phonekit import (
    PHONES,
    a_private_table_with_a_bot,
    name_myself,
    phone,
    tap_a_face_down_card,
    tap_footer,
)
from .webdoor import web_door


async def shoot(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="skyjo-shot-") as data_dir:
        async with (
            chromium() as browser,
            web_door(Path(data_dir)) as door,
            a_private_table_with_a_bot(door, "casual") as (host, code),
            phone(browser, "pixel-7") as context,
            TermPage.open(context, f"{door.url}t/{code}") as page,
        ):
            await name_myself(page, "bob")
            await page.shows(f"code {code}")
            await page.shows("█")  # the QR code
            await page.assert_drawn()
            await page.page.screenshot(path=str(out / "phone-room.png"))
            await tap_footer(page, "Ready")
            await page.shows("You are ready")
            await host.request({"type": "start_game"})
            await host.request({"type": "leave_table"})  # a bot plays for the host
            await page.shows("Turn up a card")
            for _ in range(2):
                await tap_a_face_down_card(page, "bob")
            await page.shows("Your turn")
            await page.page.screenshot(path=str(out / "phone-portrait.png"))
            await page.page.set_viewport_size(PHONES["pixel-7-landscape"]["viewport"])
            await page.wait_until(lambda: page.size[1] < 30, "the phone turned")
            await page.shows("Your turn")
            await page.assert_drawn()
            await page.page.screenshot(path=str(out / "phone-landscape.png"))
        await shoot_a_full_table(out, Path(data_dir))


async def shoot_a_full_table(out: Path, data_dir: Path) -> None:
    """Eight at the table, the phone on its side: bob's cards still 6x3."""
    async with (
        chromium() as browser,
        web_door(data_dir / "eight") as door,
        a_private_table_with_a_bot(door, "casual", seats=8, bots=6) as (host, code),
        phone(browser, "pixel-7-landscape") as context,
        TermPage.open(context, f"{door.url}t/{code}") as page,
    ):
        await name_myself(page, "bob")
        await page.shows(f"code {code}")
        await tap_footer(page, "Ready")
        await page.shows("You are ready")
        await host.request({"type": "start_game"})
        await host.request({"type": "leave_table"})
        await page.shows("Turn up a card")
        for _ in range(2):
            await tap_a_face_down_card(page, "bob")
        await page.shows("Your turn")
        await page.assert_drawn()
        await page.page.screenshot(path=str(out / "phone-landscape-eight.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder of the PNGs, e.g. docs")
    args = parser.parse_args()
    asyncio.run(shoot(args.out))
    print(
        f"wrote {args.out}/phone-room.png, phone-portrait.png, phone-landscape.png,"
        " phone-landscape-eight.png"
    )


if __name__ == "__main__":
    main()
