"""Bad arguments: PyTorch's answers to wrong input, as the spec for minigrad's.

A seeded generator takes a valid call of minigrad's public API (a top-level function,
a Tensor method or operator, an nn.functional function, autograd.grad/backward) and
spoils one argument: a wrong type (None, a string, a list, a float for an int, a dtype,
a numpy array), a tensor of the wrong shape or dtype, an empty or 0-dim tensor, NaN or
inf, a huge or negative size, a missing argument or an unknown keyword.  Each call runs
under PyTorch and under minigrad (the same numbers: tensors are built from one numpy
array), with a time limit, and is sorted into one outcome:

- ``same``: both raise the same builtin exception type, and minigrad's message holds
  the key words of PyTorch's (its words of four letters or more, less common ones such
  as "must" or "expected"; two thirds of them are enough);
- ``other words``: the same type, but the message lacks those words;
- ``other type``: PyTorch raises, minigrad raises another builtin type;
- ``silent``: PyTorch raises, minigrad returns;
- ``minigrad raises``: PyTorch returns, minigrad raises;
- ``both return``: neither raises (not compared further);
- ``crash`` / ``hang``: minigrad hits RecursionError, MemoryError or SystemError, or
  runs past the time limit.

tests/test_bad_arguments.py runs seed 0; scripts/bad_arguments.py any seed, with the
statistics and examples of each outcome.
"""
import contextlib
import importlib
import importlib.util
import pathlib
import random
import re
import signal
import warnings

import numpy as np

_spec = importlib.util.spec_from_file_location(
    "differential_isolation", pathlib.Path(__file__).with_name("isolation.py"))
_isolation = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_isolation)

TIME_LIMIT = 10.0         # seconds a call may take under either library

# --- argument specs: data that becomes the same object under either library -------------
#
# ("t", shape, dtype, requires_grad)   a tensor (dtype "float32", "float64", "int64", "bool")
# ("list", [spec, ...])                a Python list of built arguments
# ("dtype", name)                      T.float32 ...
# ("fn", name)                         a small callable (for hooks)
# ("np", shape)                        a float32 numpy array
# ("out", ...)                         the call's own result of an earlier step (not used)
# anything else                        itself (numbers, strings, None, tuples, lists)

SHAPES = {"t": (2, 3), "sq": (3, 3), "vec": (3,), "col": (3, 1), "row": (1, 3)}


def tensor_spec(shape=(2, 3), dtype="float32", requires_grad=False):
    return ("t", tuple(shape), dtype, requires_grad)


def build(T, spec, seed):
    """The object `spec` describes, for library `T`."""
    if isinstance(spec, tuple) and spec and spec[0] == "t":
        _, shape, dtype, requires_grad = spec
        rng = np.random.default_rng(seed)
        if dtype == "bool":
            data = rng.random(shape) < 0.5
        elif dtype == "int64":
            data = rng.integers(0, 2, shape)
        else:
            data = rng.uniform(0.5, 1.5, shape)
        return T.tensor(data, dtype=getattr(T, dtype), requires_grad=requires_grad)
    if isinstance(spec, tuple) and spec and spec[0] == "list":
        return [build(T, item, seed + i + 1) for i, item in enumerate(spec[1])]
    if isinstance(spec, tuple) and spec and spec[0] == "dtype":
        return getattr(T, spec[1])
    if isinstance(spec, tuple) and spec and spec[0] == "fn":
        return lambda *args: None
    if isinstance(spec, tuple) and spec and spec[0] == "np":
        return np.random.default_rng(seed).uniform(0.5, 1.5, spec[1]).astype(np.float32)
    return spec


def show(spec):
    if isinstance(spec, tuple) and spec and spec[0] == "t":
        _, shape, dtype, requires_grad = spec
        return f"t{shape}:{dtype}{':rg' if requires_grad else ''}"
    if isinstance(spec, tuple) and spec and spec[0] == "list":
        return "[" + ", ".join(show(s) for s in spec[1]) + "]"
    if isinstance(spec, tuple) and spec and spec[0] == "dtype":
        return f"T.{spec[1]}"
    if isinstance(spec, tuple) and spec and spec[0] == "fn":
        return "lambda *a: None"
    if isinstance(spec, tuple) and spec and spec[0] == "np":
        return f"np.array{spec[1]}"
    return repr(spec)


