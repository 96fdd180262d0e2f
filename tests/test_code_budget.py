"""The code stays readable next to the lessons: the budgets of docs/architecture.md."""
import ast
import inspect
import pathlib
import re
import textwrap

import minigrad
from minigrad.autograd import engine
from minigrad.ops.builtin import BuiltinFunction

PACKAGE = pathlib.Path(minigrad.__file__).parent

# About 400 lines is the guide for a module.  A module holds one idea and is split by
# concept, never cut in pieces to meet a number: these hold one idea that is longer.
ONE_IDEA_OVER_400 = {
    "tensor.py": "the Tensor class: what a tensor holds and its part in autograd",
    "tensor_math.py": "Tensor's math methods, one line each",
    "ops/arithmetic.py": "+ - * / ** and how every op takes its operands",
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


# The autograd core: all of minigrad/autograd but functional.py and gradcheck.py, which
# are built on the public API (as PyTorch's are).
LAYERS_ABOVE = re.compile(r"^minigrad\.(tensor\w*|creation|functions\w*|ops)(\.|$)")


def _imports_of(path):
    """The modules a file imports, at module level or inside functions, as full names."""
    found = []
    for statement in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(statement, ast.Import):
            found += [(statement.lineno, a.name) for a in statement.names]
        elif isinstance(statement, ast.ImportFrom):
            if statement.level:
                package = ["minigrad", "autograd"][:max(0, 3 - statement.level)]
                base = ".".join(package + ([statement.module] if statement.module else []))
            else:
                base = statement.module
            found += [(statement.lineno, base)]
            found += [(statement.lineno, f"{base}.{a.name}") for a in statement.names]
    return found


def test_the_autograd_core_never_imports_the_layers_built_on_it():
    upward = [f"{path.name}:{line} imports {name}"
              for path in sorted((PACKAGE / "autograd").glob("*.py"))
              if path.name not in ("functional.py", "gradcheck.py")
              for line, name in _imports_of(path) if LAYERS_ABOVE.match(name)]
    assert upward == []


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
    for module in ("autograd/engine.py", "autograd/capture.py", "autograd/node.py",
                   "autograd/api.py"):
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef):
                calls = {c.func.id for c in ast.walk(func)
                         if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
                assert func.name not in calls, f"{module}: {func.name} is recursive"
