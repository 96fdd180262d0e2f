"""Tensor: an array (numpy, or CuPy on a GPU) plus what autograd needs.

    _data              the array; views share it with their base
    _version_counter   bumped by every in-place write; shared by views and detach()
    grad_fn            the node that made this tensor (None for leaves)
    _output_nr         which output of grad_fn this tensor is
    grad               gradients accumulated by backward (leaves, or retain_grad())

This file holds what a tensor is: its array and what describes it (shape, dtype,
device), and its part in autograd (requires_grad, grad, grad_fn, hooks, version
counter, backward).  Its methods live by kind, each calling one op of minigrad/ops/:

    tensor_math.py      + - * / ** @, exp log erf ..., sum mean max norm ..., == < &
    tensor_shape.py     view reshape transpose expand .T, x[...], split gather, repeat
                        flip; stride() is_contiguous()
    tensor_inplace.py   add_ mul_ zero_ copy_ masked_fill_ exp_ ..., x[...] = v
    tensor_convert.py   numpy() item() tolist(), float(t) len(t), .to() .cpu() .double(),
                        clone(), new_zeros ..., pickling
"""
import sys
import warnings
import weakref

import numpy as np

from . import backend, dtypes, tensor_rules
from ._formatting import tensor_repr
from .autograd import api as autograd_api, forward_ad
from .autograd import tensor_door
from .autograd.grad_mode import _state as _grad_mode, mark_inference
from .autograd.node import leaf_accumulator
from .ops import combine, view_history
from .tensor_arith import TensorArith
from .tensor_convert import TensorConvert
from .tensor_inplace import TensorInPlace
from .tensor_logic import TensorLogic
from .tensor_math import TensorMath
from .tensor_select import TensorSelect
from .tensor_shape import Size, TensorShape
from .utils.hooks import HookDict, add_hook


class VersionCounter:
    """How many in-place writes a tensor's storage has had (shared by its views)."""

    value = 0                   # until the first write


