"""The shape of the code's imports, as figures: circles, imports inside functions, largest modules.

Not a timing: the counts issue 34 ("the client's spine") is measured by, printed so that a
change can be compared with main.  Reads the source (``ast``), imports nothing of it.

- circles: the strongly connected components of two or more modules in the graph of
  imports between the project's modules, three ways: the imports run when a module loads
  (module level, ``if``/``try`` included), those plus the ones inside functions (a circle
  hidden by moving an import into a function is still a circle), and every import including
  the type-only ones (under ``if TYPE_CHECKING:``), which mypy reads and Python does not.
  ``from package import name`` counts as an import of ``package.name`` when that is a module.
- in-function imports: per top-level package, and the modules with the most.
- the largest modules by lines.

Usage: python benchmarks/imports.py [--top 10] [--circles]   (--circles lists each one's modules)
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "skyjo_tui")


@dataclass
class ModuleImports:
    """One module's imports of the project's modules, by when they run."""

    name: str
    lines: int
    loading: set[str] = field(default_factory=set)
    in_functions: set[str] = field(default_factory=set)
    type_only: set[str] = field(default_factory=set)
    in_function_statements: int = 0
    in_function_own: int = 0
    """Those of them that import the project's own modules."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(
    node: ast.Import | ast.ImportFrom, here: str, is_package: bool, known: set[str]
) -> set[str]:
    """The project's modules an import statement names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = here.split(".") if is_package else here.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            source = ".".join([*base, node.module] if node.module else base)
        else:
            source = node.module or ""
        names = [f"{source}.{alias.name}" for alias in node.names]
        names = [name if name in known else source for name in names]
    found: set[str] = set()
    for name in names:
        # the most specific of the project's modules the dotted name reaches
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            found.add(name)
    return found


def read(known_paths: dict[str, Path]) -> dict[str, ModuleImports]:
    known = set(known_paths)
    modules: dict[str, ModuleImports] = {}
    for name, path in known_paths.items():
        source = path.read_text(encoding="utf-8")
        entry = ModuleImports(name, source.count("\n"))
        modules[name] = entry
        is_package = path.name == "__init__.py"

        def visit(
            node: ast.AST,
            in_function: bool,
            type_only: bool,
            entry: ModuleImports = entry,
            name: str = name,
            is_package: bool = is_package,
        ) -> None:
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets = imported(node, name, is_package, known) - {name}
                if in_function:
                    entry.in_function_statements += 1
                    entry.in_function_own += bool(targets)
                if type_only:
                    entry.type_only |= targets
                elif in_function:
                    entry.in_functions |= targets
                else:
                    entry.loading |= targets
                return
            if isinstance(node, ast.If) and is_type_checking(node.test):
                for child in node.body:
                    visit(child, in_function, True)
                for child in node.orelse:
                    visit(child, in_function, type_only)
                return
            inside = in_function or isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            for nested in ast.iter_child_nodes(node):
                visit(nested, inside, type_only)

        visit(ast.parse(source, str(path)), False, False)
    return modules


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of two or more modules (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=10, help="how many of the largest to list")
    parser.add_argument("--circles", action="store_true", help="list each circle's modules")
    args = parser.parse_args()

    paths = {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    modules = read(paths)
    graphs = {
        "when loading": {m.name: m.loading for m in modules.values()},
        "with in-function imports": {m.name: m.loading | m.in_functions for m in modules.values()},
        "with type-only imports too": {
            m.name: m.loading | m.in_functions | m.type_only for m in modules.values()
        },
    }
    print(f"{len(modules)} modules, {sum(m.lines for m in modules.values())} lines")
    print("\nimport circles (strongly connected components of 2+ modules):")
    for label, graph in graphs.items():
        found = circles(graph)
        sizes = ", ".join(str(len(c)) for c in found) or "none"
        print(f"  {label:28} {len(found)} circles, sizes {sizes}")
        if args.circles:
            for component in found:
                print(f"    {len(component)}: {' '.join(component)}")

    print("\nimports inside functions (statements: all, then those of the project's own modules):")
    per_package = Counter[str]()
    own_per_package = Counter[str]()
    per_module = Counter[str]()
    for m in modules.values():
        per_package[m.name.split(".")[0]] += m.in_function_statements
        own_per_package[m.name.split(".")[0]] += m.in_function_own
        if m.in_function_own:
            per_module[m.name] = m.in_function_own
    for package in PACKAGES:
        print(f"  {package:28} {per_package[package]:4} {own_per_package[package]:4}")
    print("  most (own): " + ", ".join(f"{n} {c}" for n, c in per_module.most_common(args.top)))

    print("\nlargest modules (lines):")
    for m in sorted(modules.values(), key=lambda m: -m.lines)[: args.top]:
        print(f"  {m.lines:6}  {m.name}")


if __name__ == "__main__":
    main()
