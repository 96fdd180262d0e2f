"""PyTorch's legacy tensor types, which code written for its first versions (and much
code since) still uses: `torch.FloatTensor([1, 2])`, `torch.LongTensor(3, 4)`,
`isinstance(x, torch.FloatTensor)`, `x.type(torch.DoubleTensor)`, `x.type()` ->
'torch.FloatTensor', `x.new(...)`, and `torch.cuda.FloatTensor` for a GPU tensor.

Each type is a dtype on a device: calling it makes a tensor (of data, or of a size,
uninitialised in PyTorch and zeros here), and a tensor is an instance of it when its
dtype and device match.  `torch.tensor(data, dtype=...)` is the modern form.

Example::

    >>> import minigrad as torch
    >>> x = torch.FloatTensor([1, 2])
    >>> x, x.type(), isinstance(x, torch.FloatTensor), isinstance(x, torch.LongTensor)
    (tensor([1., 2.]), 'torch.FloatTensor', True, False)
    >>> x.type(torch.LongTensor)
    tensor([1, 2])
"""
from . import dtypes

_NAMES = {"Float": "float32", "Double": "float64", "Half": "float16", "Long": "int64",
          "Int": "int32", "Short": "int16", "Char": "int8", "Byte": "uint8", "Bool": "bool"}


class LegacyType(type):
    """The class of torch.FloatTensor & co.: a dtype and a device type."""

    def __instancecheck__(cls, obj):
        return (getattr(obj, "_is_minigrad_tensor", False) and obj.dtype is cls.dtype
                and obj.device.type == cls.device_type)

    def __call__(cls, *data, device=None):
        """FloatTensor(2, 3) or FloatTensor(torch.Size([2, 3])): a tensor of that size;
        FloatTensor(data): a tensor of the data (a list, an array, a tensor of this type)."""
        from .creation import tensor, zeros
        device = device or cls.device_type
        if not data:
            return zeros(0, dtype=cls.dtype, device=device)
        if all(type(size) is int for size in data):
            return zeros(*data, dtype=cls.dtype, device=device)
        if len(data) == 1 and type(data[0]).__name__ == "Size":
            return zeros(tuple(data[0]), dtype=cls.dtype, device=device)
        if len(data) == 1 and getattr(data[0], "_is_minigrad_tensor", False):
            return _alias_of(data[0], cls.dtype)
        return tensor(data[0], dtype=cls.dtype, device=device)

    def __repr__(cls):
        return f"<class '{cls.__qualname__}'>"


def _make(name, device_type):
    prefix = "torch." if device_type == "cpu" else "torch.cuda."
    return LegacyType(f"{name}Tensor", (), {
        "__qualname__": f"{prefix}{name}Tensor", "dtype": getattr(dtypes, _NAMES[name]),
        "device_type": device_type, "is_cuda": device_type == "cuda",
        "__doc__": f"The legacy type of a {_NAMES[name]} tensor on the {device_type}."})


CPU_TYPES = {f"{name}Tensor": _make(name, "cpu") for name in _NAMES}
CUDA_TYPES = {f"{name}Tensor": _make(name, "cuda") for name in _NAMES}


def type_name(tensor):
    """x.type(): 'torch.FloatTensor', 'torch.cuda.LongTensor' ..."""
    where = "torch." if tensor.device.type == "cpu" else "torch.cuda."
    return f"{where}{dtypes.legacy_name(tensor.dtype)}Tensor"


def converted(tensor, to):
    """x.type(to): `to` a legacy type, its name ('torch.DoubleTensor') or a dtype."""
    if isinstance(to, str):
        kind = (CUDA_TYPES if to.startswith("torch.cuda.") else CPU_TYPES).get(
            to.rsplit(".", 1)[-1])
        if kind is None:
            raise ValueError(f"invalid type: '{to}'")
        to = kind
    if isinstance(to, LegacyType):
        device = tensor.device if tensor.device.type == to.device_type else to.device_type
        return tensor.to(device, to.dtype)
    return tensor.to(dtypes.to_dtype(to))


def _alias_of(other, dtype):
    """FloatTensor(other), x.new(other): other itself, a view of it (AliasBackward0)."""
    from .ops.index import Alias
    if other.dtype is not dtype:
        raise TypeError(f"expected TensorOptions(dtype={dtypes.cpp_name(dtype)}) (got "
                        f"TensorOptions(dtype={dtypes.cpp_name(other.dtype)}))")
    return Alias.apply(other, ())


def new(tensor, *args, size=None):
    """x.new(...), the legacy constructor like x: x.new(2, 3) (a size), x.new(data) (a
    list or tuple of numbers), x.new(other) (other itself, as a view), x.new() (empty)."""
    from .creation import tensor as make_tensor, zeros
    if size is not None:
        args = tuple(size)
    if len(args) == 1 and getattr(args[0], "_is_minigrad_tensor", False):
        return _alias_of(args[0], tensor.dtype)
    if not args:
        return zeros(0, dtype=tensor.dtype, device=tensor.device)
    if len(args) == 1 and type(args[0]).__name__ == "Size":
        return zeros(tuple(args[0]), dtype=tensor.dtype, device=tensor.device)
    if all(type(a) is int for a in args):
        return zeros(args, dtype=tensor.dtype, device=tensor.device)
    return make_tensor(args[0], dtype=tensor.dtype, device=tensor.device)
