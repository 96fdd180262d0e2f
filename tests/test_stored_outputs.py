"""No stored output depends on the machine that ran the notebook.

nbval compares a worked notebook's stored outputs with a fresh run on whatever machine runs
the tests, so an output that holds a path of the machine that executed it (its virtual
environment, the kernel's temporary files), a memory address, a timing or its CPU fails
everywhere else.  The scripts that execute the lessons write such things the same on every
machine (notebooks/nbval-sanitize.cfg, which nbval applies to both sides too); these tests
read every output of every notebook for what would still differ.  Float noise cannot be
read off an output: scripts/run-tests.sh runs the notebook tests a second time with another
BLAS kernel and numpy's SIMD loops switched off, where it shows.
"""
import pathlib
import re

import nbformat
import pytest

from minigrad.lessons import LESSONS
from test_lessons import IGNORE_OUTPUT, builder

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
PATTERNS = builder.sanitizer_patterns()

# what no output may hold, compared by nbval or not
MACHINE = {
    "an absolute path": re.compile(
        r"(?<![\w.~:/\\-])(?:[A-Za-z]:\\|/)(?:[\w.+@~-]+[\\/])+[\w.+@-]*"),
    "a kernel's temporary file": re.compile(r"ipykernel_\d+"),
    "a memory address": re.compile(r"\b0x[0-9a-fA-F]{6,}\b"),
}
# what no output that nbval compares may hold
COMPARED = {
    "a timing": re.compile(r"\b\d+(?:\.\d+)?\s?(?:ns|µs|us|ms|s|sec|seconds)\b"),
    "a CPU or a count of its threads": re.compile(
        r"\b(?:Intel|AMD|EPYC|Xeon|Ryzen|Apple M\d|aarch64|x86_64|arm64|\d+ (?:threads?|cores?))\b",
        re.IGNORECASE),
}


def texts(output):
    """The text an output shows (images and widget models are not text)."""
    found = [output.get("text", "")]
    found += [value for kind, value in output.get("data", {}).items()
              if kind.startswith("text/") and isinstance(value, str)]
    if output.get("output_type") == "error":
        found += [output.get("evalue", ""), *output.get("traceback", [])]
    return [text for text in found if text]


def machine_dependent(text, compared=True):
    """[(what, the part of `text` that names it)] for everything in `text` that depends on the
    machine that produced it."""
    kinds = {**MACHINE, **COMPARED} if compared else MACHINE
    return [(what, match.group()) for what, pattern in kinds.items()
            for match in pattern.finditer(text)]


def stored_outputs():
    """(notebook, cell index, compared by nbval?, text) of every output stored in notebooks/."""
    for path in NOTEBOOKS:
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            compared = IGNORE_OUTPUT not in cell.metadata.get("tags", [])
            for output in cell.get("outputs", []):
                for text in texts(output):
                    yield path.relative_to(ROOT).as_posix(), index, compared, text


def test_every_notebook_is_read():
    # four notebooks a lesson (student and worked, en and zh) and the two course indexes
    assert len(NOTEBOOKS) == 4 * len(LESSONS) + 2 and sum(1 for _ in stored_outputs()) > 300


def test_no_stored_output_depends_on_the_machine_that_ran_it():
    found = [f"{path} cell {index}: {what}: {part}" for path, index, compared, text
             in stored_outputs() for what, part in machine_dependent(text, compared)]
    assert not found, ("outputs that differ on another machine (print them in a stable form, tag "
                       "the cell nbval-ignore-output, or add a pattern to "
                       "notebooks/nbval-sanitize.cfg):\n" + "\n".join(found[:40]))


def test_every_stored_output_is_already_sanitized():
    """What nbval rewrites before comparing is stored rewritten: the execution sanitized it."""
    unsanitized = [f"{path} cell {index}" for path, index, _, text in stored_outputs()
                   if builder.sanitize(text, PATTERNS) != text]
    assert not unsanitized, "run scripts/build-lessons.py --execute on: " + ", ".join(unsanitized)


