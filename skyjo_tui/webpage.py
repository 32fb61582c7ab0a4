"""What the browser door's page and the app say to each other (docs/web.md).

- The door starts the app with ``SKYJO_IN_PAGE=1`` in its environment; with
  ``SKYJO_PAGE``, the page's address (``http://host:8080``), which the rooms
  show as their tables' links (the SSH door passes it too, when the server has
  the page); and with ``SKYJO_TABLE``, a table's code, when the page was opened
  from that table's link (``/t/CODE``): once the player has a name, the app
  goes to that table; and with ``SKYJO_TOUCH=1`` when the page is on a touch
  screen (a coarse pointer that cannot hover: a phone, a tablet), where the
  table's prompts say what to tap rather than which keys to press.
- The app tells the page whether a text field has the focus (``OSC 7717 ;
  text``) or not (``OSC 7717 ; keys``): the page raises a phone's on-screen
  keyboard only to type, never for a tap on a card.  Written only in the page
  (``SKYJO_IN_PAGE``): no other terminal ever sees it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

IN_PAGE_ENV: Final = "SKYJO_IN_PAGE"
PAGE_ENV: Final = "SKYJO_PAGE"
#: What only a door sets: a player's own terminal's variables of these names are dropped.
OWN_PREFIX: Final = "SKYJO_"
TABLE_ENV: Final = "SKYJO_TABLE"
TOUCH_ENV: Final = "SKYJO_TOUCH"
#: A private OSC number (none of xterm's, iTerm2's, kitty's or VTE's): terminals that
#: do not know it skip it whole, as ECMA-48 says of any control string.
KEYBOARD_OSC: Final = 7717
#: A table's code as a link carries it (the lobby's are 6 capitals; a link may be typed).
TABLE_CODE: Final = re.compile(r"[A-Za-z]{6}")
#: The page's address as the door passes it: a scheme and a plain host[:port], nothing else.
PAGE_ADDRESS: Final = re.compile(
    r"https?://(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?"
)


def in_page(environ: Mapping[str, str]) -> bool:
    """Whether the app runs in the browser door's page."""
    return environ.get(IN_PAGE_ENV) == "1"


def touch_screen(environ: Mapping[str, str]) -> bool:
    """Whether the app runs in the page on a touch screen (a phone, a tablet)."""
    return in_page(environ) and environ.get(TOUCH_ENV) == "1"


def page_address(environ: Mapping[str, str]) -> str | None:
    """The browser door's page's address (for the tables' links), if the door gave it."""
    address = environ.get(PAGE_ENV, "")
    return address if PAGE_ADDRESS.fullmatch(address) else None


def table_to_open(environ: Mapping[str, str]) -> str | None:
    """The code of the table whose link opened the page (capitals), if any."""
    code = environ.get(TABLE_ENV, "")
    return code.upper() if TABLE_CODE.fullmatch(code) else None


def table_link(page: str, code: str) -> str:
    """The link that opens the page straight at the table ``code``."""
    return f"{page}/t/{code}"


def keyboard_sequence(typing: bool) -> str:
    """The OSC that tells the page whether a text field has the focus."""
    return f"\x1b]{KEYBOARD_OSC};{'text' if typing else 'keys'}\x07"
