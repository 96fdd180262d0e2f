"""A stand-in for CuPy made of numpy, so the CPU test suite runs minigrad's device logic.

It copies the part of CuPy's surface that minigrad uses, and CuPy's strictness where
that catches bugs:

- `ndarray` is its own type, not a numpy array; numpy refuses it (`np.asarray(a)`,
  `np.add.at(a, ...)` raise, as they do on CuPy arrays), and it refuses numpy arrays in
  its own operations.  An op that calls `np.` instead of `x._xp` fails here as on a GPU.
- reductions return 0-d arrays, not numpy scalars; `flags` has no `writeable`;
  arrays know their device (`a.device.id`), and `cuda.Device(i)` is a context manager.
- `get_default_memory_pool().used_bytes()` counts the bytes of the live numpy buffers
  behind device arrays, so memory measurements (save_on_cpu) mean something;
  `cupyx.empty_pinned` records each pinned allocation.

Install it with the `fake_cuda` fixture of tests/conftest.py.
"""
import types
import weakref

import numpy as np

_IMPLICIT = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
             "construct a NumPy array explicitly.")


class _State:
    """What the fake GPU remembers: the current device, live buffers, pinned allocations."""

    def __init__(self, device_count=1):
        self.device_count = device_count
        self.current = 0
        self.live = {}                    # id(buffer) -> nbytes of buffers behind arrays
        self.pinned = []                  # (shape, dtype) of each pinned host allocation
        self.synchronized = 0


state = _State()


def reset(device_count=1):
    """A fresh fake GPU (the fixture calls this for each test)."""
    global state
    state = _State(device_count)


# --- arrays -------------------------------------------------------------------------

class _Flags:
    def __init__(self, array):
        self.c_contiguous = array.flags.c_contiguous
        self.f_contiguous = array.flags.f_contiguous
        self.owndata = array.base is None


class _Pointer:
    def __init__(self, array):
        self.ptr = array.__array_interface__["data"][0]


def _track(array):
    """Count the buffer behind `array` in the memory pool while it lives."""
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    key = id(root)
    if key not in state.live:
        state.live[key] = root.nbytes
        weakref.finalize(root, state.live.pop, key, None)


class ndarray:
    """A device array: a numpy array that numpy may not touch directly."""

    __slots__ = ("_array", "_device_id")
    __array_ufunc__ = None              # numpy ufuncs refuse it, as they refuse CuPy arrays
    __array_priority__ = 100

    def __init__(self, array, device_id=None):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"fake ndarray wraps numpy arrays, got {type(array).__name__}")
        self._array = array
        self._device_id = state.current if device_id is None else device_id
        _track(array)

    def __array__(self, dtype=None, copy=None):
        raise TypeError(_IMPLICIT)

    # properties as CuPy has them
    shape = property(lambda self: self._array.shape)
    dtype = property(lambda self: self._array.dtype)
    ndim = property(lambda self: self._array.ndim)
    size = property(lambda self: self._array.size)
    nbytes = property(lambda self: self._array.nbytes)
    itemsize = property(lambda self: self._array.itemsize)
    strides = property(lambda self: self._array.strides)
    flags = property(lambda self: _Flags(self._array))
    data = property(lambda self: _Pointer(self._array))
    device = property(lambda self: Device(self._device_id))
    T = property(lambda self: _wrap(self._array.T, self._device_id))

    def get(self, stream=None, out=None):
        """A numpy copy (into `out` when given)."""
        if out is not None:
            out[...] = self._array
            return out
        return self._array.copy()

    def __getattr__(self, name):        # methods: reshape, astype, sum, max, clip ...
        if name.startswith("__"):
            raise AttributeError(name)
        attr = getattr(self._array, name)
        if not callable(attr):
            return _wrap(attr, self._device_id)

        def method(*args, **kwargs):
            return _wrap(attr(*_unwrap(args), **_unwrap(kwargs)), self._device_id)
        return method

    def diagonal(self, offset=0, axis1=0, axis2=1):
        """A view that may be written through, as CuPy's is (numpy's is read-only)."""
        view = self._array.diagonal(offset, axis1, axis2)
        view.flags.writeable = self._array.flags.writeable
        return _wrap(view, self._device_id)

    def __getitem__(self, key):
        return _wrap(self._array[_unwrap(key)], self._device_id)

    def __setitem__(self, key, value):
        self._array[_unwrap(key)] = _unwrap(value)

    def __repr__(self):
        return f"array({self._array.tolist()!r}, fake_cuda={self._device_id})"

    def __bool__(self):
        return bool(self._array)

    def __float__(self):
        return float(self._array)

    def __int__(self):
        return int(self._array)

    def __len__(self):
        return len(self._array)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __neg__(self):
        return _wrap(-self._array, self._device_id)

    def __abs__(self):
        return _wrap(abs(self._array), self._device_id)

    def __invert__(self):
        return _wrap(~self._array, self._device_id)


