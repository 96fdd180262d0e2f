"""Real programs, unchanged: each file of tests/differential/real_programs/ is a short
program written for PyTorch (a tutorial, a docstring, a textbook, a library's custom
Function, an answer on a forum; its source is named at its top).  It runs under PyTorch
and, through an import hook that makes `import torch` import minigrad, under minigrad;
what it printed must be the same.

tests/differential/real_programs_runner.py runs every program in one process per
library (two processes in all, for CI's time).  The outputs are compared token by token:
words and symbols exactly, numbers to the precision they were printed with (and a
relative 1e-4, for float noise), after normalisations of what is not a difference:
minigrad's name for itself ("minigrad.float64" is "torch.float64"), memory addresses,
the "minigrad hint: ..." that minigrad adds to some errors, and the C++ line PyTorch's
warnings name ("Triggered internally at ...").  Runs of spaces count as
one (a number printed a character wider shifts the columns after it).  The programs that
still differ are strict xfails, with what they need, in KNOWN_DIFFERENT.
Skipped when PyTorch is not installed.
"""
import json
import math
import pathlib
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")

HERE = pathlib.Path(__file__).resolve().parent / "differential"
PROGRAMS = sorted(p.stem for p in (HERE / "real_programs").glob("*.py"))

# program -> what minigrad lacks or does otherwise (docs/pytorch-tests.md lists them)
KNOWN_DIFFERENT = {
    "d2l_zh_mlp_scratch": "nn.CrossEntropyLoss and torch.optim.SGD: nn's modules and "
                          "torch.optim are outside minigrad (autograd only)",
    "docs_utils_checkpoint": "torch.utils.checkpoint: recomputing a function in backward is "
                             "outside minigrad",
    "tutorial_jacobians_torch_func": "torch.func (jacrev, jacfwd, hessian): function "
                                     "transforms are outside minigrad, which has "
                                     "torch.autograd.functional",
    "tutorial_polynomial_nn": "nn.Sequential, nn.Linear, nn.Flatten and nn.MSELoss: nn's "
                              "modules are outside minigrad (autograd only)",
    "tutorial_polynomial_optim": "torch.optim.RMSprop: optimizers are outside minigrad "
                                 "(autograd only)",
}


@pytest.fixture(scope="module")
def outputs():
    """{library: {program: output}}, one process per library."""
    found = {}
    for library in ("torch", "minigrad"):
        done = subprocess.run([sys.executable, str(HERE / "real_programs_runner.py"), library],
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        found[library] = json.loads(done.stdout)
    return found


_TOKEN = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf|\S")


def normalised(text):
    """The output with what is not a difference taken out."""
    text = re.sub(r"\s*\(Triggered internally at [^)]*\)", "", text)   # PyTorch's C++ line
    text = re.sub(r"(?m)^minigrad hint:.*\n?", "", text)         # a hint on a line of its own
    text = re.sub(r"\.?\s*minigrad hint:.*", "", text)             # or after PyTorch's words
    text = re.sub(r"(?m)\.$", "", text)                            # (and the . before it)
    text = text.replace("minigrad", "torch")
    return re.sub(r"0x[0-9a-fA-F]+", "0x?", text)


def _unit(token):
    """The step of the last digit a number was printed with."""
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return 10.0 ** (int(exponent or 0) - decimals)


def _number(token):
    try:
        return float(token)
    except ValueError:
        return None


def same_tokens(want, got):
    """Whether two token lists (one line) say the same, numbers within their printed
    precision, a relative 1e-4, and float32's noise on the line's largest number (an
    element that should be 0 next to one of 2 can print as 6e-08 or -4e-07)."""
    if len(want) != len(got):
        return False
    numbers = [abs(v) for v in map(_number, want + got) if v is not None and not math.isnan(v)]
    scale = max([1.0] + [v for v in numbers if v != math.inf])
    for a, b in zip(want, got):
        x, y = _number(a), _number(b)
        if x is None or y is None:
            if a != b:
                return False
        elif not math.isfinite(x) or not math.isfinite(y):
            if not (x == y or math.isnan(x) and math.isnan(y)):
                return False
        elif abs(x - y) > (1.01 * max(_unit(a), _unit(b)) + 1e-4 * max(abs(x), abs(y))
                           + 2e-6 * scale):
            return False
    return True


def difference(want, got):
    """None when the outputs say the same, else the first line that differs."""
    want_lines = normalised(want).splitlines()
    got_lines = normalised(got).splitlines()
    for number, (a, b) in enumerate(zip(want_lines, got_lines), 1):
        if not same_tokens(_TOKEN.findall(a), _TOKEN.findall(b)):
            return f"line {number}:\n  torch:    {a.strip()}\n  minigrad: {b.strip()}"
    if len(want_lines) != len(got_lines):
        return (f"torch printed {len(want_lines)} lines, minigrad {len(got_lines)}; first "
                f"extra: {(want_lines + got_lines)[min(len(want_lines), len(got_lines))]!r}")
    return None


def test_the_comparison_can_fail():
    """Numbers within their printed precision are the same; other words, other numbers,
    other lines and a missing line are not."""
    assert difference("tensor([0.2500, 1.0000])", "tensor([0.2501, 1.0000])") is None
    assert difference("x minigrad.float64 at 0x7f01", "x torch.float64 at 0x55aa") is None
    assert difference("err\n", "err\nminigrad hint: clone it\n") is None
    assert difference("err. (Triggered internally at x.h:9.)", "err.") is None
    assert difference("tensor([0.2500])", "tensor([0.2600])")
    assert difference("1.2346", "1.2352")
    assert difference("AddmmBackward0", "AddBackward0")
    assert difference("a\nb", "a")
    assert difference("nan", "0.")
    assert difference("inf", "1e+30")
    assert difference("-inf", "inf")
    assert difference("nan nan inf", "nan nan inf") is None


def test_every_program_names_its_source():
    for name in PROGRAMS:
        head = (HERE / "real_programs" / f"{name}.py").read_text(encoding="utf-8")[:1500]
        assert "Source:" in head and "Adapted:" in head, name


def test_known_differences_name_programs():
    assert not set(KNOWN_DIFFERENT) - set(PROGRAMS)


@pytest.mark.parametrize("program", [
    pytest.param(name, marks=(pytest.mark.xfail(reason=KNOWN_DIFFERENT[name], strict=True),)
                 if name in KNOWN_DIFFERENT else ())
    for name in PROGRAMS])
def test_real_program_prints_what_it_prints_under_pytorch(outputs, program):
    found = difference(outputs["torch"][program], outputs["minigrad"][program])
    assert found is None, f"{program} differs at {found}"
