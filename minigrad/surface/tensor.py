"""minigrad.Tensor: the core's tensor (minigrad/core/tensor.py) with PyTorch's methods.

The core's `TensorBase` holds what autograd needs: the array, requires_grad, grad,
grad_fn, the version counter, hooks, backward().  This class adds what PyTorch's tensor
has besides, by kind, each method calling one op of minigrad/ops/:

    tensor_math.py      + - * / ** @, exp log erf ..., sum mean norm var ...
    tensor_compare.py   == < & ~, all any, max min argmax, sort topk median ...
    tensor_shape.py     view reshape transpose expand .T, repeat flip, diagonal;
                        stride() is_contiguous()
    tensor_index.py     x[...], select narrow gather index_select, split chunk unbind
    tensor_logic.py     eq lt logical_and bitwise_and isclose isfinite ..., by name
    tensor_select.py    scatter index_add masked_select nonzero topk unique ...
    tensor_arith.py     addcmul addcdiv lerp cumprod rsqrt nan_to_num cross; other names
    tensor_inplace.py   add_ mul_ zero_ copy_ masked_fill_ exp_ ..., x[...] = v
    tensor_convert.py   numpy() item() tolist(), float(t) len(t), .to() .cpu() .double(),
                        clone(), new_zeros ..., pickling

and here: its dtype and size, PyTorch's rules for setting requires_grad, grad and data,
and what PyTorch's modes change (inference tensors, views' history, forward AD).
"""
import warnings

import numpy as np

from ..core.tensor import TensorBase
from .. import settings
from . import arguments, dtypes, forward_ad, python_data, tensor_rules, view_history
from .formatting import tensor_repr
from .grad_mode import is_inference_mode_enabled
from .tensor_arith import TensorArith
from .tensor_compare import TensorCompare
from .tensor_convert import TensorConvert
from .tensor_index import TensorIndex
from .tensor_inplace import TensorInPlace
from .tensor_logic import TensorLogic
from .tensor_math import TensorMath
from .tensor_select import TensorSelect
from .tensor_shape import Size, TensorShape


class Tensor(TensorMath, TensorCompare, TensorLogic, TensorShape, TensorIndex, TensorSelect,
             TensorArith, TensorInPlace, TensorConvert, TensorBase):
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

    __slots__ = ()
    _is_minigrad_tensor = True
    __module__ = "minigrad"         # type(x) shows <class 'minigrad.Tensor'> (torch.Tensor)
    __array_ufunc__ = None          # numpy defers to Tensor's reflected operators
    __hash__ = object.__hash__      # == is elementwise, so hash by identity

    def __init__(self, *data, dtype=None, device=None, requires_grad=False):
        """Tensor([1, 2]): a float tensor of the data.  Tensor(2, 3): the legacy form, a
        tensor of that size (uninitialised in PyTorch, zeros here)."""
        dtype = dtypes.to_dtype(dtype or dtypes.get_default_dtype())
        if data and all(type(size) is int for size in data):
            array = np.zeros(data, dtype.numpy)
        else:
            array, dtype = python_data.array_of(data[0] if data else (), dtype)
        made = python_data.made(type(self), array, dtype, device, False)
        self._data, self._requires_grad = made._data, requires_grad
        self._grad = self._grad_fn = self._base = None
        self._output_nr = 0
        self._version_counter = made._version_counter

    @staticmethod
    def _dtype_of(numpy_dtype):
        """The dtype (minigrad.float32 ...) of arrays of `numpy_dtype`."""
        return dtypes.from_numpy_dtype(numpy_dtype)

    # --- what it holds ---------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    @arguments.method
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

    # --- requires_grad, grad_fn, grad, data: PyTorch's rules -------------------------------
    requires_grad = property(TensorBase.requires_grad.fget)

    @requires_grad.setter
    def requires_grad(self, value):
        self._set_requires_grad(bool(value), attribute=True)

    @requires_grad.deleter
    def requires_grad(self):
        raise RuntimeError("requires_grad must be a bool")

    @arguments.method
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
        if value and self._inference and not is_inference_mode_enabled():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if self.grad_fn is None:
            self._requires_grad = value

    @property
    def _version(self):
        if self._inference:          # (PyTorch keeps no counter for them: nothing saves them)
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter.value

    def is_inference(self):
        """True for a tensor made inside `torch.inference_mode()`."""
        return self._inference

    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf).  A view changed in place since
        its grad_fn was set gets a fresh one, from its base's history (as in PyTorch)."""
        if self._base is not None and self._version_counter.value != self._view_version:
            view_history.regenerate_view_history(self)
        return self._grad_fn

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
    def data(self):
        """The same storage, detached, with a *separate* version counter (not tracked)."""
        return type(self)._make(self._data)

    @data.setter
    def data(self, value):
        tensor_rules.check_assigned_data(self, value)
        self._data = value._data

    @data.deleter
    def data(self):
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

    def detach_(self):
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self._grad_fn, self._requires_grad, self._output_nr = None, False, 0
        self.__dict__.pop(forward_ad.TANGENT, None)     # forward AD's tangent goes too
        return self

    def _alias(self):
        """A view of the whole tensor."""
        return self._view(self._data)

    def _marked_view(self, view):
        """A view of a tensor PyTorch's modes marked: of an inference tensor, an inference
        tensor with no view metadata; of a view made in no_grad mode, by unbind or by a
        custom Function, a view marked as it is (PyTorch's creation meta)."""
        if self._inference:
            view._inference = True
            return view
        view_history.inherit_creation(view, self)
        view._base = self if self._base is None else self._base
        view._view_version = self._version_counter.value
        return view

    def _warn_create_graph(self):
        """PyTorch's warning, given once per process as PyTorch gives it (every time with
        torch.set_warn_always(True))."""
        if _warned["create_graph"] and not settings.warn_always:
            return
        _warned["create_graph"] = True
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between "
            "the parameter and its gradient which can cause a memory leak. We recommend "
            "using autograd.grad when creating the graph to avoid this. If you have to use "
            "this function, make sure to reset the .grad fields of your parameters to None "
            "after use to break the cycle and avoid the leak.", UserWarning, stacklevel=4)

    def _has_nan(self):
        return self.dtype.is_floating_point and bool(self._xp.isnan(self._data).any())

    def __repr__(self):
        return tensor_repr(self)


_warned = {"create_graph": False}