# --- the API and its valid calls ------------------------------------------------------------
#
# (where, name, args, kwargs, flags): `where` is "T" (top level), "F" (nn.functional),
# "autograd", "method" (the first argument's method) or "op" (an operator: name is
# operator's function name, e.g. "mul" for a * b).  A parameter whose name is in `sizes`
# is a size that allocates: no huge number is put there.

T2, SQ, VEC = tensor_spec((2, 3)), tensor_spec((3, 3)), tensor_spec((3,))
T2G = tensor_spec((2, 3), requires_grad=True)
INT = tensor_spec((2, 3), "int64")
IDX = tensor_spec((2,), "int64")
BOOL = tensor_spec((2, 3), "bool")
SRC = tensor_spec((2, 2), requires_grad=True)

API = [
    # top-level functions
    ("T", "add", [T2, T2], {}, ()), ("T", "sub", [T2, T2], {}, ()),
    ("T", "mul", [T2, T2], {}, ()), ("T", "div", [T2, T2], {}, ()),
    ("T", "pow", [T2, 2.0], {}, ()), ("T", "matmul", [SQ, SQ], {}, ()),
    ("T", "mm", [SQ, SQ], {}, ()), ("T", "dot", [VEC, VEC], {}, ()),
    ("T", "outer", [VEC, VEC], {}, ()), ("T", "maximum", [T2, T2], {}, ()),
    ("T", "minimum", [T2, T2], {}, ()), ("T", "atan2", [T2, T2], {}, ()),
    ("T", "remainder", [T2, 2.0], {}, ()), ("T", "floor_divide", [T2, 2.0], {}, ()),
    ("T", "exp", [T2], {}, ()), ("T", "log", [T2], {}, ()), ("T", "sin", [T2], {}, ()),
    ("T", "tanh", [T2], {}, ()), ("T", "sigmoid", [T2], {}, ()), ("T", "relu", [T2], {}, ()),
    ("T", "sqrt", [T2], {}, ()), ("T", "abs", [T2], {}, ()), ("T", "neg", [T2], {}, ()),
    ("T", "clamp", [T2], {"min": 0.6, "max": 1.2}, ()),
    ("T", "sum", [T2, 1], {}, ()), ("T", "mean", [T2, 1], {}, ()),
    ("T", "prod", [T2, 1], {}, ()), ("T", "std", [T2, 1], {}, ()),
    ("T", "var", [T2, 1], {}, ()), ("T", "max", [T2, 1], {}, ()),
    ("T", "min", [T2, 1], {}, ()), ("T", "argmax", [T2, 1], {}, ()),
    ("T", "logsumexp", [T2, 1], {}, ()), ("T", "cumsum", [T2, 1], {}, ()),
    ("T", "norm", [T2], {}, ()), ("T", "softmax", [T2, 1], {}, ()),
    ("T", "log_softmax", [T2, 1], {}, ()),
    ("T", "reshape", [T2, (3, 2)], {}, ()), ("T", "transpose", [T2, 0, 1], {}, ()),
    ("T", "permute", [T2, (1, 0)], {}, ()), ("T", "squeeze", [tensor_spec((2, 1)), 1], {}, ()),
    ("T", "unsqueeze", [T2, 0], {}, ()), ("T", "flatten", [T2, 0, 1], {}, ()),
    ("T", "flip", [T2, (0,)], {}, ()), ("T", "roll", [T2, 1, 0], {}, ()),
    ("T", "narrow", [T2, 1, 0, 2], {}, ()), ("T", "split", [T2, 1, 0], {}, ()),
    ("T", "chunk", [T2, 2, 1], {}, ()), ("T", "tril", [SQ], {}, ()),
    ("T", "cat", [("list", [T2, T2]), 0], {}, ()),
    ("T", "stack", [("list", [T2, T2]), 0], {}, ()),
    ("T", "where", [BOOL, T2, T2], {}, ()), ("T", "masked_fill", [T2, BOOL, 0.0], {}, ()),
    ("T", "gather", [T2, 1, INT], {}, ()), ("T", "index_select", [T2, 1, IDX], {}, ()),
    ("T", "allclose", [T2, T2], {}, ()), ("T", "equal", [T2, T2], {}, ()),
    ("T", "numel", [T2], {}, ()), ("T", "clone", [T2], {}, ()),
    # creation
    ("T", "tensor", [[1.0, 2.0]], {}, ()), ("T", "ones", [2, 3], {}, ("sizes",)),
    ("T", "zeros", [(2, 3)], {}, ("sizes",)), ("T", "full", [(2, 3), 1.5], {}, ("sizes",)),
    ("T", "arange", [5], {}, ("sizes",)), ("T", "eye", [3], {}, ("sizes",)),
    ("T", "linspace", [0.0, 1.0, 5], {}, ("sizes",)),
    ("T", "randint", [0, 5, (2, 3)], {}, ("sizes",)),
    ("T", "empty", [2, 3], {}, ("sizes",)), ("T", "ones_like", [T2], {}, ()),
    ("T", "zeros_like", [T2], {}, ()), ("T", "full_like", [T2, 2.0], {}, ()),
    # Tensor methods
    ("method", "add", [T2, T2], {}, ()), ("method", "add_", [T2, T2], {}, ()),
    ("method", "mul_", [T2, T2], {}, ()), ("method", "clamp_", [T2, 0.6], {}, ()),
    ("method", "fill_", [T2, 1.0], {}, ()), ("method", "copy_", [T2, T2], {}, ()),
    ("method", "masked_fill_", [T2, BOOL, 0.0], {}, ()),
    ("method", "view", [T2, 3, 2], {}, ()), ("method", "expand", [tensor_spec((1, 3)), 2, 3],
                                             {}, ()),
    ("method", "repeat", [T2, 2, 1], {}, ("sizes",)), ("method", "to", [T2, ("dtype",
                                                                          "float64")], {}, ()),
    ("method", "type_as", [T2, INT], {}, ()), ("method", "sum_to_size", [T2, 1, 3], {}, ()),
    ("method", "requires_grad_", [T2, True], {}, ()), ("method", "size", [T2, 1], {}, ()),
    ("method", "new_full", [T2, (2,), 1.0], {}, ("sizes",)),
    ("method", "register_hook", [T2G, ("fn", "hook")], {}, ()),
    ("method", "item", [tensor_spec((1,))], {}, ()), ("method", "tolist", [T2], {}, ()),
    ("method", "__getitem__", [T2, (0, 1)], {}, ()),
    ("method", "__setitem__", [T2, 0, 1.0], {}, ()),
    ("method", "backward", [tensor_spec((2, 3), requires_grad=True), T2], {}, ()),
    ("method", "detach", [T2G], {}, ()), ("method", "retain_grad", [T2G], {}, ()),
    # operators
    ("op", "add", [T2, T2], {}, ()), ("op", "sub", [T2, T2], {}, ()),
    ("op", "mul", [T2, T2], {}, ()), ("op", "truediv", [T2, T2], {}, ()),
    ("op", "pow", [T2, 2.0], {}, ()), ("op", "matmul", [SQ, SQ], {}, ()),
    ("op", "mod", [T2, 2.0], {}, ()), ("op", "floordiv", [T2, 2.0], {}, ()),
    ("op", "lt", [T2, T2], {}, ()), ("op", "eq", [T2, T2], {}, ()),
    ("op", "radd", [T2, 1.0], {}, ()), ("op", "rmul", [T2, 2.0], {}, ()),
    # nn.functional
    ("F", "relu", [T2], {}, ()), ("F", "softmax", [T2, 1], {}, ()),
    ("F", "dropout", [T2], {"p": 0.0}, ()), ("F", "linear", [T2, SQ, VEC], {}, ()),
    ("F", "mse_loss", [T2, T2], {}, ()),
    ("F", "cross_entropy", [T2, tensor_spec((2,), "int64")], {}, ()),
    ("F", "nll_loss", [T2, tensor_spec((2,), "int64")], {}, ()),
    ("F", "binary_cross_entropy", [tensor_spec((2, 3)), tensor_spec((2, 3))], {}, ()),
    ("F", "leaky_relu", [T2, 0.1], {}, ()), ("F", "one_hot", [IDX, 3], {}, ("sizes",)),
    ("F", "gelu", [T2], {}, ()), ("F", "silu", [T2], {}, ()),
    # what code written for PyTorch also calls (reductions, selection, comparisons, the
    # arithmetic of optimizer steps, more of nn.functional)
    ("T", "diag", [SQ], {}, ()), ("T", "amax", [T2, 1], {}, ()), ("T", "amin", [T2, 1], {}, ()),
    ("T", "topk", [T2, 2], {}, ()), ("T", "sort", [T2, 1], {}, ()),
    ("T", "argsort", [T2, 1], {}, ()), ("T", "round", [T2], {}, ()),
    ("T", "unbind", [T2, 1], {}, ()), ("T", "all", [BOOL, 1], {}, ()),
    ("T", "any", [BOOL], {}, ()), ("T", "median", [T2, 1], {}, ()),
    ("T", "kthvalue", [T2, 1, 1], {}, ()), ("T", "cross", [SQ, SQ], {"dim": 1}, ()),
    ("T", "addcmul", [T2, T2, T2], {"value": 0.5}, ()), ("T", "lerp", [T2, T2, 0.5], {}, ()),
    ("T", "isclose", [T2, T2], {}, ()), ("T", "eq", [T2, T2], {}, ()),
    ("T", "logical_and", [BOOL, BOOL], {}, ()), ("T", "masked_select", [T2, BOOL], {}, ()),
    ("T", "nonzero", [T2], {}, ()), ("T", "repeat_interleave", [T2, 2], {"dim": 0}, ()),
    ("T", "scatter_add", [T2, 1, INT, T2], {}, ()), ("T", "index_add", [T2, 1, IDX, SRC], {}, ()),
    ("T", "clamp_min", [T2, 0.5], {}, ()), ("T", "rsqrt", [T2], {}, ()),
    ("T", "cumprod", [T2, 1], {}, ()), ("T", "movedim", [T2, 0, 1], {}, ()),
    ("T", "broadcast_to", [VEC, (2, 3)], {}, ()), ("T", "take_along_dim", [T2, INT, 1], {}, ()),
    ("T", "mean", [T2], {"dtype": ("dtype", "float64")}, ()),
    ("T", "div", [T2, T2], {"rounding_mode": "floor"}, ()),
    ("T", "einsum", ["ij,jk->ik", SQ, SQ], {}, ()),
    ("method", "mean", [T2, 1], {"dtype": ("dtype", "float64")}, ()),
    ("method", "div", [T2, T2], {"rounding_mode": "trunc"}, ()),
    ("method", "index_add_", [T2, 1, IDX, SRC], {}, ()),
    ("method", "scatter_", [T2, 1, INT, T2], {}, ()), ("method", "addcmul_", [T2, T2, T2], {}, ()),
    ("method", "topk", [T2, 2], {}, ()), ("method", "diag", [SQ], {}, ()),
    ("method", "masked_select", [T2, BOOL], {}, ()), ("method", "amax", [T2, 0], {}, ()),
    ("F", "softplus", [T2], {}, ()), ("F", "elu", [T2], {}, ()), ("F", "hardtanh", [T2], {}, ()),
    ("F", "l1_loss", [T2, T2], {}, ()), ("F", "smooth_l1_loss", [T2, T2], {}, ()),
    ("F", "binary_cross_entropy_with_logits", [T2, T2], {}, ()),
    ("F", "logsigmoid", [T2], {}, ()), ("F", "normalize", [T2], {}, ()),
    ("F", "pad", [T2, (1, 1)], {}, ()), ("F", "cosine_similarity", [T2, T2], {}, ()),
    ("F", "tanh", [T2], {}, ()), ("F", "sigmoid", [T2], {}, ()),
    # autograd
    ("autograd", "grad", [T2G, T2G], {"grad_outputs": T2, "allow_unused": True}, ()),
    ("autograd", "backward", [T2G, T2], {}, ()),
]

