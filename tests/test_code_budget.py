"""The code stays readable next to the lessons: budgets from docs/architecture.md."""
import ast
import inspect
import pathlib
import textwrap

import minigrad
from minigrad.autograd import engine
from minigrad.ops.builtin import BuiltinFunction

PACKAGE = pathlib.Path(minigrad.__file__).parent


def test_every_module_is_under_400_lines():
    too_long = {str(path.relative_to(PACKAGE)): n
                for path in PACKAGE.rglob("*.py")
                if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert not too_long, f"split these modules: {too_long}"


def test_engine_loop_fits_on_one_screen():
    lines = inspect.getsource(engine.run_backward).splitlines()
    assert len(lines) <= 60, f"run_backward has {len(lines)} lines"


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
    for module in ("autograd/engine.py", "autograd/graph.py", "autograd/api.py"):
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef):
                calls = {c.func.id for c in ast.walk(func)
                         if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
                assert func.name not in calls, f"{module}: {func.name} is recursive"
