"""The table in play without Textual: its controller (``controller``: what the cursor, the
keys, the clicks and the server's pushes do to the table's state, and what to send), and
its parts: the legal moves as keys and clicks see them (``choices``), the cursor's moves
(``cursor``), the keys kept while a move is on its way (``kept_keys``), why a key did
nothing (``refusals``), the turn timer (``turn_timer``) and the pace of the updates
(``pacing``).

``skyjo_tui.screens.table`` draws it and forwards keys and clicks to it. Nothing is
imported here: ``pacing``'s paces are read by the command line and the settings too.
"""
