"""dtypes, and PyTorch's rules for the dtype of a result.

A `dtype` wraps a numpy dtype with PyTorch's name.  Python floats default to
float32 (not numpy's float64), and type promotion follows PyTorch, not numpy:

    categories      bool < integer < floating point
    priority        tensors with dimensions > 0-dim tensors > Python numbers

The result takes the highest category present; within it, the dtype of the
highest-priority operands of that category (a Python float alone gives the
default float32).  So ``float32 tensor * float64 0-dim tensor`` is float32.
"""
import builtins as _builtins

import numpy as np


class dtype:
    """A tensor element type, such as `minigrad.float32`."""

    def __init__(self, name, numpy_dtype, category):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.category = category          # 0 bool, 1 integer, 2 floating point
        self.is_floating_point = category == 2
        self.itemsize = self.numpy.itemsize

    def __repr__(self):
        return f"minigrad.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))


float16 = half = dtype("float16", np.float16, 2)
float32 = float = dtype("float32", np.float32, 2)
float64 = double = dtype("float64", np.float64, 2)
int8 = dtype("int8", np.int8, 1)
uint8 = dtype("uint8", np.uint8, 1)
int16 = short = dtype("int16", np.int16, 1)
int32 = int = dtype("int32", np.int32, 1)
int64 = long = dtype("int64", np.int64, 1)
bool = dtype("bool", np.bool_, 0)

ALL = (float16, float32, float64, int8, uint8, int16, int32, int64, bool)
_FROM_NUMPY = {d.numpy: d for d in ALL}
_FROM_CHAR = BY_CHAR = {d.numpy.char: d for d in ALL}    # the fast lookup (Tensor.dtype)
_BY_NAME = {d.name: d for d in ALL}


def _by_name(name):
    return _BY_NAME[name]


_default = {"float": float32}


def get_default_dtype():
    """The dtype of tensors made from Python floats (float32 unless changed)."""
    return _default["float"]


def set_default_dtype(d):
    if not (isinstance(d, dtype) and d.is_floating_point):
        raise TypeError("only floating-point types are supported as the default type")
    _default["float"] = d


def from_numpy_dtype(numpy_dtype):
    """The minigrad dtype of a numpy dtype (float64 stays float64)."""
    found = _FROM_CHAR.get(getattr(numpy_dtype, "char", None))   # fast path: hashing
    if found is None:                                            # a np.dtype is slow
        found = _FROM_NUMPY.get(np.dtype(numpy_dtype))
    if found is None:
        raise TypeError(f"minigrad has no dtype for numpy's {np.dtype(numpy_dtype)}")
    return found


def to_dtype(d):
    """Accept a minigrad dtype, a numpy dtype or a Python type."""
    if isinstance(d, dtype):
        return d
    if d is _builtins.float:
        return get_default_dtype()
    if d is _builtins.int:
        return int64
    if d is _builtins.bool:
        return bool
    return from_numpy_dtype(d)


def scalar_dtype(value):
    """The dtype PyTorch gives a Python number."""
    if isinstance(value, (_builtins.bool, np.bool_)):
        return bool
    if isinstance(value, (_builtins.int, np.integer)):
        return int64
    return get_default_dtype()


def result_type(*operands):
    """PyTorch's type promotion for tensors and Python numbers (see above)."""
    best = [None, None, None]            # per priority: (category, dtype)
    for op in operands:
        if hasattr(op, "_data"):          # a wrapped Python number ranks as a number
            priority = 2 if getattr(op, "_wrapped_number", False) else 0 if op._data.ndim else 1
            d = op.dtype
        else:
            priority = 2
            d = scalar_dtype(op)
        current = best[priority]
        best[priority] = d if current is None else promote_types(current, d)
    category = max(d.category for d in best if d is not None)
    for priority, d in enumerate(best):
        if d is not None and d.category == category:
            if priority == 2 and category == 2:
                return get_default_dtype()
            return d
    raise AssertionError("unreachable")


def promote_types(a, b):
    """PyTorch's promote_types: the higher category wins (bool < int < float); within one,
    the smallest dtype that holds both (uint8 and int8 make int16)."""
    if a is b or a.category != b.category:
        return a if a.category >= b.category else b
    return from_numpy_dtype(np.promote_types(a.numpy, b.numpy))


def can_cast(from_dtype, to_dtype_):
    """In-place ops may not turn e.g. a float result into an integer tensor."""
    return from_dtype.category <= to_dtype_.category


_LEGACY_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
                 "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                 "bool": "Bool"}


def legacy_name(d):
    """PyTorch's legacy type name in error texts: float32 -> Float (torch.FloatTensor)."""
    return _LEGACY_NAMES.get(d.name, d.name)


_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
              "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}


def cpp_name(d):
    """The C++ name some of PyTorch's messages use: int64 -> long int."""
    return _CPP_NAMES.get(d.name, d.name)


def type_name(value):
    """The type of `value` as PyTorch's messages name it: Tensor, torch.dtype, numpy's
    types with their module (numpy.ndarray), else Python's name (int, str ...)."""
    if getattr(value, "_is_minigrad_tensor", False):
        return "Tensor"
    if isinstance(value, dtype):
        return "torch.dtype"
    module = type(value).__module__
    return f"numpy.{type(value).__name__}" if module == "numpy" else type(value).__name__
