"""No import circle: asked of import-linter's own graph (grimp), over every module of the
project's packages, imports under ``TYPE_CHECKING`` included (a circle hidden from the
interpreter is still a circle in the design). A failure prints each circle as a chain of
modules, first module repeated at the end."""

from __future__ import annotations

import grimp

from tests.architecture_helpers import PACKAGES


def _components(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & graph.modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            children = edges[node]
            if i < len(children):
                work.append((node, i + 1))
                child = children[i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def _circle(graph: grimp.ImportGraph, component: list[str]) -> str:
    """One circle through the component's first module, as ``a -> b -> ... -> a``."""
    first = component[0]
    members = set(component)
    for nxt in sorted(graph.find_modules_directly_imported_by(first) & members):
        chain = graph.find_shortest_chain(importer=nxt, imported=first)
        if chain is not None:
            return " -> ".join((first, *chain))
    return ", ".join(component)


def test_no_module_imports_itself_through_others() -> None:
    graph = grimp.build_graph(*PACKAGES)
    circles = [_circle(graph, c) for c in _components(graph)]
    assert not circles, "import circles:\n" + "\n".join(circles)