# bad values: (spec, label)
BAD_VALUES = [
    (None, "None"), ("abc", "a string"), (1.5, "a float"), (2, "an int"), (True, "a bool"),
    ([2, -3], "a list"), ((), "an empty tuple"), (float("nan"), "nan"), (float("inf"), "inf"),
    (float("-inf"), "-inf"), (-100, "a negative int"), (10 ** 10, "a huge int"),
    (-10 ** 10, "a huge negative int"), (("dtype", "float32"), "a dtype"),
    (tensor_spec((4, 5)), "a tensor of another shape"),
    (tensor_spec((2, 3), "int64"), "an int tensor"), (tensor_spec((2, 3), "bool"),
                                                       "a bool tensor"),
    (tensor_spec((0,)), "an empty tensor"), (tensor_spec(()), "a 0-dim tensor"),
    (tensor_spec((2, 3), "float64"), "a float64 tensor"), ({}, "a dict"),
    (("np", (2, 3)), "a numpy array"),
]
HUGE = (10 ** 10, -10 ** 10)


class Call:
    """One call: where, name, argument specs, keyword specs, and what was spoiled."""

    def __init__(self, where, name, args, kwargs, spoiled, seed):
        self.where, self.name, self.args, self.kwargs = where, name, args, kwargs
        self.spoiled, self.seed = spoiled, seed

    def __repr__(self):
        parts = [show(a) for a in self.args] + [f"{k}={show(v)}" for k, v in self.kwargs.items()]
        prefix = {"T": "T.", "F": "F.", "autograd": "T.autograd.", "method": "Tensor.",
                  "op": "operator."}[self.where]
        return f"{prefix}{self.name}({', '.join(parts)})  # {self.spoiled}"

    def run(self, T):
        """Build the arguments for `T` and make the call."""
        args = [build(T, a, self.seed + 17 * i) for i, a in enumerate(self.args)]
        kwargs = {k: build(T, v, self.seed + 100 + i)
                  for i, (k, v) in enumerate(self.kwargs.items())}
        if self.where == "T":
            return getattr(T, self.name)(*args, **kwargs)
        if self.where == "F":
            return getattr(importlib.import_module(T.__name__ + ".nn.functional"),
                           self.name)(*args, **kwargs)
        if self.where == "autograd":
            return getattr(T.autograd, self.name)(*args, **kwargs)
        if self.where == "method":
            return getattr(args[0], self.name)(*args[1:], **kwargs)
        import operator
        if self.name.startswith("r"):                    # reflected: number op tensor
            return getattr(operator, self.name[1:])(args[1], args[0])
        return getattr(operator, self.name)(*args)


