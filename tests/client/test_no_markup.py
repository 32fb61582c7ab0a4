"""The client never reads markup: words reach the screen only through ``widgets.text``.

Textual parses markup in a plain ``str`` given to most of its widgets, and
the client's words carry other people's names, table names and chat. So no
module of ``skyjo_tui`` may use Textual's text widgets directly (its ``Input`` wrote a
value's terminal controls raw), turn markup
on, parse markup itself, or have a widget ``render()`` a str; ``skyjo_tui/widgets/text.py`` holds the literal
versions (see its docstring).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import skyjo_tui

CLIENT = Path(skyjo_tui.__file__).parent
#: The one module that wraps Textual's text widgets.
TEXT_MODULE = CLIENT / "widgets" / "text.py"
#: Textual widgets the client may import itself, and why they are safe: each shows
#: only the client's own words, or shows a str literally. A widget not listed here
#: goes through ``widgets.text`` (or is added here, with its reason, once checked).
ALLOWED_TEXTUAL_WIDGETS = {
    "OptionList": "the home menu: our own words",
    "Option": "the home menu: our own words",
    "TabbedContent": "tab titles: our own words",
    "TabPane": "tab titles: our own words",
    "Markdown": "the help: our own words, as Markdown",
    "LoadingIndicator": "no words",
    "Footer": "binding descriptions: our own words",
    "FooterKey": "the Footer's keys (only given their style here): binding descriptions",
}
MARKUP_MODULES = {"rich.markup", "textual.markup"}
MARKUP_CALLS = {"from_markup", "render_str", "to_content"}
LITERAL_RENDERS = {"Text", "Content"}


def client_modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(CLIENT.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def markup_uses(path: Path, tree: ast.Module) -> Iterator[str]:
    where = path.relative_to(CLIENT.parent)
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {alias.name for alias in node.names}
            if node.module in MARKUP_MODULES or (node.module == "textual" and "markup" in names):
                yield f"{line} imports a markup parser"
            if (
                node.module.startswith("textual.widgets")
                and node.module != "textual.widgets.data_table"
            ):
                for name in sorted(names - set(ALLOWED_TEXTUAL_WIDGETS)):
                    yield f"{line} uses Textual's {name}: use skyjo_tui.widgets.text"
            if node.module == "textual" and "widgets" in names and path != TEXT_MODULE:
                yield f"{line} imports textual.widgets: use skyjo_tui.widgets.text"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MARKUP_MODULES or (
                    alias.name == "textual.widgets" and path != TEXT_MODULE
                ):
                    yield f"{line} imports {alias.name}"
        elif isinstance(node, ast.FunctionDef) and node.name == "render":
            # Textual reads a str that render() returns as markup.
            returns = ast.unparse(node.returns) if node.returns else ""
            if returns not in LITERAL_RENDERS:
                yield f"{line} render() may return a str: return Text or Content"
        elif isinstance(node, ast.Call):
            called = (
                node.func.attr
                if isinstance(node.func, ast.Attribute)
                else getattr(node.func, "id", "")
            )
            if called in MARKUP_CALLS:
                yield f"{line} parses markup ({called})"
            for keyword in node.keywords:
                if keyword.arg == "markup" and not (
                    isinstance(keyword.value, ast.Constant) and keyword.value.value is False
                ):
                    yield f"{line} turns markup on"


def test_no_module_of_the_client_reads_markup() -> None:
    found = [use for path, tree in client_modules() for use in markup_uses(path, tree)]
    assert found == []


def test_the_check_sees_each_way_markup_gets_in() -> None:
    """The rule above can fail: each forbidden use, in a module of the client's, is reported."""
    sources = {
        "from textual.widgets import Label, Markdown": "uses Textual's Label",
        "from textual.widgets import Input": "uses Textual's Input",
        "from textual.widgets._static import Static": "uses Textual's Static",
        "from textual import widgets": "imports textual.widgets",
        "from rich.markup import escape": "imports a markup parser",
        "x = Content.from_markup(name)": "parses markup (from_markup)",
        "x = Text.from_markup(name)": "parses markup (from_markup)",
        "self.notify(name, markup=True)": "turns markup on",
        "Label(name, markup=flag)": "turns markup on",
        "def render(self) -> str: ...": "render() may return a str",
        "def render(self): ...": "render() may return a str",
    }
    for source, problem in sources.items():
        path = CLIENT / "screens" / "example.py"
        uses = list(markup_uses(path, ast.parse(source)))
        assert len(uses) == 1 and problem in uses[0], (source, uses)
    assert list(markup_uses(CLIENT / "x.py", ast.parse("Label(name, markup=False)"))) == []
