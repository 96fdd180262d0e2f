"""Array backends: numpy for the CPU (always there), CuPy for CUDA (optional).

A tensor's data is a numpy array on "cpu" or a CuPy array on "cuda".  Ops ask
the tensor for its array module (`x._xp`, from `array_module`), so the same op
code runs on both.  CuPy is imported the first time a GPU is asked for, never
by `import minigrad`.

The tests swap in a numpy-backed stand-in for CuPy (tests/fake_cupy.py) by
setting `_cupy` and `_cupyx` below, so the device logic runs without a GPU.
"""
import builtins
import re

import numpy as np

INSTALL_HINT = ('minigrad hint: device="cuda" runs on CuPy, which is not installed. On a '
                'machine with an NVIDIA GPU: %pip install "minigrad-tutor[cuda]" in a notebook '
                "cell (it installs into the notebook's own Python; then restart the kernel)")
_DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
                 "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone")


class device:
    """Where a tensor's data lives, as `torch.device`: `device("cpu")`, `device("cuda")`,
    `device("cuda:0")`, `device("cuda", 0)`.

    Example::

        >>> import minigrad as torch
        >>> torch.device("cuda:0")
        device(type='cuda', index=0)
        >>> d = torch.device("cpu")
        >>> d.type, d.index, str(d)
        ('cpu', None, 'cpu')
        >>> torch.device("cuda") == torch.device("cuda:0")    # as in PyTorch: no index != index 0
        False
    """

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        text = str(type)
        match = re.fullmatch(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?", text)
        if match is None:
            raise RuntimeError(f"Invalid device string: '{text}'")
        if match.group(1) not in ("cpu", "cuda"):
            raise RuntimeError(f"Expected one of {_DEVICE_TYPES} device type at start of "
                               f"device string: {match.group(1)}")
        if match.group(2) is not None:
            index = int(match.group(2))
        if index is not None and not isinstance(index, int):
            raise TypeError("device(): argument 'index' (position 2) must be int, not "
                            f"{builtins.type(index).__name__}")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type = match.group(1)
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):          # a string is never equal to a device, as in PyTorch
        if not isinstance(other, device):
            return NotImplemented
        return self is other or (self.type == other.type and self.index == other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


CPU = device("cpu")
_cuda_devices = {}                  # index -> the one device object tensors report


def cuda_device(index):
    """The device object of GPU `index` (one object per GPU: comparing them is cheap)."""
    found = _cuda_devices.get(index)
    if found is None:
        found = _cuda_devices[index] = device("cuda", index)
    return found


# --- CuPy, imported on first use ------------------------------------------------

_cupy = None
_cupyx = None


def cupy():
    """The CuPy module, imported the first time a GPU is asked for; or one clear error."""
    global _cupy, _cupyx
    if _cupy is not None:
        return _cupy
    try:
        import cupy as module
        import cupyx
    except ImportError:
        raise AssertionError(f"Torch not compiled with CUDA enabled. {INSTALL_HINT}") from None
    try:
        module.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - CuPy raises its own error types
        raise RuntimeError(
            "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
            f"and installed a driver. minigrad hint: CuPy is installed but says: {exc}") from None
    _cupy, _cupyx = module, cupyx
    return module


def cupyx():
    cupy()
    return _cupyx


def cuda_is_available():
    """True when CuPy imports and sees at least one GPU."""
    try:
        return cupy().cuda.runtime.getDeviceCount() > 0
    except (AssertionError, RuntimeError):
        return False


def current_cuda_index():
    return int(cupy().cuda.Device().id)


# --- arrays and devices ----------------------------------------------------------

def array_module(array):
    """numpy for numpy arrays, cupy for CuPy arrays."""
    if isinstance(array, np.ndarray) or np.isscalar(array):
        return np
    return cupy()


def is_array(value):
    """True for a numpy or CuPy array (not a number, list or slice)."""
    return isinstance(value, np.ndarray) or (_cupy is not None and isinstance(value, _cupy.ndarray))


def address(array):
    """Where an array's first element lies in memory (numpy or CuPy): Tensor.data_ptr()."""
    interface = getattr(array, "__array_interface__", None)
    return interface["data"][0] if interface else array.data.ptr


def device_of(array):
    if isinstance(array, np.ndarray):
        return CPU
    return cuda_device(int(array.device.id))


def resolve(target):
    """A device with its index filled in: "cuda" means the current GPU, as in PyTorch."""
    target = target if isinstance(target, device) else device(target)
    if target.type == "cpu":
        return CPU
    if target.index is None:
        return cuda_device(current_cuda_index())
    count = cupy().cuda.runtime.getDeviceCount()
    if target.index >= count:
        raise RuntimeError("CUDA error: invalid device ordinal. minigrad hint: this machine "
                           f"has {count} GPU(s); use an index below {count}.")
    return cuda_device(target.index)


def move(array, target):
    """Copy `array` to `target` device (no copy when it is already there)."""
    target = resolve(target)
    if target is CPU:
        return array if isinstance(array, np.ndarray) else cupy().asnumpy(array)
    if not isinstance(array, np.ndarray) and device_of(array) is target:
        return array
    module = cupy()
    with module.cuda.Device(target.index):
        return module.array(array)


def to_numpy(array):
    """A host (numpy) copy of a device array; a numpy array itself."""
    return array if isinstance(array, np.ndarray) else cupy().asnumpy(array)


def to_pinned_host(array):
    """A copy of a CuPy array in page-locked (pinned) host memory, which the GPU can copy
    back from faster (save_on_cpu(pin_memory=True)).  A numpy array is returned as is."""
    if isinstance(array, np.ndarray):
        return array
    pinned = cupyx().empty_pinned(array.shape, dtype=array.dtype)
    cupy().ascontiguousarray(array).get(out=pinned)
    return pinned


def scatter_add(out, key, values):
    """out[key] += values, adding repeated indices up (numpy's add.at, cupyx.scatter_add)."""
    if isinstance(out, np.ndarray):
        np.add.at(out, key, values)
    elif hasattr(cupy().add, "at"):             # CuPy 13 and later
        cupy().add.at(out, key, values)
    else:
        cupyx().scatter_add(out, key, values)


def has_internal_overlap(array):
    """True if some element is stored at one address for several indices (an expanded
    view: a stride of 0 over a dim longer than 1).  (numpy marks those arrays read-only,
    and a part of one too, which may not overlap: `writable` makes that part writable.)"""
    return array.size > 1 and any(                 # (an empty array overlaps nothing)
        stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape))