def generate(seed, count):
    """`count` spoiled calls, the same ones for the same seed."""
    rng = random.Random(seed)
    for index in range(count):
        where, name, args, kwargs, flags = rng.choice(API)
        args, kwargs = list(args), dict(kwargs)
        how = rng.random()
        positions = list(range(len(args))) + list(kwargs)
        if how < 0.06:
            kwargs["bogus"] = 1
            spoiled = "an unknown keyword"
        elif how < 0.1 and args:
            drop = rng.randrange(len(args))
            del args[drop]
            spoiled = f"argument {drop} missing"
        else:
            where_bad = rng.choice(positions)
            value, label = rng.choice(BAD_VALUES)
            while "sizes" in flags and value in HUGE:
                value, label = rng.choice(BAD_VALUES)
            if isinstance(where_bad, int):
                args[where_bad] = value
                spoiled = f"argument {where_bad} is {label}"
            else:
                kwargs[where_bad] = value
                spoiled = f"{where_bad}= is {label}"
        yield Call(where, name, args, kwargs, spoiled, seed * 100003 + index)


# --- running a call under both libraries ------------------------------------------------------

class TimeLimit(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds):
    def on_alarm(signum, frame):
        raise TimeLimit()
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def builtin_kind(exc):
    for klass in type(exc).__mro__:
        if klass.__module__ == "builtins":
            return klass.__name__
    return type(exc).__name__


