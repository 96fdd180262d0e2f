"""The in-place methods of Tensor: add_, mul_, zero_, copy_, masked_fill_, exp_ ...,
x[key] = value, the in-place views (t_, transpose_, squeeze_, unsqueeze_), resize_, and
PyTorch's rules for what may be changed in place.

Each in-place op is a Function whose forward writes into its input through
`Tensor._write` (which bumps the version counter), calls `ctx.mark_dirty(x)` and
returns x: exactly what the mark_dirty lesson teaches.  A mixin of Tensor."""
import numpy as np

from .. import backend
from ..core import seams
from ..core.grad_mode import is_grad_enabled, state as _grad_mode
from ..ops import index, inplace, inplace_unary, inplace_views
from ..ops import inplace_compare as compare
from ..ops.arithmetic import is_tensor, wrap_number
from ..ops.division import check_rounding_mode
from . import allow_mutation, arguments, dtypes, view_history
from .view_history import no_grad_view_error, view_made_by_error


def setitem_value(x, value):
    """The value of x[key] = value as PyTorch takes it: a tensor, or a Python number made a
    0-dim tensor of x's dtype (it shows in the node's next_functions as (None, 0))."""
    if is_tensor(value):
        return value
    if isinstance(value, (bool, int, float, np.integer, np.float64)):
        return x._new(x._xp.asarray(value, dtype=x._data.dtype))
    kind = type(value)
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    raise TypeError(f"can't assign a {name} to a torch.{dtypes.legacy_name(x.dtype)}Tensor")