def writable(array):
    """A writable array on the memory of a read-only numpy view of a writable array
    (numpy's broadcast_to: PyTorch's expand() may be written, one element at a time)."""
    if getattr(array.flags, "writeable", True):
        return array
    owner = array
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    return np.ndarray(array.shape, array.dtype, buffer=owner, strides=array.strides,
                      offset=address(array) - address(owner))


# --- tensors on different devices ----------------------------------------------------

def match_devices(check, args):
    """Function.apply's slow path, when tensor arguments sit on different devices.

    `check` "elementwise" (or "inplace"): PyTorch's TensorIterator rules - the common
    device is the first GPU; a 0-dim CPU tensor may join (it is copied over, recorded, so
    its gradient flows back), except as the target of an in-place op; any other tensor
    elsewhere is an error.  `check` (method, names): PyTorch's check of its other kernels
    - the first tensor sets the device, `names` name the tensor arguments in the message.
    Returns the arguments, with CPU scalars copied to the common device.
    """
    tensors = [(i, a) for i, a in enumerate(args) if getattr(a, "_is_minigrad_tensor", False)]
    if isinstance(check, tuple):
        method, names = check
        common = tensors[0][1].device
        for k, (_, tensor) in enumerate(tensors):
            if tensor.device != common:
                name = names[k] if isinstance(names, tuple) else names
                raise RuntimeError(
                    f"Expected all tensors to be on the same device, but got {name} is on "
                    f"{tensor.device}, different from other tensors on {common} (when checking "
                    f"argument in method {method})")
        return args
    from .ops.shape import ToCopy
    common = next((a.device for _, a in tensors if a.device is not CPU), CPU)
    moved = list(args)
    for position, tensor in tensors:
        if tensor.device is common:
            continue
        cpu_scalar = tensor.device is CPU and tensor.ndim == 0
        if not cpu_scalar or (check == "inplace" and position == 0):
            raise RuntimeError("Expected all tensors to be on the same device, but found at "
                               f"least two devices, {common} and {tensor.device}!")
        moved[position] = ToCopy.apply(tensor, tensor.dtype, common)
    return tuple(moved)
