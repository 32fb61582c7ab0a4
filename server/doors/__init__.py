"""What every door of ``skyjo-server`` shares: the game's app for a player, and
the one host that runs those apps (``host.GameHost``: a ``SessionHost`` and
its worker processes, started with the server).

Dependencies point one way: ``server.termhost`` (generic) <- ``server.doors``
(Skyjo's apps on it) <- ``server.ssh``, ``server.web`` (transports).
``options`` is plain data (no Textual, no asyncssh), for the command line.
"""
