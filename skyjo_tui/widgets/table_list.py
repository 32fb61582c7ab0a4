"""A list of rows where Enter chooses the row, and says so in the footer."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.reactive import reactive

from ..bindings import localize_bindings
from ..i18n import Translator
from .fitted_table import FittedTable


class TableList(FittedTable):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "keys.join_table", id="list.choose"),
    ]

    enter_joins = reactive(True, bindings=True)
    """False (set by the lobby): the selected table has no seat to take, so Enter is not
    this list's (nor in the footer as "Join"): it goes on to the lobby's own Enter."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select_cursor":
            return self.enter_joins
        return True

    def __init__(self, *, id: str | None = None, tr: Translator | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        if tr is not None:
            localize_bindings(self, tr)
