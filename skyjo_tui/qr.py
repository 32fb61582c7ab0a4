"""A QR code drawn in text: two rows of modules a line, in half blocks.

A phone's camera reads it off any terminal (over SSH, in the browser door's
page, in ``skyjo-server``'s own): light modules are drawn in the foreground
("█", "▀", "▄") and dark ones left as the background, which the caller makes
black under white (``INK``, ``ANSI_INK``) whatever the terminal's own colours.
The symbol is made by ``segno`` (a maintained, dependency-free QR encoder).
"""

from __future__ import annotations

from typing import Final

import segno

#: Light modules around the symbol: scanners need a margin (the standard asks 4; 2 read
#: well on a screen, and a phone's terminal has few cells to spare).
QUIET_ZONE: Final = 2
#: The colours a QR code is drawn in (Rich's words; ANSI for a plain terminal).
INK: Final = "#ffffff on #000000"
ANSI_INK: Final = "\x1b[97;40m"
ANSI_RESET: Final = "\x1b[0m"
#: (top light, bottom light) -> the character that draws them.
_HALF_BLOCKS: Final = {
    (True, True): "█",
    (True, False): "▀",
    (False, True): "▄",
    (False, False): " ",
}


def qr_modules(text: str) -> list[list[bool]]:
    """The symbol for ``text`` with its quiet zone, row by row: True for a light module."""
    # Error level L at least, raised while the symbol stays as small (segno's boost).
    symbol = segno.make(text, error="l", micro=False, boost_error=True)
    return [[not dark for dark in row] for row in symbol.matrix_iter(scale=1, border=QUIET_ZONE)]


def qr_lines(text: str) -> list[str]:
    """``text`` as a QR code: one line for every two rows of modules (a last odd row is
    paired with a light one, the quiet zone's)."""
    modules = qr_modules(text)
    if len(modules) % 2:
        modules.append([True] * len(modules[0]))
    return [
        "".join(_HALF_BLOCKS[top, bottom] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(modules[::2], modules[1::2], strict=True)
    ]


def modules_of_lines(lines: list[str]) -> list[list[bool]]:
    """The modules that ``qr_lines`` drew (what a camera reads off the screen)."""
    tops = {char: top for (top, _), char in _HALF_BLOCKS.items()}
    bottoms = {char: bottom for (_, bottom), char in _HALF_BLOCKS.items()}
    modules: list[list[bool]] = []
    for line in lines:
        modules.append([tops[char] for char in line])
        modules.append([bottoms[char] for char in line])
    return modules


def ansi_qr(text: str) -> str:
    """``text`` as a QR code for a plain terminal: white on black, each line reset."""
    return "".join(f"{ANSI_INK}{line}{ANSI_RESET}\n" for line in qr_lines(text))
