"""Arguments as PyTorch's Python layer takes them, for the top-level functions, the
Tensor methods and operators, and nn.functional: a decorator where each is defined.

    @arguments.function     torch.exp(...): checked against PyTorch's argument parser's
    @arguments.method       signatures (signatures.py) before anything is computed, a
    @arguments.functional   wrong argument giving PyTorch's TypeError in its words
                            (`torch.exp(2.0)`: "exp(): argument 'input' (position 1) must
                            be Tensor, not float"); numpy's `axis=` and `keepdims=` taken
                            too, as PyTorch takes them
    @arguments.numpy_names  numpy's names alone, for the functions PyTorch's parser does
                            not check here (`x.max(axis=0)`)
    arguments.operator(f)   x * y: f, giving way to an operand that is neither a tensor nor
                            a number, as PyTorch's operators do (`x * None` is Python's
                            "unsupported operand type(s)" TypeError, not a tensor of NaNs)

Nothing here computes; the ops do (ops/), behind these checks."""
import functools
import inspect
import os
import sys

import numpy as np

from ..core.tensor import TensorBase
from . import dtypes, out_argument, signatures

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}
# the functions and Tensor methods with a dim (and keepdim) argument: they take numpy's
# names (those PyTorch's parser checks here, as it does; the others by numpy_names)
WITH_DIM = ("sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "any",
            "all", "amax", "amin", "logsumexp", "cumsum", "cumprod", "softmax", "log_softmax",
            "squeeze", "unsqueeze", "median", "nansum", "count_nonzero")


# --- the decorators ---------------------------------------------------------------------------

def function(f):
    """torch.<name>(...), f, checked against PyTorch's signatures of torch.<name> (its
    messages name the function PyTorch's own messages name: signatures.MESSAGE_NAMES)."""
    return parsed(f.__name__, signatures.FUNCTIONS[f.__name__], f,
                  shown_name=signatures.MESSAGE_NAMES.get(f.__name__))


def method(f):
    """Tensor.<name>(...), f, checked against PyTorch's signatures of the method."""
    return parsed(f.__name__, signatures.METHODS[f.__name__], f, method=True)


def functional(f):
    """nn.functional.<name>(...), f, checked against PyTorch's signatures of it (F.softmax's
    are those of input.softmax: positions counted after the input)."""
    return parsed(f.__name__, signatures.FUNCTIONAL[f.__name__], f,
                  shown_name=signatures.MESSAGE_NAMES.get(f.__name__),
                  skip=int(f.__name__ in signatures.FUNCTIONAL_AS_METHODS))


def function_alias(name, f):
    """torch.<name>, PyTorch's other name of the function f, checked against the signatures
    of that name (its messages name it): `moveaxis = arguments.function_alias("moveaxis",
    movedim)`."""
    return parsed(name, signatures.FUNCTIONS[name], inspect.unwrap(f),
                  shown_name=signatures.MESSAGE_NAMES.get(name))


def method_alias(name, f):
    """Tensor.<name>, PyTorch's other name of the method f, checked as that name."""
    return parsed(name, signatures.METHODS[name], inspect.unwrap(f), method=True)


def reads_first(f):
    """torch.<name>, f, reading first what PyTorch's Python function of that name reads of
    its arguments (signatures.READS_FIRST), so that a value that is not a tensor raises what
    Python raises there (torch.norm(2): 'int' object has no attribute 'layout')."""
    return reading_first(signatures.READS_FIRST[f.__name__], f)


def functional_reads_first(f):
    """nn.functional.<name>, f, reading first what PyTorch's reads (F.mse_loss(x, 2):
    target.size(), an AttributeError; signatures.FUNCTIONAL_READS_FIRST)."""
    return reading_first(signatures.FUNCTIONAL_READS_FIRST[f.__name__], f)


def numpy_names(f):
    """f, taking numpy's `axis=` for `dim=` and `keepdims=` for `keepdim=`, as PyTorch does
    (students often come from numpy)."""
    @functools.wraps(f)
    def with_numpy_names(*args, **kwargs):
        if "axis" in kwargs or "keepdims" in kwargs:
            kwargs = {_ALIASES.get(name, name): value for name, value in kwargs.items()}
        return f(*args, **kwargs)
    return with_numpy_names


def operator(f, operands="numbers"):
    """An operator of Tensor (`__mul__ = arguments.operator(mul)`): f's own code (a checked
    method's, unwrapped), giving way to an operand that is not one of `operands`:

        "numbers"    a tensor, a number or an array (x * 2, x * array)
        "reflected"  a tensor or a number: array * x is refused, as in PyTorch
        "matrices"   a tensor or an array (x @ 2 is refused too)
        "tensors"    a tensor (array @ x is refused)

    Python then asks the other operand, and raises PyTorch's TypeError if it cannot either."""
    return parsed(f.__name__, (), inspect.unwrap(f), method=True, operands=_OPERANDS[operands])


_OPERANDS = {
    "numbers": (TensorBase, bool, int, float, np.number, np.bool_, np.ndarray),
    "reflected": (TensorBase, bool, int, float, np.number, np.bool_),
    "matrices": (TensorBase, np.ndarray),
    "tensors": (TensorBase,),
}
_TAKE_FLOATS = {_OPERANDS["numbers"], _OPERANDS["reflected"]}


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # minigrad/


def callers_stacklevel():
    """warnings.warn's stacklevel that names the first line outside minigrad on the way
    here, as PyTorch's warnings (raised in C++) name the line that called it: the checks
    above wrap a function in one frame or more, so a fixed stacklevel would name them."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


# --- the kinds of argument -----------------------------------------------------------------

def _is_int(value):
    if isinstance(value, TensorBase):        # a one-element integer tensor counts
        return value.numel() == 1 and value.dtype.category == 1
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_number(value):
    if isinstance(value, TensorBase):
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
    "Tensor": lambda value: isinstance(value, TensorBase),
    "Tensor[]": lambda value: isinstance(value, (list, tuple)) and all(
        isinstance(item, TensorBase) for item in value),
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


def parsed(name, texts, function, method=False, operands=None, shown_name=None, skip=0):
    """`function`, checking its arguments against PyTorch's signatures `texts` first (an
    operator: its other operand against `operands`); its messages name `shown_name`
    (PyTorch's function behind it) and count positions after the first `skip` arguments."""
    shown_name = shown_name or name
    take_floats = operands in _TAKE_FLOATS
    overloads = [Signature(t, name in signatures.NUMBERS_AS_TENSORS) for t in texts]
    takes_nothing = any(s.fits((), {}) for s in overloads)     # x.exp(), x.sum()

    @functools.wraps(function)
    def checked(*args, **kwargs):
        if operands is not None:                 # an operator: give way to other operands
            if (take_floats and type(args[1]) is float) or isinstance(args[1], operands):
                return function(*args)
            return NotImplemented
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
            if value is not _MISSING and not isinstance(value, TensorBase):
                found = getattr(value, attribute)            # Python's AttributeError
                if called:
                    found()                                  # (an int is not callable)
        return function(*args, **kwargs)
    return reading