class TensorInPlace:
    __slots__ = ()

    # --- in-place ops: each writes through its op, which bumps the version ------
    def _inplace(self, op, *args, through_view=False):
        """Run an in-place op; through a view, the base's history is updated too.
        `through_view`: it writes through a view of self (`x[0] = 1`)."""
        self._check_inplace_allowed(through_view)
        if seams.forward_ad is not None:     # forward AD: the JVP may need the old value
            seams.forward_ad.keep_old_value(self, args)
        if allow_mutation.active is not None:       # allow_mutation_on_saved_tensors()
            allow_mutation.active.before_write(self)
        base = self._base
        if base is not None and is_grad_enabled() and (
                base.requires_grad or any(is_tensor(a) and a.requires_grad for a in args)):
            return view_history.inplace_on_view(self, op, *args)
        return op.apply(self, *args)

    @arguments.method
    def add_(self, other, alpha=1):
        return self._inplace(inplace.AddInplace, wrap_number(other, self), alpha)

    @arguments.method
    def sub_(self, other, alpha=1):
        return self._inplace(inplace.SubInplace, wrap_number(other, self), alpha)

    @arguments.method
    def mul_(self, other):
        return self._inplace(inplace.MulInplace, wrap_number(other, self))

    @arguments.method
    def div_(self, other, *, rounding_mode=None):
        if rounding_mode is not None:
            check_rounding_mode(rounding_mode)
            return self._inplace(inplace_unary.DivRoundingInplace, wrap_number(other, self),
                                 rounding_mode)
        return self._inplace(inplace.DivInplace, wrap_number(other, self))

    @arguments.method
    def pow_(self, exponent):
        op = inplace.PowTensorInplace if is_tensor(exponent) else inplace.PowInplace
        return self._inplace(op, exponent)

    def zero_(self):
        return self._inplace(inplace.ZeroInplace)

    @arguments.method
    def fill_(self, value):
        if is_tensor(value):                     # fill_.Tensor: the value gets a gradient
            return self._inplace(inplace.FillTensorInplace, value)
        return self._inplace(inplace.FillInplace, value)

    @arguments.method
    def copy_(self, src):
        return self._inplace(inplace.CopyInplace, src)

    @arguments.method
    def clamp_(self, min=None, max=None):
        if is_tensor(min) or is_tensor(max):       # (the argument check refuses a mix)
            return self._inplace(inplace_unary.ClampTensorInplace, min, max)
        return self._inplace(inplace.ClampInplace, min, max)

    @arguments.method
    def clamp_min_(self, min):
        return self._inplace(inplace_unary.ClampMinInplace, min)

    @arguments.method
    def clamp_max_(self, max):
        return self._inplace(inplace_unary.ClampMaxInplace, max)

    def index_fill_(self, dim, index, value):
        return self._inplace(inplace_unary.IndexFillInplace, dim, index, value)

    @arguments.method
    def index_add_(self, dim, index, source, *, alpha=1):
        return self._inplace(inplace_unary.IndexAddInplace, dim, index, source, alpha)

    # in-place comparisons: 1 where true, 0 where not, in self's dtype (no gradient)
    @arguments.method
    def eq_(self, other):
        return self._compare_(other, compare.EqInplace, compare.EqScalarInplace)

    @arguments.method
    def ne_(self, other):
        return self._compare_(other, compare.NeInplace, compare.NeScalarInplace)

    @arguments.method
    def lt_(self, other):
        return self._compare_(other, compare.LtInplace, compare.LtScalarInplace)

    @arguments.method
    def le_(self, other):
        return self._compare_(other, compare.LeInplace, compare.LeScalarInplace)

    @arguments.method
    def gt_(self, other):
        return self._compare_(other, compare.GtInplace, compare.GtScalarInplace)

    @arguments.method
    def ge_(self, other):
        return self._compare_(other, compare.GeInplace, compare.GeScalarInplace)

    def _compare_(self, other, with_tensor, with_number):
        return self._inplace(with_tensor if is_tensor(other) else with_number, other)

    __iadd__ = add_

    __isub__ = sub_

    __imul__ = mul_

    __itruediv__ = div_

    __ipow__ = pow_

    def __setitem__(self, key, value):
        key = index.as_tuple_if_sequence_inside(key)
        value = setitem_value(self, value)
        if inplace.is_advanced_key(key):        # (a key in a tuple: indices get no edge)
            self._inplace(inplace.IndexPut, key if isinstance(key, tuple) else (key,), value)
        elif index.makes_view(self, key):
            self._inplace(inplace.SetItem, key, value, through_view=True)
        else:
            self._copy_to(value)

    def _copy_to(self, value):
        """x[...] = value, x[:] = value: no view is made, x itself is written, as PyTorch's
        copy_to writes it: copy_ from a value of x's shape (CopyBackwards), fill_ with a
        0-dim one (FillBackward3), else copy_ from the value expanded to x's shape."""
        if value.shape == self.shape:
            return self.copy_(value)
        if value.ndim == 0:
            return self.fill_(value)
        ones = next((i for i, size in enumerate(value.shape) if size != 1), value.ndim)
        value = value.view(value.shape[ones:]) if ones else value   # leading 1s dropped
        return self.copy_(value.expand(self.shape))

    @arguments.method
    def masked_fill_(self, mask, value):
        """Write `value` where `mask` (a bool tensor broadcastable to self) is True.

        Example::

            >>> import minigrad as torch
            >>> x = torch.tensor([1.0, -2.0, 3.0])
            >>> x.masked_fill_(x < 0, 0.0)
            tensor([1., 0., 3.])
        """
        if getattr(value, "_is_minigrad_tensor", False):
            value = value.item()            # (a tensor value gets no gradient here)
        return self._inplace(inplace.MaskedFillInplace, mask, value)

    @arguments.method
    def normal_(self, mean=0.0, std=1.0):
        """Fill with normal random numbers (initialising weights: inside no_grad)."""
        return self._inplace(inplace_unary.RandomFill, "normal", mean, std)

    @arguments.method
    def uniform_(self, a=0.0, b=1.0):
        """Fill with random numbers uniform in [a, b)."""
        if a > b:
            raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                               f"from={a} > to={b}")
        return self._inplace(inplace_unary.UniformFill, "uniform", a, b)


    # --- in-place views: self itself takes the new layout -------------------------
    def t_(self):
        return self._take_view(inplace_views.TInplace.apply(self))

    def transpose_(self, dim0, dim1):
        return self._take_view(inplace_views.TransposeInplace.apply(self, dim0, dim1))

    def swapaxes_(self, axis0, axis1):
        return self.transpose_(axis0, axis1)

    swapdims_ = swapaxes_

    @arguments.method
    def squeeze_(self, dim=None):
        if dim is None:
            return self._take_view(inplace_views.SqueezeInplace.apply(self, None))
        return self._take_view(inplace_views.SqueezeDimInplace.apply(self, dim))

    @arguments.method
    def unsqueeze_(self, dim):
        return self._take_view(inplace_views.UnsqueezeInplace.apply(self, dim))

    def _take_view(self, view):
        """An in-place view op: self takes the layout and the history of `view`, a view of
        self just made (PyTorch changes a tensor's sizes and strides in place)."""
        self._check_inplace_allowed()
        self._data = view._data
        self._version_counter.value += 1
        if view._grad_fn is not None:
            self._rebase_history(view._grad_fn, view._output_nr)
        return self

    # --- a new size in place (no gradient) ------------------------------------------
    @arguments.method
    def resize_(self, *sizes):
        """Give self the shape `sizes`, in place: the first elements, in order, of what it
        held (a view of them when there are enough; else new memory, the rest zeros, where
        PyTorch leaves it uninitialised).  Its version goes up if the shape changed.
        PyTorch reads its storage in memory order; minigrad reads the elements in order,
        which is the same for a contiguous tensor."""
        shape = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) \
            else tuple(sizes)
        if self.requires_grad and not _grad_mode.inference:   # (inference_mode: no
            raise RuntimeError("cannot resize variables that require grad")   # autograd)
        if any(size < 0 for size in shape):
            raise RuntimeError("numel: integer multiplication overflow. minigrad hint: a size "
                               f"is negative: {list(shape)}")
        if shape != self.shape:
            self._reshape_storage(shape)
            self._version_counter.value += 1
        return self

    def _reshape_storage(self, shape):
        """resize_'s work, without counting a version (an out= argument's resize does not)."""
        count = int(np.prod(shape))
        flat = self._data.reshape(-1)
        if count <= flat.size and self._data.flags.c_contiguous:
            self._data = flat[:count].reshape(shape)
        else:
            grown = self._xp.zeros(count, self._data.dtype)
            grown[:min(count, flat.size)] = flat[:count]
            self._data = grown.reshape(shape)

    @arguments.method
    def resize_as_(self, other):
        """resize_ to the shape of `other`."""
        return self.resize_(other.shape)

    # --- what may be changed in place (PyTorch's rules) -------------------------
    def _check_inplace_allowed(self, through_view=False):
        """PyTorch's refusals: an in-place change to a leaf that requires grad loses history.
        `through_view`: the write goes through a view of self (`x[0] = 1`), whose own
        overlap the write checks (one element of an expanded tensor may be written)."""
        if self._inference:
            self._check_not_inference()
        if not is_grad_enabled():
            return
        if self._view_made_by is not None:      # by split, unbind or a custom Function
            raise view_made_by_error(self)
        if self._view_made_in is not None and self.requires_grad:   # made in no_grad ...
            raise no_grad_view_error(self)
        if self.is_leaf and self._requires_grad and not through_view:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation. "
                "minigrad hint: update parameters inside `with torch.no_grad():`.")
        for base in (self, self._base) if through_view else (self._base,):
            if base is not None and base.is_leaf and base._requires_grad:
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an "
                    "in-place operation.")
        if self._base is not None and not through_view and backend.has_internal_overlap(
                self._data):
            self._check_write(self.shape, self.dtype)      # PyTorch's error for x.expand()

    def _check_not_inference(self):
        """PyTorch's rule: an inference tensor changes in place only in inference mode."""
        if self._inference and not _grad_mode.inference:
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed."
                "You can make a clone to get a normal tensor before doing inplace update."
                "See https://github.com/pytorch/rfcs/pull/17 for more details.")


    # --- the write itself -------------------------------------------------------
    def _write(self, array, result_dtype, key=Ellipsis, bump=True):
        """Write into this tensor's storage and bump its version (every in-place op ends here;
        a built-in op passes bump=False: its ctx.mark_dirty bumps, as PyTorch's does)."""
        self._check_write(array.shape, result_dtype, key)
        self._data[key] = array
        if bump:
            self._version_counter.value += 1

    def _check_write(self, shape, result_dtype, key=Ellipsis):
        """May a result of this shape and dtype be written into this tensor (at key)?"""
        # PyTorch's checks, in its order: overlapping memory (of the part written: one
        # element of an expanded tensor may be written), then shape, then dtype.
        if backend.has_internal_overlap(self._data) and (key is Ellipsis or (
                backend.is_array(self._data[key])                 # (one element: a number)
                and backend.has_internal_overlap(self._data[key]))):
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation.")
        if key is Ellipsis and tuple(shape) != self._data.shape:
            broadcast = np.broadcast_shapes(tuple(shape), self.shape)
            if broadcast != self.shape:
                raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the "
                                   f"broadcast shape {list(broadcast)}")
        if not dtypes.can_cast(result_dtype, self.dtype):
            raise RuntimeError(f"result type {dtypes.legacy_name(result_dtype)} can't be cast to the "
                               f"desired output type {dtypes.legacy_name(self.dtype)}")
        if self._base is not None and not getattr(self._data.flags, "writeable", True):
            self._data = backend.writable(self._data)   # (a part of an expanded tensor: numpy
                                                        # made it read-only)

    def _accumulate_in_place(self, grad):
        self._check_write(grad._data.shape, self.dtype)
        self._data += grad._data.astype(self._data.dtype, copy=False)     # no temporary
        self._version_counter.value += 1


def _in_place_method(name, op):
    def method(self):
        return self._inplace(op)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"{name[:-1]}, written into this tensor (its version goes up by one)."
    return method


for _name, _op in inplace_unary.IN_PLACE.items():      # exp_, sin_, relu_ ...
    setattr(TensorInPlace, _name, _in_place_method(_name, _op))