@pytest.mark.parametrize("text, what", [
    ('  File "/home/ada/minigrad/.venv/lib/python3.12/site-packages/ipykernel/kernelapp.py"',
     "an absolute path"),
    ("/tmp/ipykernel_9052/1725091206.py:3: UserWarning: enabled", "an absolute path"),
    ('File "C:\\Users\\Ada Lovelace\\minigrad\\tensor.py", line 3', "an absolute path"),
    ("ipykernel_4242", "a kernel's temporary file"),
    ("<function hook at 0x7f3a2b1c0d60>", "a memory address"),
    ("forward   C = A @ B     1.54 ms", "a timing"),
    ("took 2 s", "a timing"),
    ("cpu: AMD EPYC 7763, 16 threads", "a CPU or a count of its threads"),
])
def test_the_scan_finds_what_differs_between_machines(text, what):
    assert what in [kind for kind, _ in machine_dependent(text)]


@pytest.mark.parametrize("text", [
    "tensor([ 5.4366, 22.1672])", "https://example.org/a/b/c.ipynb",
    "minigrad/autograd/engine.py, lines 12–40: backward", "step 100  loss 0.0789  accuracy 97.0%",
    "MulBackward0   saved 10 tensors,     80 bytes", "x / 2 + y/3", "</span></pre>",
    "lessons 1-3 of 12", ".../site-packages/ipykernel/kernelapp.py", 'File "<cell>", line 4'])
def test_the_scan_lets_stable_outputs_pass(text):
    assert machine_dependent(text) == []


SANITIZED = [
    # Linux, a virtual environment in a checkout; the kernel's cell and minigrad's own file
    ('  File "/home/ada/minigrad/.venv/lib/python3.12/site-packages/ipykernel/kernelapp.py", '
     'line 768, in start',
     '  File ".../site-packages/ipykernel/kernelapp.py", line 768, in start'),
    ("/tmp/ipykernel_9052/1725091206.py:3: UserWarning: Anomaly Detection has been enabled.",
     "<cell>:3: UserWarning: Anomaly Detection has been enabled."),
    ("/work/main/minigrad/autograd/anomaly.py:102: UserWarning: Error detected in LogBackward0.",
     "minigrad/autograd/anomaly.py:102: UserWarning: Error detected in LogBackward0."),
    # a wheel installed into site-packages, a checkout in a folder itself named minigrad
    ('"/opt/conda/lib/python3.11/site-packages/minigrad/autograd/engine.py"',
     '"minigrad/autograd/engine.py"'),
    ("/srv/minigrad/minigrad/tensor.py:3", "minigrad/tensor.py:3"),
    # Python's own library: pyenv, macOS' framework, Debian's dist-packages, Windows
    ('  File "/root/.pyenv/versions/3.11.7/lib/python3.11/asyncio/events.py", line 80, in _run',
     '  File ".../lib/python3.11/asyncio/events.py", line 80, in _run'),
    ("/Library/Frameworks/Python.framework/Versions/3.11/lib/python3.11/runpy.py:88",
     ".../lib/python3.11/runpy.py:88"),
    ("/usr/lib/python3/dist-packages/IPython/core/interactiveshell.py",
     ".../dist-packages/IPython/core/interactiveshell.py"),
    ('File "C:\\Users\\ada\\AppData\\Local\\Temp\\ipykernel_12\\2984.py", line 4',
     'File "<cell>", line 4'),
    ("C:\\Python311\\Lib\\asyncio\\events.py", "...\\Lib\\asyncio\\events.py"),
    ("C:\\Users\\ada\\venv\\Lib\\site-packages\\minigrad\\tensor.py", "minigrad\\tensor.py"),
    ("<minigrad.autograd.graph.Node object at 0x7f3a2b1c0d60>",
     "<minigrad.autograd.graph.Node object at 0x...>"),
    # nothing else changes: links, relative paths, a listing's file name
    ("https://example.org/a/minigrad/x.py", "https://example.org/a/minigrad/x.py"),
    ("notebooks/en/minigrad/x.py", "notebooks/en/minigrad/x.py"),
    ("minigrad/autograd/engine.py, lines 12–40", "minigrad/autograd/engine.py, lines 12–40"),
]


