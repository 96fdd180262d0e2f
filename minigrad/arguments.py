"""Arguments as PyTorch's Python layer takes them, for the top-level functions, the
Tensor methods and operators, and nn.functional:

- numpy's names for two of them (`x.sum(axis=0, keepdims=True)`: PyTorch takes `axis`
  for `dim` and `keepdims` for `keepdim`, and students often come from numpy);
- PyTorch's argument parser: each call is checked against the signatures of
  signatures.py before anything is computed, and a wrong argument gives PyTorch's
  TypeError in its words (`torch.exp(2.0)`: "exp(): argument 'input' (position 1) must be
  Tensor, not float");
- the operators give way to the other operand, as PyTorch's do: `x * None` is Python's
  "unsupported operand type(s)" TypeError, not a tensor of NaNs.

Nothing here computes; the ops do (ops/), behind these checks."""
import functools
import inspect
import os
import sys

import numpy as np

from . import dtypes, out_argument, signatures
from .autograd import tensor_door

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}
# the functions and Tensor methods with a dim (and keepdim) argument that take them
WITH_DIM = ("sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "any",
            "all", "amax", "amin", "logsumexp", "cumsum", "cumprod", "softmax", "log_softmax",
            "squeeze", "unsqueeze", "median", "nansum", "count_nonzero")


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep        # minigrad/


