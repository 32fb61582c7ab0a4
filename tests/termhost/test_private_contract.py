"""The private attributes of libraries the server and the client rely on still exist, and
every one the code reaches is listed.

An upgrade that moves one fails here by name (``server/termhost/private.py``
says what each is for), not by a player seeing another's colours or the
server's memory growing."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import asyncssh

from server.termhost import private

ROOT = Path(__file__).resolve().parents[2]
OURS = ("server", "skyjo_tui")


async def test_every_private_attribute_the_host_relies_on_is_there() -> None:
    assert private.missing() == []


async def test_the_contract_notices_an_attribute_that_went_away(monkeypatch) -> None:
    monkeypatch.delattr(asyncssh.SSHServerChannel, "_process_env_request")
    (gone,) = private.missing()
    assert "asyncssh.SSHServerChannel._process_env_request" in gone
    assert "server.ssh.channels" in gone  # says who needs it


def test_every_module_that_reaches_in_is_listed() -> None:
    """Each use names where it is used; the listed places exist in the code."""
    import server.configfile as configfile
    import server.ssh.channels as channels
    import server.ssh.flow as flow
    import server.termhost.driver as driver
    import server.termhost.hardening as hardening
    import server.termhost.hosted as hosted
    import server.termhost.keyturns as keyturns
    import server.termhost.painting as painting
    import server.termhost.sharing as sharing
    import skyjo_tui.app as app
    import skyjo_tui.bindings as bindings
    import skyjo_tui.screens.base as base
    import skyjo_tui.widgets.text as text

    sources = {
        "keyturns": keyturns,
        "driver": driver,
        "hosted": hosted,
        "server.configfile": configfile,
        "skyjo_tui.app": app,
        "skyjo_tui.bindings": bindings,
        "skyjo_tui.screens.base": base,
        "skyjo_tui.widgets.text": text,
        "hardening": hardening,
        "sharing": sharing,
        "painting": painting,
        "server.ssh.channels": channels,
        "server.ssh.flow": flow,
    }
    for use in private.PRIVATE_USES:
        for place in use.where.split(", "):
            module_name, _, attribute = place.rpartition(".")
            module = sources.get(module_name)
            if module is not None:
                assert hasattr(module, attribute.split(".")[0]), place


def test_every_private_use_in_the_code_is_listed() -> None:
    """A library's private name that ``server/`` or ``skyjo_tui/`` reaches (on an object, by
    name, from a private module, or used, overridden or set by a subclass) is in the list."""
    listed = {use.attribute for use in private.PRIVATE_USES}
    listed_modules = {use.module for use in private.PRIVATE_USES}
    unlisted = [
        f"{where}: {name}"
        for where, name in sorted(private_uses_in_code())
        if name not in listed and name not in listed_modules
    ]
    assert unlisted == []


def test_the_reading_of_the_code_finds_what_reaches_in() -> None:
    """The scan above is not blind: it sees each way of reaching in."""
    found = {name for _, name in private_uses_in_code()}
    assert {"_filters", "_timeout_time", "textual._context", "_on_screen_resume"} <= found
    assert "_actions" in found  # the standard library's too (argparse)


# -- reading the code -------------------------------------------------------------------


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _modules() -> dict[str, ast.Module]:
    trees: dict[str, ast.Module] = {}
    for package in OURS:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == Path(private.__file__):
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            trees[".".join(parts)] = ast.parse(path.read_text(encoding="utf-8"))
    return trees


def _names_of_class(node: ast.ClassDef) -> set[str]:
    """The private names a class of ours defines, sets or uses on itself."""
    names = {
        statement.name
        for statement in node.body
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef)
        and _private(statement.name)
    }
    for statement in node.body:
        for target in getattr(statement, "targets", [getattr(statement, "target", None)]):
            if isinstance(target, ast.Name) and _private(target.id):
                names.add(target.id)
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Attribute)
            and isinstance(sub.value, ast.Name)
            and sub.value.id in ("self", "cls")
            and _private(sub.attr)
        ):
            names.add(sub.attr)
    return names


def _defined_by_us(trees: dict[str, ast.Module]) -> set[str]:
    """Every private name our own code defines: a private name reached that is not one of
    these is a library's."""
    defined: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.alias):
                defined.add((node.asname or node.name).split(".")[0])
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                defined.add(node.attr)
    return {name for name in defined if _private(name)}


_SETS_ON_SELF = re.compile(r"self\.(_[A-Za-z]\w*)\s*(?::[^=\n]*)?=")


@functools.cache
def _set_on_instances(cls: type) -> frozenset[str]:
    """The private names a library class's own code sets on ``self``."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return frozenset()
    return frozenset(_SETS_ON_SELF.findall(source))


def _provided_by_library(cls: type, name: str) -> bool:
    """Whether a library class ``cls`` inherits has ``name`` (in its class, or set on its
    instances by its own code)."""
    return any(
        name in vars(base) or name in _set_on_instances(base)
        for base in cls.__mro__
        if base is not object and base.__module__.split(".")[0] not in OURS
    )


@functools.cache
def private_uses_in_code() -> tuple[tuple[str, str], ...]:
    """``(where, name)`` for each library private name the code reaches: a private
    module, or a private attribute."""
    return tuple(_private_uses_in_code())


def _private_uses_in_code() -> Iterator[tuple[str, str]]:
    trees = _modules()
    ours = _defined_by_us(trees)
    classes: dict[tuple[str, str], set[str]] = {}
    for module, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                classes[(module, node.name)] = _names_of_class(node)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                if any(_private(part) for part in node.module.split(".")):
                    yield f"{module}:{node.lineno}", node.module
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                if node.attr not in ours:
                    yield f"{module}:{node.lineno}", node.attr
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr")
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and _private(node.args[1].value)
                and node.args[1].value not in ours
            ):
                yield f"{module}:{node.lineno}", node.args[1].value
    # what a subclass of a library class uses, overrides or sets of its bases
    for module in trees:
        loaded = importlib.import_module(module)
        for cls in vars(loaded).values():
            if not inspect.isclass(cls) or cls.__module__ != module:
                continue
            names: set[str] = set()
            for klass in cls.__mro__:
                names |= classes.get((klass.__module__, klass.__name__), set())
            for name in sorted(names):
                if _provided_by_library(cls, name):
                    yield f"{module}.{cls.__name__}", name
