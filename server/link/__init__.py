"""Door hosts in front, one lobby behind (docs/scaling.md).

``skyjo-server --role lobby`` keeps the lobby, its store, the bots, the TCP
door and the admin socket; ``skyjo-server --role doors --lobby HOST:PORT``
runs the SSH and browser doors, and every player's app there connects to that
lobby over TCP, claiming the player's identity with a proof of the door
secret (``proof``: HMAC-SHA256 over a nonce of the lobby's, the secret never
sent).  ``gate`` is the lobby's side, ``client`` the door host's, ``doorhost``
the door host's stand-in for ``SkyjoServer``; ``options`` the command line
(plain data: no ssl context, no socket).
"""