@pytest.mark.parametrize("raw, sanitized", SANITIZED)
def test_the_sanitizer_writes_every_machines_paths_the_same(raw, sanitized):
    assert builder.sanitize(raw, PATTERNS) == sanitized
    assert builder.sanitize(sanitized, PATTERNS) == sanitized        # applied twice: the same
    assert not [what for what, _ in machine_dependent(sanitized) if what in MACHINE]


def test_nbval_reads_the_same_patterns():
    from nbval.plugin import get_sanitize_patterns
    text = builder.SANITIZER.read_text(encoding="utf-8")
    assert [(regex.pattern, replace) for regex, replace in PATTERNS] == get_sanitize_patterns(text)
    assert len(PATTERNS) >= 5


@pytest.mark.notebooks
def test_executing_a_lesson_stores_no_path_of_this_machine(tmp_path):
    """A warning from the cell and one from minigrad with a forward traceback (anomaly mode),
    and an object's address, as scripts/build-lessons.py --execute stores them."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in (
        "import minigrad as torch\nx = torch.tensor([0.0, 1.0], requires_grad=True)\n"
        "try:\n    with torch.autograd.detect_anomaly():\n"
        "        (torch.log(x) * 0).sum().backward()\n"        # 0 / 0 in LogBackward0: NaN
        "except RuntimeError as error:\n    print(error)",
        "print(torch.autograd.detect_anomaly, object())")])
    notebook.metadata["kernelspec"] = dict(builder.KERNELSPEC)
    executed = builder.execute(notebook, tmp_path / "lesson.ipynb")
    shown = "\n".join(text for cell in executed.cells for output in cell.outputs
                      for text in texts(output))
    assert "<cell>:4: UserWarning: Anomaly Detection has been enabled" in shown
    assert "minigrad/surface/anomaly.py:" in shown and 'File "<cell>", line 5' in shown
    assert " at 0x...>" in shown
    assert machine_dependent(shown, compared=False) == [], shown


LISTING = re.compile(r"^(minigrad/[\w/]+\.py), lines (\d+)–(\d+): \S+$")
NUMBERED = re.compile(r"^ *(\d+)  (.*)$")


def listings(text):
    """[(file, number, line shown)] of every line of minigrad's source a show_source() output
    lists in `text`."""
    found, path = [], None
    for line in text.splitlines():
        heading, numbered = LISTING.match(line), NUMBERED.match(line)
        if heading:
            path = heading.group(1)
        elif path and numbered:
            found.append((path, int(numbered.group(1)), numbered.group(2).rstrip()))
        else:
            path = None
    return found


def test_every_listing_of_minigrads_source_shows_the_source_as_it_is():
    """A lesson that shows the engine's code (show_source, nbval-ignored: it changes with the
    engine) must not keep an older version of it: run scripts/build-lessons.py --execute."""
    stale, shown_lines = set(), 0
    for path, index, _, text in stored_outputs():
        for file, number, shown in listings(text):
            shown_lines += 1
            lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
            if number > len(lines) or lines[number - 1].rstrip() != shown:
                stale.add(f"{path} cell {index}: {file}")
    assert shown_lines > 1000          # every worked lesson shows some of the engine's code
    assert not stale, "run scripts/build-lessons.py --execute --force on:\n" + "\n".join(sorted(stale)[:30])


def test_the_listing_reader_finds_numbered_lines_under_their_heading():
    text = ("minigrad/autograd/engine.py, lines 9–10: backward\n 9  def backward(roots):\n"
            "10      ready = []\n\nprint(10  )")
    assert listings(text) == [("minigrad/autograd/engine.py", 9, "def backward(roots):"),
                              ("minigrad/autograd/engine.py", 10, "    ready = []")]