def attempt(call, T):
    """('returns', None) or ('raises', exception), or ('hang', None)."""
    try:
        with warnings.catch_warnings(), _time_limit(TIME_LIMIT):
            warnings.simplefilter("ignore")
            call.run(T)
        return "returns", None
    except TimeLimit:
        return "hang", None
    except Exception as exc:          # noqa: BLE001 - any exception is an answer
        return "raises", exc


_COMMON = {"must", "expected", "with", "that", "than", "have", "should", "when", "this",
           "argument", "arguments", "position", "tensor", "tensors", "got", "instead", "only",
           "does", "from", "into", "which", "were", "given", "type", "types"}


def key_words(message):
    """The words of the first line of PyTorch's message that minigrad's must share."""
    first = message.strip().split("\n")[0]
    words = {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]{3,}", first)}
    return words - _COMMON


def same_words(torch_message, minigrad_message):
    words = key_words(torch_message)
    if not words:
        return True
    found = sum(w in minigrad_message.lower() for w in words)
    return found * 3 >= len(words) * 2


def compare(call):
    """The outcome of `call`, and the two answers (for reports)."""
    import torch
    import minigrad
    warm_up()
    want = attempt(call, torch)
    with _isolation.minigrad_state_kept():
        got = attempt(call, minigrad)
    if got[0] == "hang":
        return "hang", want, got
    if got[0] == "raises" and isinstance(got[1], (RecursionError, MemoryError, SystemError)):
        return "crash", want, got
    if want[0] != "raises":
        return ("minigrad raises" if got[0] == "raises" else "both return"), want, got
    if got[0] == "returns":
        return "silent", want, got
    if builtin_kind(want[1]) != builtin_kind(got[1]):
        return "other type", want, got
    if not same_words(str(want[1]), str(got[1])):
        return "other words", want, got
    return "same", want, got


