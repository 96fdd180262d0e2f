"""How far a student reads to follow one line of their own code: the files and functions
of minigrad that `y = x.exp(); y.sum().backward()` runs (docs/architecture.md, "The
layers").  The line crosses the surface (the method and its check), the ops and the core,
and nothing else: no narration, no speed folder, no PyTorch corner on the way.

Counted in a fresh interpreter, as a student's first line runs: a mode some other test
turned on (inference_mode plugs its check into the core for the rest of the process)
would add its own file."""
import json
import subprocess
import sys

MOST_FILES, MOST_FUNCTIONS = 8, 35

COUNT = """
import json, pathlib, sys
import minigrad as torch
PACKAGE = pathlib.Path(torch.__file__).parent
seen = set()

def tracer(frame, event, arg):
    if event == "call" and frame.f_code.co_filename.startswith(str(PACKAGE)):
        file = pathlib.Path(frame.f_code.co_filename).relative_to(PACKAGE.parent)
        seen.add((file.as_posix(), frame.f_code.co_qualname))

namespace = {"torch": torch}
exec("x = torch.tensor([0.5, 1.5], requires_grad=True)", namespace)
exec("y = x.exp(); y.sum().backward(); x.grad = None", namespace)    # first-call caches
code = compile("y = x.exp()\\ny.sum().backward()", "<student>", "exec")
sys.settrace(tracer)
try:
    exec(code, namespace)
finally:
    sys.settrace(None)
print(json.dumps(sorted(seen)))
"""


def student_line():
    """[(file relative to minigrad/'s parent, qualified name)] of the minigrad functions the
    student's line calls, each once."""
    done = subprocess.run([sys.executable, "-c", COUNT], capture_output=True, text=True,
                          timeout=120, check=True)
    return [tuple(function) for function in json.loads(done.stdout)]


def test_the_student_line_reads_few_files_and_functions():
    functions = student_line()
    files = sorted({file for file, _ in functions})
    assert len(files) <= MOST_FILES, "\n".join(files)
    assert len(functions) <= MOST_FUNCTIONS, "\n".join(map(str, functions))
    # the line itself runs through the core, whose two modules it must meet
    assert {"minigrad/core/function.py", "minigrad/core/graph.py"} <= set(files)
    assert {file.split("/")[1] for file in files} <= {"core", "ops", "surface"}, files
