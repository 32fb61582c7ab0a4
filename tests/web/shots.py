"""The README's picture of the page: ``python -m tests.web.shots docs/browser.png``.

A real server and a real browser (as the tests run them): alice names
herself, opens a table with two bots, and plays a few turns; the page, at
1280x800, is saved as a PNG.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from .browserkit import VIEWPORT, TermPage, chromium
from .webdoor import choose_name, open_table, prompt_of, web_door

TURNS = 4


async def shoot(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="skyjo-shot-") as data_dir:
        async with chromium() as browser, web_door(Path(data_dir)) as door:
            context = await browser.new_context(viewport=VIEWPORT)
            try:
                async with TermPage.open(context, door.url) as page:
                    await choose_name(page, "alice")
                    await open_table(page)
                    for count in (1, 2):
                        await page.press("b")
                        await page.shows(f"bot {count}")
                    await page.press("s")
                    await page.shows("Turn up a card of your choice")
                    await page.press("Enter", "ArrowRight", "Enter")
                    await page.gone("Turn up a card")
                    for turn in range(TURNS):
                        await page.screen_until(
                            lambda screen: prompt_of(screen).startswith("Your turn:"),
                            "alice's turn",
                        )
                        taken = page.text.count("You took the")
                        await page.press("t")
                        await page.shows("Choose the card the")
                        await page.press("ArrowDown" if turn % 2 else "ArrowRight", "Enter")

                        def moved(taken: int = taken) -> bool:
                            return page.text.count("You took the") > taken

                        await page.wait_until(moved, "her move")
                    await page.screen_until(
                        lambda screen: prompt_of(screen).startswith("Your turn:"), "alice's turn"
                    )
                    await page.assert_drawn()
                    await page.page.screenshot(path=str(out), timeout=60_000)
            finally:
                await context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the PNG to write, e.g. docs/browser.png")
    args = parser.parse_args()
    asyncio.run(shoot(args.out))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
