"""Ways to make tensors: tensor(), zeros, ones, full, arange, rand, randn, *_like."""
import functools
import warnings

import numpy as np

from . import backend, dtypes
from .autograd.grad_mode import mark_inference
from .tensor import Tensor

_rng = {"generator": np.random.default_rng()}


def manual_seed(seed):
    """Seed minigrad's random numbers (rand, randn).  The numbers differ from PyTorch's."""
    _rng["generator"] = np.random.default_rng(seed)
    return _rng["generator"]


def _infer_dtype(data):
    """PyTorch's inference: any float -> default float dtype, ints -> int64, bools -> bool."""
    if isinstance(data, (np.ndarray, np.generic)):      # numpy keeps its dtype
        return dtypes.from_numpy_dtype(data.dtype)
    if isinstance(data, (list, tuple)) and any(isinstance(x, np.generic) for x in _flat(data)):
        found = [dtypes.from_numpy_dtype(x.dtype) if isinstance(x, np.generic)
                 else dtypes.scalar_dtype(x) for x in _flat(data)]
        return functools.reduce(dtypes.promote_types, found)   # [1.0, np.float32(2)]: float32
    array = np.asarray(data)
    if array.dtype.kind == "f":
        return dtypes.get_default_dtype()
    if array.dtype.kind in "iu":
        return dtypes.int64
    if array.dtype.kind == "b":
        return dtypes.bool
    if isinstance(data, str):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if array.dtype.kind in "US":
        raise ValueError("too many dimensions 'str'")
    raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


def _finish(array, dtype, device, requires_grad):
    """Put the array on its device, then make the tensor (checking requires_grad)."""
    if device is not None:
        array = backend.move(array, device)
    if requires_grad and not dtype.is_floating_point:
        raise RuntimeError(
            "Only Tensors of floating point and complex dtype can require gradients. "
            f"minigrad hint: this tensor is {dtype}; write 1.0 rather than 1, or pass "
            "dtype=torch.float32.")
    return mark_inference(Tensor._make(array, requires_grad=requires_grad))


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
    elif isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in _flat(data)):
        data = _nested_items(data)
    try:
        dtype = _infer_dtype(data) if dtype is None else dtypes.to_dtype(dtype)
        with np.errstate(over="ignore"):      # 70000 in float16 is inf, without a warning
            array = np.array(data, dtype=dtype.numpy)
    except ValueError:
        _check_nested_lengths(data)
        raise
    return _finish(array, dtype, device, requires_grad)


def _check_nested_lengths(data):
    """PyTorch's errors for nested lists that do not make a box (the first one found)."""
    shape, item = [], data
    while isinstance(item, (list, tuple)):
        shape.append(len(item))
        item = item[0] if item else None
    stack = [(data, 0)]
    while stack:
        seq, dim = stack.pop()
        if dim < len(shape) and not isinstance(seq, (list, tuple)):
            raise TypeError("not a sequence")
        if dim < len(shape) and len(seq) != shape[dim]:
            raise ValueError(
                f"expected sequence of length {shape[dim]} at dim {dim} (got {len(seq)})")
        if dim < len(shape):
            stack.extend((x, dim + 1) for x in reversed(seq))


def _flat(data):
    for item in data:
        if isinstance(item, (list, tuple)):
            yield from _flat(item)
        else:
            yield item


def _nested_items(data):
    if isinstance(data, (list, tuple)):
        return [_nested_items(x) for x in data]
    return data._scalar() if isinstance(data, Tensor) else data   # (one element only)


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


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _filled(np.zeros, size, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _filled(np.ones, size, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return _filled(np.zeros, size, dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    if dtype is None:
        dtype = dtypes.scalar_dtype(fill_value)
    return _filled(lambda s, d: np.full(s, fill_value, d), (size,), dtype, device, requires_grad)


def _like(maker, other, dtype, device, requires_grad, *extra):
    return maker(other.shape, *extra, dtype=dtype or other.dtype,
                 device=device or other.device, requires_grad=requires_grad)


def zeros_like(other, dtype=None, device=None, requires_grad=False):
    return _like(zeros, other, dtype, device, requires_grad)


def ones_like(other, dtype=None, device=None, requires_grad=False):
    return _like(ones, other, dtype, device, requires_grad)


def empty_like(other, dtype=None, device=None, requires_grad=False):
    return _like(zeros, other, dtype, device, requires_grad)


def full_like(other, fill_value, dtype=None, device=None, requires_grad=False):
    return _like(full, other, dtype, device, requires_grad, fill_value)


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


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    for name, bound in (("start", start), ("end", end)):
        if isinstance(bound, Tensor) and bound.ndim != 0:
            raise RuntimeError("linspace only supports 0-dimensional start and end tensors, "
                               f"but got {name} with {bound.ndim} dimension(s).")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtypes.get_default_dtype() if dtype is None else dtypes.to_dtype(dtype)
    return _finish(np.linspace(start, end, steps, dtype=dtype.numpy), dtype, device, requires_grad)


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


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False):
    """Normal random numbers: normal(mean, std, size) for two numbers, or one sample for
    each element of a tensor mean and/or std (their shapes broadcast)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        from .ops.sampling import normal as sample
        return sample(mean, std)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    _random_dtype(dtype, "normal_kernel_cpu")
    return _filled(lambda s, d: _rng["generator"].normal(mean, std, s).astype(d), (size,),
                   dtype, device, requires_grad)


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


def rand_like(other, dtype=None, device=None, requires_grad=False):
    """rand with the shape (and, by default, dtype and device) of `other`."""
    return _like(rand, other, dtype, device, requires_grad)


def randn_like(other, dtype=None, device=None, requires_grad=False):
    """randn with the shape (and, by default, dtype and device) of `other`."""
    return _like(randn, other, dtype, device, requires_grad)
