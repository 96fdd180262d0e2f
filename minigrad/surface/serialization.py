"""torch.save / torch.load for minigrad objects: tensors (and lists, dicts, tuples of
them) pickled to a file, as the "Hooks for saved tensors" tutorial does to keep
saved tensors on disk.

`load` reads back only tensors, numpy arrays and plain containers by default
(PyTorch's `weights_only=True`): unpickling anything else could run code from
the file.  Pass `weights_only=False` for files you trust.

Example::

    >>> import io
    >>> import minigrad as torch
    >>> buffer = io.BytesIO()
    >>> torch.save({"w": torch.tensor([1.0, 2.0], requires_grad=True)}, buffer)
    >>> _ = buffer.seek(0)
    >>> torch.load(buffer)["w"]
    tensor([1., 2.], requires_grad=True)
"""
import os
import pickle

_SAFE_GLOBALS = {
    ("minigrad", "Tensor"), ("minigrad.surface.creation", "tensor"),
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
    ("numpy", "ndarray"), ("numpy", "dtype"), ("collections", "OrderedDict"),
}


class _WeightsUnpickler(pickle.Unpickler):
    """Unpickles tensors, arrays and containers; refuses every other global."""

    def find_class(self, module, name):
        if (module, name) == ("minigrad.creation", "tensor"):     # (saved by minigrad 0.1)
            module = "minigrad.surface.creation"
        if (module, name) in _SAFE_GLOBALS or (module.startswith("numpy.dtypes")
                                               and name.endswith("DType")):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"Weights only load failed: unsupported global {module}.{name}. minigrad hint: "
            "load(f, weights_only=False) unpickles anything - only for files you trust.")


def save(obj, f, pickle_protocol=pickle.DEFAULT_PROTOCOL):
    """Pickle `obj` to the file `f` (a path or a binary file object)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            pickle.dump(obj, file, protocol=pickle_protocol)
    else:
        pickle.dump(obj, f, protocol=pickle_protocol)


def load(f, map_location=None, weights_only=None):
    """Read back what `save` wrote; `map_location` (a device) moves the tensors there."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return load(file, map_location, weights_only)
    unpickler = pickle.Unpickler(f) if weights_only is False else _WeightsUnpickler(f)
    obj = unpickler.load()
    return obj if map_location is None else _moved(obj, map_location)


def _moved(obj, device):
    if getattr(obj, "_is_minigrad_tensor", False):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_moved(item, device) for item in obj)
    if isinstance(obj, dict):
        return type(obj)((key, _moved(value, device)) for key, value in obj.items())
    return obj