def callers_stacklevel():
    """warnings.warn's stacklevel that names the first line outside minigrad on the way
    here, as PyTorch's warnings (raised in C++) name the line that called it: the checks
    above wrap a function in one frame or more, so a fixed stacklevel would name them."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def accept_numpy_names(function):
    @functools.wraps(function)
    def with_numpy_names(*args, **kwargs):
        if "axis" in kwargs or "keepdims" in kwargs:
            kwargs = {_ALIASES.get(name, name): value for name, value in kwargs.items()}
        return function(*args, **kwargs)
    return with_numpy_names


def accept_numpy_names_in(owner):
    """Wrap each function of WITH_DIM that `owner` (the Tensor class, or a module) has,
    unless PyTorch's argument parser already checks it (it takes numpy's names too)."""
    for name in WITH_DIM:
        if hasattr(owner, name) and not getattr(getattr(owner, name), "parsed", False):
            setattr(owner, name, accept_numpy_names(getattr(owner, name)))


# --- the kinds of argument -----------------------------------------------------------------

def _is_int(value):
    if isinstance(value, tensor_door.Tensor):        # a one-element integer tensor counts
        return value.numel() == 1 and value.dtype.category == 1
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_number(value):
    if isinstance(value, tensor_door.Tensor):
        return value.numel() == 1
    return isinstance(value, (bool, int, float, complex, np.number, np.bool_))


def _is_ints(value):
    """A size or a list of dims (a bool counts inside one: PyTorch reads it as an index)."""
    if not isinstance(value, (list, tuple)):
        return _is_int(value)
    for item in value:
        if not (_is_int(item) or isinstance(item, (bool, np.bool_))):
            return False
    return True


_CHECKS = {
    "Tensor": lambda value: isinstance(value, tensor_door.Tensor),
    "Tensor[]": lambda value: isinstance(value, (list, tuple)) and all(
        isinstance(item, tensor_door.Tensor) for item in value),
    "Number": _is_number,
    "int": _is_int,
    "float": lambda value: isinstance(value, (int, float, np.number)),
    "bool": lambda value: isinstance(value, (bool, np.bool_)),
    "str": lambda value: isinstance(value, str),
    "int[]": lambda value: isinstance(value, (list, tuple)) and _is_ints(value),
    "int[1]": _is_ints,
    "int...": _is_ints,
    "dtype": lambda value: isinstance(value, dtypes.dtype),
    "any": lambda value: True,
    "Dimname": lambda value: False,
    "Dimname[]": lambda value: False,
}
# the kinds as PyTorch's messages name them
_NAMES = {"Tensor[]": "tuple of Tensors", "int[]": "tuple of ints", "int[1]": "tuple of ints",
          "int...": "tuple of ints", "dtype": "torch.dtype", "Dimname[]": "tuple of names",
          "Dimname": "name"}


class Parameter:
    """One argument of an overload: "Kind name", "Kind? name" (None allowed), "=default"."""

    def __init__(self, text, keyword_only, numbers_as_tensors):
        kind, _, rest = text.strip().partition(" ")
        self.name, has_default, _ = rest.partition("=")
        self.optional = kind.endswith("?")
        self.kind = kind.rstrip("?")
        self.required = not has_default
        self.keyword_only = keyword_only
        self.accepts_numbers = numbers_as_tensors and self.kind == "Tensor"

    def fits(self, value):
        if value is None and self.optional:
            return True
        if self.accepts_numbers and _is_number(value):
            return True
        return _CHECKS[self.kind](value)

    def __str__(self):
        return f"{_NAMES.get(self.kind, self.kind)} {self.name}"


class Signature:
    """One overload: its parameters, and whether a call fits it.  An overload with named
    dims, or marked ``~`` (deprecated), is hidden: PyTorch tries it but never names it."""

    def __init__(self, text, numbers_as_tensors=False):
        self.hidden = text.startswith("~") or "Dimname" in text
        self.parameters, keyword_only = [], False
        for part in filter(None, (p.strip() for p in text.lstrip("~").split(","))):
            if part == "*":
                keyword_only = True
            else:
                self.parameters.append(Parameter(part, keyword_only, numbers_as_tensors))
        self.positional = [p for p in self.parameters if not p.keyword_only]
        self.varargs = bool(self.positional) and self.positional[-1].kind == "int..."
        self.by_name = {p.name: p for p in self.parameters}
        self.required = [p for p in self.parameters if p.required]
        self.min_args = len(self.required)

    def _pack(self, args):
        """ones(2, 3) as ones((2, 3)), when the first size is an int; ones("a") stays one
        (wrong) argument, and ones(True, 3) two (PyTorch does not read sizes after a bool)."""
        head = len(self.positional) - 1
        if self.varargs and len(args) > head and _is_int(args[head]):
            return args[:head] + (tuple(args[head:]),)
        return args

    def bind(self, args, kwargs):
        """{parameter: value} for a call of the right shape, else None."""
        args = self._pack(args)
        if len(args) > len(self.positional):
            return None
        bound = dict(zip(self.positional, args))
        for name, value in kwargs.items():
            parameter = self.by_name.get(name)
            if parameter is None or parameter in bound:
                return None
            bound[parameter] = value
        for parameter in self.required:
            if parameter not in bound:
                return None
        return bound

    def fits(self, args, kwargs):
        bound = self.bind(args, kwargs)
        if bound is None:
            return False
        for parameter, value in bound.items():
            if not parameter.fits(value):
                return False
        return True

    def plausible(self, args, kwargs):
        """PyTorch's test before it words its message: the number of arguments fits."""
        count = len(args) + len(kwargs)
        return not self.hidden and self.min_args <= count and (
            self.varargs or count <= len(self.parameters))

    def error(self, name, args, kwargs, skip=0):
        """PyTorch's TypeError for this overload, in the order its parser finds them
        (positions counted after the first `skip` arguments)."""
        packed = self._pack(args)
        if len(packed) > len(self.positional):
            n = len(self.positional)
            return TypeError(f"{name}() takes {n} positional argument{'s' * (n != 1)} but "
                             f"{len(args)} were given")
        missing = [p.name for p in self.positional[len(packed):]
                   if p.required and p.name not in kwargs]
        if missing:
            return TypeError(f"{name}() missing {len(missing)} required positional arguments: "
                             + ", ".join(f'"{m}"' for m in missing))
        for position, (parameter, value) in enumerate(zip(self.positional, packed), 1 - skip):
            if not parameter.fits(value):
                return _wrong_type(name, parameter, value, position)
        for key, value in kwargs.items():
            parameter = self.by_name.get(key)
            if parameter is None:
                return TypeError(f"{name}() got an unexpected keyword argument '{key}'")
            if not parameter.fits(value):
                return _wrong_type(name, parameter, value, None)
        return None

    def shown(self):
        """As PyTorch lists it (without the arguments minigrad does not check)."""
        parts, star = [], False
        for parameter in self.parameters:
            if parameter.kind == "any":
                continue
            if parameter.keyword_only and not star:
                parts.append("*")
                star = True
            parts.append(str(parameter))
        return ", ".join(parts)


def _wrong_type(name, parameter, value, position):
    where = f" (position {position})" if position else ""
    expected = _NAMES.get(parameter.kind, parameter.kind)
    if parameter.kind in ("int[]", "int[1]", "int...") and isinstance(value, (list, tuple)):
        index, item = next((i, v) for i, v in enumerate(value) if not _is_ints([v]))
        return TypeError(f"{name}(): argument '{parameter.name}' failed to unpack the object "
                         f"at pos {index + 1} with error \"type must be tuple of ints,but got "
                         f"{dtypes.type_name(item)}\"")
    return TypeError(f"{name}(): argument '{parameter.name}'{where} must be {expected}, not "
                     f"{dtypes.type_name(value)}")


def _refusal(name, overloads, args, kwargs, skip=0):
    """PyTorch's TypeError for a call that fits none of `overloads`: the one overload's
    own complaint when only one is plausible, else the list of them all."""
    plausible = [s for s in overloads if s.plausible(args, kwargs)]
    if len(overloads) == 1 or len(plausible) == 1:
        chosen = overloads[0] if len(overloads) == 1 else plausible[0]
        return chosen.error(name, args, kwargs, skip)
    got = ", ".join([dtypes.type_name(a) for a in args]
                    + [f"{k}={dtypes.type_name(v)}" for k, v in kwargs.items()])
    shown = [s.shown() for s in overloads if not s.hidden]
    expected = (f"({shown[0]})" if len(shown) == 1 else
                "one of:\n" + "\n".join(f" * ({text})" for text in shown))
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), "
                     f"but expected {expected}")


