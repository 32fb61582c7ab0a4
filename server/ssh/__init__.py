"""The SSH door: ``ssh -p 2222 skyjo@host`` plays (see ``server/ssh/README.md``).

A thin door on the shared host (``server.termhost``, ``server.doors``): it owns
the SSH transport (``connection``, ``channels``, ``session``), authentication
and identity (``auth``, ``identity``, ``hostkey``) and its own connection caps
(``options.SSHLimits``).  ``frontdoor.SSHFrontDoor`` puts them together;
``options`` holds what the command line needs, without importing asyncssh.
"""

import warnings

# asyncssh names cryptography's DSA classes in its type hints, and cryptography warns
# of DSA's deprecation at each name: about fifteen lines of warnings opened every
# start and every ``admin`` command, about a library's plans that neither the admin
# nor a player can act upon (the host key is Ed25519).  Here, before any asyncssh
# import: every module of the door imports this package first.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh(\.|$)")
