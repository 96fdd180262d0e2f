"""torch.autograd.forward_ad: forward-mode AD with dual tensors.

Reverse mode (backward) computes a vector-Jacobian product uᵀJ after the forward
pass.  Forward mode computes a Jacobian-vector product J·t *during* it: every
tensor x carries a second tensor, its **tangent** ẋ (the direction we move x in),
and every op turns the tangents of its inputs into the tangent of its output.

Why "dual"?  A dual number is a + b·ε with ε² = 0.  Then
f(a + b·ε) = f(a) + f'(a)·b·ε: computing with the pair (value, tangent) gives the
value and the directional derivative at once.  A **dual tensor** is such a pair:
the primal (the ordinary value) and its tangent.

Example::

    >>> import minigrad as torch
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> x = torch.tensor([1.0, 2.0])
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, torch.tensor([1.0, 0.0])) ** 2
    ...     fwAD.unpack_dual(y).tangent        # d(x²) = 2x·ẋ
    tensor([2., 0.])

NOTE [the JVP of a built-in op, from its backward]: minigrad writes no JVP formulas.
Each op already has a backward, which computes v(u) = Jᵀu, and that backward is
written in differentiable tensor ops.  v(u) is linear in u, so

    ⟨Jᵀu, t⟩ = ⟨u, J·t⟩   and therefore   J·t = d/du ⟨Jᵀu, t⟩.

So: rerun the op on detached inputs (fresh leaves), call backward with
create_graph=True on a probe u (zeros that require grad), and differentiate
⟨result, tangent⟩ with respect to u: that gradient is the JVP (the "double-vjp
trick").  It costs two small backward passes per op: fine for a tutor, and only
ops with a dual input pay it.  A custom Function brings its own `jvp`.

NOTE [where a tangent lives]: not in a slot (every tensor would pay for it), but in
the tensor's `__dict__` (key `_fw_grad`), set only on dual tensors; a level keeps
weak references to the tensors it made dual, and leaving the level deletes their
tangents: afterwards `unpack_dual(t).tangent is None`.  With no dual level open the
core does not ask this module anything (seams.forward_ad is None).
"""
import sys
import weakref
from typing import NamedTuple

from ..backend import address
from ..core import seams
from ..core.grad_mode import enable_grad, state as _grad_mode
from ..core.tensor import TensorBase
from ..ops.builtin import BuiltinFunction
from .api import grad
from .custom_jvp import _base_of, custom_jvp
from .view_history import positions_in_base

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

_state = {"level": None}       # the open dual level (0), or None
TANGENT = "_fw_grad"          # the key of a dual tensor's tangent in its __dict__
_dual_tensors = []             # weak references to the tensors made dual at this level

# In-place ops (or their base classes) whose Jacobian does not depend on the value they
# overwrite: their JVP can be derived after the write (a comparison's Jacobian is zero).
# The others (mul_, div_, clamp_ ...) need the old value: Tensor's in-place methods keep
# it for them (keep_old_value).
_INPLACE_WITH_JVP = {"AddInplace", "SubInplace", "ZeroInplace", "FillInplace",
                     "CopyInplace", "MaskedFillInplace", "SetItem", "IndexPut", "CopySlices",
                     "CompareInplace"}


def _open_level():
    return -1 if _state["level"] is None else _state["level"]


def _set_level(level):
    """Open (0) or close (None) the dual level.  While one is open, this module is plugged
    into the core (seams.forward_ad), which asks it for the tangents of each op's outputs
    (`propagate`)."""
    _state["level"] = level
    seams.plug("forward_ad", None if level is None else sys.modules[__name__])


def __getattr__(name):
    """forward_ad._current_level, as PyTorch's: the open level, -1 when none is open."""
    if name == "_current_level":
        return _open_level()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def enter_dual_level():
    """Enter a new forward grad level (PyTorch supports one level: no nesting)."""
    if _state["level"] is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _set_level(0)
    return 0