def _binary(name):
    def operator(self, other):
        result = getattr(self._array, name)(_unwrap(other))
        return NotImplemented if result is NotImplemented else _wrap(result, self._device_id)
    operator.__name__ = name
    return operator


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and",
              "or", "xor", "eq", "ne", "lt", "le", "gt", "ge"):
    setattr(ndarray, f"__{_name}__", _binary(f"__{_name}__"))
    if _name not in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(ndarray, f"__r{_name}__", _binary(f"__r{_name}__"))
        setattr(ndarray, f"__i{_name}__", _binary(f"__i{_name}__"))
ndarray.__hash__ = None


def _unwrap(value):
    """Device arrays to their numpy arrays; numpy arrays refused, as CuPy refuses them."""
    if isinstance(value, ndarray):
        return value._array
    if isinstance(value, np.ndarray):
        raise TypeError(f"Unsupported type {type(value)}")
    if isinstance(value, (tuple, list)):
        return type(value)(_unwrap(v) for v in value)
    if isinstance(value, dict):
        return {k: _unwrap(v) for k, v in value.items()}
    return value


def _wrap(value, device_id=None):
    """numpy results back to device arrays (numpy scalars become 0-d arrays, as in CuPy)."""
    if isinstance(value, np.ndarray):
        return ndarray(value, device_id)
    if isinstance(value, np.generic):
        return ndarray(np.asarray(value), device_id)
    if isinstance(value, tuple):
        return tuple(_wrap(v, device_id) for v in value)
    if isinstance(value, list) and any(isinstance(v, np.ndarray) for v in value):
        return [_wrap(v, device_id) for v in value]
    return value


def _device_of_args(args):
    for value in args:
        if isinstance(value, ndarray):
            return value._device_id
        if isinstance(value, (tuple, list)):
            found = _device_of_args(value)
            if found is not None:
                return found
    return None


# --- the module: cupy.asarray, cupy.cuda ..., everything else from numpy -------------

class Device:
    """cupy.cuda.Device: `with Device(1):` makes new arrays on GPU 1."""

    def __init__(self, device=None):
        self.id = state.current if device is None else int(device)
        self._previous = []

    def __enter__(self):
        if not 0 <= self.id < state.device_count:
            raise RuntimeError("cudaErrorInvalidDevice: invalid device ordinal")
        self._previous.append(state.current)
        state.current = self.id
        return self

    def __exit__(self, *exc_info):
        state.current = self._previous.pop()

    def synchronize(self):
        state.synchronized += 1


class _MemoryPool:
    def used_bytes(self):
        return sum(state.live.values())

    def total_bytes(self):
        return self.used_bytes()


_pool = _MemoryPool()


def get_default_memory_pool():
    return _pool


def asarray(value, dtype=None):
    if isinstance(value, ndarray):
        return value if dtype is None else value.astype(dtype, copy=False)
    return ndarray(np.array(value, dtype=dtype))


def array(value, dtype=None, copy=True, order="K"):
    source = value._array if isinstance(value, ndarray) else value
    return ndarray(np.array(source, dtype=dtype, copy=True, order=order))


def asnumpy(value):
    return value._array.copy() if isinstance(value, ndarray) else np.asarray(value)


def _get_device_count():
    return state.device_count


def _device_synchronize():
    state.synchronized += 1


cuda = types.SimpleNamespace(
    Device=Device,
    runtime=types.SimpleNamespace(getDeviceCount=_get_device_count,
                                  deviceSynchronize=_device_synchronize),
)


# numpy's keywords that CuPy's function of the same name does not take (seen on a GPU:
# cupy.indices(shape, sparse=True) is a TypeError there).
_NOT_IN_CUPY = {"indices": {"sparse"}}


def __getattr__(name):
    """Any other cupy.<name>: numpy's, taking and returning device arrays."""
    attr = getattr(np, name)
    if isinstance(attr, type) or not callable(attr):
        return attr                      # dtypes (cupy.int64), constants (cupy.nan)

    def function(*args, **kwargs):
        for keyword in _NOT_IN_CUPY.get(name, set()) & kwargs.keys():
            raise TypeError(f"{name}() got an unexpected keyword argument '{keyword}'")
        device_id = _device_of_args(args)
        return _wrap(attr(*_unwrap(args), **_unwrap(kwargs)), device_id)
    function.__name__ = name
    return function


# --- cupyx ----------------------------------------------------------------------------

def _scatter_add(a, slices, value):
    """cupyx.scatter_add: a[slices] += value, repeated indices adding up."""
    np.add.at(a._array, _unwrap(slices), _unwrap(value))


def _empty_pinned(shape, dtype=np.float64):
    state.pinned.append((tuple(shape), np.dtype(dtype)))
    return np.empty(shape, dtype=dtype)


cupyx = types.SimpleNamespace(scatter_add=_scatter_add, empty_pinned=_empty_pinned)