OUTCOMES = ("same", "other words", "other type", "silent", "minigrad raises", "both return",
            "crash", "hang")


_warmed_up = []


def warm_up():
    """Each valid call once under both libraries, with no time limit: PyTorch imports some
    modules on first use (sympy, for a backward with given gradients), and an import cut
    short by the time limit's alarm would leave it broken for the rest of the process."""
    if _warmed_up:
        return
    _warmed_up.append(True)
    import torch
    import minigrad
    for index, (where, name, args, kwargs, _) in enumerate(API):
        for T in (torch, minigrad):
            with contextlib.suppress(Exception), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                Call(where, name, list(args), dict(kwargs), "valid", index).run(T)


def statistics(seed, count):
    """{outcome: [(call, want, got), ...]} for `count` calls of `seed`."""
    results = {outcome: [] for outcome in OUTCOMES}
    for call in generate(seed, count):
        outcome, want, got = compare(call)
        results[outcome].append((call, want, got))
    return results


def summary(results):
    """The figures the test and the script report."""
    counts = {outcome: len(items) for outcome, items in results.items()}
    torch_raises = sum(counts[o] for o in ("same", "other words", "other type", "silent",
                                           "crash", "hang")) - sum(
        1 for o in ("crash", "hang") for _, want, _ in results[o] if want[0] != "raises")
    same_type = counts["same"] + counts["other words"]
    return {
        "calls": sum(counts.values()),
        "torch raises": torch_raises,
        "same type %": 100.0 * same_type / torch_raises if torch_raises else 100.0,
        "same type and words %": 100.0 * counts["same"] / torch_raises if torch_raises else 100.0,
        **counts,
    }


def describe(item):
    call, want, got = item

    def answer(result):
        kind, exc = result
        if kind != "raises":
            return kind
        first = str(exc).strip().split("\n")[0]
        return f"{builtin_kind(exc)}: {first[:110]}"

    return f"{call!r}\n      torch:    {answer(want)}\n      minigrad: {answer(got)}"