def exit_dual_level(*, level=None):
    """Exit the forward grad level: every tangent made at this level is deleted."""
    if level is None:
        level = _open_level()
    if level != _open_level():
        raise RuntimeError("Trying to exit a forward AD level that was not the last one "
                           "that was created. This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    for ref in _dual_tensors:
        tensor = ref()
        if tensor is not None:
            tensor.__dict__.pop(TANGENT, None)
    _dual_tensors.clear()
    _set_level(None)


class dual_level:
    """Context manager (and decorator) for forward AD: tangents live only inside it.

    Example::

        >>> import minigrad as torch
        >>> import minigrad.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     out = fwAD.make_dual(torch.tensor([3.0]), torch.tensor([1.0])).exp()
        ...     fwAD.unpack_dual(out).tangent is None
        False
        >>> fwAD.unpack_dual(out).tangent is None      # deleted with the level
        True
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc_info):
        exit_dual_level()

    def __call__(self, func):
        def wrapper(*args, **kwargs):
            with dual_level():
                return func(*args, **kwargs)
        return wrapper


class UnpackedDualTensor(NamedTuple):
    """What `unpack_dual` returns: the primal and the tangent (None if not dual)."""

    primal: object
    tangent: object


def _tangent_of(tensor):
    state = getattr(tensor, "__dict__", None)
    return None if state is None else state.get(TANGENT)


def make_dual(tensor, tangent, *, level=None):
    """A dual tensor: a view of `tensor` that carries `tangent` (the direction ẋ).

    The tangent is kept as-is when it has the primal's layout (strides, offset and
    storage size), else copied into a new tensor laid out like the primal.

    Example::

        >>> import minigrad as torch
        >>> import minigrad.autograd.forward_ad as fwAD
        >>> x, v = torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0])
        >>> with fwAD.dual_level():
        ...     dual = fwAD.make_dual(x, v)
        ...     fwAD.unpack_dual(dual).tangent is v
        ...     fwAD.unpack_dual(dual.sin()).tangent          # cos(x)·v
        True
        tensor([1.0000, 0.5403])
    """
    if level is None:
        level = _open_level()
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level "
                           "exists, make sure to enter_dual_level() first.")
    for role, value in (("primal", tensor), ("tangent", tangent)):
        if not value.is_floating_point():
            raise ValueError(f"Expected {role} to be floating point or complex, but got: "
                             f"{value.dtype}")
    if level != _open_level():
        raise RuntimeError("Invalid level given to _make_dual")
    if _tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a "
                           f"forward gradient at the same level {level} is not supported.")
    if _tangent_of(tangent) is not None:
        raise RuntimeError("Setting a forward grad that itself has a forward gradient at the "
                           f"same level{level} is not supported.")
    dual = tensor.view(tensor.shape)
    if not _grad_mode.inference:          # (inference_mode tracks no tangents)
        _set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """(primal, tangent): a view of the primal without tangent, and the tangent as-is.

    Example::

        >>> import minigrad as torch
        >>> import minigrad.autograd.forward_ad as fwAD
        >>> with fwAD.dual_level():
        ...     y = fwAD.make_dual(torch.tensor([2.0]), torch.tensor([1.0])) * 3
        ...     fwAD.unpack_dual(y)
        UnpackedDualTensor(primal=tensor([6.]), tangent=tensor([3.]))
    """
    if level is None:
        level = _open_level()
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if level != _open_level():
        raise RuntimeError("Invalid level given to _fw_primal")
    # Inside a Function's forward (quiet), PyTorch shows forward its inputs without tangents.
    tangent = None if _grad_mode.in_forward else _tangent_of(tensor)
    with _paused():                     # the primal is a view that carries no tangent
        primal = tensor.view(tensor.shape)
    return UnpackedDualTensor(primal, tangent)


def _set_tangent(primal, tangent):
    """Give `primal` its tangent: as-is if laid out alike, else a copy like the primal."""
    if tangent.shape != primal.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(primal.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}.")
    if _layout(tangent._data) != _layout(primal._data):
        copy = primal._xp.empty_like(primal._data)       # same strides as the primal
        copy[...] = tangent._data
        tangent = primal._new(copy)
    if TANGENT not in primal.__dict__:
        _dual_tensors.append(weakref.ref(primal))
    primal.__dict__[TANGENT] = tangent


def _layout(array):
    """PyTorch's "same metadata" test, on arrays: element strides, offset into the
    storage (the array that owns the memory) and the storage's size."""
    storage = array
    while getattr(storage, "base", None) is not None and hasattr(storage.base, "strides"):
        storage = storage.base
    offset = (address(array) - address(storage)) // array.itemsize
    strides = tuple(s // array.itemsize for s in array.strides)
    return strides, offset, storage.nbytes // array.itemsize


class _paused:
    """Close the level for a while (nothing propagates), keeping its tangents."""

    def __enter__(self):
        self.level = _state["level"]
        _set_level(None)

    def __exit__(self, *exc_info):
        _set_level(self.level)


def propagate(function_cls, ctx, args, outputs):
    """Called by `Function.apply` while a dual level is open: give the outputs of an op
    with a dual input their tangents.  Returns the outputs."""
    if _grad_mode.in_forward or _grad_mode.inference:   # inside another op's forward
        return outputs               # (its JVP covers this), or in inference_mode (none)
    tangents = [_tangent_of(arg) if isinstance(arg, TensorBase) else None for arg in args]
    if all(t is None for t in tangents):       # nothing dual: no extra work
        return outputs
    results = outputs if isinstance(outputs, tuple) else (outputs,)
    with _paused():
        if issubclass(function_cls, BuiltinFunction):
            output_tangents = _builtin_jvp(function_cls, ctx, args, tangents, results)
        else:
            output_tangents = custom_jvp(function_cls, ctx, args, tangents, outputs)
    dirty = getattr(ctx, "_dirty", ())
    for output, tangent in zip(results, output_tangents):
        if tangent is not None and isinstance(output, TensorBase) and (
                output.dtype.is_floating_point):
            if any(output is d for d in dirty):
                _change_tangent_in_place(output, tangent)
            else:
                _set_tangent(output, tangent)
    return outputs


def _change_tangent_in_place(tensor, tangent):
    """An in-place op changed `tensor`: its tangent changes in place too, as in PyTorch (so
    a view's tangent, a view of its base's, changes its base's); a view that had no
    tangent writes its new one into its base's."""
    old = _tangent_of(tensor)
    if old is tangent:                   # (a custom jvp changed it in place itself)
        return
    if old is not None:
        old._data[...] = tangent._data
        old._version_counter.value += 1
        base_tangent = None if tensor._base is None else _tangent_of(tensor._base)
        if base_tangent is None or _base_of(base_tangent) is _base_of(old):
            return                       # (no base to follow, or it follows already)
    else:
        _set_tangent(tensor, tangent)
    if tensor._base is not None:
        _write_into_base(tensor, tangent)


def _write_into_base(view, tangent):
    """`v = y[0]; v.add_(dual)` changed y too: y's tangent changes in the same places, and
    v's tangent becomes a view of y's (where their arrays allow it)."""
    base = view._base
    old = _tangent_of(base)
    xp = base._xp
    data = (xp.zeros(base._data.shape, dtype=base._data.dtype) if old is None
            else xp.array(old._data, dtype=base._data.dtype, order="C"))
    data.reshape(-1)[positions_in_base(view, base)] = tangent._data
    base_tangent = base._new(data)
    _set_tangent(base, base_tangent)
    if _tangent_of(base) is base_tangent:    # (kept as is: the base owns C-ordered memory)
        strides, offset, _ = _layout(view._data)
        itemsize = data.itemsize
        array = xp.lib.stride_tricks.as_strided(
            data.reshape(-1)[offset:], view._data.shape, tuple(s * itemsize for s in strides))
        view.__dict__[TANGENT] = base_tangent._view(array)


def _view_of_first_input(args, tangents, outputs):
    """True for a view op (narrow, transpose, x[0] ...) of a dual tensor: its outputs are
    views of its first argument, the only dual one."""
    if tangents[0] is None or any(t is not None for t in tangents[1:]):
        return False
    base = _base_of(args[0])
    return all(isinstance(o, TensorBase) and o._base is base for o in outputs)


_old_value = []       # the value an in-place op with a dual operand is about to overwrite


def keep_old_value(target, args):
    """An in-place op is about to write into `target` while a dual level is open: keep its
    value, for the op's JVP (mul_: d(x·y) = ẋ·y + x·ẏ, with x before the write)."""
    if any(_tangent_of(t) is not None for t in (target, *args)):
        with _paused():
            _old_value[:] = [target.detach().clone()]


def _builtin_jvp(function_cls, ctx, args, tangents, outputs):
    """The tangents of a built-in op's outputs: J·t = d/du ⟨Jᵀu, t⟩ (NOTE above)."""
    inplace = bool(getattr(ctx, "_dirty", ()))   # forward called ctx.mark_dirty
    if not inplace and _view_of_first_input(args, tangents, outputs):
        # A view's tangent is the same view of its input's tangent, as in PyTorch.
        views = function_cls.apply(tangents[0], *args[1:])
        return list(views) if isinstance(views, tuple) else [views]
    old = _old_value.pop() if inplace and _old_value else None    # (keep_old_value)
    if old is not None and old.shape != args[0].shape:
        old = None
    if inplace and old is None and not _INPLACE_WITH_JVP.intersection(
            c.__name__ for c in function_cls.__mro__):
        raise NotImplementedError(
            f"minigrad: forward AD through the in-place {function_cls.__name__} is not "
            "supported (its derivative needs the value it overwrote). Use the out-of-place "
            "op instead, e.g. x = x * y rather than x.mul_(y).")
    with enable_grad():
        inputs, leaves = [], []
        for position, (arg, tangent) in enumerate(zip(args, tangents)):
            if not isinstance(arg, TensorBase):
                inputs.append(arg)
                continue
            leaf = old if position == 0 and old is not None else arg.detach()
            if tangent is not None:
                leaves.append((leaf.requires_grad_(), tangent))
            inputs.append(leaf.clone() if inplace else leaf)   # in place: not on x again
        rerun = function_cls.apply(*inputs)
        rerun = rerun if isinstance(rerun, tuple) else (rerun,)
        differentiable = [r for r in rerun if isinstance(r, TensorBase) and r.requires_grad]
        probes = [_zeros_like(r).requires_grad_() for r in differentiable]
        total = None                                          # ⟨Jᵀu, t⟩
        if differentiable:
            vjps = grad(differentiable, [leaf for leaf, _ in leaves], probes,
                        create_graph=True, allow_unused=True)
            for vjp, (_, tangent) in zip(vjps, leaves):
                if vjp is not None and vjp.requires_grad:
                    term = (vjp * tangent).sum()
                    total = term if total is None else total + term
        jvps = iter(grad(total, probes, allow_unused=True) if total is not None
                    else [None] * len(probes))
    result = []
    for r, output in zip(rerun, outputs):
        if isinstance(r, TensorBase) and r.requires_grad:
            jvp = next(jvps)
            result.append(jvp if jvp is not None else _zeros_like(output))
        else:
            result.append(None)
    return result


def _zeros_like(tensor):
    return tensor._new(tensor._xp.zeros_like(tensor._data))
