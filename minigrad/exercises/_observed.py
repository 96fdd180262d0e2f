"""Trials of the later lessons' exercises (see _trial), in one shape.

The run half draws inputs from the seed, lets `compute(answer, drawn)` run the answer on
them and reports, under names, what it computed: outputs, gradients, tangents,
derivatives of each order, a count.  The judge half draws the same inputs and gets the
same names from `expect(drawn)`, which computes them with minigrad's built-in ops (or
finite differences, or the graph's own saved tensors), then compares them one by one as
the checks do (`_tools.check_output`): a tensor of the right type, shape, dtype and values.

Where an exercise allows more than one right behaviour (a third derivative either right
or refused, any small number of backward passes), `expect` gives a function that judges
the reported entry instead of a tensor.
"""
import numpy as np

from . import _tools
from ._tools import Hint
from ._trial import Unreadable, field, seen, tensor_of


def observed(value):
    """A value the answer computed, as plain data: a tensor as `seen` writes it, a count
    as {"number": n}, None as None; a dict is plain data already (a count judged exactly
    goes under "values")."""
    if isinstance(value, dict):
        return value
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return {"number": float(value)}
    return seen(value)


def number(entry):
    """A reported count (else Unreadable: a count is what the answer had to return)."""
    value = field(entry, "number", float)
    if not np.isfinite(value):
        raise Unreadable()
    return value


class ObservedTrial:
    """draw(rng) -> the inputs; compute(answer, drawn) -> {name: what the answer gave};
    expect(drawn) -> {name: the expected tensor, or judge(entry) raising Hint}."""

    def __init__(self, draw, compute, expect):
        self.draw, self.compute, self.expect = draw, compute, expect

    def run(self, answer, seed):
        found = self.compute(answer, self.draw(np.random.default_rng(seed)))
        return {"seen": {name: observed(value) for name, value in found.items()}}

    def judge(self, report, seed):
        found = field(report, "seen", dict)
        for name, expected in self.expect(self.draw(np.random.default_rng(seed))).items():
            entry = found[name]
            if callable(expected):
                expected(entry)
            else:
                same_tensor(entry, expected, name)


def same_tensor(entry, expected, where):
    """The reported tensor is `expected`, as check_output compares them."""
    got = tensor_of(entry, where)
    field(entry, "requires_grad", bool), field(entry, "grad_fn", bool)
    _tools.check_output(got, expected, where)


def refused_or(expected, where):
    """A judge for a value the answer may refuse to compute (reported as None)."""
    def judge(entry):
        if entry is not None:
            same_tensor(entry, expected, where)
    return judge


def at_most(limit, key, **params):
    """A judge for a count that must not exceed `limit` (else Hint `key`)."""
    def judge(entry):
        got = number(entry)
        if got > limit:
            raise Hint(key, **{name: (int(got) if value is None else value)
                               for name, value in params.items()})
    return judge

