"""Trials: how a grader confirms a pass without trusting the process the answer ran in.

A check (each lesson module's `CHECKS`) runs the answer and diagnoses its
mistake; it runs next to the student's code, and code in the same process can
replace anything, the checker included.  So every exercise also has a trial
(the module's `TRIALS`), in two halves:

- `trial.run(answer, seed)` runs next to the answer (in a sandbox while
  nbgrader grades): it draws inputs from `seed`, runs the answer on them and
  reports what it saw as plain data (numbers, strings, lists, dicts, None);
- `trial.judge(report, seed)` runs where no student code runs: it draws the
  same inputs and compares the report with what minigrad's built-in ops (or
  the engine's own trace) give for them, raising `Hint` on a difference.

The seed is drawn when the grader grades, so a report that passes holds the
exercise's answers for inputs nobody knew beforehand: forging one means
solving the exercise.  The expected behaviour comes from minigrad's built-ins
only; the package holds no reference solution (docs/exercises.md).

The judge turns the reported tensors back into minigrad tensors and reuses
the checks' own comparisons (`_tools.check_output`, `check_gradients`...), so
a mistake gets the same hint from both halves.

`FunctionTrial` does what most exercises need: a Function's forward, its
backward called directly, and a backward through the engine.
"""
import json
import math
from typing import NamedTuple

import numpy as np

from .. import autograd, creation, dtypes
from ..autograd.function import Function
from ..autograd.grad_mode import no_grad
from ..autograd.graph import saved_tensors_hooks
from . import _tools
from ._exceptions import hint_for_exception
from ._runner import TimeLimitExceeded
from ._tools import Hint, as_array

MAX_NUMBERS = 100_000       # numbers one report may hold (the trials' own inputs are small)


# --- the run half: what the answer did, as plain data ----------------------------------------

def seen(value):
    """`value` as plain data: a tensor's dtype, shape, values and graph flags; None; else
    the name of its type (a numpy array is named as such: a common mistake)."""
    if _tools.is_tensor(value):
        data = value.detach().cpu()
        return {"tensor": True, "dtype": _tools.dtype_name(value.dtype), "shape": list(value.shape),
                "values": as_array(data).ravel().tolist(), "device": str(value.device),
                "requires_grad": bool(value.requires_grad), "grad_fn": value.grad_fn is not None}
    if value is None:
        return None
    return {"tensor": False, "type": _tools.type_name(value)}


def run_trial(trial, answer, seed):
    """`trial.run(answer, seed)` as plain data; what the answer raised, as its hint.

    TimeLimitExceeded passes through, for the caller's time limit to report."""
    try:
        report = trial.run(answer, seed)
    except TimeLimitExceeded:
        raise
    except Hint as hint:
        report = {"hint": _reported(hint)}
    except BaseException as error:        # noqa: BLE001 — the answer may raise anything
        report = {"hint": _reported(hint_for_exception(error))}
    return json.loads(json.dumps(report, allow_nan=True))


def _reported(hint):
    return {"key": hint.key, "params": {name: _plain(value) for name, value in hint.params.items()}}


def _plain(value):
    if type(value) in (int, float, str, bool):
        return value
    if type(value) in (list, tuple):
        return [_plain(item) for item in value]
    return str(value)


# --- the judge half: the report, read where no student code runs ------------------------------

class Unreadable(Exception):
    """A report that is not what `run` writes: made by something else than the trial."""


def judge_trial(trial, report, seed):
    """Raise Hint when `report` is not what the exercise's answer gives for `seed`."""
    try:
        if not isinstance(report, dict):
            raise Unreadable()
        if "hint" in report:
            raise reported_hint(report["hint"])
        trial.judge(report, seed)
    except (Unreadable, KeyError, IndexError, TypeError, ValueError, AttributeError):
        raise Hint("trial_unreadable") from None


def reported_hint(entry):
    """The Hint a report names (an answer that raised, or was refused), if it is one of the
    checks' own keys with plain values."""
    from . import _messages
    key, params = entry["key"], entry["params"]
    if not isinstance(key, str) or key not in _messages.table() or not isinstance(params, dict):
        raise Unreadable()
    params = {str(name)[:40]: (value[:300] if isinstance(value, str) else value)
              for name, value in params.items()
              if type(value) in (int, float, str, bool, list)}
    try:
        _messages.text(key, "en", **params)
    except (KeyError, IndexError, ValueError):
        raise Unreadable() from None
    return Hint(key, **params)


