"""The SSH door under load: ``benchmarks/doors.py`` with the SSH door alone.

    python benchmarks/ssh.py [--sessions N] [--keys K] [--leave-keys K] [--gap S]
                             [--idle S] [--workers N] [--runs R]

Same options and figures as ``doors.py`` (see there): memory per extra
session, first useful frame (the lobby drawn), key to the end of its frame
(also while a third of the players leave), idle CPU and garbage-collector
pauses in the server process and its workers.
"""

from __future__ import annotations

from doors import main

if __name__ == "__main__":
    main(doors="ssh")
