"""The SSH door: ``ssh -p 2222 skyjo@host`` plays (see ``server/ssh/README.md``).

A thin door on the shared host (``server.termhost``, ``server.doors``): it owns
the SSH transport (``connection``, ``channels``, ``session``), authentication
and identity (``auth``, ``identity``, ``hostkey``) and its own connection caps
(``options.SSHLimits``).  ``frontdoor.SSHFrontDoor`` puts them together;
``options`` holds what the command line needs, without importing asyncssh.
"""
