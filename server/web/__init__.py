"""The browser front door of ``skyjo-server``: open ``http://host:8080/`` and play.

The page is a terminal emulator (xterm.js, as the ``textual-serve`` package
ships it) connected by a WebSocket to the very same Textual app SSH players
get, run by the server's shared terminal host.  See docs/web.md.

This package stays light to import: ``options`` (the command line, loaded by
every ``skyjo-server``) needs nothing beyond the standard library; aiohttp and
the host are imported by ``door`` only when the door is on.
"""
