"""Looking after a running server: the admin socket (``door``), what it can do
(``commands``), and the ``skyjo-server admin`` command that talks to it (``cli``)."""
