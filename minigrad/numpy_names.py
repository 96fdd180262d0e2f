"""numpy's names for two arguments: `x.sum(axis=0, keepdims=True)` works, as in PyTorch,
which takes `axis` for `dim` and `keepdims` for `keepdim` (students often come from numpy)."""
import functools

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
