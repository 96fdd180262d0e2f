"""The code stays readable next to the lessons: the budgets of docs/architecture.md."""
import ast
import inspect
import pathlib
import re
import textwrap

import minigrad
from minigrad.core import graph as engine
from minigrad.ops.builtin import BuiltinFunction

PACKAGE = pathlib.Path(minigrad.__file__).parent

# About 400 lines is the guide for a module.  A module holds one idea and is split by
# concept, never cut in pieces to meet a number: these hold one idea that is longer.
ONE_IDEA_OVER_400 = {
    "surface/tensor_math.py": "Tensor's math methods, one line each",
    "ops/arithmetic.py": "+ - * / and how every op takes its operands",
    "core/function.py": "a Function call: its ctx, the node it records, what it saves",
    "core/graph.py": "the backward graph: its nodes and the engine that runs them",
    "lessons/questions.py": "the questions of Read the code, one a lesson, each in two languages",
    "exercises/graph_order.py": "lesson 03's schedule exercises, their checks and hints",
    "exercises/out_of_graph.py": "lesson 02's exercises, their checks and hints",
    "exercises/_tools.py": "what every check uses to judge an answer and word its hint",
}


def test_every_module_is_about_400_lines_at_most():
    lengths = {str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
               for path in PACKAGE.rglob("*.py")}
    too_long = {name: n for name, n in lengths.items()
                if n > (500 if name in ONE_IDEA_OVER_400 else 400)}
    assert not too_long, f"split these modules by concept: {too_long}"


def test_engine_loop_fits_on_one_screen():
    lines = inspect.getsource(engine.run_backward).splitlines()
    assert len(lines) <= 60, f"run_backward has {len(lines)} lines"


# The functions the lessons show ("Read the code") are checked in test_read_the_code.py:
# each on one screen, free of speed notes.


def _imports_of(path):
    """The minigrad modules a file imports, at module level or inside functions, as full
    module names (`from . import x` of a module x: that module; of a name: its module)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if path.name == "__init__.py":
        module = package = ".".join(parts[:-1])
    else:
        module = ".".join(parts)
        package = module.rpartition(".")[0]
    found = []
    for statement in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(statement, ast.Import):
            found += [(statement.lineno, a.name) for a in statement.names]
        elif isinstance(statement, ast.ImportFrom):
            if statement.level:
                parts = package.split(".")[:len(package.split(".")) - statement.level + 1]
                base = ".".join(parts + ([statement.module] if statement.module else []))
            else:
                base = statement.module or ""
            for alias in statement.names:
                name = f"{base}.{alias.name}"
                found.append((statement.lineno, name if _is_module(name) else base))
    return module, [(line, name) for line, name in found
                    if name == "minigrad" or name.startswith("minigrad.")]


def _is_module(name):
    parts = name.split(".")
    path = PACKAGE.parent.joinpath(*parts)
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _import_graph():
    """{module: the modules it imports, and the packages importing them runs}.  Importing
    `minigrad.a.b` runs the package `minigrad.a` first (its __init__.py), so that is an edge
    too, unless it is a package the importing module itself lives in (already being imported
    when the module runs)."""
    graph = {}
    for path in PACKAGE.rglob("*.py"):
        module, imports = _imports_of(path)
        own = {module.rsplit(".", k)[0] for k in range(module.count(".") + 1)}
        edges = graph.setdefault(module, set())
        for _, name in imports:
            parts = name.split(".")
            edges.update({name} - {module})
            edges.update({".".join(parts[:k]) for k in range(2, len(parts))} - own)
    return graph


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
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
    return found


def test_no_import_cycle_anywhere_in_minigrad():
    """No two modules of minigrad import each other, even through others and even inside a
    function: the layers stack one way (core, ops, surface, the tutor)."""
    assert _cycles(_import_graph()) == []


def test_the_check_for_cycles_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_importing_a_module_runs_its_package_first():
    """lessons/reading.py importing exercises/_result.py runs exercises/__init__.py, which
    imports the overview: had the overview imported minigrad.lessons, that was a cycle."""
    graph = _import_graph()
    assert "minigrad.exercises" in graph["minigrad.lessons.reading"]
    assert "minigrad.surface" in graph["minigrad.ops.arithmetic"]
    assert "minigrad.exercises" not in graph["minigrad.exercises.overview"]


def test_the_core_imports_nothing_built_on_it():
    """minigrad/core/ imports only itself and minigrad.backend (the arrays), at module level
    or inside functions: the layers built on it reach it through the seams
    (core/seams.py) and the class of a tensor it holds, never by import."""
    upward = [f"{path.name}:{line} imports {name}"
              for path in sorted((PACKAGE / "core").glob("*.py"))
              for line, name in _imports_of(path)[1]
              if not (name.startswith("minigrad.core") or name == "minigrad.backend")]
    assert upward == []


# What a user sets too, as the lessons do (`minigrad.settings.lang = "zh"`): a setting.
SETTINGS = {"settings"}
# The grader's worker, a process of its own for one submission, records the exercises'
# checks of the code it grades by putting its recorder in place of exercises.check.
FILLS_IN_ON_PURPOSE = {"tutor/grade_worker.py"}


def test_no_module_fills_in_the_globals_of_another():
    """No `other_module.name = value` anywhere in minigrad: what a module holds is set by
    its own code (a mode plugs into the core through seams.plug), settings apart."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()
        for statement in ast.walk(tree):
            if isinstance(statement, ast.Import):
                modules.update((a.asname or a.name).split(".")[0] for a in statement.names)
            elif isinstance(statement, ast.ImportFrom):
                modules.update(a.asname or a.name for a in statement.names
                               if statement.level and _is_module_name(path, statement, a.name))
        for statement in ast.walk(tree):
            targets = (statement.targets if isinstance(statement, ast.Assign) else
                       [statement.target] if isinstance(statement, (ast.AugAssign,
                                                                    ast.AnnAssign)) else [])
            for target in targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id in modules - SETTINGS
                        and str(path.relative_to(PACKAGE)) not in FILLS_IN_ON_PURPOSE):
                    found.append(f"{path.relative_to(PACKAGE)}:{statement.lineno}")
    assert found == []


def _is_module_name(path, statement, name):
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    parts = package.split(".")[:len(package.split(".")) - statement.level + 1]
    full = ".".join(parts + ([statement.module] if statement.module else []) + [name])
    return _is_module(full)


def _builtin_ops():
    seen, stack = [], list(BuiltinFunction.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        seen.append(cls)
    return seen


def test_every_builtin_op_has_a_math_docstring_and_a_short_backward():
    ops = _builtin_ops()
    assert len(ops) > 40
    for op in ops:
        assert op.__doc__ and op.__doc__.strip(), f"{op.__name__} needs a math docstring"
        if "backward" in op.__dict__:
            source = inspect.getsource(op.__dict__["backward"].__func__)
            body = ast.parse(textwrap.dedent(source)).body[0].body
            length = body[-1].end_lineno - body[0].lineno + 1
            assert length <= 15, f"{op.__name__}.backward is {length} lines"


def test_graph_code_has_no_recursion():
    """No function in the engine or graph modules calls itself."""
    for module in ("core/graph.py", "core/capture.py", "core/function.py", "core/tensor.py",
                   "surface/api.py"):
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef):
                calls = {c.func.id for c in ast.walk(func)
                         if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
                assert func.name not in calls, f"{module}: {func.name} is recursive"