def field(report, key, kind):
    """report[key] (or a list's item), which must be of `kind` (a type or a tuple of types)."""
    value = report[key]
    if not isinstance(value, kind):
        raise Unreadable()
    return value


class _Other:
    """Stands for a reported value that was not a tensor (its type's name kept for hints)."""


def value_of(entry):
    """A reported value back as a minigrad tensor (made here, from the numbers), None, a
    numpy array (the answer returned one), or a stand-in named after the reported type."""
    if entry is None:
        return None
    if not isinstance(entry, dict):
        raise Unreadable()
    if not entry.get("tensor"):
        name = str(entry.get("type", "object"))[:60]
        if name == "numpy.ndarray":
            return np.zeros(0)
        return type(name.rsplit(".", 1)[-1], (_Other,), {"__module__": "builtins"})()
    dtype = dtypes._by_name(field(entry, "dtype", str))
    shape = [int(size) for size in field(entry, "shape", list)]
    values = field(entry, "values", list)
    if (any(size < 0 for size in shape) or math.prod(shape) != len(values)
            or len(values) > MAX_NUMBERS or not all(isinstance(v, (int, float)) for v in values)):
        raise Unreadable()
    with np.errstate(invalid="ignore", over="ignore"):
        data = np.array(values, dtype=np.float64).reshape(shape).astype(dtype.numpy)
    return creation.tensor(data, dtype=dtype)


def tensor_of(entry, where):
    """A reported value that must be a tensor (else the checks' hint for what it was)."""
    return _tools.require_tensor(value_of(entry), where)


def flags(entry):
    """(requires_grad, has a grad_fn) of a reported tensor."""
    return bool(entry["requires_grad"]), bool(entry["grad_fn"])


# --- drawing inputs --------------------------------------------------------------------------

class In(NamedTuple):
    """One tensor input of a trial: its values, and whether it requires grad."""
    values: np.ndarray
    requires_grad: bool = True


def make(drawn):
    """Fresh inputs from what was drawn: tensors for `In`, the rest as they are."""
    return [creation.tensor(item.values, requires_grad=item.requires_grad)
            if isinstance(item, In) else item for item in drawn]


def dtype_of(rng):
    return str(rng.choice(["float32", "float64"]))


def uniform(rng, shape, dtype, low=-2.0, high=2.0):
    """Values rounded to 4 decimals, so a float32 draw is the same on every machine."""
    return np.round(rng.uniform(low, high, size=shape), 4).astype(dtype)


def matrix_shape(rng):
    """(n,) or (m, n), sizes 2 to 5."""
    sizes = [int(size) for size in rng.integers(2, 6, size=2)]
    return tuple(sizes[1:]) if rng.random() < 0.4 else tuple(sizes)


def one_tensor(rng, dtype, zeros=False):
    """One input: a vector or a matrix of values in [-2, 2) (with some exact zeros where
    the rule at 0 matters)."""
    values = uniform(rng, matrix_shape(rng), dtype)
    if zeros:
        values[rng.random(values.shape) < 0.3] = 0.0
    return [In(values)]


# --- Functions ---------------------------------------------------------------------------------

