"""A tensor's data out, and into other forms: numpy(), item(), tolist(), Python's
float(t), int(t), bool(t), len(t) and iteration; copies (clone), .to(dtype or device),
.cpu(), .cuda(), .double() ...; and new tensors like this one (new_zeros ...).  A mixin
of Tensor."""
from . import backend, dtypes, legacy_types
from .autograd.grad_mode import _state as _grad_mode
from .ops import shape
from .ops.arithmetic import is_tensor
from .tensor_shape import _sizes


class TensorConvert:
    __slots__ = ()

    # --- PyTorch's name for it in messages, and pickling -----------------------------
    def _type_description(self):
        """PyTorch's name for a tensor in error messages: 'torch.FloatTensor [2]'."""
        return f"torch.{dtypes.legacy_name(self.dtype)}Tensor [{', '.join(map(str, self.shape))}]"

    def __reduce_ex__(self, protocol):
        from .creation import tensor
        device = None if self.device is backend.CPU else str(self.device)
        return (tensor, (backend.to_numpy(self._data), None, device, self._requires_grad))

    # --- to Python and numpy ----------------------------------------------------
    def numpy(self, *, force=False):
        """The data as a numpy array (shared, not copied).  Refused for a tensor that
        requires grad while grad mode is on (not inside no_grad, nor in a custom forward);
        force=True: always, from any device (t.detach().cpu().numpy())."""
        if force:
            return backend.to_numpy(self._data)
        if self._requires_grad and _grad_mode.enabled:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        if self.device.type != "cpu":
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. Use "
                            "Tensor.cpu() to copy the tensor to host memory first.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        return backend.move(self._data, "cpu").tolist()

    def __float__(self):
        return float(self._scalar())

    def __int__(self):
        return int(self._scalar())

    def _scalar(self):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __format__(self, format_spec):
        """f"{loss:.4f}": a 0-dim tensor formats as its number, as in PyTorch (any other
        tensor takes only the empty format, which prints it)."""
        if self.ndim == 0:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def __index__(self):
        if self.dtype.is_floating_point:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if self.numel() == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))


    def data_ptr(self):
        """The memory address of the first element (tensors that share memory may show it:
        a view of the first element, a gradient passed on without a copy)."""
        return backend.address(self._data)

    # --- copies, dtypes and devices ---------------------------------------------
    def clone(self):
        return shape.Clone.apply(self)

    def to(self, *args, dtype=None, device=None, copy=False, **kwargs):
        for arg in args:
            if is_tensor(arg):
                dtype, device = arg.dtype, arg.device
            elif isinstance(arg, (str, backend.device)):
                device = arg
            elif type(arg) is int:                      # a device index: x.to(0) is cuda:0
                device = _device_index(arg)
            else:
                dtype = arg
        dtype = self.dtype if dtype is None else dtypes.to_dtype(dtype)
        device = self.device if device is None else backend.resolve(device)
        if dtype is self.dtype and device is self.device and not copy:
            return self
        return shape.ToCopy.apply(self, dtype, device)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to(f"cuda:{device}" if isinstance(device, int) else device or "cuda")

    def float(self):
        return self.to(dtypes.float32)

    def double(self):
        return self.to(dtypes.float64)

    def half(self):
        return self.to(dtypes.float16)

    def long(self):
        return self.to(dtypes.int64)

    def int(self):
        return self.to(dtypes.int32)

    def bool(self):
        return self.to(dtypes.bool)

    def type_as(self, other):
        return self.to(other.dtype)

    def type(self, dtype=None, non_blocking=False):
        """The legacy type's name ('torch.FloatTensor'), or this tensor converted to `dtype`
        (a legacy type, its name, or a dtype)."""
        if dtype is None:
            return legacy_types.type_name(self)
        return legacy_types.converted(self, dtype)


    # --- new tensors like this one ----------------------------------------------
    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        from .creation import full
        return full(_sizes(size if isinstance(size, (tuple, list)) else (size,)), fill_value,
                    dtype=dtype or self.dtype, device=device or self.device,
                    requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_sizes(size), 0, dtype=dtype, device=device,
                             requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_sizes(size), 1, dtype=dtype, device=device,
                             requires_grad=requires_grad)

    def new(self, *args, **kwargs):
        """The legacy constructor like this tensor: x.new(2, 3), x.new([1, 2]), x.new(y)."""
        return legacy_types.new(self, *args, **kwargs)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        from .creation import tensor
        return tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                      requires_grad=requires_grad)


def _device_index(index):
    """The device x.to(index) names: a GPU's, with PyTorch's errors when there is none."""
    from . import cuda
    if index < 0:
        raise RuntimeError("Device index must not be negative")
    if not cuda.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return f"cuda:{index}"