class Tensor(TensorMath, TensorLogic, TensorShape, TensorSelect, TensorArith, TensorInPlace,
             TensorConvert):
    """A multi-dimensional array that can record the operations made with it.

    Make tensors with `minigrad.tensor(...)`, `ones`, `zeros`, `randn` ...

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x * x
        >>> y
        tensor([1., 4.], grad_fn=<MulBackward0>)
        >>> y.sum().backward()
        >>> x.grad
        tensor([2., 4.])
    """

    __slots__ = ("_data", "_requires_grad", "_grad", "_grad_fn", "_output_nr",
                 "_counter", "_base", "_wrapped_number", "__weakref__", "__dict__")
    # Rarely set: class defaults, so that making a tensor (every op makes some) stays short.
    _view_version = _leaf_hooks = _post_accumulate_hooks = _accumulator_ref = None
    _view_made_in = _view_made_by = None    # a view made in no_grad, by unbind ...
    _retains_grad = False
    _inference = False          # set on tensors made inside inference_mode()
    _is_minigrad_tensor = True
    __module__ = "minigrad"         # type(x) shows <class 'minigrad.Tensor'> (torch.Tensor)
    __array_ufunc__ = None          # numpy defers to Tensor's reflected operators
    __hash__ = object.__hash__      # == is elementwise, so hash by identity

    def __init__(self, *data, dtype=None, device=None, requires_grad=False):
        """Tensor([1, 2]): a float tensor of the data.  Tensor(2, 3): the legacy form, a
        tensor of that size (uninitialised in PyTorch, zeros here)."""
        from .creation import tensor, zeros
        dtype = dtype or dtypes.get_default_dtype()
        if data and all(type(size) is int for size in data):
            made = zeros(*data, dtype=dtype, device=device)
        else:
            made = tensor(data[0] if data else (), dtype=dtype, device=device)
        self._init_from(made._data, requires_grad)

    def _init_from(self, data, requires_grad=False):
        self._data = data
        self._requires_grad = requires_grad
        self._grad = self._grad_fn = self._base = None
        self._output_nr = 0
        self._counter = None                # NOTE [version counters on demand]
        self._wrapped_number = False        # True for a Python number wrapped by x * 2

    @staticmethod
    def _make(data, requires_grad=False):
        """Wrap an array (no copy).  (_init_from, written out: every op makes tensors.)"""
        tensor = object.__new__(Tensor)
        tensor._data, tensor._requires_grad, tensor._output_nr = data, requires_grad, 0
        tensor._grad = tensor._grad_fn = tensor._base = None
        tensor._counter, tensor._wrapped_number = None, False
        return tensor

    def _new(self, data):
        """A new tensor with this array (ops write it so); numpy scalars become 0-d arrays."""
        if type(data) is not np.ndarray and (
                not hasattr(data, "shape") or isinstance(data, np.generic)):
            data = np.asarray(data)
        return Tensor._make(data)

    def _view(self, data):
        """A tensor on the same storage that shares this tensor's version counter."""
        view = Tensor._make(data)
        view._version_counter = self._version_counter
        if self._inference:          # PyTorch keeps no view metadata for inference tensors
            view._inference = True
            return view
        if self._view_made_in is not None or self._view_made_by is not None:
            view_history.inherit_creation(view, self)       # (PyTorch's creation meta)
        view._base = self._base if self._base is not None else self
        view._view_version = view._counter.value
        return view

    def _alias(self):
        return self._view(self._data)

    def _output_alias(self, node, output_nr):
        """A saved output, unpacked: the same data with its grad_fn put back."""
        alias = Tensor._make(self._data, requires_grad=True)
        alias._version_counter = self._version_counter
        alias._grad_fn, alias._output_nr = node, output_nr
        return alias

    # --- what it holds ---------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return self.shape
        ndim = self._data.ndim
        if ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-ndim}, {ndim - 1}], but got {dim})")
        return self._data.shape[dim]

    @property
    def dtype(self):
        numpy_dtype = self._data.dtype
        return dtypes.BY_CHAR.get(numpy_dtype.char) or dtypes.from_numpy_dtype(numpy_dtype)

    @property
    def device(self):
        if type(self._data) is np.ndarray:       # the common case, without a call
            return backend.CPU
        return backend.device_of(self._data)

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def ndim(self):
        return self._data.ndim

    def dim(self):
        return self._data.ndim

    def numel(self):
        return int(self._data.size)

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    def is_floating_point(self):
        return self.dtype.is_floating_point

    @property
    def nbytes(self):
        return int(self._data.nbytes)

    @property
    def itemsize(self):
        return int(self._data.itemsize)

    @property
    def _xp(self):
        """The array module of the data: numpy, or CuPy for a tensor on a GPU."""
        return np if type(self._data) is np.ndarray else backend.array_module(self._data)

    # --- autograd state -----------------------------------------------------

    @property
    def requires_grad(self):      # (the rules for changing it: _set_requires_grad)
        """True if operations on this tensor are recorded.  A view made under no_grad of a
        tensor that requires grad reports True too, but has no grad_fn (as in PyTorch)."""
        if self._requires_grad:
            return True
        base = self._base
        return base is not None and base._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self._set_requires_grad(bool(value), attribute=True)

    @requires_grad.deleter
    def requires_grad(self):
        raise RuntimeError("requires_grad must be a bool")

    def requires_grad_(self, requires_grad=True):
        """Record operations on this leaf from now on (or stop, with False)."""
        self._set_requires_grad(bool(requires_grad), attribute=False)
        return self

    def _set_requires_grad(self, value, attribute):
        """PyTorch's rules, whose texts differ a little between `t.requires_grad = v`
        (the attribute: no change at all of a non-leaf) and `t.requires_grad_(v)`."""
        if self.grad_fn is not None and (attribute or not value):
            raise RuntimeError("you can only change requires_grad flags of leaf variables." + (
                "" if value else " If you want to use a computed variable in a subgraph "
                "that doesn't require differentiation use var_no_grad = var.detach()."))
        if value and not self.dtype.is_floating_point:
            kinds = "floating point and complex dtype" if attribute else "floating point dtype"
            raise RuntimeError(f"only Tensors of {kinds} can require gradients")
        if value and self._inference and not _grad_mode.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if self.grad_fn is None:
            self._requires_grad = value

    @property
    def output_nr(self):
        """Which output of its grad_fn this tensor is (0 for a leaf)."""
        return self._output_nr

    def is_inference(self):
        """True for a tensor made inside `torch.inference_mode()`."""
        return self._inference

    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf).  A view changed in place since
        its grad_fn was set gets a fresh one, from its base's history (as in PyTorch)."""
        if self._base is not None and self._counter.value != self._view_version:
            view_history.regenerate_view_history(self)
        return self._grad_fn

    @property
    def is_leaf(self):
        """True for tensors made by the user (not by a recorded op)."""
        return self.grad_fn is None

    @property
    def grad(self):
        if self._grad is None and not self.is_leaf and not self._retains_grad:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
                "mistake, make sure you access the leaf Tensor instead. See "
                "github.com/pytorch/pytorch/pull/30531 for more information.", UserWarning,
                stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            tensor_rules.check_assigned_grad(self, value)
        self._grad = value

    @grad.deleter
    def grad(self):                       # `del x.grad`: as `x.grad = None`
        self._grad = None

    @property
    def retains_grad(self):
        return self._retains_grad

    # NOTE [version counters on demand]: most tensors (the intermediate results of a
    # graph) are never saved for backward, viewed, detached or changed in place, so
    # a tensor makes its VersionCounter the first time one of those asks for it.
    @property
    def _version_counter(self):
        """The VersionCounter this tensor shares with its views (made when first needed)."""
        counter = self._counter
        if counter is None:
            counter = self._counter = VersionCounter()
        return counter

    @_version_counter.setter
    def _version_counter(self, counter):
        self._counter = counter

    @property
    def _version(self):
        if self._inference:          # (PyTorch keeps no counter for them: nothing saves them)
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._counter is None else self._counter.value

    @property
    def data(self):
        """The same storage, detached, with a *separate* version counter (not tracked)."""
        return Tensor._make(self._data)

    @data.setter
    def data(self, value):
        tensor_rules.check_assigned_data(self, value)
        self._data = value._data

    @data.deleter
    def data(self):
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    def detach(self):
        """The same data, cut from the graph; shares the version counter."""
        detached = Tensor._make(self._data)
        detached._version_counter = self._version_counter
        return detached

    def detach_(self):
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self._grad_fn, self._requires_grad, self._output_nr = None, False, 0
        self.__dict__.pop(forward_ad.TANGENT, None)     # forward AD's tangent goes too
        return self

    def _set_history(self, node, output_nr):
        self._grad_fn, self._output_nr, self._requires_grad = node, output_nr, True

    def _rebase_history(self, node, output_nr):
        """A new grad_fn for a tensor that had one (an in-place op; a view whose base was
        changed in place): retain_grad() moves along to the new history, as in PyTorch."""
        retained = self._drop_retained_grad()
        self._set_history(node, output_nr)
        if retained:
            self.retain_grad()

    def _drop_retained_grad(self):
        """Forget retain_grad() (it belongs to one history); True if it was set."""
        if not self._retains_grad:
            return False
        self._grad_fn._retained_grads.pop(self._output_nr, None)
        self._retains_grad = False
        return True

    def _gradient_edge(self):
        """Where this tensor's gradient enters the graph: (its grad_fn, which output of it
        this tensor is), (a leaf's AccumulateGrad, 0), or (None, 0): no gradient."""
        grad_fn = self._grad_fn if self._base is None else self.grad_fn   # (a view: see grad_fn)
        if grad_fn is not None:
            return grad_fn, self._output_nr
        return (leaf_accumulator(self) if self._requires_grad else None), 0

    def retain_grad(self):
        """Keep `.grad` for this non-leaf tensor during backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.is_leaf or self._retains_grad:
            return
        node = self.grad_fn
        if node._retained_grads is None:
            node._retained_grads = {}
        node._retained_grads[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def register_hook(self, hook):
        """`hook(grad)` runs when this tensor's gradient is computed; it may return a new one.

        Example::

            >>> import minigrad as torch
            >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
            >>> h = x.register_hook(lambda g: g * 10)
            >>> (x * 3).sum().backward()
            >>> x.grad
            tensor([30., 30.])
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            hooks = self.grad_fn._tensor_hook_dict(self._output_nr)
        else:
            if self._leaf_hooks is None:     # (the leaf's AccumulateGrad runs them too)
                self._leaf_hooks = HookDict()
                node = self._accumulator_ref() if self._accumulator_ref else None
                if node is not None:
                    node._tensor_pre_hooks = {0: self._leaf_hooks}
            hooks = self._leaf_hooks
        return add_hook(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """`hook(tensor)` runs after backward has accumulated into this leaf's `.grad`."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if not self.is_leaf:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = HookDict()
        return add_hook(self._post_accumulate_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph leaves (into their `.grad`)."""
        autograd_api.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def _has_nan(self):
        return self.dtype.is_floating_point and bool(self._xp.isnan(self._data).any())

    def __repr__(self):
        return tensor_repr(self)





# --- the door by which the autograd core makes tensors (autograd/tensor_door.py) ------

def _ones_like(tensor):
    """The gradient backward() starts from: ones of the tensor's shape, dtype and device."""
    data = tensor._data
    ones = np.ones(data.shape, data.dtype)
    if type(data) is not np.ndarray:
        ones = backend.move(ones, tensor.device)
    ones = Tensor._make(ones)
    return mark_inference(ones) if _grad_mode.inference else ones


def _zeros(shape, dtype, device):
    """Zeros of that shape, dtype and device: a gradient that never came."""
    zeros = np.zeros(shape, dtype.numpy)
    zeros = Tensor._make(zeros if device is backend.CPU else backend.move(zeros, device))
    return mark_inference(zeros) if _grad_mode.inference else zeros


def _first_grad(grad_outputs):
    """A leaf's first .grad, made of the gradient AccumulateGrad was given (its only one):
    while grad mode is on (create_graph), a copy recorded as copy_() records it
    (CopyBackwards); else the gradient's own array when nothing but the engine holds it
    (NOTE [a leaf keeps a fresh gradient]), or a copy.

    NOTE [a leaf keeps a fresh gradient]: PyTorch's AccumulateGrad keeps the gradient it
    is given when nothing but the engine holds it (its use_count() test): no copy, and
    .grad shares the gradient's storage (a hook on that node sees what a later hook
    changes in .grad).  minigrad asks CPython's reference counts the same question, against
    a control object held the same way at the same moment, so that whatever references
    the interpreter itself adds cancel out.  The gradient is held by the engine's tuple,
    by AccumulateGrad.apply's name for it and by this function's; the control by a tuple
    and by this function's name: one less.  An array that is a view, or where reference
    counts are not exact (a free-threaded build, another Python than CPython), is copied.
    """
    grad = grad_outputs[0]
    if _grad_mode.enabled:
        return _zeros(grad._data.shape, grad.dtype, grad.device).copy_(grad)
    data = grad._data
    if _REFCOUNTS_EXACT and type(data) is np.ndarray and data.base is None and (
            data.flags.c_contiguous and data.flags.writeable):
        controls = (_Held(),)
        control = controls[0]
        control._data = held = np.empty(0)
        if (sys.getrefcount(grad) != sys.getrefcount(control) + 1
                or sys.getrefcount(data) != sys.getrefcount(held)):
            data = data.copy()                    # someone else holds it
    else:
        data = data.copy()
    first = Tensor._make(data)
    return mark_inference(first) if _grad_mode.inference else first


class _Held:
    """A control object held as a gradient is (see _first_grad)."""

    __slots__ = ("_data",)


# Reference counts are exact in CPython with its global interpreter lock.
_REFCOUNTS_EXACT = (sys.implementation.name == "cpython"
                    and getattr(sys, "_is_gil_enabled", lambda: True)())


tensor_door.Tensor = Tensor
tensor_door.ones_like = _ones_like
tensor_door.zeros = _zeros
tensor_door.first_grad = _first_grad
tensor_door.rebase_view = view_history.rebase_view_changed_by_function
tensor_door.positions_in_base = view_history.positions_in_base
tensor_door.stack = combine.Stack.apply
