"""The tensor as autograd sees it (lessons 01 and 06).

    _data              the array (numpy, or CuPy on a GPU); a view shares its base's
    requires_grad      whether the ops made with it are recorded
    grad_fn            the node that made it (None for a leaf)
    output_nr          which output of grad_fn it is
    grad               the gradient backward accumulated (leaves, or retain_grad())
    _version_counter   how many in-place writes its storage has had, shared by its views

`TensorBase` is what the core needs of a tensor.  `minigrad.Tensor`, the class a
student uses, derives from it and adds PyTorch's methods (exp, sum, view, add_ ...:
minigrad/surface/).  The core makes a new tensor from the class of a tensor it holds,
`type(t)._make(array)` or `t._new(array)`: it never imports the classes built on it.
"""
import weakref

import numpy as np

from .. import backend
from . import errors, graph
from .hooks import HookDict, add_hook


class VersionCounter:
    """How many in-place writes a tensor's storage has had (shared by its views)."""

    value = 0                   # until the first write


class TensorBase:
    """An array and its place in the graph: what the core needs of a tensor."""

    __slots__ = ("_data", "_requires_grad", "_grad", "_grad_fn", "_output_nr",
                 "_version_counter", "_base", "__weakref__", "__dict__")
    # Rarely set: class defaults, so that making a tensor (every op makes some) stays short.
    _leaf_hooks = _post_accumulate_hooks = _accumulator_ref = None
    _retains_grad = False
    # PyTorch's marks, set by its surface only on the tensors they concern: an inference
    # tensor; a view made in no_grad mode, by unbind or by a custom Function.
    _inference = False
    _view_made_in = _view_made_by = None
    _view_version = None        # a view: its storage's version when its grad_fn was set
    _wrapped_number = False     # True for a Python number an op wrapped (the 2 of x * 2)

    @classmethod
    def _make(cls, data, requires_grad=False):
        """A new tensor of this class on the array `data` (no copy): a leaf.  (An op makes
        its results with `x._new(array)`, a tensor of x's class; a numpy scalar, which
        numpy gives for a 0-dim result, becomes a 0-dim array.)"""
        if type(data) is not np.ndarray and (
                not hasattr(data, "shape") or isinstance(data, np.generic)):
            data = np.asarray(data)
        tensor = object.__new__(cls)
        tensor._data, tensor._requires_grad = data, requires_grad
        tensor._grad = tensor._grad_fn = tensor._base = None
        tensor._output_nr = 0
        tensor._version_counter = VersionCounter()
        return tensor

    _new = _make

    @staticmethod
    def _dtype_of(numpy_dtype):
        """The dtype of tensors of this class whose arrays have `numpy_dtype` (the core's
        tensors: numpy's own; minigrad.Tensor: PyTorch's, minigrad.float32 ...)."""
        return numpy_dtype

    def _view(self, data):
        """A view of this tensor on `data`, part of its storage: it shares the storage's
        version counter and remembers its base, the tensor that owns the storage."""
        view = type(self)._make(data)
        view._version_counter = self._version_counter
        if self._inference or self._view_made_in is not None or self._view_made_by is not None:
            return self._marked_view(view)       # PyTorch's marks pass on (its surface)
        view._base = self if self._base is None else self._base
        view._view_version = self._version_counter.value
        return view

    def _marked_view(self, view):
        """A view of a tensor PyTorch's surface marked (an inference tensor, a view made in
        no_grad ...): minigrad.Tensor passes the mark on."""
        raise NotImplementedError

    @property
    def _xp(self):
        """The array module of the data: numpy, or CuPy for a tensor on a GPU."""
        return np if type(self._data) is np.ndarray else backend.array_module(self._data)

    @property
    def device(self):
        """Where the array lives: the CPU (numpy), or a GPU (CuPy)."""
        if type(self._data) is np.ndarray:
            return backend.CPU
        return backend.device_of(self._data)

    # --- its place in the graph -----------------------------------------------------------
    @property
    def requires_grad(self):
        """True if operations on this tensor are recorded.  A view made under no_grad of a
        tensor that requires grad reports True too, but has no grad_fn (as in PyTorch)."""
        if self._requires_grad:
            return True
        return self._base is not None and self._base._requires_grad

    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf)."""
        return self._grad_fn

    @property
    def is_leaf(self):
        """True for tensors made by the user (not by a recorded op)."""
        return self.grad_fn is None

    @property
    def output_nr(self):
        """Which output of its grad_fn this tensor is (0 for a leaf)."""
        return self._output_nr

    @property
    def grad(self):
        """The gradient backward accumulated into this tensor (None until then)."""
        return self._grad

    @grad.setter
    def grad(self, value):
        self._grad = value

    @property
    def _version(self):
        """How many times this tensor's storage was written in place."""
        return self._version_counter.value

    def _gradient_edge(self):
        """Where this tensor's gradient enters the graph: (its grad_fn, which output of it
        this tensor is), (a leaf's AccumulateGrad, 0), or (None, 0): no gradient."""
        grad_fn = self._grad_fn if self._base is None else self.grad_fn   # (a view: see grad_fn)
        if grad_fn is not None:
            return grad_fn, self._output_nr
        if not self._requires_grad:
            return None, 0
        # a leaf: its AccumulateGrad, made once and shared while the graph holds it (the
        # leaf keeps only a weak reference: a graph that is dropped frees it)
        node = self._accumulator_ref() if self._accumulator_ref else None
        if node is None:
            node = graph.AccumulateGrad(self)
            self._accumulator_ref = weakref.ref(node)
        return node, 0

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

    def detach(self):
        """The same data, cut from the graph; shares the version counter."""
        detached = type(self)._make(self._data)
        detached._version_counter = self._version_counter
        return detached

    # --- hooks (lesson 08) -------------------------------------------------------------------
    def retain_grad(self):
        """Keep `.grad` for this non-leaf tensor during backward."""
        if not self._requires_grad:
            raise RuntimeError(errors.INPUT_NEEDS_NO_GRAD)
        if self.is_leaf or self._retains_grad:
            return
        node = self.grad_fn
        if node._retained_grads is None:
            node._retained_grads = {}
        node._retained_grads[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    @property
    def retains_grad(self):
        return self._retains_grad

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
            raise RuntimeError(errors.HOOK_NEEDS_GRAD)
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
            raise RuntimeError(errors.HOOK_NEEDS_GRAD)
        if not self.is_leaf:
            raise RuntimeError(errors.POST_ACCUMULATE_HOOK_ON_NON_LEAF)
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = HookDict()
        return add_hook(self._post_accumulate_hooks, hook)

    # --- backward (lesson 03) ----------------------------------------------------------------
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph leaves (into their `.grad`):
        the engine (graph.py), started from this tensor with `gradient` (None: ones, for a
        one-element tensor)."""
        if inputs is not None:
            inputs = (inputs,) if isinstance(inputs, TensorBase) else tuple(inputs)
        graph.backward((self,), (gradient,), retain_graph, create_graph, inputs)

    def _warn_create_graph(self):
        """backward(create_graph=True) was called: PyTorch warns (minigrad.Tensor does)."""
