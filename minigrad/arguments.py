"""Arguments as PyTorch's Python layer takes them, for the top-level functions and the
Tensor methods: numpy's names for two of them (`x.sum(axis=0, keepdims=True)`:
PyTorch takes `axis` for `dim` and `keepdims` for `keepdim`, and students often come
from numpy), and a TypeError that names the argument when a function is given a number
or a list where it needs a tensor (`torch.exp(2.0)`)."""
import functools

from .tensor_data import TensorData

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}
# the functions and Tensor methods with a dim (and keepdim) argument that take them
WITH_DIM = ("sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "any",
            "all", "amax", "amin", "logsumexp", "cumsum", "softmax", "log_softmax",
            "squeeze", "unsqueeze", "median", "nansum", "count_nonzero")


def accept_numpy_names(function):
    @functools.wraps(function)
    def with_numpy_names(*args, **kwargs):
        if "axis" in kwargs or "keepdims" in kwargs:
            kwargs = {_ALIASES.get(name, name): value for name, value in kwargs.items()}
        return function(*args, **kwargs)
    return with_numpy_names


def accept_numpy_names_in(owner):
    """Wrap each function of WITH_DIM that `owner` (the Tensor class, or a module) has."""
    for name in WITH_DIM:
        if hasattr(owner, name):
            setattr(owner, name, accept_numpy_names(getattr(owner, name)))


# functions whose first argument (`input`), or first two (`input`, `other`), must be tensors
TENSOR_INPUT = ("abs", "exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "sqrt", "square",
                "neg", "reciprocal", "sign", "sum", "mean", "max", "min", "argmax", "argmin",
                "softmax", "log_softmax", "flatten", "reshape", "permute", "squeeze",
                "unsqueeze", "t", "transpose", "clone", "numel", "clamp", "masked_fill",
                "cumsum", "prod", "std", "var", "norm", "amax", "amin", "logsumexp")
TENSOR_PAIR = ("matmul", "mm", "dot", "maximum", "minimum", "equal")


def require_tensors(function, count):
    names = ("input", "other")

    @functools.wraps(function)
    def with_tensors(*args, **kwargs):
        for position, value in enumerate(args[:count]):
            if not isinstance(value, TensorData):
                kind = type(value)
                kind = kind.__name__ if kind.__module__ == "builtins" else (
                    f"{kind.__module__}.{kind.__name__}")
                raise TypeError(f"{function.__name__}(): argument '{names[position]}' "
                                f"(position {position + 1}) must be Tensor, not {kind}")
        return function(*args, **kwargs)
    return with_tensors


def require_tensors_in(module):
    """Wrap the functions of TENSOR_INPUT and TENSOR_PAIR that `module` has."""
    for names, count in ((TENSOR_INPUT, 1), (TENSOR_PAIR, 2)):
        for name in names:
            if hasattr(module, name):
                setattr(module, name, require_tensors(getattr(module, name), count))
