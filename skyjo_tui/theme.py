"""The client's colours (screens, bars, keys); the cards' are in ``widgets/card_art``.

Players' terminals show 16, 256 or 16 million colours, and Textual brings
every colour down to what the terminal has (rich's nearest match).  Textual's
own theme tints its greys with blue: a 256-colour terminal has no such dark
tints and shows a saturated navy instead.  Here the greys are neutral (256
colours have a ramp of 24 greys), every colour is one of the 256 (a 256-colour
terminal shows exactly what a truecolor one does), and each one's nearest of
the 16 basic colours is the colour it stands for (blue stays blue, the keys
yellow), so a 16-colour terminal shows the same screens in its own palette.
"""

from __future__ import annotations

from typing import Final

from textual.theme import Theme

SKYJO_THEME: Final = Theme(
    name="skyjo",
    dark=True,
    background="#121212",
    surface="#1c1c1c",
    panel="#303030",
    foreground="#dadada",
    primary="#005fd7",
    secondary="#005f87",
    accent="#ffaf00",
    warning="#ffaf00",
    error="#d75f5f",
    success="#5faf5f",
    variables={
        "boost": "#ffffff0a",  # Textual derives it only when it derives the panel
        "footer-background": "#303030",
        "footer-key-foreground": "#ffaf00",
        "scrollbar": "#444444",
        "scrollbar-hover": "#585858",
        "scrollbar-active": "#005fd7",
        "scrollbar-background": "#1c1c1c",
        "scrollbar-background-hover": "#1c1c1c",
        "scrollbar-background-active": "#1c1c1c",
        "scrollbar-corner-color": "#1c1c1c",
        "primary-background": "#303030",
        "secondary-background": "#262626",
        "border-blurred": "#3a3a3a",
    },
)

#: Skyjo's light theme: the same neutral greys and 256-colour choices, on a light ground.
#: The keys' and the accent's orange is darker than the dark theme's: readable on light grey.
SKYJO_LIGHT_THEME: Final = Theme(
    name="skyjo-light",
    dark=False,
    background="#eeeeee",
    surface="#e4e4e4",
    panel="#c6c6c6",
    foreground="#121212",
    primary="#005fd7",
    secondary="#005f87",
    accent="#875f00",
    warning="#875f00",
    error="#af0000",
    success="#005f00",
    variables={
        "boost": "#0000000d",
        "footer-background": "#c6c6c6",
        "footer-key-foreground": "#5f0000",
        "footer-description-foreground": "#121212",
        "scrollbar": "#bcbcbc",
        "scrollbar-hover": "#a8a8a8",
        "scrollbar-active": "#005fd7",
        "scrollbar-background": "#e4e4e4",
        "scrollbar-background-hover": "#e4e4e4",
        "scrollbar-background-active": "#e4e4e4",
        "scrollbar-corner-color": "#e4e4e4",
        "primary-background": "#c6c6c6",
        "secondary-background": "#d0d0d0",
        "border-blurred": "#bcbcbc",
    },
)

#: The themes a player may choose (Settings, the command palette), the default first: ours,
#: and Textual's own that keep every text readable (tests/client/test_themes.py checks each).
THEMES: Final[tuple[str, ...]] = (
    SKYJO_THEME.name,
    SKYJO_LIGHT_THEME.name,
    "catppuccin-mocha",
    "dracula",
    "monokai",
)
OWN_THEMES: Final = (SKYJO_THEME, SKYJO_LIGHT_THEME)


def chosen_theme(name: str) -> str:
    """``name`` if it is one of ``THEMES``, else the default (a stale or edited client.json)."""
    return name if name in THEMES else THEMES[0]
