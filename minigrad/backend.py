"""Array backends: numpy for the CPU (always there), CuPy for CUDA (optional).

A tensor's data is a numpy array on "cpu" or a CuPy array on "cuda".  Ops ask
`array_module(array)` for the module that matches their data, so the same op
code runs on both.
"""
import numpy as np


class device:
    """Where a tensor's data lives: `device('cpu')` or `device('cuda', 0)`."""

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        text = str(type)
        if ":" in text:
            text, number = text.split(":", 1)
            index = int(number)
        if text not in ("cpu", "cuda"):
            raise RuntimeError(
                f"Expected one of cpu, cuda device type at start of device string: {type}")
        self.type = text
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


CPU = device("cpu")


def _cupy():
    """Import CuPy, or explain how to get it."""
    try:
        import cupy
    except ImportError:
        raise RuntimeError(
            "device='cuda' needs CuPy, which is not installed. Install the "
            "optional GPU backend with: pip install 'minigrad[cuda]' "
            "(a CUDA GPU and driver are required).") from None
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - CuPy raises its own error types
        raise RuntimeError(f"CuPy is installed but no CUDA GPU is usable: {exc}") from None
    return cupy


def cuda_is_available():
    try:
        _cupy()
    except RuntimeError:
        return False
    return True


def array_module(array):
    """numpy for numpy arrays, cupy for CuPy arrays."""
    if isinstance(array, np.ndarray) or np.isscalar(array):
        return np
    return _cupy()


def device_of(array):
    if isinstance(array, np.ndarray):
        return CPU
    return device("cuda", int(array.device.id))


def move(array, target):
    """Copy `array` to `target` device (no copy when it is already there)."""
    target = device(target)
    if target.type == "cpu":
        if isinstance(array, np.ndarray):
            return array
        return array.get()
    cupy = _cupy()
    with cupy.cuda.Device(target.index or 0):
        return cupy.asarray(array)
