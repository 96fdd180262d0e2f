"""Small helpers shared by the ops: operands to arrays, broadcasting checks."""
import numpy as np

from .. import dtypes
from ..autograd.grad_mode import _state as _grad_mode
from ..tensor_data import TensorData


def is_tensor(value):
    return isinstance(value, TensorData)


def array_of(value, dtype, like):
    """The data of a tensor or a Python number, as an array of `dtype` on `like`'s device."""
    if is_tensor(value):
        data = value._data
        return data if data.dtype == dtype.numpy else data.astype(dtype.numpy)
    xp = like._xp
    return xp.asarray(value, dtype=dtype.numpy)


def wrap_number(value, like):
    """A Python number operand of + - * / as PyTorch passes it: a 0-dim tensor that needs
    no grad (next_functions shows it as (None, 0); Mul and Div save it) and that still
    promotes like a number (`dtypes.result_type`).  Anything else is returned unchanged."""
    if type(value) is float:                    # the common case first: no isinstance chain
        kind = dtypes.float64                   # (doubles, as PyTorch)
    elif is_tensor(value):
        return value
    elif isinstance(value, np.ndarray):         # x * an array: PyTorch goes through numpy
        if like.requires_grad and _grad_mode["enabled"]:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return like._new(like._xp.asarray(value))
    elif not isinstance(value, (bool, int, float, np.number, np.bool_)):
        return value
    else:
        floating = isinstance(value, (float, np.floating))
        kind = dtypes.float64 if floating else dtypes.scalar_dtype(value)
    if type(like._data) is np.ndarray:
        wrapped = like._make(np.array(value, kind.numpy))
    else:
        wrapped = like._new(like._xp.asarray(value, dtype=kind.numpy))
    wrapped._wrapped_number = True
    return wrapped


def binary_arrays(a, b, floating=False):
    """Both operands as arrays of their promoted dtype (PyTorch's promotion rules)."""
    if isinstance(a, TensorData) and isinstance(b, TensorData):   # fast path: one dtype
        x, y = a._data, b._data
        if x.dtype is y.dtype and (not floating or x.dtype.kind == "f"):
            if x.shape != y.shape and x.ndim and y.ndim:    # (0-dim always broadcasts)
                check_shapes_broadcast(x.shape, y.shape)
            return x, y
        if x.ndim and not y.ndim and x.dtype.kind == "f":    # a number: a's float dtype wins
            return x, y.astype(x.dtype)
    result = dtypes.result_type(a, b)
    if floating and not result.is_floating_point:
        result = dtypes.get_default_dtype()
    like = a if is_tensor(a) else b
    check_broadcast(a, b)
    return array_of(a, result, like), array_of(b, result, like)


def check_sub(a, b=None):
    """PyTorch refuses `-` on bool operands (a Python bool counts as one); b=None: negation."""
    bools = [getattr(v, "dtype", None) is dtypes.bool or isinstance(v, (bool, np.bool_))
             for v in ((a,) if b is None else (a, b))]
    if b is None and bools[0]:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    if all(bools):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if any(bools):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def check_broadcast(a, b):
    """PyTorch's message when shapes do not broadcast."""
    check_shapes_broadcast(a.shape if is_tensor(a) else (), b.shape if is_tensor(b) else ())


def check_shapes_broadcast(sa, sb):
    """The same check on two shapes (matmul checks only its batch dims)."""
    for i, (x, y) in enumerate(zip(reversed(sa), reversed(sb))):
        if x != y and x != 1 and y != 1:
            dim = max(len(sa), len(sb)) - 1 - i
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {dim}")


def normalize_dim(dim, ndim):
    """A dim in range(ndim), with PyTorch's IndexError otherwise."""
    low, high = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not low <= dim <= high:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})")
    return dim % ndim if ndim > 0 else 0


def normalize_dims(dim, ndim):
    """None or () -> all dims; an int or a sequence -> a sorted tuple of dims
    (none for a 0-d tensor, which accepts dim 0 or -1 but has no dim to reduce)."""
    if isinstance(dim, (int, np.integer)):
        dim = (dim,)
    if not dim:                                 # None, or an empty list: all dims, as in PyTorch
        return tuple(range(ndim))
    dims = sorted(normalize_dim(d, ndim) for d in dim)
    for first, second in zip(dims, dims[1:]):
        if first == second:
            raise RuntimeError(f"dim {first} appears multiple times in the list of dims")
    return tuple(dims) if ndim > 0 else ()


_LEGACY_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
                 "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                 "bool": "Bool"}


def _type_name(d):
    """PyTorch's legacy type name in error texts: float32 -> Float (torch.FloatTensor)."""
    return _LEGACY_NAMES.get(d.name, d.name)


_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
              "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def cpp_type_name(d):
    """The C++ name some of PyTorch's messages use: int64 -> long int."""
    return _CPP_NAMES.get(d.name, d.name)


def check_mask(mask, shape):
    """A masked_fill mask: bool, and broadcastable to the filled tensor's `shape`; its array."""
    if not is_tensor(mask):
        return mask
    if mask.dtype is not dtypes.bool:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{cpp_type_name(mask.dtype)}")
    check_shapes_broadcast(shape, mask.shape)
    return mask._data


def check_expandable(size, shape):
    """sum_to_size's size must broadcast to the tensor's shape."""
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != shape[lead + i] for i, s in enumerate(size)):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")


def check_flatten_dims(start_dim, end_dim, ndim):
    """flatten's dims, in range and in order."""
    start, end = normalize_dim(start_dim, ndim), normalize_dim(end_dim, ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    return start, end


def check_clamp_bounds(out, low, high):
    """clamp_'s bounds: one at least, and no float one for an integer tensor (it cannot take
    a float result)."""
    if low is None and high is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if not out.is_floating_point and any(isinstance(b, float) for b in (low, high)):
        result = dtypes.get_default_dtype()
        raise RuntimeError(f"result type {_type_name(result)} can't be cast to the desired "
                           f"output type {cpp_type_name(out)}")
