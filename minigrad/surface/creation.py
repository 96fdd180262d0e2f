"""Ways to make tensors: tensor(), zeros, ones, full, arange, rand, randn, *_like."""
import warnings

import numpy as np

from .. import backend
from ..ops import sampling
from . import arguments, dtypes, python_data
from .random import _rng, manual_seed  # noqa: F401  (torch.manual_seed)
from .tensor import Tensor


def _finish(array, dtype, device, requires_grad):
    return python_data.made(Tensor, array, dtype, device, requires_grad)


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new tensor holding a copy of `data` (numbers, nested lists, arrays, tensors),
    on `device` ("cpu" by default, or "cuda": see minigrad.cuda).

    Example::

        >>> import minigrad as torch
        >>> torch.tensor([1.0, 2.0], requires_grad=True)
        tensor([1., 2.], requires_grad=True)
        >>> torch.tensor([1, 2]).dtype
        minigrad.int64
    """
    if not isinstance(requires_grad, bool):
        raise TypeError("tensor(): argument 'requires_grad' must be bool, not "
                        f"{type(requires_grad).__name__}")
    if isinstance(data, Tensor):          # a copy on the same device, unless told otherwise
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                      ".requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        device = data.device if device is None else device
        data = backend.to_numpy(data._data)
    array, dtype = python_data.array_of(data, dtype)
    return _finish(array, dtype, device, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """data itself if it is a tensor already (converted with .to, recorded, if a dtype or
    device is asked for), else a new tensor of it."""
    if isinstance(data, Tensor):
        return data if dtype is None and device is None else data.to(device, dtype)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array):
    """A tensor sharing memory with a numpy array."""
    return Tensor._make(array)


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    for d in size:
        if d < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {d}: {list(size)}")
    return tuple(int(d) for d in size)          # (a bool is a size, as in PyTorch)


def _filled(fill, size, dtype, device, requires_grad):
    dtype = dtypes.get_default_dtype() if dtype is None else dtypes.to_dtype(dtype)
    return _finish(fill(_size(size), dtype.numpy), dtype, device, requires_grad)


@arguments.function
def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _filled(np.zeros, size, dtype, device, requires_grad)


@arguments.function
def ones(*size, dtype=None, device=None, requires_grad=False):
    return _filled(np.ones, size, dtype, device, requires_grad)


@arguments.function
def empty(*size, dtype=None, device=None, requires_grad=False):
    return _filled(np.zeros, size, dtype, device, requires_grad)


@arguments.function
def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    if dtype is None:
        dtype = dtypes.scalar_dtype(fill_value)
    return _filled(lambda s, d: np.full(s, fill_value, d), (size,), dtype, device, requires_grad)


def _like(maker, other, dtype, device, requires_grad, *extra):
    return maker(other.shape, *extra, dtype=dtype or other.dtype,
                 device=device or other.device, requires_grad=requires_grad)


@arguments.function
def zeros_like(other, dtype=None, device=None, requires_grad=False):
    return _like(zeros, other, dtype, device, requires_grad)


@arguments.function
def ones_like(other, dtype=None, device=None, requires_grad=False):
    return _like(ones, other, dtype, device, requires_grad)


@arguments.function
def empty_like(other, dtype=None, device=None, requires_grad=False):
    return _like(zeros, other, dtype, device, requires_grad)


@arguments.function
def full_like(other, fill_value, dtype=None, device=None, requires_grad=False):
    return _like(full, other, dtype, device, requires_grad, fill_value)


@arguments.function
def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    if dtype is None:
        numbers = (start, end, step)
        dtype = (dtypes.get_default_dtype()
                 if any(isinstance(n, float) for n in numbers) else dtypes.int64)
    dtype = dtypes.to_dtype(dtype)
    if not all(np.isfinite(float(n)) for n in (start, end, step)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    return _finish(np.arange(start, end, step, dtype=dtype.numpy), dtype, device, requires_grad)


@arguments.function
def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    for name, bound in (("start", start), ("end", end)):
        if isinstance(bound, Tensor) and bound.ndim != 0:
            raise RuntimeError("linspace only supports 0-dimensional start and end tensors, "
                               f"but got {name} with {bound.ndim} dimension(s).")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtypes.get_default_dtype() if dtype is None else dtypes.to_dtype(dtype)
    return _finish(np.linspace(start, end, steps, dtype=dtype.numpy), dtype, device, requires_grad)


@arguments.function
def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    dtype = dtypes.get_default_dtype() if dtype is None else dtypes.to_dtype(dtype)
    return _finish(np.eye(n, m, dtype=dtype.numpy), dtype, device, requires_grad)


def _random_dtype(dtype, kernel):
    """PyTorch draws random floats only: an integer or bool dtype has no kernel."""
    if dtype is not None and not dtypes.to_dtype(dtype).is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.legacy_name(dtypes.to_dtype(dtype))}'")


def rand(*size, dtype=None, device=None, requires_grad=False):
    """Uniform random numbers in [0, 1)."""
    _random_dtype(dtype, "check_uniform_bounds")
    return _filled(lambda s, d: _rng["generator"].random(s).astype(d), size, dtype, device,
                   requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False):
    """Standard normal random numbers."""
    _random_dtype(dtype, "normal_kernel_cpu")
    return _filled(lambda s, d: _rng["generator"].standard_normal(s).astype(d), size, dtype,
                   device, requires_grad)


@arguments.function
def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False):
    """Normal random numbers: normal(mean, std, size) for two numbers, or one sample for
    each element of a tensor mean and/or std (their shapes broadcast)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        return sampling.normal(mean, std)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    _random_dtype(dtype, "normal_kernel_cpu")
    return _filled(lambda s, d: _rng["generator"].normal(mean, std, s).astype(d), (size,),
                   dtype, device, requires_grad)


@arguments.function
def randint(low, high=None, size=(), dtype=None, device=None, requires_grad=False):
    if isinstance(high, (tuple, list)):          # randint(high, size)
        high, size = None, high
    if high is None:
        low, high = 0, low
    dtype = dtypes.int64 if dtype is None else dtypes.to_dtype(dtype)
    if not low < high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    array = _rng["generator"].integers(low, high, size=_size(size)).astype(dtype.numpy)
    return _finish(array, dtype, device, requires_grad)


@arguments.function
def rand_like(other, dtype=None, device=None, requires_grad=False):
    """rand with the shape (and, by default, dtype and device) of `other`."""
    return _like(rand, other, dtype, device, requires_grad)


@arguments.function
def randn_like(other, dtype=None, device=None, requires_grad=False):
    """randn with the shape (and, by default, dtype and device) of `other`."""
    return _like(randn, other, dtype, device, requires_grad)
