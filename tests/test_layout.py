"""The package layout is the architecture: no import cycle, and each layer imports only the
layers below it (learner <- knowledge <- features <- grading model <- exams / app / CLI).

The walk reads every module's imports with `ast` (function-level imports included, since
they run too) and counts importing `a.b.c` from outside package `a` as importing `a` and
`a.b` as well, because Python runs a package's `__init__` before its modules (a module
inside `a` finds `a` already initialised).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("grader", "features", "knowledge")

#: Layer of each module prefix, lowest first; a module may import its own layer and those below.
LAYERS = [
    ("grader.atomic_file", 0), ("grader.metrics", 0), ("grader.text_encoding", 0),
    ("grader.confold", 1), ("grader.boosting", 1),
    ("knowledge", 2),
    ("features", 3),
    ("grader.grading", 4),
    ("grader.exams", 5),
    ("grader.app", 6), ("grader.cli", 6), ("grader.bench", 6),
    ("grader", 6),  # the top package's __init__ only re-exports lazily
]


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` runs when imported or called, parent packages included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [module] + [f"{module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module" \
                and node.args and isinstance(node.args[0], ast.Constant):
            targets = [node.args[0].value]
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                enclosing = name.startswith(prefix + ".")  # its own package: already running
                if prefix in modules and prefix != name and not enclosing:
                    found.add(prefix)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = project_modules(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def lazy_targets(path: Path) -> set[str]:
    """Module names held in a `_LAZY = {name: "module"}` table (PEP 562 re-exports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "_LAZY" for t in node.targets):
            return {v.value for v in node.value.values if isinstance(v, ast.Constant)}
    return set()


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules, or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    for start in sorted(graph):
        if start in state:
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph.get(nxt, ()))))
    return None


def layer(module: str) -> int:
    for prefix, level in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return level
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")


def test_find_cycle_finds_a_cycle_and_only_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_walk_sees_function_level_relative_and_parent_package_imports(tmp_path):
    (tmp_path / "grader" / "sub").mkdir(parents=True)
    (tmp_path / "features").mkdir()
    (tmp_path / "knowledge").mkdir()
    for p in ("grader/__init__.py", "grader/sub/__init__.py", "features/__init__.py",
              "knowledge/__init__.py", "knowledge/x.py"):
        (tmp_path / p).write_text("")
    (tmp_path / "grader/sub/a.py").write_text("def f():\n    from knowledge import x\n")
    (tmp_path / "grader/sub/b.py").write_text("from . import a\n")
    graph = import_graph(tmp_path)
    assert graph["grader.sub.a"] == {"knowledge", "knowledge.x"}
    assert graph["grader.sub.b"] == {"grader.sub.a"}  # its own packages are already running


def test_no_import_cycle_between_project_modules():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_each_layer_imports_only_itself_and_the_layers_below():
    wrong = []
    for module, targets in import_graph().items():
        for target in targets:
            if target in ("grader",) or layer(target) <= layer(module):
                continue
            wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))


@pytest.mark.parametrize("package", ["grader", "grader.confold"])
def test_lazy_re_exports_name_modules_that_exist(package):
    modules = project_modules()
    for target in lazy_targets(modules[package]):
        assert target in modules, f"{package} re-exports from {target}, which does not exist"


def test_the_three_packages_import_and_the_public_names_resolve():
    import features  # noqa: F401
    import grader
    import knowledge  # noqa: F401
    from grader.confold import ConFold, Explanation, ModelFileError, write_program  # noqa: F401
    from grader.grading import GradingModel

    assert grader.ConFold is ConFold
    assert grader.GradingModel is GradingModel
