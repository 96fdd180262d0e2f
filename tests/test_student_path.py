"""How far a student reads to follow one line of their own code: the files and functions
of minigrad that `y = x.exp(); y.sum().backward()` runs (docs/architecture.md, "The
layers").  The line crosses the surface (the method and its check), the ops and the core,
and nothing else: no narration, no speed folder, no PyTorch corner on the way."""
import pathlib
import sys

import minigrad as torch

PACKAGE = pathlib.Path(torch.__file__).parent
MOST_FILES, MOST_FUNCTIONS = 8, 35


def functions_run(source, namespace):
    """{(file relative to minigrad/'s parent, qualified name)} of the minigrad functions
    that `source` calls, each counted once."""
    seen = set()

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(str(PACKAGE)):
            file = pathlib.Path(frame.f_code.co_filename).relative_to(PACKAGE.parent)
            seen.add((file.as_posix(), frame.f_code.co_qualname))

    code = compile(source, "<student>", "exec")
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        exec(code, namespace)
    finally:
        sys.settrace(previous)
    return seen


def student_line():
    namespace = {"torch": torch}
    exec("x = torch.tensor([0.5, 1.5], requires_grad=True)", namespace)
    exec("y = x.exp(); y.sum().backward(); x.grad = None", namespace)    # first-call caches
    return functions_run("y = x.exp()\ny.sum().backward()", namespace)


def test_the_student_line_reads_few_files_and_functions():
    functions = student_line()
    files = {file for file, _ in functions}
    assert len(files) <= MOST_FILES, sorted(files)
    assert len(functions) <= MOST_FUNCTIONS, sorted(functions)


def test_the_student_line_passes_the_core_and_the_ops_and_only_the_method_above_them():
    files = {file for file, _ in student_line()}
    assert {"minigrad/core/function.py", "minigrad/core/graph.py"} <= files
    layers = {file.split("/")[1] for file in files}
    assert layers <= {"core", "ops", "surface"}, sorted(files)