def parsed(name, texts, function, method=False, shown_name=None, skip=0):
    """`function`, checking its arguments against PyTorch's signatures `texts` first; its
    messages name `shown_name` (PyTorch's function behind it) and count positions after
    the first `skip` arguments (F.softmax's are those of input.softmax)."""
    overloads = [Signature(t, name in signatures.NUMBERS_AS_TENSORS) for t in texts]
    shown_name = shown_name or name
    takes_nothing = any(s.fits((), {}) for s in overloads)     # x.exp(), x.sum()

    @functools.wraps(function)
    def checked(*args, **kwargs):
        given = args[1:] if method else args
        if not given and not kwargs and takes_nothing:
            return function(*args)                  # nothing to check
        names = ({_ALIASES.get(k, k): v for k, v in kwargs.items()}
                 if "axis" in kwargs or "keepdims" in kwargs else kwargs)
        for signature in overloads:
            if signature.fits(given, names):
                if names.get("out") is not None:
                    return out_argument.call_with_out(name, function, args, dict(names))
                return function(*args, **names)
        raise _refusal(shown_name, overloads, given, names, skip)
    checked.parsed = True                   # (it takes numpy's axis= and keepdims= too)
    return checked


def parse_arguments_in(owner, table, method=False, shown_names=(), as_methods=()):
    """Check the arguments of each function of `table` that `owner` (a module, or the
    Tensor class for its methods) has."""
    for name, texts in table.items():
        if hasattr(owner, name):
            setattr(owner, name, parsed(name, texts, getattr(owner, name), method,
                                        dict(shown_names).get(name), int(name in as_methods)))


_MISSING = object()


def reading_first(reads, function):
    """`function`, reading first what PyTorch's Python function reads of its arguments
    ("target.size()": target's size, called): a value that is not a tensor raises what
    Python raises there."""
    parameters = inspect.signature(function).parameters
    names = list(parameters)
    required = sum(p.default is inspect.Parameter.empty for p in parameters.values())
    rules = [(text.split(".")[0], names.index(text.split(".")[0]),
              text.split(".")[1].rstrip("()"), text.endswith("()")) for text in reads]

    @functools.wraps(function)
    def reading(*args, **kwargs):
        if len(args) + len(kwargs) < required:
            return function(*args, **kwargs)                 # Python's "missing" TypeError
        for name, position, attribute, called in rules:
            value = args[position] if position < len(args) else kwargs.get(name, _MISSING)
            if value is not _MISSING and not isinstance(value, tensor_door.Tensor):
                found = getattr(value, attribute)            # Python's AttributeError
                if called:
                    found()                                  # (an int is not callable)
        return function(*args, **kwargs)
    return reading


def read_first_in(owner, table):
    """Wrap each function of `table` (name -> what it reads) that `owner` has."""
    for name, reads in table.items():
        if hasattr(owner, name):
            setattr(owner, name, reading_first(reads, getattr(owner, name)))


# --- operators ------------------------------------------------------------------------------

OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
             "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
             "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__eq__", "__ne__",
             "__lt__", "__le__", "__gt__", "__ge__")
def giving_way(operator, operands):
    """`operator`, returning NotImplemented for an operand that is neither a tensor nor a
    number, so that Python asks the other operand and then raises PyTorch's TypeError."""
    @functools.wraps(operator)
    def binary(self, other):
        if type(other) is float or isinstance(other, operands):
            return operator(self, other)
        return NotImplemented
    return binary


def giving_way_to_non_tensors(operator, operands):
    """The same for @, whose operands are tensors (x @ 2.0 is refused too)."""
    @functools.wraps(operator)
    def binary(self, other):
        return operator(self, other) if isinstance(other, operands) else NotImplemented
    return binary


def operators_give_way_in(cls):
    """Make the operators of `cls` (the Tensor class) give way to other operands."""
    numbers = (cls, bool, int, float, np.number, np.bool_, np.ndarray)
    matrices = (cls, np.ndarray)                     # x @ 2 is refused as well
    reflected = (cls, bool, int, float, np.number, np.bool_)    # array + x is refused, as
    for name in OPERATORS:                                     # in PyTorch (array / x is not)
        operands = matrices if "matmul" in name else numbers
        if name.startswith("__r") and name != "__rtruediv__":
            operands = (cls,) if "matmul" in name else reflected
        wrap = giving_way_to_non_tensors if "matmul" in name else giving_way
        setattr(cls, name, wrap(getattr(cls, name), operands))
