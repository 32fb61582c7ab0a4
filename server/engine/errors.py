"""Errors raised by the engine.

As in h11, a caller's mistake (an illegal move) is a distinct type from an
inconsistent input that could never have come from a real game (a bad deal).
"""


class EngineError(Exception):
    """Base class of every error the engine raises."""


class IllegalAction(EngineError):
    """The action is not legal now; the state is unchanged."""


class InvalidSetup(EngineError):
    """A deal, settings or serialised state that no real game could produce."""


class ReplayDivergence(InvalidSetup):
    """A game record that the engine does not reproduce: tampered, or from other rules."""