class FunctionTrial:
    """A custom Function checked against `spec`, the same function written with minigrad's
    built-in ops, on inputs of float32, then float64: forward's output, backward called
    directly with a random grad_output (exactly what it returns), then a backward through
    the engine.

    Args:
        spec: spec(*inputs) -> the output the answer must compute (its gradients too).
        draw: draw(rng, dtype) -> the inputs: `In` for a tensor, else a value passed as it is.
        needs_input_grad: backward must return None where an input does not require grad:
            after the case where all do, one case per tensor input where it alone does not.
        double_backward: the gradient must itself be differentiable (the second derivative
            of sum(output) is compared too).
    """

    def __init__(self, spec, draw, needs_input_grad=False, double_backward=False):
        self.spec, self.draw = spec, draw
        self.needs_input_grad, self.double_backward = needs_input_grad, double_backward

    def cases(self, seed):
        drawn, _ = self.drawn(seed, 0)
        tensors = sum(isinstance(item, In) for item in drawn)
        return 1 + tensors if self.needs_input_grad else 2

    def drawn(self, seed, case):
        """(the inputs of `case` drawn from `seed`, the generator to draw the rest from)."""
        rng = np.random.default_rng([seed, case])
        drawn = self.draw(rng, ("float32", "float64")[case % 2])
        if self.needs_input_grad and case > 0:       # tensor input case - 1 needs no gradient
            tensors = [index for index, item in enumerate(drawn) if isinstance(item, In)]
            alone = tensors[(case - 1) % len(tensors)]
            drawn = [In(item.values, index != alone) if isinstance(item, In) else item
                     for index, item in enumerate(drawn)]
        return drawn, rng

    def run(self, answer, seed):
        cls = _tools.require_function_class(answer)
        return {"cases": [self.run_case(cls, seed, case) for case in range(self.cases(seed))]}

    def run_case(self, cls, seed, case):
        drawn, rng = self.drawn(seed, case)
        inputs = make(drawn)
        before = _tools.snapshot(inputs)
        output = _tools.apply(cls, *inputs)
        report = {"forward": seen(output), "inputs_kept": _kept(inputs, before),
                  "extra": self.observe(cls, make(drawn))}
        if not _tools.is_tensor(output) or output.grad_fn is None:
            return report
        grad_output = creation.tensor(uniform(rng, output.shape, output.dtype.numpy),
                                      dtype=output.dtype)
        kept = as_array(grad_output)
        with no_grad():
            raw = cls.backward(output.grad_fn, grad_output)
        report["backward"] = {
            "list": isinstance(raw, list), "grad_output_kept": _same(grad_output, kept),
            "grads": [seen(grad) for grad in (raw if isinstance(raw, (tuple, list)) else (raw,))]}
        output.backward(grad_output)
        report["grads"] = [seen(t.grad) if _tools.is_tensor(t) else None for t in inputs]
        if self.double_backward:
            report["second"] = _second_derivative(cls, make(drawn))
        return report

    def observe(self, cls, inputs):
        """What else forward shows that the exercise is about, as plain data (a subclass's:
        what was saved, what was kept on ctx), from a forward of its own on `inputs`."""
        return None

    def confirm(self, extra, inputs, expected):
        """Raise Hint when `extra` (observe's report) is not what the exercise asks."""

    def judge(self, report, seed):
        cases = field(report, "cases", list)
        for case in range(self.cases(seed)):
            self.judge_case(field(cases, case, dict), seed, case)

    def judge_case(self, report, seed, case):
        drawn, rng = self.drawn(seed, case)
        inputs = make(drawn)
        expected = self.spec(*inputs)
        with no_grad():
            _tools.check_output(value_of(report["forward"]), expected.detach(),
                                inputs=make(drawn))
        if not all(field(report, "inputs_kept", list)):
            raise Hint("input_modified")
        if not flags(report["forward"])[1]:
            raise Hint("no_grad_fn")
        self.confirm(report["extra"], make(drawn), expected)
        grad_output = creation.tensor(uniform(rng, expected.shape, expected.dtype.numpy),
                                      dtype=expected.dtype)
        wanted, local = _tools.expected_grads(self.spec, inputs, grad_output)
        backward = field(report, "backward", dict)
        if backward["list"]:
            raise Hint("backward_returned_list")
        if not backward["grad_output_kept"]:
            raise Hint("modified_grad_output")
        raw = tuple(value_of(entry) for entry in field(backward, "grads", list))
        _tools.check_gradients(raw, inputs, wanted, local, expected.shape,
                               self.needs_input_grad, as_array(grad_output))
        grads = field(report, "grads", list)
        for position, tensor in enumerate(inputs):
            if _tools.is_tensor(tensor) and tensor.requires_grad:
                grad = value_of(grads[position])
                if grad is None:
                    raise Hint("missing_grad", input=position)
                _tools.require_tensor(grad, "backward")
                _tools.diagnose_values(as_array(grad), wanted[position], None, position,
                                       as_array(tensor), tensor.dtype, inputs,
                                       as_array(grad_output))
        if self.double_backward:
            got, want = value_of(report["second"]), value_of(_second_derivative(self.spec,
                                                                                make(drawn)))
            if not _tools.is_tensor(got) or not _tools.same_values(got, want):
                raise Hint("backward_not_differentiable")


def _kept(inputs, before):
    return [values is None or _same(tensor, values) for tensor, values in zip(inputs, before)]


def _same(tensor, values):
    return bool(np.array_equal(as_array(tensor), values, equal_nan=True))


def _second_derivative(function, inputs):
    """d²(sum f)/dx² of a one-input function or Function class, as a report entry (None
    where the first gradient has no graph)."""
    (x,) = inputs
    apply = function.apply if isinstance(function, type) and issubclass(function, Function) \
        else function
    (first,) = autograd.grad(apply(x).sum(), x, create_graph=True)
    if first.grad_fn is None:
        return None
    (second,) = autograd.grad(first.sum(), x, allow_unused=True)
    return seen(second)
